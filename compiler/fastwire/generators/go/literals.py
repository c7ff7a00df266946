"""Go literals of defaults (lower.Literal), and the statements that give a field its
default in New<T>()."""

from __future__ import annotations

import struct as _struct
from typing import Optional

from ... import lower
from ..common.literals import c_string
from .names import Scope
from .types import gotype

COMPUTED = {"utc": "fw.Now()", "uuid1": "fw.NewUUID1()", "uuid4": "fw.NewUUID4()"}


def _f32(x: float) -> int:
    return int(_struct.unpack("<I", _struct.pack("<f", x))[0])


def _uuid(g: Scope, w: lower.WireType, lit: lower.Literal) -> str:
    raw = lit.raw
    assert isinstance(raw, bytes)
    return "fw.UUID{" + ", ".join(f"0x{b:02x}" for b in raw) + "}" if any(raw) else "fw.UUID{}"


def _decimal(g: Scope, w: lower.WireType, lit: lower.Literal) -> str:
    c = lit.coefficient
    return (f"fw.Decimal{{Lo: {c & (2**64 - 1)}, Hi: {c >> 64}, Scale: {lit.scale}, "
            f"Neg: {'true' if lit.negative else 'false'}}}")


def _float(g: Scope, w: lower.WireType, lit: lower.Literal) -> str:
    h = w.helper
    if h == "float" or lit.bits == 32 and h != "decimal":
        bits = lit.raw if lit.bits == 32 else _f32(float(lit.value))  # type: ignore[arg-type]
        return f"math.Float32frombits(0x{bits:08x})"
    if h == "decimal":
        return f"fw.MustDecimal({c_string(repr(lit.value))})"
    return f"math.Float64frombits(0x{lit.raw:016x})"


def _as_float(g: Scope, w: lower.WireType, v: int) -> str:
    x = float(v)
    raw = _f32(x) if w.helper == "float" else _struct.unpack("<Q", _struct.pack("<d", x))[0]
    return _float(g, w, lower.Literal("float", x, 32 if w.helper == "float" else 64, raw=raw))


# An integer default by the type it is given to.
INTEGER_AS = {
    "timestamp": lambda g, w, v: f"fw.Timestamp({v})",
    "decimal": lambda g, w, v: f"fw.MustDecimal({c_string(str(v))})",
    "float": _as_float, "double": _as_float,
    "enum": lambda g, w, v: f"{gotype(g, w)}({v})", "flags": lambda g, w, v: f"{gotype(g, w)}({v})",
    "bool": lambda g, w, v: "true" if v else "false"}


def _integer(g: Scope, w: lower.WireType, lit: lower.Literal) -> str:
    assert isinstance(lit.value, int)
    as_type = INTEGER_AS.get(w.helper)
    return as_type(g, w, int(lit.value)) if as_type else str(int(lit.value))


LITERALS = {"bool": lambda g, w, lit: "true" if lit.value else "false", "uuid": _uuid, "decimal": _decimal,
            "float": _float, "integer": _integer,
            "computed": lambda g, w, lit: COMPUTED[str(lit.value)],
            "string": lambda g, w, lit: c_string(str(lit.value))}


def plain_literal(g: Scope, w: lower.WireType, lit: lower.Literal) -> str:
    return LITERALS[lit.kind](g, w, lit)


def literal(g: Scope, w: lower.WireType, lit: lower.Literal) -> str:
    """A default of a field of wire type w (an optional's: a pointer to a typed value)."""
    e = w.element
    if e is None or w.helper != "optional":
        return plain_literal(g, w, lit)
    text = plain_literal(g, e, lit)
    if e.scalar is not None and not text.startswith(("math.", "fw.")):
        text = f"{gotype(g, e)}({text})"
    return f"fw.Ptr({text})"


def needs_init(w: lower.WireType) -> bool:
    """A zero value of w is not its default: a struct, or an array of them."""
    e = w.element
    return w.helper == "struct" or e is not None and w.collection == "array" and needs_init(e)


def emit_default(g: Scope, dst: str, w: lower.WireType, lit: Optional[lower.Literal]) -> None:
    if lit is not None:
        if lit.kind != "null":
            g.p.value(f"{dst} = {literal(g, w, lit)}")
    elif w.ref is not None and w.helper == "struct":
        g.p.print(f"{dst} = {g.qual(w.ref, 'New{name}')}()")
    elif w.element is not None and w.collection == "array" and needs_init(w.element):
        i = g.var("i")
        with g.p.block(f"for {i} := range {dst} {{", "}"):
            emit_default(g, dst + f"[{i}]", w.element, None)
