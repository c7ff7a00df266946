"""Field defaults: a zero value per helper, and the schema's defaults formatted from the
lowered model's literals (lower.Literal, StructLayout.defaults)."""

from __future__ import annotations

import json
import math
from typing import Callable, Dict

from ... import lower
from .names import Scope
from .types import SCALARS, SEQUENCES, Wire, _el, _ref

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


def _array_zero(g: Scope, w: Wire) -> str:
    z = zero(g, _el(w))
    if w.length is not None and w.length <= 8:
        return "[" + ", ".join([z] * w.length) + "]"
    return f"Array.from({{ length: {w.length} }}, () => {z})"


ZEROS: Dict[str, Callable[[Scope, Wire], str]] = {
    **{h: lambda g, w: ZERO[SCALARS[str(w.scalar)][1]] for h in (*SCALARS, "enum", "flags")},
    "decimal": lambda g, w: "rt.Decimal.ZERO", "uuid": lambda g, w: "rt.NIL_UUID",
    "timestamp": lambda g, w: "0n", "string": lambda g, w: '""',
    "bytes": lambda g, w: "new Uint8Array(0)", "struct": lambda g, w: f"new {_ref(g, w)}()",
    "optional": lambda g, w: "null", "array": _array_zero,
    **{h: (lambda g, w: "[]") for h in SEQUENCES},
    "map": lambda g, w: "new Map()", "hash": lambda g, w: "new Map()",
}


def zero(g: Scope, w: Wire) -> str:
    return ZEROS[w.helper](g, w)


def _integer(lit: lower.Literal, target: Wire) -> str:
    big = target.helper == "timestamp" or (target.scalar in ("int64", "uint64"))
    return f"{lit.value}n" if big else str(lit.value)


def _float(lit: lower.Literal, target: Wire) -> str:
    assert isinstance(lit.value, float)
    return number_text(lit.value)


def _uuid(lit: lower.Literal, target: Wire) -> str:
    assert isinstance(lit.raw, bytes)
    h = lit.raw.hex()
    return js_string(f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}")


COMPUTED = {"utc": "rt.utc()", "uuid1": "rt.uuid1()", "uuid4": "rt.uuid4()"}
# lower.Literal.kind -> its text
LITERALS: Dict[str, Callable[[lower.Literal, Wire], str]] = {
    "null": lambda lit, target: "null",
    "bool": lambda lit, target: "true" if lit.value else "false",
    "computed": lambda lit, target: COMPUTED[str(lit.value)],
    "integer": _integer,
    "float": _float,
    "decimal": lambda lit, target: (f"new rt.Decimal({lit.coefficient}n, {lit.scale}, "
                                    f"{'true' if lit.negative else 'false'})"),
    "string": lambda lit, target: js_string(str(lit.value)),
    "uuid": _uuid,
}


def literal(lit: lower.Literal, w: Wire) -> str:
    target = w.element if w.helper == "optional" and w.element is not None else w
    return LITERALS[lit.kind](lit, target)


def default(g: Scope, s: lower.StructLayout, i: int) -> str:
    lit = s.defaults[i]
    w = s.fields[i].wire
    return zero(g, w) if lit is None else literal(lit, w)
