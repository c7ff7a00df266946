"""Kotlin's literals (jvm/literals.py walks the defaults)."""

from __future__ import annotations

from typing import Optional, cast

from ... import ir, lower, plan
from ..jvm import literals
from .names import ident, kstring
from .types import PRIM

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


SPELLING = literals.Spelling(
    kstring, ident, lambda lit, h: int_literal(int(cast(int, lit.value)), lit.bits, PRIM.get(h, PRIM["int32"])[0]),
    ("Float.fromBits(0x{raw:08x})", "Double.fromBits(0x{raw:016x}L)"),
    {"bytes": "ByteArray(0)", "struct": "{t}()", "float": "0f", "double": "0.0",
     **{h: int_literal(0, 0, PRIM[h][0]) for h in plan.SCALARS if h not in ("float", "double")}})


def default(schema: ir.Schema, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str) -> str:
    return literals.default(schema, w, lit, fcodec, SPELLING)
