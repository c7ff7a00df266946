"""A field's initial value, Java's or Kotlin's: from its lowered default (lower.Literal), or
its type's zero; what the languages spell apart comes in a Spelling."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple, cast

from ... import ir, lower
from . import names

ZEROS = {"optional": "null", "timestamp": "0L", "decimal": "java.math.BigDecimal.ZERO",
         "uuid": "dev.fastwire.Uuids.NIL", "string": '""', "enum": "{t}.of(0L)", "flags": "{t}.of(0L)"}
COMPUTED = {"utc": "dev.fastwire.Timestamps.utc()", "uuid1": "dev.fastwire.Uuids.uuid1()",
            "uuid4": "dev.fastwire.Uuids.uuid4()"}


@dataclass(frozen=True)
class Spelling:
    quote: Callable[[str], str]  # a string literal
    ident: Callable[[str], str]
    integer: Callable[[lower.Literal, str], str]  # an integer literal of a helper's type
    floats: Tuple[str, str]  # a float's, a double's NaN or infinity from its {raw} bits
    zeros: Dict[str, str]  # the zeros of the language's own ({t}: the type)


def zero(schema: ir.Schema, w: lower.WireType, fcodec: str, sp: Spelling) -> str:
    template = sp.zeros.get(w.helper) or ZEROS.get(w.helper) or "{c}.zero()"
    return template.format(t=w.ref and names.qualified(schema, w.ref), c=fcodec)


def _float(lit: lower.Literal, w: lower.WireType, sp: Spelling) -> str:
    x = float(cast(float, lit.value))
    single = w.helper == "float"
    if x != x or x in (float("inf"), float("-inf")):
        return sp.floats[0 if single else 1].format(raw=int(cast(int, lit.raw)))
    return names.float_literal(x) + ("f" if single else "")


def _integer(schema: ir.Schema, lit: lower.Literal, w: lower.WireType, sp: Spelling) -> str:
    if w.ref is not None:  # an enum or flags value
        return names.enum_value(schema, sp.ident, w.ref, lit)
    return sp.integer(lit, w.helper)


LITERALS: Dict[str, Callable[[ir.Schema, lower.Literal, lower.WireType, Spelling], str]] = {
    "null": lambda s, lit, w, sp: "null",
    "computed": lambda s, lit, w, sp: COMPUTED[str(lit.value)],
    "bool": lambda s, lit, w, sp: "true" if lit.value else "false",
    "string": lambda s, lit, w, sp: sp.quote(str(lit.value)),
    "uuid": lambda s, lit, w, sp: f'java.util.UUID.fromString("{lit.value}")',
    "decimal": lambda s, lit, w, sp: f'dev.fastwire.Decimals.parse("{lit.value}")',
    "float": lambda s, lit, w, sp: _float(lit, w, sp),
    "integer": _integer,
}


def default(schema: ir.Schema, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str,
            sp: Spelling) -> str:
    """The expression of a field's initial value."""
    if lit is None:
        return zero(schema, w, fcodec, sp)
    value = w.element if w.element is not None and w.helper == "optional" else w
    return LITERALS[lit.kind](schema, lit, value, sp)
