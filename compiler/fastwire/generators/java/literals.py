"""Java's literals (jvm/literals.py walks the defaults)."""

from __future__ import annotations

from typing import Optional, cast

from ... import ir, lower, plan
from ..jvm import literals
from .names import ident, jstring
from .types import PRIM

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


SPELLING = literals.Spelling(
    jstring, ident, int_literal, ("Float.intBitsToFloat(0x{raw:08x})", "Double.longBitsToDouble(0x{raw:016x}L)"),
    {"bytes": "new byte[0]", "struct": "new {t}()",
     **{h: ZERO.get(PRIM[h][0], f"({PRIM[h][0]}) 0") for h in plan.SCALARS}})


def default(schema: ir.Schema, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str) -> str:
    return literals.default(schema, w, lit, fcodec, SPELLING)
