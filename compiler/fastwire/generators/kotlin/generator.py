"""The Kotlin generator: one Kotlin package per FBE package (the schema's `domain` as the
package prefix, as FBE does), over the JVM runtime `dev.fastwire` that Java uses too.

Kotlin types: data classes with `var` properties and the schema's defaults (a struct
derived from another holds its base's fields: Kotlin data classes cannot be derived
from), Kotlin's unsigned types (UByte, UShort, UInt, ULong) for the unsigned FBE types,
nullable types for `T?`, MutableList / TreeSet / TreeMap / HashMap for collections.
Enums and flags are classes over their raw value that keep unknown values. Every offset,
slot, body size and final run comes from the lowered model (fastwire.lower).
"""

from __future__ import annotations

from typing import Dict, List, Optional, cast

from ... import __version__, ir, lower
from ..common import naming
from ..common.docs import line_comments
from ..java.generator import SCALAR_ENUM, Lines, float_literal, java_package
from ..options import Options

# scalar -> (Kotlin type, Java runtime codec or None when the package makes one)
PRIM = {
    "bool": ("Boolean", "dev.fastwire.Codecs.BOOL"), "byte": ("UByte", None),
    "char": ("Char", "dev.fastwire.Codecs.CHAR"), "wchar": ("UInt", None),
    "int8": ("Byte", "dev.fastwire.Codecs.INT8"), "uint8": ("UByte", None),
    "int16": ("Short", "dev.fastwire.Codecs.INT16"), "uint16": ("UShort", None),
    "int32": ("Int", "dev.fastwire.Codecs.INT32"), "uint32": ("UInt", None),
    "int64": ("Long", "dev.fastwire.Codecs.INT64"), "uint64": ("ULong", None),
    "float": ("Float", "dev.fastwire.Codecs.FLOAT"), "double": ("Double", "dev.fastwire.Codecs.DOUBLE"),
    "timestamp": ("Long", "dev.fastwire.Codecs.TIMESTAMP"),
    "decimal": ("java.math.BigDecimal", "dev.fastwire.Codecs.DECIMAL"),
    "uuid": ("java.util.UUID", "dev.fastwire.Codecs.UUID_"),
    "string": ("String", "dev.fastwire.Codecs.STRING"), "bytes": ("ByteArray", "dev.fastwire.Codecs.BYTES"),
}
# The unsigned codecs a package makes (Kotlin's unsigned types box as kotlin.U*).
UNSIGNED = {
    "byte": ("UByte", "BYTE", "it.toUByte()", "it.toLong()"),
    "uint8": ("UByte", "UINT8", "it.toUByte()", "it.toLong()"),
    "uint16": ("UShort", "UINT16", "it.toUShort()", "it.toLong()"),
    "wchar": ("UInt", "WCHAR", "it.toUInt()", "it.toLong()"),
    "uint32": ("UInt", "UINT32", "it.toUInt()", "it.toLong()"),
    "uint64": ("ULong", "UINT64", "it.toULong()", "it.toLong()"),
}
READ = {
    "bool": "(r.buf[{p}].toInt() != 0)", "byte": "r.u8({p}).toUByte()", "int8": "r.i8({p})",
    "char": "Char(r.u8({p}))", "uint8": "r.u8({p}).toUByte()", "int16": "r.i16({p})",
    "uint16": "r.i16({p}).toUShort()", "int32": "r.i32({p})", "wchar": "r.i32({p}).toUInt()",
    "uint32": "r.i32({p}).toUInt()", "int64": "r.i64({p})", "uint64": "r.i64({p}).toULong()",
    "timestamp": "r.i64({p})", "float": "r.f32({p})", "double": "r.f64({p})",
    "decimal": "dev.fastwire.Decimals.read(r, {p})", "uuid": "dev.fastwire.Uuids.get(r.buf, {p})",
}
READ_RAW = {
    "byte": "r.u8({p}).toLong()", "char": "r.u8({p}).toLong()", "uint8": "r.u8({p}).toLong()",
    "int8": "r.i8({p}).toLong()", "int16": "r.i16({p}).toLong()",
    "uint16": "(r.i16({p}).toLong() and 0xFFFFL)", "int32": "r.i32({p}).toLong()",
    "uint32": "r.u32({p})", "wchar": "r.u32({p})", "int64": "r.i64({p})", "uint64": "r.i64({p})",
}
# Writing: (put at a position, append) by scalar, with {v} the value.
WRITE = {
    "bool": ("w.u8({p}, if ({v}) 1 else 0)", "w.addU8(if ({v}) 1 else 0)"),
    "byte": ("w.u8({p}, {v}.toInt())", "w.addU8({v}.toInt())"),
    "uint8": ("w.u8({p}, {v}.toInt())", "w.addU8({v}.toInt())"),
    "int8": ("w.u8({p}, {v}.toInt())", "w.addU8({v}.toInt())"),
    "char": ("w.u8({p}, {v}.code)", "w.addU8({v}.code)"),
    "int16": ("w.i16({p}, {v})", "w.addI16({v})"),
    "uint16": ("w.i16({p}, {v}.toShort())", "w.addI16({v}.toShort())"),
    "int32": ("w.i32({p}, {v})", "w.addI32({v})"),
    "uint32": ("w.i32({p}, {v}.toInt())", "w.addI32({v}.toInt())"),
    "wchar": ("w.i32({p}, {v}.toInt())", "w.addI32({v}.toInt())"),
    "int64": ("w.i64({p}, {v})", "w.addI64({v})"),
    "uint64": ("w.i64({p}, {v}.toLong())", "w.addI64({v}.toLong())"),
    "timestamp": ("w.i64({p}, {v})", "w.addI64({v})"),
    "float": ("w.f32({p}, {v})", "w.addF32({v})"),
    "double": ("w.f64({p}, {v})", "w.addF64({v})"),
    "decimal": ("dev.fastwire.Decimals.write(w.buf, {p}, {v})",
                "dev.fastwire.Decimals.write(w.buf, w.allocRaw(16), {v})"),
    "uuid": ("dev.fastwire.Uuids.write(w.buf, {p}, {v})",
             "dev.fastwire.Uuids.write(w.buf, w.allocRaw(16), {v})"),
}
RAW_WRITE = {1: ("w.u8({p}, {v}.toInt())", "w.addU8({v}.toInt())"),
             2: ("w.i16({p}, {v}.toShort())", "w.addI16({v}.toShort())"),
             4: ("w.i32({p}, {v}.toInt())", "w.addI32({v}.toInt())"),
             8: ("w.i64({p}, {v})", "w.addI64({v})")}
