"""The domain header `p.h`: enums and flags, structs with their defaults, constructors,
comparisons, printing, std::hash of key structs, and each struct's fastwire::struct_schema,
from which the runtime derives serialize, deserialize and verify at compile time
(docs/cpp/generated-code.md)."""

from __future__ import annotations

from typing import List, Optional

from ... import ir, lower
from ..common import docs
from ..printer import Printer
from .literals import Literals
from .names import ident, join, namespace, preamble
from .types import PRIMITIVES


class Structs(Literals):
    """The domain header."""

    # -- ordering -----------------------------------------------------------------------------
    def sorted_structs(self, package: ir.Package) -> List[ir.StructType]:
        """The package's structs in the model's emission order (each after the local
        structs it refers to: members, bases, and keys, whose std::hash comes first)."""
        by_name = {s.qualified_name: s for s in package.structs}
        return [by_name[n] for n in self.model.package(package.name).emission_order]

    # -- domain header --------------------------------------------------------------------
    def domain_header(self, package: ir.Package) -> str:
        p = Printer(self.options.indent, self.options.tabs)
        ns = ident(package.name)
        preamble(p, package, f"{package.name}.h",
                            f"// The {package.name} package's types.")
        p.blank()
        p.print("#include <fastwire/types.h>")
        if self.pmr:
            p.print("#include <fastwire/pmr.h>")
        for imp in package.imports:
            p.print('#include "$imp$.h"', imp=imp)
        p.blank()
        # [[deprecated]] marks what users should stop using; the generated code itself
        # must still name those members without warnings.
        p.print("#pragma GCC diagnostic push")
        p.print('#pragma GCC diagnostic ignored "-Wdeprecated-declarations"')
        enums = [t for t in package.types if isinstance(t, ir.EnumType)]
        if enums:
            p.blank()
            with namespace(p, ns):
                for e in enums:
                    p.blank()
                    self.enum_definition(p, e)
            p.blank()
            with namespace(p, "fastwire"):
                for e in enums:
                    p.blank()
                    self.enum_traits(p, e, ns)
        structs = self.sorted_structs(package)
        keyed = [s for s in structs if s.key_fields]
        if keyed:
            # std::hash of a key struct is declared before any struct can use it (a hash
            # keyed by it, even in this package), and defined at the end.
            p.blank()
            with namespace(p, ns):
                for s in keyed:
                    p.print("struct $n$;", n=ident(s.name))
            p.blank()
            with namespace(p, "std"):
                for s in keyed:
                    self.struct_hash_declaration(p, s, ns)
        p.blank()
        with namespace(p, ns):
            for e in enums:
                printer = "print_flags" if e.kind == "flags" else "print_enum"
                p.print("inline std::ostream& operator<<(std::ostream& os, $t$ v) { return "
                        "fastwire::$fn$(os, v); }", t=ident(e.name), fn=printer)
            for s in structs:
                p.blank()
                self.struct_definition(p, s, package)
        if structs:
            p.blank()
            with namespace(p, "fastwire"):
                for s in structs:
                    p.blank()
                    self.struct_schema(p, s, package)
        if keyed:
            p.blank()
            with namespace(p, "std"):
                for s in keyed:
                    p.blank()
                    self.struct_hash(p, s, ns)
        p.blank()
        p.print("#pragma GCC diagnostic pop")
        return p.text()

    def enum_definition(self, p: Printer, e: ir.EnumType) -> None:
        self.doc(p, e.doc)
        deprecated = "[[deprecated]] " if e.deprecated else ""
        with p.block("enum class $dep$$name$ : $base$ {", "};", dep=deprecated,
                     name=ident(e.name), base=PRIMITIVES[e.base] if e.base != "byte"
                     else "std::uint8_t"):
            for v in e.values:
                self.doc(p, v.doc)
                p.print("$name$$dep$ = $value$,", name=ident(v.name),
                        dep=" [[deprecated]]" if v.deprecated else "",
                        value=self.enum_constant(v.value, e))
        if e.kind == "flags":
            p.print("FASTWIRE_FLAGS($name$)", name=ident(e.name))

    def enum_constant(self, value: int, e: ir.EnumType) -> str:
        if e.base == "char":
            return f"static_cast<char>({value})"
        if e.base == "wchar":
            return f"static_cast<wchar_t>({value})"
        if e.kind == "flags" and value >= 0:
            width = 2 * lower.scalar_size(e.base)
            return f"0x{value:0{width}X}" + ("ull" if e.base in ("uint64", "int64") and value >= 2 ** 31
                                 else "")
        return self.int_literal(value, e.base)

    def enum_traits(self, p: Printer, e: ir.EnumType, ns: str) -> None:
        full = f"::{ns}::{ident(e.name)}"
        p.print("template <>")
        with p.block("struct enum_traits<$t$> {", "};", t=full):
            p.print("static constexpr bool is_flags = $f$;",
                    f="true" if e.kind == "flags" else "false")
            if not e.values:
                p.print("static constexpr std::array<enum_entry<$t$>, 0> entries{};", t=full)
                return
            with p.block("static constexpr std::array<enum_entry<$t$>, $n$> entries{{", "}};",
                         t=full, n=len(e.values)):
                for v in e.values:
                    p.print('{$t$::$v$, "$name$"},', t=full, v=ident(v.name), name=v.name)

    def doc(self, p: Printer, doc: Optional[str]) -> None:
        for line in docs.line_comments(doc, "//", "*/", "cpp"):
            p.value(line)

    def struct_definition(self, p: Printer, s: ir.StructType, package: ir.Package) -> None:
        ns = package.name
        name = ident(s.name)
        self.doc(p, s.doc)
        base = f" : public {self.qualified(s.base, ns)}" if s.base else ""
        self.injected = set()
        b = s.base
        while b is not None:  # a base of another package: its name is not the local one
            if b.package != ns:
                self.injected.add(b.name)
            held = self.schema.lookup(b)
            assert isinstance(held, ir.StructType)
            b = held.base
        deprecated = "[[deprecated]] " if s.deprecated else ""
        p.print("// $kind$ $name$, type $n$", kind=s.kind, name=s.name, n=s.type_number)
        with p.block("struct $dep$$name$$base$ {", "};", dep=deprecated, name=name, base=base):
            for f in s.fields:
                self.doc(p, f.doc)
                init = self.default_expr(s, f, ns)
                p.print("$dep$$type$ $name$$init$;",
                        dep="[[deprecated]] " if f.deprecated else "",
                        type=self.field_type(f.type, ns), name=ident(f.name),
                        init=f" = {init}" if init else "{}")
            p.blank()
            p.print("$name$() = default;", name=name)
            if self.pmr and self.struct_allocates(s):
                self.allocator_constructors(p, s, ns)
            if s.all_fields:
                self.constructor(p, s, ns)
            p.blank()
            self.comparisons(p, s)
            p.blank()
            self.printer(p, s, ns)
        self.injected = set()

    def constructor(self, p: Printer, s: ir.StructType, ns: str) -> None:
        # --pmr: a last parameter takes the allocator (so a std::pmr container's
        # emplace_back(fields…) builds the element with the container's allocator).
        aware = self.pmr and self.struct_allocates(s)
        params = [f"{self.field_type(f.type, ns)} {ident(f.name)}_" for f in s.all_fields]
        if aware:
            params.append("const allocator_type& alloc = {}")
        params_text = join(params, ", ", 108 - 2 * len(s.name))
        inits = []
        if s.base is not None:
            base = self.schema.lookup(s.base)
            assert isinstance(base, ir.StructType)
            args = [self.moved(f) for f in base.all_fields]
            if aware and self.struct_allocates(base):
                args.append("alloc")
            inits.append(f"{self.qualified(s.base, ns)}({', '.join(args)})")
        for f in s.fields:
            if aware and self.allocates(f.type):
                inits.append(f"{ident(f.name)}(fastwire::pmr::make<{self.field_type(f.type, ns)}>(alloc, "
                             f"{self.moved(f)}))")
            else:
                inits.append(f"{ident(f.name)}({self.moved(f)})")
        explicit = "explicit " if len(s.all_fields) == 1 else ""
        p.print("$explicit$$name$($params$)", explicit=explicit, name=ident(s.name),
                params=params_text)
        p.indent()
        p.print(": $inits$ {}", inits=join(inits, ", ", 106))
        p.outdent()

    def allocator_constructors(self, p: Printer, s: ir.StructType, ns: str) -> None:
        """--pmr: allocator_type and the constructors that take one (uses-allocator
        construction, fastwire/pmr.h): std::pmr containers of this struct build their
        elements with the container's allocator, and the struct passes it on to its members."""
        name = ident(s.name)
        base = self.schema.lookup(s.base) if s.base is not None else None
        base_name = self.qualified(s.base, ns) if s.base is not None else ""
        base_allocates = isinstance(base, ir.StructType) and self.struct_allocates(base)
        p.print("""
            // Allocator-aware (--pmr, fastwire/pmr.h): its strings and collections take their
            // memory from the allocator's resource, and so do those of the structs it holds.
            using allocator_type = fastwire::pmr::allocator;
        """)
        inits = [f"{base_name}(alloc)"] if base_allocates else []
        for f in s.fields:
            if not self.allocates(f.type):
                continue
            default = self.default_expr(s, f, ns)
            args = f"alloc, {default}" if default else "alloc"
            inits.append(f"{ident(f.name)}(fastwire::pmr::make<{self.field_type(f.type, ns)}>({args}))")
        p.print("explicit $n$(const allocator_type& alloc)", n=name)
        p.indent()
        p.print(": $inits$ {}", inits=join(inits, ", ", 106))
        p.outdent()
        # The allocator-extended copy and move (what a container uses to copy or move an
        # element into its own memory).
        for moving in (False, True):
            inits = []
            if base is not None:
                src = f"static_cast<{base_name}&&>(other)" if moving else \
                    f"static_cast<const {base_name}&>(other)"
                inits.append(f"{base_name}({src}, alloc)" if base_allocates else f"{base_name}({src})")
            for f in s.fields:
                member = ident(f.name)
                src = f"std::move(other.{member})" if moving else f"other.{member}"
                if self.allocates(f.type):
                    inits.append(f"{member}(fastwire::pmr::make<{self.field_type(f.type, ns)}>(alloc, {src}))")
                else:
                    inits.append(f"{member}({src if moving and self.moved(f) != member + '_' else 'other.' + member})")
            p.print("$n$($ref$ other, const allocator_type& alloc)", n=name,
                    ref=f"{name}&&" if moving else f"const {name}&")
            p.indent()
            p.print(": $inits$ {}", inits=join(inits, ", ", 106))
            p.outdent()

    @staticmethod
    def moved(f: ir.Field) -> str:
        """The constructor argument for `f`: moved when moving can save a copy."""
        t = f.type
        cheap = t.container is None and not t.optional and (
            t.value.kind in ("enum", "flags") or
            (t.value.kind == "primitive" and t.value.name not in ("string", "bytes")))
        return f"{ident(f.name)}_" if cheap else f"std::move({ident(f.name)}_)"

    def comparisons(self, p: Printer, s: ir.StructType) -> None:
        name = ident(s.name)
        keys = s.key_fields
        if keys:
            p.print("// Compared, ordered and hashed by the [key] fields: $keys$.",
                    keys=", ".join(f.name for f in keys))
            eq = " && ".join(f"a.{ident(f.name)} == b.{ident(f.name)}" for f in keys)
            lt_a = ", ".join(f"a.{ident(f.name)}" for f in keys)
            lt_b = ", ".join(f"b.{ident(f.name)}" for f in keys)
            self.operator(p, "==", name, eq)
            p.print("friend bool operator!=(const $n$& a, const $n$& b) { return !(a == b); }",
                    n=name)
            self.operator(p, "<", name, f"std::tie({lt_a}) < std::tie({lt_b})")
            p.print("""
                friend bool operator>(const $n$& a, const $n$& b) { return b < a; }
                friend bool operator<=(const $n$& a, const $n$& b) { return !(b < a); }
                friend bool operator>=(const $n$& a, const $n$& b) { return !(a < b); }
            """, n=name)
        else:
            # The reference compares keyless structs as always equal; equal values are
            # what a reader of `a == b` expects.
            p.print("// No [key] fields: equal when every field is equal.")
            eq = join([f"a.{ident(f.name)} == b.{ident(f.name)}"
                       for f in s.all_fields], " && ", 100) or "true"
            unused = "" if s.all_fields else "[[maybe_unused]] "
            self.operator(p, "==", name, eq, unused)
            p.print("friend bool operator!=(const $n$& a, const $n$& b) { return !(a == b); }",
                    n=name)

    @staticmethod
    def operator(p: Printer, op: str, name: str, body: str, unused: str = "") -> None:
        """`friend bool operator<op>(a, b)`, on one line when it fits in 112 characters."""
        head = f"friend bool operator{op}({unused}const {name}& a, {unused}const {name}& b)"
        if "\n" not in body and len(head) + len(body) + 16 <= 112:
            p.value(f"{head} {{ return {body}; }}")
            return
        with p.block("$head$ {", "}", head=head):
            p.print("return $body$;", body=body)

    def printer(self, p: Printer, s: ir.StructType, ns: str) -> None:
        name = ident(s.name)
        unused = "" if s.fields or s.base else "[[maybe_unused]] "
        p.print("friend std::ostream& operator<<(std::ostream& os, $u$const $n$& v) {", n=name,
                u=unused)
        p.indent()
        chain = f'fastwire::struct_printer(os, "{s.name}")'
        if s.base is not None:
            chain += f".base(static_cast<const {self.qualified(s.base, ns)}&>(v))"
        parts = [chain]
        for f in s.fields:
            if f.hidden:
                parts.append(f'.hidden("{f.name}")')
            else:
                parts.append(f'.field("{f.name}", v.{ident(f.name)})')
        parts.append(".end()")
        p.print("return $chain$;", chain="\n    ".join(parts))
        p.outdent()
        p.print("}")

    def struct_schema(self, p: Printer, s: ir.StructType, package: ir.Package) -> None:
        full = f"::{ident(package.name)}::{ident(s.name)}"
        p.print("template <>")
        with p.block("struct struct_schema<$t$> {", "};", t=full):
            p.print("static constexpr std::uint32_t type = $n$;", n=s.type_number)
            depth = self.model.struct(s.qualified_name).depth
            p.print("static constexpr std::uint32_t depth = $d$;$note$", d=depth,
                    note="  // recursive: no bound" if depth == 0 else "")
            if s.base is not None:
                p.print("using base = $b$;", b=self.qualified(s.base, ""))
            members = [f"&{full}::{ident(f.name)}" for f in s.fields]
            p.print("using fields = fastwire::fields<$m$>;", m=join(members, ", ", 82))
            names = join([f'"{f.name}"' for f in s.fields], ", ", 60)
            p.print("static constexpr std::array<const char*, $n$> names{{$names$}};",
                    n=len(s.fields), names=names)

    def struct_hash_declaration(self, p: Printer, s: ir.StructType, ns: str) -> None:
        full = f"::{ns}::{ident(s.name)}"
        p.print("template <>")
        with p.block("struct hash<$t$> {", "};", t=full):
            p.print("size_t operator()(const $t$& v) const noexcept;", t=full)

    def struct_hash(self, p: Printer, s: ir.StructType, ns: str) -> None:
        full = f"::{ns}::{ident(s.name)}"
        with p.block("inline size_t hash<$t$>::operator()(const $t$& v) const noexcept {", "}",
                     t=full):
            p.print("size_t h = 0;")
            for f in s.key_fields:
                p.print("fastwire::hash_combine(h, v.$f$);", f=ident(f.name))
            p.print("return h;")
