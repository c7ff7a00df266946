"""Expressions of a field's value, shared by the versioned and the final codecs: what a
writer puts in a slot, how a reader turns slot values back into the field's value, and
the bytes of strings."""

from __future__ import annotations

from ... import ir
from .base import Base


class Values(Base):
    def vput_expr(self, s: ir.StructType, f: ir.Field) -> str:
        k = self.kind(f)
        v = f"v.{self.field_attr(f)}"
        if k in ("number", "enum"):
            return v
        if k == "uuid":
            return f"_rt.uuid_bytes({v})"
        if k == "decimal":
            return f"_rt.decimal_bytes({v})"
        if k == "string":
            return f"_rt.vput_str(buf, pos, {v})"
        if k == "bytes":
            return f"_rt.vput_bytes(buf, pos, {v})"
        if k == "struct":
            return f"{self.struct_fn(f.type.value, 'vput')}(buf, pos, {v})"
        star = "*" if k in ("optional", "array") else ""
        return f"{star}{self.field_codec(s, f)}.vput(buf, pos, {v})"

    def vget_expr(self, s: ir.StructType, f: ir.Field, off: int, size: int) -> str:
        k = self.kind(f)
        a = f"{self.field_attr(f)}_"
        end = f"pos + {off + size}"
        if k == "number":
            return a
        if k == "enum":
            return f"{self.enum_codec(f.type.value)}.of[{a}]"
        if k == "uuid":
            return f"_rt.uuid_of({a})"
        if k == "decimal":
            return f"_rt.decimal_of({a})"
        if k == "string":
            return f"_rt.vget_str(r, pos, {a}, {end})"
        if k == "bytes":
            return f"_rt.vget_bytes(r, pos, {a}, {end})"
        if k == "struct":
            return f"{self.struct_fn(f.type.value, 'vget')}(r, pos, {a}, {end}, d)"
        c = self.field_codec(s, f)
        if k == "optional":
            return f"{c}.vget(r, pos, {a}, {self.field_attr(f)}_o, {end}, d)"
        if k == "array":
            return f"{c}.vget_slot(r, pos + {off}, pos, d)"
        return f"{c}.vget(r, pos, {a}, {end}, d)"

    def encode_stmt(self, f: ir.Field) -> str:
        """`a_ = ...`: a string or bytes field's bytes, ready to be written."""
        a = self.field_attr(f)
        if self.kind(f) != "string":
            return f"{a}_ = v.{a}"
        return (f"try:\n    {a}_ = v.{a}.encode()\n"
                "except UnicodeEncodeError:  # surrogate escapes (text read from bytes that "
                "were not UTF-8)\n"
                f'    {a}_ = v.{a}.encode("utf-8", "surrogateescape")  # go back as they came')

    def read_text(self, f: ir.Field, data: str) -> str:
        """`v.a = ...`: a string or bytes field from its bytes `data` (an expression)."""
        a = self.field_attr(f)
        if self.kind(f) != "string":
            return f"v.{a} = {data}"
        return (f"try:\n    v.{a} = {data}.decode()\n"
                "except UnicodeDecodeError:  # not UTF-8: kept byte for byte\n"
                f'    v.{a} = {data}.decode("utf-8", "surrogateescape")')
