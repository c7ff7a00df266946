"""The domain header `p.h`: enums and flags, structs with their defaults, constructors,
comparisons, printing, std::hash of key structs, and each struct's fastwire::struct_schema,
from which the runtime derives serialize, deserialize and verify at compile time
(docs/cpp/generated-code.md). The models header `p_models.h`: the views over versioned
bytes and the compile-time checks that the runtime's layout of each struct is the model's.
With --json `p_json.h`: the runtime's generic JSON over the struct_schemas."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Union

from ... import ir, lower
from ..common import docs
from ..printer import Printer
from .names import CHARS, CONTAINERS, PRIMITIVES, Types, header, ident, int_literal, join, namespace

_ORDER = """
friend bool operator>(const $n$& a, const $n$& b) { return b < a; }
friend bool operator<=(const $n$& a, const $n$& b) { return !(b < a); }
friend bool operator>=(const $n$& a, const $n$& b) { return !(a < b); }
"""
_HASH = """
template <>
struct hash<$t$> {
    size_t operator()(const $t$& v) const noexcept;
};
"""
_ALLOCATOR = """
// Allocator-aware (--pmr, fastwire/pmr.h): its strings and collections take their
// memory from the allocator's resource, and so do those of the structs it holds.
using allocator_type = fastwire::pmr::allocator;
"""
_VIEWS = """

// Zero-copy views (fastwire/view.h): SView checks every offset it follows (any
// bytes); STrustedView checks none (bytes that passed verify()).
"""
_DECLARATIONS = """
template <class P>
struct Basic$n$View;
using $n$View = Basic$n$View<fastwire::versioned::checked>;
using $n$TrustedView = Basic$n$View<fastwire::versioned::trusted>;
struct $n$MutableView;
"""
_VIEW_TYPE = """
template <>
struct view_type<$t$> {
    template <class P>
    using basic = ::$ns$::Basic$n$View<P>;
    using type = $t$View;
    using trusted_type = $t$TrustedView;
    using mutable_type = $t$MutableView;
};
"""
_CHECKS = """

// The wire layout the schema compiler worked out (fastwire.lower), checked against
// the runtime's: where they disagree, the build fails here, naming the struct.
"""
_CHECK = """
static_assert($check$,
              "$where$: $what$ from the schema compiler's");
"""

_JSON_ABOUT = """\
// JSON for the {name} package's types:
//
//   std::string text = fastwire::json::to_json(value);        // compact; (value, true): pretty
//   fastwire::json::reader reader;                            // reuse it
//   fastwire::json::result r = reader.read(text, value);      // r.message() on error
//
// The mapping is generic (cpp/include/fastwire/json.h): it follows each struct's
// fastwire::struct_schema, so nothing per type is needed here."""


def deprecated(item: Union[ir.EnumType, ir.StructType, ir.Field]) -> str:
    return "[[deprecated]] " if item.deprecated else ""


def returns(p: Printer, head: str, body: str, one_line: bool) -> None:
    """A function `head` that returns `body`: on one line, or a block."""
    if one_line:
        p.value(f"{head} {{ return {body}; }}")
        return
    with p.block("$head$ {", "}", head=head):
        p.print("return $body$;", body=body)


