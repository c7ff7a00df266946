"""Java's names, string literals, types, codecs and literals for each wire type, by
the helper that codes it (jvm/names.py walks the defaults)."""

from __future__ import annotations

from typing import Optional, cast

from ... import ir, lower, plan
from ..common import naming
from ..jvm import names

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def jstring(text: str) -> str:
    """A Java string literal: printable text as is, escapes for the rest (octal for control
    characters, never a backslash-u, which javac would expand before lexing)."""
    return '"' + "".join(_ESCAPES.get(ch) or ("\\%03o" % ord(ch) if ord(ch) < 0x20 or ord(ch) == 0x7F
                                              else ch) for ch in text) + '"'


def ident(name: str) -> str:
    return naming.ident("java", name)


def field(f: "lower.FieldLayout | plan.PlanField") -> str:
    """A field's name in its class."""
    return ident(f.name)


def fcodec(f: "lower.FieldLayout | plan.PlanField") -> str:
    """A field's codec in its class (made on first use)."""
    return f"Fields.F_{f.name}"


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


ZERO = {"boolean": "false", "float": "0f", "double": "0.0", "long": "0L", "int": "0", "char": "(char) 0"}


def int_literal(lit: lower.Literal, helper: str) -> str:
    jt = PRIM.get(helper, PRIM["int32"])[0]
    value = int(cast(int, lit.value))
    if value < 0 and not lit.signed:
        value += 1 << lit.bits
    if jt == "long":
        v = value - (1 << 64) if value >= 1 << 63 else value
        return f"{v}L" if v != -(1 << 63) else "Long.MIN_VALUE"
    if jt == "int":
        v = value - (1 << 32) if value >= 1 << 31 else value
        return str(v) if v != -(1 << 31) else "Integer.MIN_VALUE"
    return f"({jt}) {value}"


SPELLING = names.Spelling(
    jstring, ident, int_literal, ("Float.intBitsToFloat(0x{raw:08x})", "Double.longBitsToDouble(0x{raw:016x}L)"),
    {"bytes": "new byte[0]", "struct": "new {t}()",
     **{h: ZERO.get(PRIM[h][0], f"({PRIM[h][0]}) 0") for h in plan.SCALARS}})


def default(schema: ir.Schema, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str) -> str:
    return names.default(schema, w, lit, fcodec, SPELLING)
