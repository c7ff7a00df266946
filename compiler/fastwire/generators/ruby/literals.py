"""Ruby literals: strings, floats, comments and the schema's defaults (lower.Literal)."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

from ... import ir, lower
from ..common import docs
from .names import Scope, member_names


def ruby_string(text: str) -> str:
    out = []
    for ch in text:
        o = ord(ch)
        if ch in '"\\#':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02X}")
        elif o > 0x7F:
            out.append(f"\\u{{{o:X}}}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def float_literal(x: float) -> str:
    if x != x:
        return "Float::NAN"
    if x in (float("inf"), float("-inf")):
        return "Float::INFINITY" if x > 0 else "-Float::INFINITY"
    text = repr(float(x))
    if "e" in text and "." not in text.split("e")[0]:
        mant, exp = text.split("e")
        text = f"{mant}.0e{exp}"
    return text


def comments(doc: Optional[str]) -> List[str]:
    return [f"# {line}".rstrip() for line in docs.comment_lines("ruby", doc.strip())] if doc else []



# ---- defaults ----------------------------------------------------------------------
def enum_expr(g: Scope, ref: ir.TypeRef, lit: lower.Literal) -> str:
    t = g.schema.lookup(ref)
    assert isinstance(t, ir.EnumType)
    if lit.names:
        names = member_names(t)
        cls = g.type_name(ref)
        return " | ".join(f"{cls}::{names[n]}" for n in lit.names)
    return str(lit.value)


def zero(g: Scope, ref: ir.TypeRef) -> str:
    if ref.kind == "primitive":
        return {"bool": "false", "float": "0.0", "double": "0.0", "string": '+""',
                "bytes": '"".b', "decimal": "Fastwire::Decimal::ZERO",
                "uuid": "Fastwire::UUID::NIL"}.get(ref.name, "0")
    if ref.kind == "struct":
        return f"{g.type_name(ref)}.new"
    return "0"


def _decimal(lit: lower.Literal) -> str:
    if lit.coefficient == 0 and lit.scale == 0 and not lit.negative:
        return "Fastwire::Decimal::ZERO"
    neg = "true" if lit.negative else "false"
    return f"Fastwire::Decimal.new({lit.coefficient}, {lit.scale}, {neg})"


def _float(lit: lower.Literal) -> str:
    assert isinstance(lit.value, float)
    return float_literal(lit.value)


def _uuid(lit: lower.Literal) -> str:
    assert isinstance(lit.raw, bytes)
    if lit.raw == bytes(16):
        return "Fastwire::UUID::NIL"
    return f'Fastwire::UUID.parse("{lit.value}")'


COMPUTED = {"utc": "Fastwire.utc", "uuid1": "Fastwire::UUID.uuid1", "uuid4": "Fastwire::UUID.uuid4"}
# lower.Literal kind -> its Ruby expression (an integer of an enum or flags type: its members)
LITERALS: Dict[str, Callable[[lower.Literal], str]] = {
    "null": lambda lit: "nil",
    "bool": lambda lit: "true" if lit.value else "false",
    "computed": lambda lit: COMPUTED[str(lit.value)],
    "integer": lambda lit: str(lit.value),
    "float": _float,
    "decimal": _decimal,
    "string": lambda lit: ruby_string(str(lit.value)),
    "uuid": _uuid,
}

ENUM_INTEGERS = {("integer", "enum"), ("integer", "flags")}  # (literal kind, IR type kind)


def literal(g: Scope, ref: ir.TypeRef, lit: lower.Literal) -> str:
    if (lit.kind, ref.kind) in ENUM_INTEGERS:
        return enum_expr(g, ref, lit)
    return LITERALS[lit.kind](lit)


def default(g: Scope, f: ir.Field, lit: Optional[lower.Literal]) -> str:
    t = f.type
    if t.container == "array":
        elem = "nil" if t.optional else zero(g, t.value)
        return f"Array.new({t.size}) {{ {elem} }}"
    if t.container in ("vector", "list"):
        return "[]"
    if t.container == "set":
        return "Set.new"
    if t.container in ("map", "hash"):
        return "{}"
    if lit is not None:
        return literal(g, t.value, lit)
    if t.optional:
        return "nil"
    return zero(g, t.value)
