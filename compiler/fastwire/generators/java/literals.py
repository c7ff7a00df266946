"""Java's literals: a field's initial value from its lowered default (lower.Literal), or
its type's zero."""

from __future__ import annotations

from typing import Callable, Dict, Optional, cast

from ... import ir, lower
from ..jvm import names
from .names import ident, jstring
from .types import PRIM, jtype

ZERO = {"boolean": "false", "float": "0f", "double": "0.0", "long": "0L", "int": "0",
        "char": "(char) 0"}
_ZEROS: Dict[str, Callable[[ir.Schema, lower.WireType, str], str]] = {
    "optional": lambda s, w, c: "null",
    "decimal": lambda s, w, c: "java.math.BigDecimal.ZERO",
    "uuid": lambda s, w, c: "dev.fastwire.Uuids.NIL",
    "string": lambda s, w, c: '""',
    "bytes": lambda s, w, c: "new byte[0]",
    "enum": lambda s, w, c: f"{names.qualified(s, w.ref or '')}.of(0L)",
    "flags": lambda s, w, c: f"{names.qualified(s, w.ref or '')}.of(0L)",
    "struct": lambda s, w, c: f"new {jtype(s, w)}()",
}


def zero(schema: ir.Schema, w: lower.WireType, fcodec: str) -> str:
    if w.helper in PRIM and w.helper not in _ZEROS:  # the scalars and timestamps
        jt = PRIM[w.helper][0]
        return ZERO.get(jt, f"({jt}) 0")
    return _ZEROS.get(w.helper, lambda s, w, c: f"{c}.zero()")(schema, w, fcodec)


def int_literal(lit: lower.Literal, jt: str) -> str:
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


def _float(lit: lower.Literal, w: lower.WireType) -> str:
    x = float(cast(float, lit.value))
    raw = int(cast(int, lit.raw))
    special = x != x or x in (float("inf"), float("-inf"))
    if w.helper == "float":
        return f"Float.intBitsToFloat(0x{raw:08x})" if special else names.float_literal(x) + "f"
    return f"Double.longBitsToDouble(0x{raw:016x}L)" if special else names.float_literal(x)


def _integer(schema: ir.Schema, lit: lower.Literal, w: lower.WireType) -> str:
    if w.ref is not None:  # an enum or flags value
        return names.enum_value(schema, ident, w.ref, lit)
    return int_literal(lit, PRIM.get(w.helper, PRIM["int32"])[0])


_COMPUTED = {"utc": "dev.fastwire.Timestamps.utc()", "uuid1": "dev.fastwire.Uuids.uuid1()",
             "uuid4": "dev.fastwire.Uuids.uuid4()"}
LITERALS: Dict[str, Callable[[ir.Schema, lower.Literal, lower.WireType], str]] = {
    "null": lambda s, lit, w: "null",
    "computed": lambda s, lit, w: _COMPUTED[str(lit.value)],
    "bool": lambda s, lit, w: "true" if lit.value else "false",
    "string": lambda s, lit, w: jstring(str(lit.value)),
    "uuid": lambda s, lit, w: f'java.util.UUID.fromString("{lit.value}")',
    "decimal": lambda s, lit, w: f'dev.fastwire.Decimals.parse("{lit.value}")',
    "float": lambda s, lit, w: _float(lit, w),
    "integer": _integer,
}


def default(schema: ir.Schema, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str) -> str:
    """The Java expression of a field's initial value."""
    if lit is None:
        return zero(schema, w, fcodec)
    return LITERALS[lit.kind](schema, lit, w.element if w.element is not None and w.helper == "optional" else w)
