"""The Java generator: one Java package per FBE package (the schema's `domain` as the
package prefix, as FBE does), on the `dev.fastwire` runtime (java/runtime).

Each package `p` with domain `d` becomes the Java package `d.p` (folder `d/p/`):

- an enum or flags type is a final class over its raw value (`long value`), with a
  constant per name; `of(long)` returns the constant or a new instance, so values
  without a name survive a round trip;
- a struct is a mutable class with public fields, a constructor setting the schema's
  defaults, `equals`/`hashCode` (and `compareTo` with `[key]` fields) by the shared
  rule, `toString` as the C++ runtime prints; its `CODEC` (a generated
  `dev.fastwire.StructCodec`) reads and writes the versioned format, the final format and
  JSON, with every offset, slot and run taken from the lowered model (fastwire.lower);
- `<Package>Schema` lists the package's struct codecs by name;
- with --proto, `<Package>Sender` and `<Package>Receiver` (the protocol).

Layout is never worked out here: offsets, slot sizes, body sizes and final runs come from
`lower.lower(schema)`.
"""

from __future__ import annotations

from typing import Dict, List, Optional, cast

from ... import __version__, ir, lower
from ..common import naming
from ..common.docs import line_comments
from ..options import Options

PRIM = {  # scalar -> (Java type, boxed, codec)
    "bool": ("boolean", "Boolean", "BOOL"), "byte": ("byte", "Byte", "BYTE"),
    "char": ("char", "Character", "CHAR"), "wchar": ("int", "Integer", "WCHAR"),
    "int8": ("byte", "Byte", "INT8"), "uint8": ("short", "Short", "UINT8"),
    "int16": ("short", "Short", "INT16"), "uint16": ("int", "Integer", "UINT16"),
    "int32": ("int", "Integer", "INT32"), "uint32": ("long", "Long", "UINT32"),
    "int64": ("long", "Long", "INT64"), "uint64": ("long", "Long", "UINT64"),
    "float": ("float", "Float", "FLOAT"), "double": ("double", "Double", "DOUBLE"),
    "timestamp": ("long", "Long", "TIMESTAMP"),
    "decimal": ("java.math.BigDecimal", "java.math.BigDecimal", "DECIMAL"),
    "uuid": ("java.util.UUID", "java.util.UUID", "UUID_"),
    "string": ("String", "String", "STRING"), "bytes": ("byte[]", "byte[]", "BYTES"),
}
SCALAR_ENUM = {  # wire scalar -> dev.fastwire.Scalar constant
    "byte": "BYTE", "char": "CHAR", "wchar": "WCHAR", "int8": "INT8", "uint8": "UINT8",
    "int16": "INT16", "uint16": "UINT16", "int32": "INT32", "uint32": "UINT32",
    "int64": "INT64", "uint64": "UINT64",
}
# How a raw scalar is read as a Java value at position `p` (reader `r`).
READ = {
    "bool": "r.buf[{p}] != 0", "byte": "r.buf[{p}]", "int8": "r.buf[{p}]",
    "char": "(char) r.u8({p})", "uint8": "(short) r.u8({p})", "int16": "r.i16({p})",
    "uint16": "r.i16({p}) & 0xFFFF", "int32": "r.i32({p})", "wchar": "r.i32({p})",
    "uint32": "r.u32({p})", "int64": "r.i64({p})", "uint64": "r.i64({p})",
    "timestamp": "r.i64({p})", "float": "r.f32({p})", "double": "r.f64({p})",
    "decimal": "dev.fastwire.Decimals.read(r, {p})", "uuid": "dev.fastwire.Uuids.get(r.buf, {p})",
}
# A raw enum base read as a long.
READ_RAW = {
    "byte": "r.u8({p})", "char": "r.u8({p})", "uint8": "r.u8({p})", "int8": "r.i8({p})",
    "int16": "r.i16({p})", "uint16": "r.i16({p}) & 0xFFFF", "int32": "r.i32({p})",
    "uint32": "r.u32({p})", "wchar": "r.u32({p})", "int64": "r.i64({p})", "uint64": "r.i64({p})",
}
SIZE_PUT = {1: "u8", 2: "i16", 4: "i32", 8: "i64"}
SIZE_CAST = {1: "(int) ", 2: "(short) ", 4: "(int) ", 8: ""}
SIZE_ADD = {1: "addU8", 2: "addI16", 4: "addI32", 8: "addI64"}


def java_package(pkg: ir.Package) -> str:
    parts = (pkg.domain.split(".") if pkg.domain else []) + [pkg.name]
    return ".".join(naming.ident("java", part) for part in parts)


