"""Kotlin's literals: a field's initial value from its lowered default (lower.Literal), or
its type's zero."""

from __future__ import annotations

from typing import Callable, Dict, Optional, cast

from ... import ir, lower
from ..jvm import names
from .names import ident, kstring
from .types import PRIM, ktype

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


_ZEROS: Dict[str, Callable[[ir.Schema, lower.WireType, str], str]] = {
    "optional": lambda s, w, c: "null",
    "float": lambda s, w, c: "0f",
    "double": lambda s, w, c: "0.0",
    "timestamp": lambda s, w, c: "0L",
    "decimal": lambda s, w, c: "java.math.BigDecimal.ZERO",
    "uuid": lambda s, w, c: "dev.fastwire.Uuids.NIL",
    "string": lambda s, w, c: '""',
    "bytes": lambda s, w, c: "ByteArray(0)",
    "enum": lambda s, w, c: f"{names.qualified(s, w.ref or '')}.of(0L)",
    "flags": lambda s, w, c: f"{names.qualified(s, w.ref or '')}.of(0L)",
    "struct": lambda s, w, c: f"{ktype(s, w)}()",
}


def zero(schema: ir.Schema, w: lower.WireType, fcodec: str) -> str:
    if w.helper in PRIM and w.helper not in _ZEROS:  # the integer scalars
        return int_literal(0, 0, PRIM[w.helper][0])
    return _ZEROS.get(w.helper, lambda s, w, c: f"{c}.zero()")(schema, w, fcodec)


def _float(lit: lower.Literal, w: lower.WireType) -> str:
    x = float(cast(float, lit.value))
    single = w.helper == "float"
    if x != x or x in (float("inf"), float("-inf")):
        raw = int(cast(int, lit.raw))
        return f"Float.fromBits(0x{raw:08x})" if single else f"Double.fromBits(0x{raw:016x}L)"
    return names.float_literal(x) + ("f" if single else "")


def _integer(schema: ir.Schema, lit: lower.Literal, w: lower.WireType) -> str:
    if w.ref is not None:  # an enum or flags value
        return names.enum_value(schema, ident, w.ref, lit)
    return int_literal(int(cast(int, lit.value)), lit.bits, PRIM.get(w.helper, PRIM["int32"])[0])


_COMPUTED = {"utc": "dev.fastwire.Timestamps.utc()", "uuid1": "dev.fastwire.Uuids.uuid1()",
             "uuid4": "dev.fastwire.Uuids.uuid4()"}
LITERALS: Dict[str, Callable[[ir.Schema, lower.Literal, lower.WireType], str]] = {
    "null": lambda s, lit, w: "null",
    "computed": lambda s, lit, w: _COMPUTED[str(lit.value)],
    "bool": lambda s, lit, w: "true" if lit.value else "false",
    "string": lambda s, lit, w: kstring(str(lit.value)),
    "uuid": lambda s, lit, w: f'java.util.UUID.fromString("{lit.value}")',
    "decimal": lambda s, lit, w: f'dev.fastwire.Decimals.parse("{lit.value}")',
    "float": lambda s, lit, w: _float(lit, w),
    "integer": _integer,
}


def default(schema: ir.Schema, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str) -> str:
    """The Kotlin expression of a field's initial value."""
    if lit is None:
        return zero(schema, w, fcodec)
    return LITERALS[lit.kind](schema, lit, w.element if w.element is not None and w.helper == "optional" else w)
