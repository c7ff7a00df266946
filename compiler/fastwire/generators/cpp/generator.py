"""C++17 generator: per package `p`, the domain header `p.h` and the models header
`p_models.h`, written against the header-only runtime in cpp/include/fastwire.

The generated code is glue only: type definitions, their defaults, comparisons, printing,
and one `fastwire::struct_schema` specialisation per struct listing its fields. The
runtime derives slot offsets and the serialize / deserialize / verify code from that
list at compile time (cpp/README.md, "Runtime contract for generated code").
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Dict, Iterator, List, Optional

from ... import ir, lower
from ..common import docs, literals, naming
from ..options import Options
from ..printer import Printer
from . import extras as cpp_extras

PRIMITIVES = {
    "bool": "bool", "byte": "std::uint8_t", "char": "char", "wchar": "wchar_t",
    "int8": "std::int8_t", "uint8": "std::uint8_t", "int16": "std::int16_t",
    "uint16": "std::uint16_t", "int32": "std::int32_t", "uint32": "std::uint32_t",
    "int64": "std::int64_t", "uint64": "std::uint64_t", "float": "float", "double": "double",
    "decimal": "fastwire::decimal", "string": "std::string", "bytes": "fastwire::bytes",
    "timestamp": "std::uint64_t", "uuid": "fastwire::uuid",
}
CONTAINERS = {"vector": "std::vector", "list": "std::list", "set": "std::set",
              "map": "std::map", "hash": "std::unordered_map"}
# --pmr: the allocator-aware spellings (fastwire/pmr.h). `bytes` stays fastwire::bytes.
PMR_STRING = "std::pmr::string"
PMR_CONTAINERS = {k: v.replace("std::", "std::pmr::") for k, v in CONTAINERS.items()}


def ident(name: str) -> str:
    """A schema name as a C++ identifier (a trailing _ when it is a C++ keyword)."""
    return naming.ident("cpp", name)


class CppGenerator:
    def __init__(self, schema: ir.Schema, options: Options):
        self.schema = schema
        self.options = options
        self.model = lower.lower(schema)
        # --pmr: the domain types use std::pmr; views always name the std types (they
        # only describe the wire form), so they switch this off while they print.
        self.pmr = options.cpp_pmr
        self._allocates: Dict[str, bool] = {}

    # -- names and types ------------------------------------------------------------------
    def qualified(self, ref: ir.TypeRef, package: str) -> str:
        if ref.package == package:
            return ident(ref.name)
        assert ref.package is not None  # a named type's: primitives have no package
        return f"::{ident(ref.package)}::{ident(ref.name)}"

    def plain_type(self, ref: ir.TypeRef, package: str) -> str:
        if ref.kind == "primitive":
            if self.pmr and ref.name == "string":
                return PMR_STRING
            return PRIMITIVES[ref.name]
        return self.qualified(ref, package)

    def field_type(self, t: ir.FieldType, package: str) -> str:
        value = self.plain_type(t.value, package)
        if t.optional:
            value = f"std::optional<{value}>"
        if t.container is None:
            return value
        if t.container == "array":
            return f"std::array<{value}, {t.size}>"
        containers = PMR_CONTAINERS if self.pmr else CONTAINERS
        if t.container in ("map", "hash"):
            assert t.key is not None
            return f"{containers[t.container]}<{self.plain_type(t.key, package)}, {value}>"
        return f"{containers[t.container]}<{value}>"

    @contextmanager
    def std_types(self) -> Iterator[None]:
        """Within: the std (not std::pmr) spellings, whatever --pmr says."""
        saved, self.pmr = self.pmr, False
        try:
            yield
        finally:
            self.pmr = saved

    # -- --pmr: which types take an allocator ------------------------------------------
    def allocates(self, t: ir.FieldType) -> bool:
        """Whether a field of type `t` takes an allocator (std::pmr strings and collections,
        allocator-aware structs, and optionals and arrays of them)."""
        if t.container in ("vector", "list", "set", "map", "hash"):
            return True
        return self.ref_allocates(t.value)

    def ref_allocates(self, ref: ir.TypeRef) -> bool:
        if ref.kind == "primitive":
            return ref.name == "string"
        if ref.kind != "struct":
            return False
        s = self.schema.lookup(ref)
        assert isinstance(s, ir.StructType)
        return self.struct_allocates(s)

    def struct_allocates(self, s: ir.StructType) -> bool:
        """Whether struct `s` is allocator-aware: it (or its base) holds a string, a
        collection, or a struct that is."""
        key = s.qualified_name
        if key not in self._allocates:
            self._allocates[key] = False  # a struct reaches itself only through collections
            base = self.schema.lookup(s.base) if s.base is not None else None
            self._allocates[key] = (isinstance(base, ir.StructType) and self.struct_allocates(base)) \
                or any(self.allocates(f.type) for f in s.fields)
        return self._allocates[key]

    # -- literals -----------------------------------------------------------------------------
    @staticmethod
    def int_literal(value: int, prim: Optional[str]) -> str:
        if prim in ("int64",) and value == -2 ** 63:
            return "(-9223372036854775807LL - 1)"
        if prim == "int32" and value == -2 ** 31:
            return "(-2147483647 - 1)"
        if prim in ("uint64", "timestamp"):
            return f"{value}ull"
        if prim == "int64":
            return f"{value}ll"
        if prim == "uint32" or prim == "wchar":
            return f"{value}u"
        return str(value)

    @staticmethod
    def string_literal(text: str) -> str:
        return literals.c_string(text)

    def enum_value_literal(self, etype: ir.EnumType, name: str, value: int,
                           package: str) -> str:
        ref = ir.TypeRef(etype.kind, etype.name, etype.package)
        return f"{self.qualified(ref, package)}::{ident(name)}"

    def default_expr(self, f: ir.Field, package: str) -> Optional[str]:
        """The default member initializer, or None for the type's own zero/empty."""
        d = f.default
        t = f.type
        if d is None or d.kind == "null":
            if d is None and t.container is None and not t.optional and \
                    t.value.kind in ("enum", "flags"):
                return f"{self.qualified(t.value, package)}{{}}"
            return None
        prim = t.value.name if t.value.kind == "primitive" else None
        if d.kind == "bool":
            return "true" if d.value else "false"
        if d.kind == "integer":
            if prim == "char":
                return f"static_cast<char>({d.value})"
            if prim == "wchar":
                return f"static_cast<wchar_t>({d.value})"
            return self.int_literal(d.int_value(), prim)
        if d.kind == "float":
            return literals.float_text(d.float_value()) + ("f" if prim == "float" else "")
        if d.kind == "decimal":
            return self.decimal_literal(d.text_value())
        if d.kind == "string":
            return self.string_literal(d.text_value())
        if d.kind == "timestamp":
            return self.int_literal(d.int_value(), "timestamp")
        if d.kind == "utc":
            return "fastwire::utc()"
        if d.kind == "uuid":
            if d.value == "00000000-0000-0000-0000-000000000000":
                return None
            return f'fastwire::uuid::literal("{d.value}")'
        if d.kind == "uuid1":
            return "fastwire::uuid::v1()"
        if d.kind == "uuid4":
            return "fastwire::uuid::v4()"
        if d.kind in ("enum", "flags"):
            etype = self.schema.lookup(t.value)
            assert isinstance(etype, ir.EnumType)
            parts = [self.enum_value_literal(etype, n, 0, package) for n in d.names]
            return " | ".join(parts)
        raise AssertionError(d.kind)

    @staticmethod
    def decimal_literal(text: str) -> str:
        negative = text.startswith("-")
        digits = text.lstrip("-")
        whole, _, frac = digits.partition(".")
        coefficient = int(whole + frac)
        scale = len(frac)
        if coefficient < 2 ** 63:
            sign = "-" if negative else ""
            if scale == 0:
                return f"fastwire::decimal({sign}{coefficient}ll)"
            return f"fastwire::decimal({sign}{coefficient}ll, {scale})"
        return f'*fastwire::decimal::from_string("{text}")'

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
        cpp_extras.preamble(p, package, f"{package.name}.h",
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
        deprecated = "[[deprecated]] " if s.deprecated else ""
        p.print("// $kind$ $name$, type $n$", kind=s.kind, name=s.name, n=s.type_number)
        with p.block("struct $dep$$name$$base$ {", "};", dep=deprecated, name=name, base=base):
            for f in s.fields:
                self.doc(p, f.doc)
                init = self.default_expr(f, ns)
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
            default = self.default_expr(f, ns)
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

    # -- models header --------------------------------------------------------------------
    def models_header(self, package: ir.Package) -> str:
        p = Printer(self.options.indent, self.options.tabs)
        ns = ident(package.name)
        cpp_extras.preamble(p, package, f"{package.name}_models.h",
                            f"// Models that read and write the {package.name} package's types "
                            "in the FBE formats.")
        p.blank()
        p.print("#include <fastwire/model.h>")
        if self.options.final:
            p.print("#include <fastwire/final_model.h>")
        p.print("")
        p.print('#include "$name$.h"', name=package.name)
        for imp in package.imports:
            p.print('#include "$imp$_models.h"', imp=imp)
        p.blank()
        with namespace(p, ns):
            for s in self.sorted_structs(package):
                p.print("using $n$Model = fastwire::model<$n$>;", n=ident(s.name))
                if self.options.final:
                    p.print("using $n$FinalModel = fastwire::final_model<$n$>;", n=ident(s.name))
            self.layout_checks(p, package)
            self.views(p, package)
        return p.text()

    # -- views (cpp/include/fastwire/view.h) -----------------------------------------------
    def view_value_type(self, ref: ir.TypeRef, package: str) -> str:
        if ref.kind == "primitive":
            if ref.name == "string":
                return "std::string_view"
            if ref.name == "bytes":
                return "fastwire::versioned::byte_view"
            return PRIMITIVES[ref.name]
        if ref.kind == "struct":
            scope, sep, name = self.qualified(ref, package).rpartition("::")
            return f"{scope}{sep}Basic{name}View<P>"
        return self.qualified(ref, package)

    def view_field_type(self, t: ir.FieldType, package: str) -> str:
        """What a view's accessor returns for a field of type `t` (view.h, element<T, P>),
        inside the view class template BasicSView<P>."""
        if t.container is None:
            value = self.view_value_type(t.value, package)
            return f"std::optional<{value}>" if t.optional else value
        elem = self.plain_type(t.value, package)
        if t.optional:
            elem = f"std::optional<{elem}>"
        if t.container == "array":
            return f"fastwire::versioned::array_view<{elem}, {t.size}, P>"
        if t.container in ("map", "hash"):
            assert t.key is not None
            key = self.plain_type(t.key, package)
            return f"fastwire::versioned::map_view<{key}, {elem}, P>"
        return f"fastwire::versioned::sequence_view<{elem}, P>"

    def views(self, p: Printer, package: ir.Package) -> None:
        """Per struct S: the class template BasicSView<P> (read-only accessors) with its
        checked (SView) and trusted (STrustedView) instances, and SMutableView (set_x() for
        the fixed-size fields), reading the slots at the lowered model's offsets."""
        structs = self.sorted_structs(package)
        if not structs:
            return
        with self.std_types():
            self._views(p, package, structs)

    def _views(self, p: Printer, package: ir.Package, structs: List[ir.StructType]) -> None:
        ns = ident(package.name)
        p.blank()
        p.print("// Zero-copy views (fastwire/view.h): SView checks every offset it follows (any")
        p.print("// bytes); STrustedView checks none (bytes that passed verify()).")
        for s in structs:
            n = ident(s.name)
            p.print("template <class P>")
            p.print("struct Basic$n$View;", n=n)
            p.print("using $n$View = Basic$n$View<fastwire::versioned::checked>;", n=n)
            p.print("using $n$TrustedView = Basic$n$View<fastwire::versioned::trusted>;", n=n)
            p.print("struct $n$MutableView;", n=n)
        p.print("}  // namespace $ns$", ns=ns)
        p.blank()
        p.print("namespace fastwire {")
        for s in structs:
            full = f"::{ns}::{ident(s.name)}"
            p.print("template <>")
            with p.block("struct view_type<$t$> {", "};", t=full):
                p.print("template <class P>")
                p.print("using basic = ::$ns$::Basic$n$View<P>;", ns=ns, n=ident(s.name))
                p.print("using type = $t$View;", t=full)
                p.print("using trusted_type = $t$TrustedView;", t=full)
                p.print("using mutable_type = $t$MutableView;", t=full)
        p.print("}  // namespace fastwire")
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
                default = self.default_expr(f, package) if f.type.container is None else None
                if default and (default.startswith("*") or default.endswith("()")):
                    default = f"[] {{ return {default}; }}"  # computed: only when needed
                p.print("$vt$ $name$() const noexcept { return this->template get_<$t$, $o$, $e$>($d$); }",
                        vt=self.view_field_type(f.type, package), name=ident(f.name),
                        t=self.field_type(f.type, package), o=fl.offset, e=fl.offset + fl.slot,
                        d=default or "")
            p.print("// f(every field's view), in wire order: for generic code.")
            p.print("template <class F>")
            calls = join([f"{ident(f.name)}()" for f in s.all_fields], ", ", 64)
            if "\n" in calls:
                with p.block("auto fields_(F&& f) const {", "}"):
                    p.print("return f($calls$);", calls=calls)
            else:
                p.print("auto fields_(F&& f) const { return f($calls$); }", calls=calls)
        setters = [(f, fl) for f, fl in fields if fl.wire.is_value]
        with p.block("struct $n$MutableView : $n$View {", "};", n=name):
            p.print("// Over bytes the caller owns and may write (e.g. an element of a view of them).")
            p.print("explicit $n$MutableView(const $n$View& v) noexcept : $n$View(v) {}", n=name)
            for f, fl in setters:
                t = self.field_type(f.type, package)
                p.print("bool set_$f$($t$ v) const noexcept { return set_<$t$, $o$, $e$>(v); }",
                        f=f.name, t=t, o=fl.offset, e=fl.offset + fl.slot)

    def layout_checks(self, p: Printer, package: ir.Package) -> None:
        """static_asserts of the lowered model's layout against the runtime's: a runtime
        and a compiler that disagree about a struct's wire layout fail to build, and the
        message names the struct."""
        if not package.structs:
            return
        p.blank()
        p.print("""
            // The wire layout the schema compiler worked out (fastwire.lower), checked against
            // the runtime's: where they disagree, the build fails here, naming the struct.
        """)
        for s in self.sorted_structs(package):
            layout = self.model.struct(s.qualified_name)
            n = ident(s.name)
            where = f"{package.name}.{s.name}"
            p.print("""
                static_assert(fastwire::versioned::body_size<$n$>() == $body$,
                              "$where$: versioned body size differs from the schema compiler's");
            """, n=n, body=layout.body_size, where=where)
            if layout.fields:
                offsets = join([str(f.offset) for f in layout.fields], ", ", 60)
                p.print("""
                    static_assert(fastwire::versioned::slot_offsets_are<$n$>({$offsets$}),
                                  "$where$: versioned slot offsets differ from the schema compiler's");
                """, n=n, offsets=offsets, where=where)
            if self.options.final:
                fixed = "" if layout.final_size is not None else "!"
                p.print("""
                    static_assert(fastwire::final::min_size<$n$>() == $min$ && $fixed$fastwire::final::is_fixed<$n$>(),
                                  "$where$: final-format size differs from the schema compiler's");
                """, n=n, min=layout.final_min, fixed=fixed, where=where)

    def generate(self) -> Dict[str, str]:
        out: Dict[str, str] = {}
        for package in self.schema.packages:
            out[f"{package.name}.h"] = self.domain_header(package)
            out[f"{package.name}_models.h"] = self.models_header(package)
            out.update(cpp_extras.generate_extras(self, package))
        return out


def join(items: List[str], sep: str, room: int) -> str:
    """The items joined by `sep` on one line when that takes at most `room` characters,
    else one item a line (the printer aligns the lines under the first)."""
    line = sep.join(items)
    return line if len(line) <= room else (sep.rstrip() + "\n").join(items)


@contextmanager
def namespace(p: Printer, name: str) -> Iterator[None]:
    """A namespace block; its contents are not indented."""
    p.print("namespace $ns$ {", ns=name)
    yield
    p.print("}  // namespace $ns$", ns=name)


def _basename(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def generate(schema: ir.Schema, options: Options) -> Dict[str, str]:
    return CppGenerator(schema, options).generate()