def jstring(text: str) -> str:
    """A Java string literal: printable text as is, escapes for the rest (octal for control
    characters, never a backslash-u, which javac would expand before lexing)."""
    out = []
    for ch in text:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F:
            out.append("\\%03o" % o)
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def pascal(name: str) -> str:
    return name[:1].upper() + name[1:]


def schema_class(pkg: ir.Package) -> str:
    return naming.pascal(pkg.name) + "Schema"


class Lines:
    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.level = 0
        self.out: List[str] = []

    def __call__(self, *lines: str) -> None:
        for text in lines:
            for line in text.split("\n"):
                self.out.append((self.unit * self.level + line) if line else "")

    def open(self, line: str) -> None:
        self(line)
        self.level += 1

    def close(self, line: str = "}") -> None:
        self.level -= 1
        self(line)

    def text(self) -> str:
        return "\n".join(self.out) + "\n"


class JavaGen:
    def __init__(self, schema: ir.Schema, options: Options, model: lower.WireModel) -> None:
        self.schema = schema
        self.options = options
        self.model = model
        self.unit = "\t" if options.tabs else " " * (options.indent if options.indent > 0 else 4)

    # ---- names and types --------------------------------------------------------------
    def ident(self, name: str) -> str:
        return naming.ident("java", name)

    def qualified(self, qname: str) -> str:
        """A struct, enum or flags type's Java name from its qualified schema name."""
        package, _, name = qname.partition(".")
        return java_package(self.schema.package(package)) + "." + name

    def jtype(self, w: lower.WireType, boxed: bool = False) -> str:
        k = w.kind
        if k == "scalar":
            assert w.scalar is not None
            return PRIM[w.scalar][1 if boxed else 0]
        if k in ("decimal", "uuid", "string", "bytes"):
            return PRIM[k][0]
        if k == "timestamp":
            return PRIM[k][1 if boxed else 0]
        if k in ("enum", "flags", "struct"):
            assert w.ref is not None
            return self.qualified(w.ref)
        assert w.element is not None
        if k == "optional":
            return self.jtype(w.element, True)
        e = self.jtype(w.element, True)
        if k == "array":
            return f"java.util.List<{e}>"
        if k == "sequence":
            if w.collection == "set":
                return f"java.util.TreeSet<{e}>"
            return f"java.util.List<{e}>"
        assert w.key is not None
        key = self.jtype(w.key, True)
        if w.collection == "map":
            return f"java.util.TreeMap<{key}, {e}>"
        return f"java.util.HashMap<{key}, {e}>"

    def codec(self, w: lower.WireType) -> str:
        k = w.kind
        if k == "scalar":
            assert w.scalar is not None
            return "dev.fastwire.Codecs." + PRIM[w.scalar][2]
        if k in ("decimal", "uuid", "string", "bytes", "timestamp"):
            return "dev.fastwire.Codecs." + PRIM[k][2]
        if k in ("enum", "flags", "struct"):
            assert w.ref is not None
            return self.qualified(w.ref) + ".CODEC"
        assert w.element is not None
        e = self.codec(w.element)
        if k == "optional":
            return f"dev.fastwire.Codecs.optional({e})"
        if k == "array":
            return f"dev.fastwire.Codecs.array({e}, {w.length})"
        if k == "sequence":
            return f"dev.fastwire.Codecs.{w.collection}({e})"
        assert w.key is not None
        return f"dev.fastwire.Codecs.{w.collection}({self.codec(w.key)}, {e})"

    def scalar_of(self, w: lower.WireType) -> Optional[str]:
        """The primitive a value kind is held in (scalar, timestamp, decimal, uuid)."""
        if w.kind == "scalar":
            return w.scalar
        if w.kind in ("timestamp", "decimal", "uuid"):
            return w.kind
        return None

    # ---- literals ---------------------------------------------------------------------
    def int_literal(self, value: int, scalar: str) -> str:
        size = ir.PRIMITIVE_SIZES[scalar] or 4
        jt = PRIM[scalar][0] if scalar in PRIM else "long"
        bits = 8 * size
        if value < 0:
            value += 1 << bits if scalar in ("byte", "char", "wchar", "uint8", "uint16", "uint32",
                                             "uint64", "timestamp") else 0
        if jt == "long":
            v = value - (1 << 64) if value >= 1 << 63 else value
            return f"{v}L" if v != -(1 << 63) else "Long.MIN_VALUE"
        if jt == "int":
            v = value - (1 << 32) if value >= 1 << 31 else value
            return str(v) if v != -(1 << 31) else "Integer.MIN_VALUE"
        if jt == "boolean":
            return "true" if value else "false"
        return f"({jt}) {value}"

    def enum_value(self, ref: str, lit: lower.Literal) -> str:
        t = self.lookup_enum(ref)
        jn = self.qualified(ref)
        if len(lit.names) == 1 and t.value(lit.names[0]) is not None:
            return f"{jn}.{self.ident(lit.names[0])}"
        value = int(cast(int, lit.value))
        return f"{jn}.of({self.raw_literal(value, t.base)})"

    def raw_literal(self, value: int, base: str) -> str:
        if base == "uint64" and value >= 1 << 63:
            value -= 1 << 64
        if value == -(1 << 63):
            return "Long.MIN_VALUE"
        return f"{value}L"

    def lookup_enum(self, ref: str) -> ir.EnumType:
        package, _, name = ref.partition(".")
        t = self.schema.package(package).type(name)
        assert isinstance(t, ir.EnumType)
        return t

    def default(self, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str) -> str:
        """The Java expression of a field's initial value."""
        if lit is not None and lit.kind == "null":
            return "null"
        target = w.element if w.kind == "optional" and lit is not None else w
        assert target is not None
        if lit is None:
            return self.zero(w, fcodec)
        if lit.kind == "computed":
            if lit.value == "utc":
                return "dev.fastwire.Timestamps.utc()"
            return f"dev.fastwire.Uuids.{lit.value}()"
        if target.kind in ("enum", "flags"):
            assert target.ref is not None
            return self.enum_value(target.ref, lit)
        if lit.kind == "bool":
            return "true" if lit.value else "false"
        if lit.kind == "string":
            return jstring(str(lit.value))
        if lit.kind == "uuid":
            return f'java.util.UUID.fromString("{lit.value}")'
        if lit.kind == "decimal" or target.kind == "decimal":
            text = str(lit.value)
            return f'dev.fastwire.Decimals.parse("{text}")'
        if lit.kind == "float":
            x = float(cast(float, lit.value))
            if target.scalar == "float":
                return f"Float.intBitsToFloat(0x{int(cast(int, lit.raw)):08x})" if x != x or x in (
                    float("inf"), float("-inf")) else float_literal(x) + "f"
            return f"Double.longBitsToDouble(0x{int(cast(int, lit.raw)):016x}L)" if x != x or x in (
                float("inf"), float("-inf")) else float_literal(x)
        if lit.kind == "integer":
            scalar = self.scalar_of(target) or "int32"
            if scalar in ("float", "double"):
                return float_literal(float(cast(float, lit.value))) + ("f" if scalar == "float" else "")
            if scalar == "decimal":
                return f'dev.fastwire.Decimals.parse("{lit.value}")'
            return self.int_literal(int(cast(int, lit.value)), scalar)
        raise AssertionError(lit.kind)

    def zero(self, w: lower.WireType, fcodec: str) -> str:
        k = w.kind
        if k == "optional":
            return "null"
        if k == "scalar":
            return {"boolean": "false", "float": "0f", "double": "0.0", "long": "0L",
                    "int": "0", "char": "(char) 0"}.get(PRIM[w.scalar or ""][0],
                                                    f"({PRIM[w.scalar or ''][0]}) 0")
        if k == "timestamp":
            return "0L"
        if k == "decimal":
            return "java.math.BigDecimal.ZERO"
        if k == "uuid":
            return "dev.fastwire.Uuids.NIL"
        if k == "string":
            return '""'
        if k == "bytes":
            return "new byte[0]"
        if k in ("enum", "flags"):
            assert w.ref is not None
            return f"{self.qualified(w.ref)}.of(0L)"
        if k == "struct":
            return f"new {self.jtype(w)}()"
        return f"{fcodec}.zero()"

    # ---- files ------------------------------------------------------------------------
    def generate(self) -> Dict[str, str]:
        files: Dict[str, str] = {}
        for pkg in self.schema.packages:
            jp = java_package(pkg)
            folder = jp.replace(".", "/")
            for t in pkg.types:
                if isinstance(t, ir.EnumType):
                    files[f"{folder}/{t.name}.java"] = self.enum_file(pkg, t)
                elif isinstance(t, ir.StructType):
                    files[f"{folder}/{t.name}.java"] = self.struct_file(pkg, t)
            files[f"{folder}/{schema_class(pkg)}.java"] = self.schema_file(pkg)
            if self.options.proto:
                from .protocol import protocol_files
                files.update(protocol_files(self, pkg))
        return files

    def header(self, pkg: ir.Package) -> Lines:
        out = Lines(self.unit)
        out(f"// Generated by fastwire {__version__} from {pkg.name}.fbe: do not edit.",
            f"package {java_package(pkg)};", "")
        return out

    def doc(self, out: Lines, text: Optional[str]) -> None:
        for line in line_comments(text, "//", language="java"):
            out(line)

    # ---- enums and flags --------------------------------------------------------------
    def enum_file(self, pkg: ir.Package, t: ir.EnumType) -> str:
        out = self.header(pkg)
        n = t.name
        flags = t.kind == "flags"
        base = SCALAR_ENUM[t.base]
        self.doc(out, t.doc)
        out(f"// {t.kind} {n} : {t.base}. Values without a name are kept (of() makes them).")
        out.open(f"public final class {n} implements Comparable<{n}> {{")
        canonical: Dict[int, str] = {}
        for v in t.values:
            if v.value in canonical and not flags:
                out(f"public static final {n} {self.ident(v.name)} = {self.ident(canonical[v.value])};")
                continue
            if v.value in canonical:
                out(f"public static final {n} {self.ident(v.name)} = {self.ident(canonical[v.value])};")
                continue
            canonical[v.value] = v.name
            raw = self.raw_literal(v.value, t.base)
            out(f"public static final {n} {self.ident(v.name)} = new {n}({raw}, {jstring(v.name)});")
        names = ", ".join(self.ident(canonical[v]) for v in canonical)
        out(f"private static final {n}[] NAMED = {{{names}}};",
            f"private static final {n}[] BY_LOW_BYTE = new {n}[256];  // the named values by their low byte",
            "static {",
            f"{self.unit}for (int i = NAMED.length - 1; i >= 0; i--) "
            "BY_LOW_BYTE[(int) NAMED[i].value & 0xFF] = NAMED[i];",
            "}",
            f"public static final dev.fastwire.Codecs.Int<{n}> CODEC = "
            f"dev.fastwire.Codecs.enumOf(dev.fastwire.Scalar.{base}, {n}::of, e -> e.value);",
            "",
            "/** The raw value: signed types sign-extended, unsigned ones zero-extended (uint64: its bits). */",
            "public final long value;",
            "private final String name;",
            "",
            f"private {n}(long value, String name) {{",
            f"{self.unit}this.value = value;",
            f"{self.unit}this.name = name;",
            "}",
            "",
            "/** The constant of a value, or a new instance for a value without a name. */")
        out.open(f"public static {n} of(long value) {{")
        out(f"{n} hit = BY_LOW_BYTE[(int) value & 0xFF];",
            "if (hit != null && hit.value == value) return hit;")
        out.open(f"for ({n} e : NAMED) {{")
        out("if (e.value == value) return e;")
        out.close()
        out(f"return new {n}(value, null);")
        out.close()
        out("")
        if flags:
            out(f"public boolean has({n} flag) {{ return (value & flag.value) == flag.value; }}",
                f"public {n} or({n} flag) {{ return of(value | flag.value); }}",
                f"public {n} and({n} flag) {{ return of(value & flag.value); }}",
                "")
        out("@Override public boolean equals(Object o) { "
            f"return o instanceof {n} && ((({n}) o).value == value); }}",
            "@Override public int hashCode() { return Long.hashCode(value); }",
            f"@Override public int compareTo({n} o) {{ return dev.fastwire.Scalar.{base}.compare(value, o.value); }}")
        if flags:
            out.open("@Override public String toString() {")
            out("StringBuilder sb = new StringBuilder();")
            out.open(f"for ({n} e : NAMED) {{")
            out("if (e.value != 0 && (value & e.value) == e.value) "
                "sb.append(sb.length() > 0 ? \"|\" : \"\").append(e.name);")
            out.close()
            out("return sb.toString();")
            out.close()
        else:
            out('@Override public String toString() { return name != null ? name : "<unknown>"; }')
        out.close()
        return out.text()

    # ---- structs ----------------------------------------------------------------------
    def struct_file(self, pkg: ir.Package, s: ir.StructType) -> str:
        from .struct import emit_struct
        out = self.header(pkg)
        emit_struct(self, out, pkg, s)
        return out.text()

    def schema_file(self, pkg: ir.Package) -> str:
        out = self.header(pkg)
        cls = schema_class(pkg)
        out(f"/** The structs of package {pkg.name}, by name. */")
        out.open(f"public final class {cls} {{")
        out(f"public static final String PACKAGE = {jstring(pkg.name)};")
        if pkg.version:
            out(f"public static final String VERSION = \"{pkg.version[0]}.{pkg.version[1]}\";")
        out("public static final java.util.Map<String, dev.fastwire.StructCodec<?>> STRUCTS;", "")
        out.open("static {")
        out("java.util.Map<String, dev.fastwire.StructCodec<?>> m = new java.util.LinkedHashMap<>();")
        for s in pkg.structs:
            out(f"m.put({jstring(s.name)}, {s.name}.CODEC);")
        out("STRUCTS = java.util.Collections.unmodifiableMap(m);")
        out.close()
        out("", f"private {cls}() {{", "}")
        out.close()
        return out.text()


def float_literal(x: float) -> str:
    text = repr(x)
    if "e" not in text and "." not in text:
        text += ".0"
    return text


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    return JavaGen(model.schema, options, model).generate()
