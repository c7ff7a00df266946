"""Java's types and codecs for each wire type, by the helper that codes it."""

from __future__ import annotations

from typing import Optional

from ... import ir, lower
from ..jvm import names

PRIM = {  # helper -> (Java type, boxed, codec)
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
CONTAINERS = {"array": "java.util.List<{e}>", "vector": "java.util.List<{e}>",
              "list": "java.util.List<{e}>", "set": "java.util.TreeSet<{e}>",
              "map": "java.util.TreeMap<{k}, {e}>", "hash": "java.util.HashMap<{k}, {e}>"}


def jtype(schema: ir.Schema, w: lower.WireType, boxed: bool = False) -> str:
    h = w.helper
    if h in PRIM:
        return PRIM[h][1 if boxed else 0]
    if w.ref is not None:
        return names.qualified(schema, w.ref)
    assert w.element is not None
    e = jtype(schema, w.element, True)
    if h == "optional":
        return e
    return CONTAINERS[h].format(e=e, k=w.key and jtype(schema, w.key, True))


def leaf(w: lower.WireType) -> Optional[str]:
    prim = PRIM.get(w.helper)
    return None if prim is None else "dev.fastwire.Codecs." + prim[2]


def codec(schema: ir.Schema, w: lower.WireType) -> str:
    return names.codec(schema, w, leaf)
