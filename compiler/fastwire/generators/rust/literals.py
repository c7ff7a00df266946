"""Defaults as Rust expressions, from the model's normalised literals (lower.Literal)."""

from __future__ import annotations

from typing import Optional

from ... import ir, lower
from .types import FLOATS, Types


def rust_string(text: str) -> str:
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.append("\\u{%x}" % ord(ch))
    return '"' + "".join(out) + '"'



class Literals(Types):
    @staticmethod
    def int_literal(value: int, base: str) -> str:
        text = str(value)
        if base in ("int64",) and value == -(1 << 63):
            return "i64::MIN"
        if base == "int32" and value == -(1 << 31):
            return "i32::MIN"
        if base == "int16" and value == -(1 << 15):
            return "i16::MIN"
        if base == "int8" and value == -(1 << 7):
            return "i8::MIN"
        return text

    # ---- defaults -----------------------------------------------------------------------
    def plain_value(self, ref: ir.TypeRef, lit: Optional[lower.Literal], key: bool = False) -> str:
        """The expression of a plain value: `lit` (the schema's default) or the zero."""
        wrap = key and ref.kind == "primitive" and ref.name in FLOATS
        e = self._plain_value(ref, lit)
        return f"::fastwire::Ordered({e})" if wrap else e

    def _plain_value(self, ref: ir.TypeRef, lit: Optional[lower.Literal]) -> str:
        if lit is None or lit.kind == "null":
            if ref.kind == "primitive":
                return {"bool": "false", "float": "0.0", "double": "0.0",
                        "decimal": "::fastwire::Decimal::ZERO",
                        "string": "::fastwire::Text::new()",
                        "bytes": "::fastwire::Bytes::default()",
                        "timestamp": "::fastwire::Timestamp(0)",
                        "uuid": "::fastwire::Uuid::NIL"}.get(ref.name, "0")
            if ref.kind in ("enum", "flags"):
                return f"{self.ref_type(ref)}(0)"
            return f"{self.ref_type(ref)}::default()"
        k = lit.kind
        if k == "computed":
            return {"utc": "::fastwire::Timestamp::now()", "uuid1": "::fastwire::Uuid::new_v1()",
                    "uuid4": "::fastwire::Uuid::new_v4()"}[str(lit.value)]
        if k == "bool":
            return "true" if lit.value else "false"
        if k == "integer":
            assert isinstance(lit.value, int)
            if ref.kind in ("enum", "flags"):
                t = self.schema.lookup(ref)
                assert isinstance(t, ir.EnumType)
                return f"{self.ref_type(ref)}({self.int_literal(lit.value, t.base)})"
            if ref.kind == "primitive" and ref.name == "timestamp":
                return f"::fastwire::Timestamp({lit.value})"
            if ref.kind == "primitive" and ref.name in FLOATS:
                return f"{float(lit.value)!r}"
            if ref.kind == "primitive" and ref.name == "decimal":
                return f"::fastwire::Decimal::lit({abs(lit.value)}, 0, {str(lit.value < 0).lower()})"
            return self.int_literal(lit.value, ref.name)
        if k == "float":
            if ref.kind == "primitive" and ref.name == "decimal":
                raise AssertionError("decimal from float")
            if lit.bits == 32:
                return f"f32::from_bits({lit.raw:#010x})"
            return f"f64::from_bits({lit.raw:#018x})"
        if k == "decimal":
            return (f"::fastwire::Decimal::lit({lit.coefficient}, {lit.scale}, "
                    f"{str(lit.negative).lower()})")
        if k == "string":
            return f"::fastwire::Text::from({rust_string(str(lit.value))})"
        if k == "uuid":
            assert isinstance(lit.raw, bytes)
            if not any(lit.raw):
                return "::fastwire::Uuid::NIL"
            return f"::fastwire::Uuid::from_u128(0x{lit.raw.hex()})"
        raise AssertionError(f"literal {k}")

    def default_expr(self, f: ir.Field, lit: Optional[lower.Literal]) -> str:
        t = f.type
        if t.container == "array":
            elem = "None" if t.optional else self.plain_value(t.value, None)
            return f"::std::array::from_fn(|_| {elem})"
        if t.container is not None:
            return "Default::default()"
        if t.optional:
            if lit is None or lit.kind == "null":
                return "None"
            return f"Some({self.plain_value(t.value, lit)})"
        return self.plain_value(t.value, lit)
