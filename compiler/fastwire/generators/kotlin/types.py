"""Kotlin's names, string literals, types, codecs and literals for each wire type, by
the helper that codes it: Kotlin's unsigned types (UByte, UShort, UInt, ULong) for the
unsigned FBE types, with codecs each package's schema object makes; nullable types for
`T?` (jvm/names.py walks the defaults)."""

from __future__ import annotations

from typing import Optional, cast

from ... import ir, lower, plan
from ..common import naming
from ..jvm import names

_ESCAPES = {"\\": "\\\\", '"': '\\"', "$": "\\$", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def kstring(text: str) -> str:
    """A Kotlin string literal (a `$` escaped: no template)."""
    return '"' + "".join(_ESCAPES.get(ch) or ("\\u%04x" % ord(ch) if ord(ch) < 0x20 or ord(ch) == 0x7F
                                              else ch) for ch in text) + '"'


def ident(name: str) -> str:
    return naming.ident("kotlin", name)


def field(f: "lower.FieldLayout | plan.PlanField") -> str:
    """A field's name in its data class."""
    return ident(f.name)


def fcodec(s: ir.StructType, f: "lower.FieldLayout | plan.PlanField") -> str:
    """A field's codec (made on first use)."""
    return f"{s.name}.Fields.F_{f.name}"


# helper -> (Kotlin type, the runtime's codec, or None: the package's schema object makes one)
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
CONTAINERS = {"optional": "{e}?", "array": "MutableList<{e}>", "vector": "MutableList<{e}>",
              "list": "MutableList<{e}>", "set": "java.util.TreeSet<{e}>",
              "map": "java.util.TreeMap<{k}, {e}>", "hash": "java.util.HashMap<{k}, {e}>"}


def ktype(schema: ir.Schema, w: lower.WireType) -> str:
    if w.helper in PRIM:
        return PRIM[w.helper][0]
    if w.ref is not None:
        return names.qualified(schema, w.ref)
    assert w.element is not None
    return CONTAINERS[w.helper].format(e=ktype(schema, w.element), k=w.key and ktype(schema, w.key))


def codec(schema: ir.Schema, pkg: ir.Package, w: lower.WireType) -> str:
    """A value's codec, in package `pkg` (whose schema object has the unsigned ones)."""
    def leaf(w: lower.WireType) -> Optional[str]:
        if w.helper not in PRIM:
            return None
        return PRIM[w.helper][1] or \
            f"{names.java_package(pkg)}.{names.schema_class(pkg)}.{UNSIGNED[w.helper][1]}"
    return names.codec(schema, w, leaf)


_UNSIGNED = ("UByte", "UShort", "UInt", "ULong")


def int_literal(value: int, bits: int, kt: str) -> str:
    """An integer of Kotlin type kt (bits wide)."""
    if kt in _UNSIGNED:
        value += (1 << bits) if value < 0 else 0
        return f"{value}u" + ("L" if kt == "ULong" else "")
    if kt == "Long":
        value -= (1 << 64) if value >= 1 << 63 else 0
        return "Long.MIN_VALUE" if value == -(1 << 63) else f"{value}L"
    if kt == "Int":
        return "Int.MIN_VALUE" if value == -(1 << 31) else str(value)
    return {"Char": "Char({v})", "Boolean": "true" if value else "false", "Short": "({v}).toShort()",
            "Byte": "({v}).toByte()"}.get(kt, "{v}").format(v=value)


SPELLING = names.Spelling(
    kstring, ident, lambda lit, h: int_literal(int(cast(int, lit.value)), lit.bits, PRIM.get(h, PRIM["int32"])[0]),
    ("Float.fromBits(0x{raw:08x})", "Double.fromBits(0x{raw:016x}L)"),
    {"bytes": "ByteArray(0)", "struct": "{t}()", "float": "0f", "double": "0.0",
     **{h: int_literal(0, 0, PRIM[h][0]) for h in plan.SCALARS if h not in ("float", "double")}})


def default(schema: ir.Schema, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str) -> str:
    return names.default(schema, w, lit, fcodec, SPELLING)
