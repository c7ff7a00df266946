"""Defaults as Python expressions, from the model's normalised literals (lower.Literal),
and the zero of each type where the schema declares none."""

from __future__ import annotations

from typing import Optional, Tuple

from ... import lower, plan
from .names import field_attr, member_name
from .types import Types

# A literal by its kind (enum members and the nil uuid aside); made per object or not.
LITERALS = {
    "null": ("None", False), "bool": ("{value}", False), "integer": ("{value}", False),
    "float": ("{value!r}", False), "decimal": ('{Decimal}("{value}")', False),
    "string": ("{value!r}", False), "uuid": ('{UUID}("{value}")', False),
    "computed": ("_rt.{value}()", True),
}
# The value of a type without a declared default: "0" unless listed.
ZEROS = {
    "bool": "False", "float": "0.0", "double": "0.0", "string": '""', "bytes": 'b""',
    "decimal": '{Decimal}("0")', "uuid": "_rt.NIL_UUID", "optional": "None",
    "struct": "{mod}{cls}()",
}
# Made per object: a mutable value (a nested struct).
PER_OBJECT = ("struct",)
# An enum or flags type without a member of value 0 (flags: none of its bits set).
NO_ZERO_MEMBER = {"enum": "0", "flags": "{mod}{cls}(0)"}
# Collections, empty (arrays: their zero elements).
EMPTY = {"array": "[{element}] * {length}", "set": "set()", "map": "{{}}", "hash": "{{}}"}


class Literals(Types):
    def zero(self, w: plan.WireType) -> Tuple[str, bool]:
        """(expression, computed) of a plain type's value without a declared default;
        computed means the expression must be evaluated per object."""
        e = self.enums.get(w.ref or "")
        terms = self.ref_terms(w)
        if e is None:
            return self.fill(ZEROS.get(w.helper, "0"), **terms), w.helper in PER_OBJECT
        zero = next((v.name for v in e.values if v.value == 0), None)
        if zero is not None:
            return f"{self.type_name(e.qualified_name)}.{member_name(zero)}", False
        return self.fill(NO_ZERO_MEMBER[e.kind] if e.values else "0", **terms), False

    def literal(self, lit: lower.Literal, w: plan.WireType) -> Tuple[str, bool]:
        """(expression, computed) of a declared default of a value of wire type `w`."""
        if lit.names:
            cls = self.type_name(w.ref or "")
            return " | ".join(f"{cls}.{member_name(n)}" for n in lit.names), False
        if isinstance(lit.raw, bytes) and not any(lit.raw):
            return "_rt.NIL_UUID", False
        template, per_object = LITERALS[lit.kind]
        return self.fill(template, value=lit.value), per_object

    def default(self, f: lower.FieldLayout, lit: Optional[lower.Literal]) -> Tuple[str, str, str]:
        """(parameter annotation, parameter default, value expression) for __init__. The
        value expression uses the parameter `name`; computed defaults are made per call
        (the parameter then defaults to None, or to _rt.DEFAULT where None means null)."""
        w = f.wire
        ann = self.annotation(w)
        name = field_attr(f.name)
        if w.collection is not None:
            if w.length is not None:
                assert w.element is not None
                elem, computed = self.zero(w.element)
                template = "[{element} for _ in range({length})]" if computed else EMPTY["array"]
                value = template.format(element=elem, length=w.length)
            else:
                value = EMPTY.get(w.collection, "[]").format()
            return self.fill("{Optional}[{ann}]", ann=ann), "None", f"{value} if {name} is None else {name}"
        value_type = w.element or w
        expr, computed = self.literal(lit, value_type) if lit else self.zero(w)
        if not computed:
            return ann, expr, name
        if w.element is not None:  # an optional: None is its null
            return ann, "_rt.DEFAULT", f"{expr} if {name} is _rt.DEFAULT else {name}"
        return self.fill("{Optional}[{ann}]", ann=ann), "None", f"{expr} if {name} is None else {name}"