class Structs(Types):
    """The domain and models headers."""

    def domain_header(self, package: ir.Package) -> str:
        ns = ident(package.name)
        p = header(self.options, package, "domain", f"// The {package.name} package's types.",
                   ["<fastwire/types.h>", *(["<fastwire/pmr.h>"] if self.pmr else []),
                    *(f'"{imp}.h"' for imp in package.imports)])
        p.blank()
        # [[deprecated]] is for users: the generated code names those members unwarned.
        p.print('#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored "-Wdeprecated-declarations"')
        enums = [t for t in package.types if isinstance(t, ir.EnumType)]
        structs = self.model.structs_named(self.model.package(package.name).emission_order)
        keyed = [s for s in structs if s.key_fields]

        def section(name: str, items: List[Any], part: Callable[[Any], None], spaced: bool = True) -> None:
            if items:
                p.blank()
                with namespace(p, name):
                    for item in items:
                        if spaced:
                            p.blank()
                        part(item)

        section(ns, enums, lambda e: self.enum_definition(p, e))
        section("fastwire", enums, lambda e: self.enum_traits(p, e, ns))
        # std::hash of a key struct: declared before any struct can use it, defined last.
        section(ns, keyed, lambda s: p.print("struct $n$;", n=ident(s.name)), False)
        section("std", keyed, lambda s: p.print(_HASH, t=f"::{ns}::{ident(s.name)}"), False)
        p.blank()
        with namespace(p, ns):
            for e in enums:
                p.print("inline std::ostream& operator<<(std::ostream& os, $t$ v) { return "
                        "fastwire::$fn$(os, v); }", t=ident(e.name),
                        fn="print_" + ("flags" if e.kind == "flags" else "enum"))
            for s in structs:
                p.blank()
                self.struct_definition(p, s, package)
        section("fastwire", structs, lambda s: self.struct_schema(p, s, package))
        section("std", keyed, lambda s: self.struct_hash(p, s, ns))
        p.blank()
        p.print("#pragma GCC diagnostic pop")
        return p.text()

    def enum_definition(self, p: Printer, e: ir.EnumType) -> None:
        self.doc(p, e.doc)
        with p.block("enum class $dep$$name$ : $base$ {", "};", dep=deprecated(e),
                     name=ident(e.name), base=PRIMITIVES[e.base]):
            for v in e.values:
                self.doc(p, v.doc)
                dep = " [[deprecated]]" if v.deprecated else ""
                p.value(f"{ident(v.name)}{dep} = {self.enum_constant(v.value, e)},")
        if e.kind == "flags":
            p.print("FASTWIRE_FLAGS($name$)", name=ident(e.name))

    @staticmethod
    def enum_constant(value: int, e: ir.EnumType) -> str:
        if e.kind == "flags" and value >= 0 and e.base not in CHARS:
            big = e.base in ("uint64", "int64") and value >= 2 ** 31
            return f"0x{value:0{2 * lower.scalar_size(e.base)}X}" + ("ull" if big else "")
        return int_literal(value, e.base)

    def enum_traits(self, p: Printer, e: ir.EnumType, ns: str) -> None:
        full = f"::{ns}::{ident(e.name)}"
        p.print("template <>")
        with p.block("struct enum_traits<$t$> {", "};", t=full):
            p.print("static constexpr bool is_flags = $f$;", f="true" if e.kind == "flags" else "false")
            if not e.values:
                p.print("static constexpr std::array<enum_entry<$t$>, 0> entries{};", t=full)
                return
            with p.block("static constexpr std::array<enum_entry<$t$>, $n$> entries{{", "}};",
                         t=full, n=len(e.values)):
                for v in e.values:
                    p.value(f'{{{full}::{ident(v.name)}, "{v.name}"}},')

    def doc(self, p: Printer, doc: Optional[str]) -> None:
        for line in docs.line_comments(doc, "//", "*/", "cpp"):
            p.value(line)

    def struct_definition(self, p: Printer, s: ir.StructType, package: ir.Package) -> None:
        ns = package.name
        name = ident(s.name)
        self.doc(p, s.doc)
        base = f" : public {self.qualified(s.base, ns)}" if s.base else ""
        # Another package's base is not the local name.
        self.injected = {b.name for b in self.base_refs(s) if b.package != ns}
        p.print("// $kind$ $name$, type $n$", kind=s.kind, name=s.name, n=s.type_number)
        with p.block("struct $dep$$name$$base$ {", "};", dep=deprecated(s),
                     name=name, base=base):
            for f in s.fields:
                self.doc(p, f.doc)
                init = self.default_expr(s, f, ns)
                p.value(f"{deprecated(f)}{self.field_type(f.type, ns)} {ident(f.name)}"
                        f"{f' = {init}' if init else '{}'};")
            p.blank()
            p.print("$name$() = default;", name=name)
            self.constructors(p, s, ns)
            p.blank()
            self.comparisons(p, s)
            p.blank()
            self.printer(p, s, ns)
        self.injected = set()

    def constructors(self, p: Printer, s: ir.StructType, ns: str) -> None:
        """--pmr: allocator_type and the constructors that take one (uses-allocator
        construction, fastwire/pmr.h: a container passes its allocator to its elements, a
        struct to its members); then the one from every field's value (--pmr: and alloc)."""
        name = ident(s.name)
        aware = self.pmr and self.struct_allocates(s)
        base = self.schema.lookup(s.base) if s.base is not None else None
        b = self.qualified(s.base, ns) if s.base is not None else ""
        base_alloc = ", alloc" if aware and self.struct_allocates(base) else ""
        layout = self.model.struct(s.qualified_name)

        def moved(expr: str, f: ir.Field) -> str:
            """`expr`, the value for field `f`, moved unless it is a value (copied as cheaply)."""
            return expr if layout.field(f.name).wire.is_value else f"std::move({expr})"

        def constructor(head: str, base_init: Optional[str], source: Callable[[ir.Field, str], Optional[str]]) -> None:
            """`head`, then the base's initializer and each field's from `source` (None: none),
            with the allocator for a member that takes one."""
            inits = [base_init] if base_init else []
            for f in s.fields:
                m = ident(f.name)
                src = source(f, m)
                if aware and self.allocates(f.type):
                    src = f"fastwire::pmr::make<{self.field_type(f.type, ns)}>(alloc{', ' + src if src else ''})"
                if src is not None:
                    inits.append(f"{m}({src})")
            p.value(head)
            p.indent()
            p.print(": $inits$ {}", inits=join(inits, ", ", 106))
            p.outdent()

        if aware:
            p.print(_ALLOCATOR)
            constructor(f"explicit {name}(const allocator_type& alloc)", f"{b}(alloc)" if base_alloc else None,
                        lambda f, m: self.default_expr(s, f, ns) if self.allocates(f.type) else None)
            # The allocator-extended copy and move (of an element into a container's memory).
            for const, ref, source in (("const ", "&", lambda f, m: f"other.{m}"),
                                       ("", "&&", lambda f, m: moved(f"other.{m}", f))):
                constructor(f"{name}({const}{name}{ref} other, const allocator_type& alloc)",
                            f"{b}(static_cast<{const}{b}{ref}>(other){base_alloc})" if base else None, source)
        if not s.all_fields:
            return
        params = [f"{self.field_type(f.type, ns)} {ident(f.name)}_" for f in s.all_fields]
        if aware:
            params.append("const allocator_type& alloc = {}")
        head = f"{'explicit ' if len(s.all_fields) == 1 else ''}{name}("
        params_text = join(params, ", ", 108 - 2 * len(s.name)).replace("\n", "\n" + " " * len(head))
        base_init = None
        if isinstance(base, ir.StructType):
            base_init = f"{b}({', '.join(moved(f'{ident(f.name)}_', f) for f in base.all_fields)}{base_alloc})"
        constructor(f"{head}{params_text})", base_init, lambda f, m: moved(f"{m}_", f))

    def comparisons(self, p: Printer, s: ir.StructType) -> None:
        name = ident(s.name)
        keys = s.key_fields
        if keys:
            p.print("// Compared, ordered and hashed by the [key] fields: $keys$.",
                    keys=", ".join(f.name for f in keys))
            eq = " && ".join(f"a.{ident(f.name)} == b.{ident(f.name)}" for f in keys)
        else:
            # (The reference: always equal; readers of `a == b` expect equal values.)
            p.print("// No [key] fields: equal when every field is equal.")
            eq = join([f"a.{ident(f.name)} == b.{ident(f.name)}" for f in s.all_fields], " && ", 100) or "true"
        self.operator(p, "==", name, eq, "" if keys or s.all_fields else "[[maybe_unused]] ")
        p.print("friend bool operator!=(const $n$& a, const $n$& b) { return !(a == b); }", n=name)
        if keys:
            tie = [", ".join(f"{x}.{ident(f.name)}" for f in keys) for x in "ab"]
            self.operator(p, "<", name, f"std::tie({tie[0]}) < std::tie({tie[1]})")
            p.print(_ORDER, n=name)

    @staticmethod
    def operator(p: Printer, op: str, name: str, body: str, unused: str = "") -> None:
        """`friend bool operator<op>(a, b)`, on one line when it fits in 112 characters."""
        head = f"friend bool operator{op}({unused}const {name}& a, {unused}const {name}& b)"
        returns(p, head, body, "\n" not in body and len(head) + len(body) + 16 <= 112)

    def printer(self, p: Printer, s: ir.StructType, ns: str) -> None:
        unused = "" if s.fields or s.base else "[[maybe_unused]] "
        parts = [f'fastwire::struct_printer(os, "{s.name}")']
        if s.base is not None:
            parts[0] += f".base(static_cast<const {self.qualified(s.base, ns)}&>(v))"
        parts += [f'.hidden("{f.name}")' if f.hidden else f'.field("{f.name}", v.{ident(f.name)})' for f in s.fields]
        returns(p, f"friend std::ostream& operator<<(std::ostream& os, {unused}const {ident(s.name)}& v)",
                "\n    ".join(parts + [".end()"]), False)

    def struct_schema(self, p: Printer, s: ir.StructType, package: ir.Package) -> None:
        full = f"::{ident(package.name)}::{ident(s.name)}"
        depth = self.model.struct(s.qualified_name).depth
        p.print("template <>")
        with p.block("struct struct_schema<$t$> {", "};", t=full):
            p.print("static constexpr std::uint32_t type = $n$;", n=s.type_number)
            p.print("static constexpr std::uint32_t depth = $d$;$note$", d=depth,
                    note="  // recursive: no bound" if depth == 0 else "")
            if s.base is not None:
                p.print("using base = $b$;", b=self.qualified(s.base, ""))
            p.print("using fields = fastwire::fields<$m$>;",
                    m=join([f"&{full}::{ident(f.name)}" for f in s.fields], ", ", 82))
            p.print("static constexpr std::array<const char*, $n$> names{{$names$}};",
                    n=len(s.fields), names=join([f'"{f.name}"' for f in s.fields], ", ", 60))

    def struct_hash(self, p: Printer, s: ir.StructType, ns: str) -> None:
        with p.block("inline size_t hash<$t$>::operator()(const $t$& v) const noexcept {", "}",
                     t=f"::{ns}::{ident(s.name)}"):
            p.print("size_t h = 0;")
            for f in s.key_fields:
                p.value(f"fastwire::hash_combine(h, v.{ident(f.name)});")
            p.print("return h;")

    def json_header(self, package: ir.Package) -> str:
        """Only the runtime's generic JSON: it follows each struct's struct_schema."""
        return header(self.options, package, "json", _JSON_ABOUT.format(name=package.name),
                      ["<fastwire/json.h>", "<fastwire/json_reader.h>"],
                      [f'"{package.name}.h"', *(f'"{imp}_json.h"' for imp in package.imports)]).text()

    def models_header(self, package: ir.Package) -> str:
        final = self.options.final
        p = header(self.options, package, "models",
                   f"// Models that read and write the {package.name} package's types in the FBE formats.",
                   ["<fastwire/model.h>", *(["<fastwire/final_model.h>"] if final else [])],
                   [f'"{package.name}.h"', *(f'"{imp}_models.h"' for imp in package.imports)])
        p.blank()
        structs = self.model.structs_named(self.model.package(package.name).emission_order)
        with namespace(p, ident(package.name)):
            for s in structs:
                p.print("using $n$Model = fastwire::model<$n$>;", n=ident(s.name))
                if final:
                    p.print("using $n$FinalModel = fastwire::final_model<$n$>;", n=ident(s.name))
            if structs:
                self.layout_checks(p, package, structs)
                self.views(p, package, structs)
        return p.text()

    def views(self, p: Printer, package: ir.Package, structs: List[ir.StructType]) -> None:
        """Per struct S: BasicSView<P> (read-only accessors at the model's offsets), its
        checked SView and trusted STrustedView, and SMutableView (set_x() of the values)."""
        ns = ident(package.name)
        p.print(_VIEWS)
        for s in structs:
            p.print(_DECLARATIONS, n=ident(s.name))
        p.print("}  // namespace $ns$", ns=ns)
        p.blank()
        with namespace(p, "fastwire"):
            for s in structs:
                p.print(_VIEW_TYPE, t=f"::{ns}::{ident(s.name)}", ns=ns, n=ident(s.name))
        p.blank()
        p.print("namespace $ns$ {", ns=ns)
        for s in structs:
            p.blank()
            self.view_class(p, s, package.name)

    def view_class(self, p: Printer, s: ir.StructType, package: str) -> None:
        layout = self.model.struct(s.qualified_name)
        name = ident(s.name)
        fields = list(zip(s.all_fields, layout.fields))
        p.print("template <class P>")
        with p.block("struct Basic$n$View : fastwire::versioned::basic_struct_view<P> {", "};", n=name):
            p.print("using fastwire::versioned::basic_struct_view<P>::basic_struct_view;")
            for f, fl in fields:
                default = self.default_expr(s, f, package) if f.type.container is None else None
                if default and (default.startswith("*") or default.endswith("()")):
                    default = f"[] {{ return {default}; }}"  # computed: only when needed
                p.value(f"{self.view_field_type(f.type, package)} {ident(f.name)}() const noexcept {{ return this->"
                        f"template get_<{self.field_type(f.type, package, CONTAINERS)}, {fl.offset}, "
                        f"{fl.offset + fl.slot}>({default or ''}); }}")
            p.print("// f(every field's view), in wire order: for generic code.")
            p.print("template <class F>")
            calls = join([f"{ident(f.name)}()" for f in s.all_fields], ", ", 64)
            # (a call broken over lines: each argument under the first)
            returns(p, "auto fields_(F&& f) const", "f({})".format(calls.replace("\n", "\n  ")), "\n" not in calls)
        with p.block("struct $n$MutableView : $n$View {", "};", n=name):
            p.print("// Over bytes the caller owns and may write (e.g. an element of a view of them).")
            p.print("explicit $n$MutableView(const $n$View& v) noexcept : $n$View(v) {}", n=name)
            for f, fl in fields:
                if fl.wire.is_value:
                    t = self.field_type(f.type, package, CONTAINERS)
                    p.value(f"bool set_{f.name}({t} v) const noexcept {{ return set_<{t}, {fl.offset}, "
                            f"{fl.offset + fl.slot}>(v); }}")

    def layout_checks(self, p: Printer, package: ir.Package, structs: List[ir.StructType]) -> None:
        """static_asserts of the model's layout against the runtime's, naming the struct."""
        p.print(_CHECKS)
        for s in structs:
            layout = self.model.struct(s.qualified_name)
            n = ident(s.name)
            head = f"fastwire::versioned::slot_offsets_are<{n}>({{"  # the offsets aligned under the first
            offsets = join([str(f.offset) for f in layout.fields], ", ", 60).replace("\n", "\n" + " " * len(head))
            fixed = "" if layout.final_size is not None else "!"
            final = f"fastwire::final::min_size<{n}>() == {layout.final_min} && {fixed}fastwire::final::is_fixed<{n}>()"
            body = f"fastwire::versioned::body_size<{n}>() == {layout.body_size}"
            for check, what, wanted in (
                    (body, "versioned body size differs", True),
                    (f"{head}{offsets}}})", "versioned slot offsets differ", bool(layout.fields)),
                    (final, "final-format size differs", self.options.final)):
                if wanted:
                    p.print(_CHECK, check=check, where=f"{package.name}.{s.name}", what=what)
