"""Defaults as C# expressions, from the lowered literals (lower.Literal), by literal kind."""

from __future__ import annotations

from typing import Callable, Dict

from ...lower import Literal, WireType
from .names import RT, Scope, ident, string
from .types import ENUM_BASE, LEAF

_COMPUTED = {"utc": f"{RT}.Timestamp.Now", "uuid1": f"{RT}.Uuid.NewTimeBased()",
             "uuid4": "global::System.Guid.NewGuid()"}
_MIN = {("long", -(1 << 63)): "long.MinValue", ("int", -(1 << 31)): "int.MinValue"}
_SUFFIX = {"uint": "U", "long": "L", "ulong": "UL"}
_NARROW = ("byte", "sbyte", "short", "ushort", "char")  # integer literals cast to these
_INFINITY = {float("inf"): "PositiveInfinity", float("-inf"): "NegativeInfinity"}


def int_text(t: str, v: int) -> str:
    """Integer v as a literal of C# type t."""
    if (t, v) in _MIN:
        return _MIN[(t, v)]
    if t in _NARROW:
        return f"({t})({v})" if v < 0 or t == "char" else f"({t}){v}"
    return f"{v}{_SUFFIX.get(t, '')}"


def _decimal(sc: Scope, w: WireType, lit: Literal) -> str:
    c = lit.coefficient
    words = (c & 0xFFFFFFFF, (c >> 32) & 0xFFFFFFFF, c >> 64)
    parts = [f"unchecked((int)0x{x:08X})" if x >= 0x80000000 else str(x) for x in words]
    return f"new decimal({', '.join(parts)}, {'true' if lit.negative else 'false'}, {lit.scale})"


def _float(sc: Scope, w: WireType, lit: Literal) -> str:
    x = lit.value if isinstance(lit.value, float) else float(str(lit.value))
    t = "float" if lit.bits == 32 else "double"
    if x != x or x in _INFINITY:
        return f"{t}.{_INFINITY.get(x, 'NaN')}"
    text = repr(x)
    return text + ("" if "e" in text or "." in text else ".0") + t[0]


def _integer(sc: Scope, w: WireType, lit: Literal) -> str:
    value = lit.value if isinstance(lit.value, int) else int(str(lit.value))
    if w.helper == "timestamp":
        return f"new {RT}.Timestamp({value}UL)"
    if w.ref is None:
        assert w.scalar is not None
        return int_text(LEAF[w.scalar][0], value)
    t = sc.type_name(w.ref)  # an enum or flags: its members, or the value cast
    if lit.names:
        return " | ".join(f"{t}.{ident(n)}" for n in lit.names)
    return f"({t})({int_text(ENUM_BASE[w.scalar or 'int32'], value)})"


_LITERAL: Dict[str, Callable[[Scope, WireType, Literal], str]] = {
    "bool": lambda sc, w, lit: "true" if lit.value else "false",
    "computed": lambda sc, w, lit: _COMPUTED[str(lit.value)],
    "string": lambda sc, w, lit: string(str(lit.value)),
    "uuid": lambda sc, w, lit: f'new global::System.Guid("{lit.value}")',
    "decimal": _decimal, "float": _float, "integer": _integer,
    "null": lambda sc, w, lit: "null",
}


def literal(sc: Scope, w: WireType, lit: Literal) -> str:
    """The default `lit` of a field of wire type w (an optional's: its value's, or null)."""
    return _LITERAL[lit.kind](sc, w.element if w.helper == "optional" and w.element else w, lit)
