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
    neg = "true" if lit.negative else "false"
    return f"new decimal({', '.join(parts)}, {neg}, {lit.scale})"


def _float(sc: Scope, w: WireType, lit: Literal) -> str:
    x = float(str(lit.value)) if not isinstance(lit.value, float) else lit.value
    single = lit.bits == 32
    t = "float" if single else "double"
    if x != x:
        return f"{t}.NaN"
    if x in (float("inf"), float("-inf")):
        return f"{t}.{'PositiveInfinity' if x > 0 else 'NegativeInfinity'}"
    text = repr(x)
    if "e" not in text and "." not in text:
        text += ".0"
    return text + ("f" if single else "d")


def _enum(sc: Scope, w: WireType, value: int, lit: Literal) -> str:
    assert w.ref is not None
    t = sc.type_name(w.ref)
    if lit.names:
        return " | ".join(f"{t}.{ident(n)}" for n in lit.names)
    return f"({t})({int_text(ENUM_BASE[w.scalar or 'int32'], value)})"


def _scalar(sc: Scope, w: WireType, value: int, lit: Literal) -> str:
    assert w.scalar is not None
    return int_text(LEAF[w.scalar][0], value)


# An integer literal, by the helper of the field's wire type.
_INTEGER: Dict[str, Callable[[Scope, WireType, int, Literal], str]] = {
    "enum": _enum, "flags": _enum,
    "timestamp": lambda sc, w, value, lit: f"new {RT}.Timestamp({value}UL)",
}


def _integer(sc: Scope, w: WireType, lit: Literal) -> str:
    value = int(str(lit.value)) if not isinstance(lit.value, int) else lit.value
    return _INTEGER.get(w.helper, _scalar)(sc, w, value, lit)


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
    if w.helper == "optional":
        assert w.element is not None
        w = w.element
    return _LITERAL[lit.kind](sc, w, lit)
