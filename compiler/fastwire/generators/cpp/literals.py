"""Defaults as C++ expressions, from the model's normalised literals (lower.Literal)."""

from __future__ import annotations

from typing import Callable, Dict, Optional

from ... import ir, lower
from ..common import literals
from .names import ident
from .types import Types


class Literals(Types):
    """Default member initializers."""

    # -- literals -----------------------------------------------------------------------------
    @staticmethod
    def int_literal(value: int, prim: Optional[str]) -> str:
        if prim in ("int64",) and value == -2 ** 63:
            return "(-9223372036854775807LL - 1)"
        if prim == "int32" and value == -2 ** 31:
            return "(-2147483647 - 1)"
        if prim in ("uint64", "timestamp"):
            return f"{value}ull"
        if prim == "int64":
            return f"{value}ll"
        if prim == "uint32" or prim == "wchar":
            return f"{value}u"
        return str(value)

    @staticmethod
    def string_literal(text: str) -> str:
        return literals.c_string(text)

    def enum_value_literal(self, etype: ir.EnumType, name: str, value: int,
                           package: str) -> str:
        ref = ir.TypeRef(etype.kind, etype.name, etype.package)
        return f"{self.qualified(ref, package)}::{ident(name)}"

    def default_expr(self, s: ir.StructType, f: ir.Field, package: str) -> Optional[str]:
        """The default member initializer, or None for the type's own zero/empty."""
        layout = self.model.struct(s.qualified_name)
        lit = layout.default_of(f.name)
        t = f.type
        if lit is None or lit.kind == "null":
            if lit is None and t.container is None and not t.optional and \
                    t.value.kind in ("enum", "flags"):
                return f"{self.qualified(t.value, package)}{{}}"
            return None
        prim = t.value.name if t.value.kind == "primitive" else None
        if lit.kind == "integer" and lit.names:
            etype = self.schema.lookup(t.value)
            assert isinstance(etype, ir.EnumType)
            return " | ".join(self.enum_value_literal(etype, n, 0, package) for n in lit.names)
        if lit.kind == "integer" and prim in _CASTS:
            return f"static_cast<{_CASTS[prim]}>({lit.value})"
        if lit.kind == "integer":
            assert isinstance(lit.value, int)
            return self.int_literal(lit.value, prim)
        if lit.kind == "uuid" and lit.raw == bytes(16):
            return None
        return _LITERALS[lit.kind](lit, prim)

    @staticmethod
    def decimal_literal(lit: lower.Literal) -> str:
        if lit.coefficient < 2 ** 63:
            sign = "-" if lit.negative else ""
            if lit.scale == 0:
                return f"fastwire::decimal({sign}{lit.coefficient}ll)"
            return f"fastwire::decimal({sign}{lit.coefficient}ll, {lit.scale})"
        return f'*fastwire::decimal::from_string("{lit.value}")'


def _float(lit: lower.Literal) -> str:
    assert isinstance(lit.value, float)
    return literals.float_text(lit.value)


# A default literal's C++ text by its kind (integers and null are handled before).
_CASTS = {"char": "char", "wchar": "wchar_t"}
_COMPUTED: Dict[str, str] = {"utc": "fastwire::utc()", "uuid1": "fastwire::uuid::v1()",
                             "uuid4": "fastwire::uuid::v4()"}
_LITERALS: Dict[str, Callable[[lower.Literal, Optional[str]], str]] = {
    "bool": lambda lit, prim: "true" if lit.value else "false",
    "float": lambda lit, prim: _float(lit) + ("f" if prim == "float" else ""),
    "decimal": lambda lit, prim: Literals.decimal_literal(lit),
    "string": lambda lit, prim: Literals.string_literal(str(lit.value)),
    "uuid": lambda lit, prim: f'fastwire::uuid::literal("{lit.value}")',
    "computed": lambda lit, prim: _COMPUTED[str(lit.value)],
}
