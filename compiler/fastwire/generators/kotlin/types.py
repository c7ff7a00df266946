"""Kotlin's types and codecs for each wire type, by the helper that codes it: Kotlin's
unsigned types (UByte, UShort, UInt, ULong) for the unsigned FBE types, with codecs each
package's schema object makes; nullable types for `T?`; MutableList, TreeSet, TreeMap,
HashMap for the containers."""

from __future__ import annotations

from typing import Optional

from ... import ir, lower
from ..jvm import names

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
