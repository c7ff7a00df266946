"""Defaults (the model's literals, or each type's zero), enums and one class per struct:
slots, annotations, __init__, equality, hashing, ordering (the runtime's base prints it)."""

from __future__ import annotations

from typing import Optional, Tuple

from ... import ir, lower, plan
from ..common.docs import line_comments
from ..common.docs import python_docstring as docstring
from .types import Types, field_attr, member_name, pyname

ENUM_BASES = {"enum": "IntEnum", "flags": "IntFlag"}
# A literal by its kind, and whether it is made per object.
LITERALS = {
    "null": ("None", False), "bool": ("{value}", False), "integer": ("{value}", False),
    "float": ("{value!r}", False), "decimal": ('{Decimal}("{value}")', False),
    "string": ("{value!r}", False), "uuid": ('{UUID}("{value}")', False),
    "computed": ("_rt.{value}()", True),
}
# A type's value without a default: "0" unless listed.
ZEROS = {
    "bool": "False", "float": "0.0", "double": "0.0", "string": '""', "bytes": 'b""',
    "decimal": '{Decimal}("0")', "uuid": "_rt.NIL_UUID", "optional": "None",
    "struct": "{mod}{cls}()",
}
# Made per object (mutable).
PER_OBJECT = ("struct",)
# An enum or flags type without a member of value 0.
NO_ZERO_MEMBER = {"enum": "0", "flags": "{mod}{cls}(0)"}
# Collections, empty.
EMPTY = {"array": "[{element}] * {length}", "set": "set()", "map": "{{}}", "hash": "{{}}"}


class Structs(Types):
    def zero(self, w: plan.WireType) -> Tuple[str, bool]:
        """(expression, computed: made per object) of a type's value without a default."""
        e = self.enums.get(w.ref or "")
        terms = self.ref_terms(w)
        if e is None:
            return self.fill(ZEROS.get(w.helper, "0"), **terms), w.helper in PER_OBJECT
        zero = next((v.name for v in e.values if v.value == 0), None)
        if zero is not None:
            return f"{self.type_name(e.qualified_name)}.{member_name(zero)}", False
        return self.fill(NO_ZERO_MEMBER[e.kind] if e.values else "0", **terms), False

    def literal(self, lit: lower.Literal, w: plan.WireType) -> Tuple[str, bool]:
        """(expression, computed) of a declared default."""
        if lit.names:
            cls = self.type_name(w.ref or "")
            return " | ".join(f"{cls}.{member_name(n)}" for n in lit.names), False
        if isinstance(lit.raw, bytes) and not any(lit.raw):
            return "_rt.NIL_UUID", False
        template, per_object = LITERALS[lit.kind]
        return self.fill(template, value=lit.value), per_object

    def default(self, f: lower.FieldLayout, lit: Optional[lower.Literal]) -> Tuple[str, str, str]:
        """(annotation, parameter default, value) for __init__; a computed default is made
        per call (the parameter defaults to None, or _rt.DEFAULT where None is null)."""
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

    def emit_enum(self, e: ir.EnumType) -> None:
        p = self.p
        self.gap()
        p.value(f"class {pyname(e.name)}(enum.{ENUM_BASES[e.kind]}):")
        p.indent()
        doc = docstring(e.doc)
        if doc:
            p.value(doc)
            if e.values:
                p.blank()
        for v in e.values:
            for line in line_comments(v.doc and v.doc.strip(), "#", language="python"):
                p.value(line)
            note = "  # deprecated" if v.deprecated else ""
            p.value(f"{member_name(v.name)} = {v.value}{note}")
        if not e.values and not doc:
            p.print("pass")
        p.outdent()

    def emit_class(self, s: ir.StructType) -> None:
        p = self.p
        name = pyname(s.name)
        # The runtime's base prints it (and with --json reads and writes JSON).
        base = (self.type_name(s.base.qualified_name) if s.base
                else "_rt.JsonStruct" if self.options.json else "_rt.Struct")
        own = s.fields
        layout = self.layout(s)
        self.gap()
        p.value(f"class {name}({base}):")
        p.indent()
        doc = docstring(s.doc)
        if doc:
            p.value(doc)
            p.blank()
        slots = ", ".join(f'"{field_attr(f.name)}"' for f in own)
        if len(slots) > 90:  # one a line
            slots = "\n    " + ",\n    ".join(f'"{field_attr(f.name)}"' for f in own) + ",\n"
        p.value(f"__slots__ = ({slots}{',' if len(own) == 1 else ''})")
        defaults = [(f, *self.default(fl, lit)) for f, fl, lit
                    in zip(s.all_fields, layout.fields, layout.defaults)]
        if own:
            p.blank()
            for f, fl in zip(own, layout.fields[len(layout.fields) - len(own):]):
                for line in line_comments(f.doc and f.doc.strip(), "#", language="python"):
                    p.value(line)
                notes = [n for n, on in (("[key]", f.key and not f.id), ("[id]", f.id),
                                         ("[hidden]", f.hidden),
                                         ("[deprecated]", f.deprecated)) if on]
                note = f"  # {' '.join(notes)}" if notes else ""
                p.value(f"{field_attr(f.name)}: {self.annotation(fl.wire)}{note}")
        if s.all_fields:  # else object's __init__
            # UUIDs are immutable: a call in a default is harmless.
            immutable = f"{self.std.get('UUID')}("
            params = "\n".join(f"{field_attr(f.name)}: {ann} = {param},"
                               + ("  # noqa: B008" if param.startswith(immutable) else "")
                               for f, ann, param, _ in defaults)
            sets = "\n".join(f"self.{field_attr(f.name)} = {value}"
                             for f, _, _, value in defaults)
            p.blank()
            p.print("""
                def __init__(
                    self,
                    $params$
                ) -> None:
                    $sets$
            """, params=params, sets=sets)
        # By the [key] fields if any, else equality over all (docs/schema-language.md).
        attrs = [field_attr(name) for name in layout.equality]
        if attrs:
            terms = "\n    and ".join(f"self.{a} == other.{a}" for a in attrs)
            same = f"return (\n    {terms}\n)"
        else:
            same = "return True"
        p.blank()
        p.print("""
            def __eq__(self, other: object) -> bool:
                if other.__class__ is not self.__class__:
                    return NotImplemented
                $same$
        """, same=same)
        keys = attrs if layout.keyed else []
        p.blank()
        if keys:
            mine = ", ".join(f"self.{key}" for key in keys)
            theirs = ", ".join(f"other.{key}" for key in keys)
            if len(keys) > 1:
                mine, theirs = f"({mine})", f"({theirs})"
            p.print("""
                def __hash__(self) -> int:
                    return hash($mine$)

                def __lt__(self, other: object) -> bool:
                    if other.__class__ is not self.__class__:
                        return NotImplemented
                    return $mine$ < $theirs$
            """, mine=mine, theirs=theirs)
        else:
            p.print("__hash__ = None  # type: ignore[assignment]  # no [key] fields")
        p.outdent()
