"""Annotations and default values of the generated classes' fields."""

from __future__ import annotations

from typing import Tuple

from ... import ir
from .base import Base
from .tables import PY_TYPE, ZERO, member_name


class Defaults(Base):
    def plain_annotation(self, ref: ir.TypeRef) -> str:
        if ref.kind == "primitive":
            py = PY_TYPE.get(ref.name, "int")
            if py == "Decimal":
                self.uses.add("decimal")
                return self.decimal
            if py == "UUID":
                self.uses.add("uuid")
                return self.uuid
            return py
        return self.type_name(ref)

    def annotation(self, t: ir.FieldType) -> str:
        v = self.plain_annotation(t.value)
        if t.optional:
            self.uses.add("optional")
            v = f"{self.optional}[{v}]"
        if t.container in ("array", "vector", "list"):
            return f"list[{v}]"
        if t.container == "set":
            return f"set[{v}]"
        if t.container in ("map", "hash"):
            assert t.key is not None
            return f"dict[{self.plain_annotation(t.key)}, {v}]"
        return v

    def zero(self, ref: ir.TypeRef) -> Tuple[str, bool]:
        """(expression, computed) for a plain type's value without a declared default;
        computed means the expression must be evaluated per object."""
        if ref.kind == "primitive":
            if ref.name == "decimal":
                self.uses.add("decimal")
                return f'{self.decimal}("0")', False
            return ZERO.get(ref.name, "0"), False
        if ref.kind == "struct":
            return f"{self.type_name(ref)}()", True
        t = self.schema.lookup(ref)
        assert isinstance(t, ir.EnumType)
        for v in t.values:
            if v.value == 0:
                return f"{self.type_name(ref)}.{member_name(v.name)}", False
        if ref.kind == "flags" and t.values:
            return f"{self.type_name(ref)}(0)", False
        return "0", False

    def literal(self, f: ir.Field) -> Tuple[str, str]:
        """(kind, expression) of a field's declared default: kind is 'literal',
        'computed' (evaluated per object) or 'null'."""
        d = f.default
        ref = f.type.value
        assert d is not None
        if d.kind == "null":
            return "null", "None"
        if d.kind == "bool":
            return "literal", "True" if d.value else "False"
        if d.kind in ("integer", "float") and ref.kind == "primitive":
            if ref.name in ("float", "double"):
                return "literal", repr(d.float_value())
            if ref.name == "decimal":
                self.uses.add("decimal")
                return "literal", f'{self.decimal}("{d.value}")'
            return "literal", str(d.int_value())
        if d.kind == "decimal":
            self.uses.add("decimal")
            return "literal", f'{self.decimal}("{d.value}")'
        if d.kind == "string":
            return "literal", repr(d.value)
        if d.kind == "timestamp":
            return "literal", str(d.value)
        if d.kind == "utc":
            return "computed", "_rt.utc()"
        if d.kind == "uuid":
            if d.value == "00000000-0000-0000-0000-000000000000":
                return "literal", "_rt.NIL_UUID"
            self.uses.add("uuid")
            return "literal", f'{self.uuid}("{d.value}")'
        if d.kind in ("uuid1", "uuid4"):
            return "computed", f"_rt.{d.kind}()"
        if d.kind in ("enum", "flags"):
            cls = self.type_name(ref)
            if d.names:
                return "literal", " | ".join(f"{cls}.{member_name(n)}" for n in d.names)
            return "literal", f"{cls}({d.value})"
        raise AssertionError(f"default kind {d.kind}")

    def default(self, f: ir.Field) -> Tuple[str, str, str]:
        """(parameter annotation, parameter default, value expression) for __init__. The
        value expression uses the parameter `name`; computed defaults are made per call
        (the parameter then defaults to None, or to _rt.DEFAULT where None means null)."""
        t = f.type
        ann = self.annotation(t)
        name = self.field_attr(f)
        if t.container is not None:
            if t.container == "array":
                elem, computed = ("None", False) if t.optional else self.zero(t.value)
                value = (f"[{elem} for _ in range({t.size})]" if computed
                         else f"[{elem}] * {t.size}")
            else:
                value = {"set": "set()", "map": "{}", "hash": "{}"}.get(t.container, "[]")
            self.uses.add("optional")
            return f"{self.optional}[{ann}]", "None", f"{value} if {name} is None else {name}"
        if t.optional:
            if f.default is None:
                return ann, "None", name
            kind, expr = self.literal(f)
            if kind == "computed":
                return ann, "_rt.DEFAULT", f"{expr} if {name} is _rt.DEFAULT else {name}"
            return ann, expr, name
        if f.default is not None:
            kind, expr = self.literal(f)
        else:
            expr, computed = self.zero(t.value)
            kind = "computed" if computed else "literal"
        if kind == "computed":
            self.uses.add("optional")
            return f"{self.optional}[{ann}]", "None", f"{expr} if {name} is None else {name}"
        return ann, expr, name