JSON = {
    "bool": "w.bool({v})", "byte": "w.integer({v}.toLong())", "uint8": "w.integer({v}.toLong())",
    "int8": "w.integer({v}.toLong())", "char": "w.integer({v}.code.toLong() and 0xFF)",
    "int16": "w.integer({v}.toLong())", "uint16": "w.integer({v}.toLong())",
    "int32": "w.integer({v}.toLong())", "uint32": "w.integer({v}.toLong())",
    "wchar": "w.integer({v}.toLong())", "int64": "w.integer({v})",
    "uint64": "w.unsigned({v}.toLong())", "timestamp": "w.unsigned({v})",
    "float": "w.number({v}.toDouble())", "double": "w.number({v})",
}
KEYWORDS = naming.RESERVED.get("kotlin", frozenset())
VALUE = ("scalar", "timestamp", "decimal", "uuid", "enum", "flags")


def kstring(text: str) -> str:
    out = []
    for ch in text:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "$":
            out.append("\\$")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def schema_object(pkg: ir.Package) -> str:
    return naming.pascal(pkg.name) + "Schema"


class KotlinGen:
    def __init__(self, schema: ir.Schema, options: Options, model: lower.WireModel) -> None:
        self.schema = schema
        self.options = options
        self.model = model
        self.unit = "\t" if options.tabs else " " * (options.indent if options.indent > 0 else 4)
        self.pkg: Optional[ir.Package] = None

    def ident(self, name: str) -> str:
        return naming.ident("kotlin", name)

    def qualified(self, qname: str) -> str:
        package, _, name = qname.partition(".")
        return java_package(self.schema.package(package)) + "." + name

    def unsigned_codec(self, scalar: str) -> str:
        assert self.pkg is not None
        return f"{java_package(self.pkg)}.{schema_object(self.pkg)}.{UNSIGNED[scalar][1]}"

    def ktype(self, w: lower.WireType) -> str:
        k = w.kind
        if k == "scalar":
            return PRIM[w.scalar or ""][0]
        if k in ("decimal", "uuid", "string", "bytes", "timestamp"):
            return PRIM[k][0]
        if k in ("enum", "flags", "struct"):
            assert w.ref is not None
            return self.qualified(w.ref)
        assert w.element is not None
        if k == "optional":
            return self.ktype(w.element) + "?"
        e = self.ktype(w.element)
        if k == "array" or (k == "sequence" and w.collection != "set"):
            return f"MutableList<{e}>"
        if k == "sequence":
            return f"java.util.TreeSet<{e}>"
        assert w.key is not None
        key = self.ktype(w.key)
        if w.collection == "map":
            return f"java.util.TreeMap<{key}, {e}>"
        return f"java.util.HashMap<{key}, {e}>"

    def codec(self, w: lower.WireType) -> str:
        k = w.kind
        if k == "scalar":
            sc = w.scalar or ""
            return PRIM[sc][1] or self.unsigned_codec(sc)
        if k in ("decimal", "uuid", "string", "bytes", "timestamp"):
            return PRIM[k][1] or ""
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

    def codec_type(self, w: lower.WireType) -> str:
        t = self.ktype(w)
        return t

    def scalar_of(self, w: lower.WireType) -> Optional[str]:
        if w.kind == "scalar":
            return w.scalar
        if w.kind in ("timestamp", "decimal", "uuid"):
            return w.kind
        return None

    # ---- literals ---------------------------------------------------------------------
    def int_literal(self, value: int, scalar: str) -> str:
        t = PRIM[scalar][0]
        if t in ("UByte", "UShort", "UInt", "ULong"):
            if value < 0:
                value += 1 << (8 * (ir.PRIMITIVE_SIZES[scalar] or 8))
            return f"{value}u" + ("L" if t == "ULong" else "")
        if t == "Char":
            return f"Char({value})"
        if t == "Boolean":
            return "true" if value else "false"
        if t == "Long":
            if value >= 1 << 63:
                value -= 1 << 64
            return "Long.MIN_VALUE" if value == -(1 << 63) else f"{value}L"
        if t == "Int":
            return "Int.MIN_VALUE" if value == -(1 << 31) else str(value)
        if t == "Short":
            return f"({value}).toShort()"
        if t == "Byte":
            return f"({value}).toByte()"
        return str(value)

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

    def enum_value(self, ref: str, lit: lower.Literal) -> str:
        t = self.lookup_enum(ref)
        kn = self.qualified(ref)
        if len(lit.names) == 1 and t.value(lit.names[0]) is not None:
            return f"{kn}.{self.ident(lit.names[0])}"
        return f"{kn}.of({self.raw_literal(int(cast(int, lit.value)), t.base)})"

    def default(self, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str) -> str:
        if lit is not None and lit.kind == "null":
            return "null"
        if lit is None:
            return self.zero(w, fcodec)
        target = w.element if w.kind == "optional" else w
        assert target is not None
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
            return kstring(str(lit.value))
        if lit.kind == "uuid":
            return f'java.util.UUID.fromString("{lit.value}")'
        if lit.kind == "decimal" or target.kind == "decimal":
            return f'dev.fastwire.Decimals.parse("{lit.value}")'
        if lit.kind == "float":
            x = float(cast(float, lit.value))
            single = target.scalar == "float"
            if x != x or x in (float("inf"), float("-inf")):
                raw = int(cast(int, lit.raw))
                return f"Float.fromBits(0x{raw:08x})" if single else f"Double.fromBits(0x{raw:016x}L)"
            return float_literal(x) + ("f" if single else "")
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
            return self.int_literal(0, w.scalar or "") if w.scalar not in ("float", "double") \
                else ("0f" if w.scalar == "float" else "0.0")
        if k == "timestamp":
            return "0L"
        if k == "decimal":
            return "java.math.BigDecimal.ZERO"
        if k == "uuid":
            return "dev.fastwire.Uuids.NIL"
        if k == "string":
            return '""'
        if k == "bytes":
            return "ByteArray(0)"
        if k in ("enum", "flags"):
            assert w.ref is not None
            return f"{self.qualified(w.ref)}.of(0L)"
        if k == "struct":
            return f"{self.ktype(w)}()"
        return f"{fcodec}.zero()"

    # ---- files ------------------------------------------------------------------------
    def generate(self) -> Dict[str, str]:
        files: Dict[str, str] = {}
        for pkg in self.schema.packages:
            self.pkg = pkg
            folder = java_package(pkg).replace(".", "/")
            for t in pkg.types:
                if isinstance(t, ir.EnumType):
                    files[f"{folder}/{t.name}.kt"] = self.enum_file(pkg, t)
                elif isinstance(t, ir.StructType):
                    files[f"{folder}/{t.name}.kt"] = self.struct_file(pkg, t)
            files[f"{folder}/{schema_object(pkg)}.kt"] = self.schema_file(pkg)
            if self.options.proto:
                from .protocol import protocol_files
                files.update(protocol_files(self, pkg))
        return files

    def header(self, pkg: ir.Package) -> Lines:
        out = Lines(self.unit)
        out(f"// Generated by fastwire {__version__} from {pkg.name}.fbe: do not edit.",
            '@file:Suppress("UNUSED_PARAMETER", "UNCHECKED_CAST", "RedundantVisibilityModifier", '
            '"ReplaceCallWithBinaryOperator", "NAME_SHADOWING")',
            "",
            f"package {java_package(pkg)}", "")
        return out

    def doc(self, out: Lines, text: Optional[str]) -> None:
        for line in line_comments(text, "//", language="kotlin"):
            out(line)

    def enum_file(self, pkg: ir.Package, t: ir.EnumType) -> str:
        out = self.header(pkg)
        n = t.name
        flags = t.kind == "flags"
        base = SCALAR_ENUM[t.base]
        self.doc(out, t.doc)
        out(f"/** {t.kind} {n} : {t.base}. Values without a name are kept (of() makes them). */")
        out.open(f"class {n} private constructor(@JvmField val value: Long, private val label: String?) "
                 f": Comparable<{n}> {{")
        out.open("companion object {")
        canonical: Dict[int, str] = {}
        for v in t.values:
            if v.value in canonical:
                out(f"@JvmField val {self.ident(v.name)}: {n} = {self.ident(canonical[v.value])}")
                continue
            canonical[v.value] = v.name
            raw = self.raw_literal(v.value, t.base)
            out(f"@JvmField val {self.ident(v.name)}: {n} = {n}({raw}, {kstring(v.name)})")
        names = ", ".join(self.ident(canonical[v]) for v in canonical)
        out(f"private val NAMED: Array<{n}> = arrayOf({names})",
            f"private val BY_LOW_BYTE: Array<{n}?> = arrayOfNulls<{n}>(256).also {{ t ->",
            f"{self.unit}for (i in NAMED.indices.reversed()) t[NAMED[i].value.toInt() and 0xFF] = NAMED[i]",
            "}",
            f"@JvmField val CODEC: dev.fastwire.Codecs.Int<{n}> = "
            f"dev.fastwire.Codecs.enumOf(dev.fastwire.Scalar.{base}, {{ of(it) }}, {{ it.value }})",
            "",
            "/** The constant of a value, or a new instance for a value without a name. */")
        out.open(f"@JvmStatic fun of(value: Long): {n} {{")
        out("val hit = BY_LOW_BYTE[value.toInt() and 0xFF]",
            "if (hit != null && hit.value == value) return hit",
            "for (e in NAMED) if (e.value == value) return e",
            f"return {n}(value, null)")
        out.close()
        out.close()
        out("")
        if flags:
            out(f"fun has(flag: {n}): Boolean = (value and flag.value) == flag.value",
                f"infix fun or(flag: {n}): {n} = of(value or flag.value)",
                f"infix fun and(flag: {n}): {n} = of(value and flag.value)", "")
        out(f"override fun equals(other: Any?): Boolean = other is {n} && other.value == value",
            "override fun hashCode(): Int = value.hashCode()",
            f"override fun compareTo(other: {n}): Int = dev.fastwire.Scalar.{base}.compare(value, other.value)")
        if flags:
            out.open("override fun toString(): String {")
            out("val sb = StringBuilder()")
            out("for (e in NAMED) if (e.value != 0L && (value and e.value) == e.value) "
                "sb.append(if (sb.isNotEmpty()) \"|\" else \"\").append(e.label)")
            out("return sb.toString()")
            out.close()
        else:
            out('override fun toString(): String = label ?: "<unknown>"')
        out.close()
        return out.text()

    def struct_file(self, pkg: ir.Package, s: ir.StructType) -> str:
        from .struct import emit_struct
        out = self.header(pkg)
        emit_struct(self, out, s)
        return out.text()

    def schema_file(self, pkg: ir.Package) -> str:
        out = self.header(pkg)
        obj = schema_object(pkg)
        out(f"/** The structs of package {pkg.name}, by name, and the codecs of Kotlin's unsigned types. */")
        out.open(f"object {obj} {{")
        out(f"const val PACKAGE: String = {kstring(pkg.name)}")
        if pkg.version:
            out(f'const val VERSION: String = "{pkg.version[0]}.{pkg.version[1]}"')
        for kt, name, box, unbox in UNSIGNED.values():
            out(f"@JvmField val {name}: dev.fastwire.Codecs.Int<{kt}> = "
                f"dev.fastwire.Codecs.Int<{kt}>(dev.fastwire.Scalar.{name}, {{ {box} }}, {{ {unbox} }})")
        entries = ", ".join(f"{kstring(s.name)} to {s.name}.CODEC" for s in pkg.structs)
        out("@JvmField val STRUCTS: Map<String, dev.fastwire.StructCodec<*>> = "
            f"linkedMapOf<String, dev.fastwire.StructCodec<*>>({entries})")
        out.close()
        return out.text()


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    return KotlinGen(model.schema, options, model).generate()


__all__ = ["generate", "KotlinGen", "List", "READ", "READ_RAW", "WRITE", "RAW_WRITE", "JSON",
           "VALUE", "KEYWORDS"]
