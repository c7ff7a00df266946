"""Defaults as Rust expressions, from the model's normalised literals (lower.Literal)."""

from __future__ import annotations

from typing import Optional

from ... import ir, lower
from .types import FLOATS, PRIMITIVES, Types

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
# A primitive's zero (others: 0); enums and flags are `T(0)`, structs `T::default()`.
_ZEROS = {"bool": "false", "float": "0.0", "double": "0.0", "decimal": "::fastwire::Decimal::ZERO",
          "string": "::fastwire::Text::new()", "bytes": "::fastwire::Bytes::default()",
          "timestamp": "::fastwire::Timestamp(0)", "uuid": "::fastwire::Uuid::NIL"}
_COMPUTED = {"utc": "::fastwire::Timestamp::now()", "uuid1": "::fastwire::Uuid::new_v1()",
             "uuid4": "::fastwire::Uuid::new_v4()"}
_MIN_BITS = {"int64": 63, "int32": 31, "int16": 15, "int8": 7}  # i<N>::MIN is -(1 << this)


def rust_string(text: str) -> str:
    return '"' + "".join(_ESCAPES.get(ch) or (ch if 0x20 <= ord(ch) < 0x7F else "\\u{%x}" % ord(ch))
                         for ch in text) + '"'


class Literals(Types):
    @staticmethod
    def int_literal(value: int, base: str) -> str:
        if base in _MIN_BITS and value == -(1 << _MIN_BITS[base]):
            return f"{PRIMITIVES[base]}::MIN"
        return str(value)

    def plain_value(self, ref: ir.TypeRef, lit: Optional[lower.Literal]) -> str:
        """The expression of a plain value: `lit` (the schema's default) or the zero."""
        prim = ref.name if ref.kind == "primitive" else None
        if lit is None or lit.kind == "null":
            if prim is not None:
                return _ZEROS.get(prim, "0")
            return f"{self.ref_type(ref)}(0)" if ref.kind in ("enum", "flags") else f"{self.ref_type(ref)}::default()"
        k, value = lit.kind, lit.value
        if k == "computed":
            return _COMPUTED[str(value)]
        if k == "bool":
            return "true" if value else "false"
        if k == "integer":
            assert isinstance(value, int)
            if prim is None:
                t = self.schema.lookup(ref)
                assert isinstance(t, ir.EnumType)
                return f"{self.ref_type(ref)}({self.int_literal(value, t.base)})"
            if prim == "timestamp":
                return f"::fastwire::Timestamp({value})"
            if prim in FLOATS:
                return f"{float(value)!r}"
            if prim == "decimal":
                return f"::fastwire::Decimal::lit({abs(value)}, 0, {str(value < 0).lower()})"
            return self.int_literal(value, prim)
        if k == "float":
            assert prim != "decimal", "decimal from float"
            return f"f32::from_bits({lit.raw:#010x})" if lit.bits == 32 else f"f64::from_bits({lit.raw:#018x})"
        if k == "decimal":
            return f"::fastwire::Decimal::lit({lit.coefficient}, {lit.scale}, {str(lit.negative).lower()})"
        if k == "string":
            return f"::fastwire::Text::from({rust_string(str(value))})"
        assert k == "uuid" and isinstance(lit.raw, bytes), k
        return f"::fastwire::Uuid::from_u128(0x{lit.raw.hex()})" if any(lit.raw) else "::fastwire::Uuid::NIL"

    def default_expr(self, f: ir.Field, lit: Optional[lower.Literal]) -> str:
        t = f.type
        if t.container == "array":
            return f"::std::array::from_fn(|_| {'None' if t.optional else self.plain_value(t.value, None)})"
        if t.container is not None:
            return "Default::default()"
        if t.optional:
            return "None" if lit is None or lit.kind == "null" else f"Some({self.plain_value(t.value, lit)})"
        return self.plain_value(t.value, lit)
