"""Defaults as C++ expressions, from the model's normalised literals (lower.Literal)."""

from __future__ import annotations

from typing import Callable, Dict, Optional

from ... import ir, lower
from ..common import literals
from .names import ident
from .types import Types

# Integer literals' suffixes, and the least values that have no literal of their own.
_SUFFIXES = {"uint64": "ull", "timestamp": "ull", "int64": "ll", "uint32": "u", "wchar": "u"}
_LEAST = {("int64", -2 ** 63): "(-9223372036854775807LL - 1)", ("int32", -2 ** 31): "(-2147483647 - 1)"}
_CASTS = {"char": "char", "wchar": "wchar_t"}
_COMPUTED = {"utc": "fastwire::utc()", "uuid1": "fastwire::uuid::v1()", "uuid4": "fastwire::uuid::v4()"}


def int_literal(value: int, prim: Optional[str]) -> str:
    return _LEAST.get((prim or "", value)) or f"{value}{_SUFFIXES.get(prim or '', '')}"


def _decimal(lit: lower.Literal) -> str:
    if lit.coefficient >= 2 ** 63:
        return f'*fastwire::decimal::from_string("{lit.value}")'
    scale = f", {lit.scale}" if lit.scale else ""
    return f"fastwire::decimal({'-' if lit.negative else ''}{lit.coefficient}ll{scale})"


def _float(lit: lower.Literal) -> str:
    assert isinstance(lit.value, float)
    return literals.float_text(lit.value)


# A default literal's C++ text by its kind (integers and null are handled before).
_LITERALS: Dict[str, Callable[[lower.Literal, Optional[str]], str]] = {
    "bool": lambda lit, prim: "true" if lit.value else "false",
    "float": lambda lit, prim: _float(lit) + ("f" if prim == "float" else ""),
    "decimal": lambda lit, prim: _decimal(lit),
    "string": lambda lit, prim: literals.c_string(str(lit.value)),
    "uuid": lambda lit, prim: f'fastwire::uuid::literal("{lit.value}")',
    "computed": lambda lit, prim: _COMPUTED[str(lit.value)],
}


class Literals(Types):
    """Default member initializers."""

    def default_expr(self, s: ir.StructType, f: ir.Field, package: str) -> Optional[str]:
        """The default member initializer, or None for the type's own zero/empty."""
        lit = self.model.struct(s.qualified_name).default_of(f.name)
        t = f.type
        if lit is None or lit.kind == "null":
            if lit is None and t.container is None and not t.optional and t.value.kind in ("enum", "flags"):
                return f"{self.qualified(t.value, package)}{{}}"
            return None
        prim = t.value.name if t.value.kind == "primitive" else None
        if lit.kind == "integer" and lit.names:
            return " | ".join(f"{self.qualified(t.value, package)}::{ident(n)}" for n in lit.names)
        if lit.kind == "integer":
            assert isinstance(lit.value, int)
            return f"static_cast<{_CASTS[prim]}>({lit.value})" if prim in _CASTS else int_literal(lit.value, prim)
        if lit.kind == "uuid" and lit.raw == bytes(16):
            return None
        return _LITERALS[lit.kind](lit, prim)
