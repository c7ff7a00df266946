"""Field defaults: a zero value per helper, and the schema's defaults formatted from the
lowered model's literals (lower.Literal, StructLayout.defaults)."""

from __future__ import annotations

import json
import math
import uuid
from typing import Callable, Dict, cast

from ... import lower
from .names import Scope
from .types import Wire, base_type

ZERO = {"boolean": "false", "number": "0", "bigint": "0n", "string": '""'}


def js_string(text: str) -> str:
    """A JavaScript string literal as prettier writes it: JSON's escapes (ASCII only), in
    double quotes unless the text holds more double quotes than single ones."""
    body = json.dumps(text, ensure_ascii=True)[1:-1]
    if text.count('"') <= text.count("'"):
        return '"' + body + '"'
    out, i = [], 0
    while i < len(body):
        if body[i] == "\\":
            pair = body[i:i + 2]
            out.append('"' if pair == '\\"' else pair)
            i += 2
            continue
        out.append("\\'" if body[i] == "'" else body[i])
        i += 1
    return "'" + "".join(out) + "'"


def number_text(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0 and math.copysign(1.0, value) < 0:
        return "-0"
    return repr(float(value)).replace("e+", "e")


# helper -> its zero ({ref}: the struct's class; a number's by its TypeScript type, ZERO)
ZEROS = {
    "decimal": "rt.Decimal.ZERO", "uuid": "rt.NIL_UUID", "timestamp": "0n", "string": '""',
    "bytes": "new Uint8Array(0)", "struct": "new {ref}()", "optional": "null",
    **dict.fromkeys(("vector", "list", "set"), "[]"), **dict.fromkeys(("map", "hash"), "new Map()"),
}


def zero(g: Scope, w: Wire) -> str:
    if w.element is not None and w.length is not None:  # an array: its zero elements
        z = zero(g, w.element)
        return "[" + ", ".join([z] * w.length) + "]" if w.length <= 8 else \
            f"Array.from({{ length: {w.length} }}, () => {z})"
    if w.helper not in ZEROS:
        assert w.scalar is not None
        return ZERO[base_type(w.scalar)]
    return ZEROS[w.helper].format(ref=g.wire_ref(w.ref) if w.ref else "")


# lower.Literal.kind -> its text, for a value of wire type `t`
LITERALS: Dict[str, Callable[[lower.Literal, Wire], str]] = {
    "null": lambda lit, t: "null",
    "bool": lambda lit, t: "true" if lit.value else "false",
    "computed": lambda lit, t: f"rt.{lit.value}()",  # utc, uuid1, uuid4
    "integer": lambda lit, t: f"{lit.value}n" if t.helper == "timestamp" or t.scalar in ("int64", "uint64")
    else str(lit.value),
    "float": lambda lit, t: number_text(cast(float, lit.value)),
    "decimal": lambda lit, t: f"new rt.Decimal({lit.coefficient}n, {lit.scale}, {str(lit.negative).lower()})",
    "string": lambda lit, t: js_string(str(lit.value)),
    "uuid": lambda lit, t: js_string(str(uuid.UUID(bytes=cast(bytes, lit.raw)))),
}


def literal(lit: lower.Literal, w: Wire) -> str:
    target = w.element if w.helper == "optional" and w.element is not None else w
    return LITERALS[lit.kind](lit, target)


def default(g: Scope, s: lower.StructLayout, i: int) -> str:
    lit = s.defaults[i]
    w = s.fields[i].wire
    return zero(g, w) if lit is None else literal(lit, w)
