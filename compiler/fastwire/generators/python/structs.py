"""Enums (enum.IntEnum, enum.IntFlag) and one class per struct: slots, annotations,
__init__ with the schema's defaults, equality, hashing, ordering, printing and JSON."""

from __future__ import annotations

from ... import ir
from ..common.docs import line_comments
from ..common.docs import python_docstring as docstring
from .literals import Literals
from .names import field_attr, member_name, pyname

ENUM_BASES = {"enum": "IntEnum", "flags": "IntFlag"}


class Structs(Literals):
    # ---- enums -------------------------------------------------------------------------
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

    # ---- classes -----------------------------------------------------------------------
    def emit_class(self, s: ir.StructType) -> None:
        p = self.p
        name = pyname(s.name)
        base = f"({self.type_name(s.base.qualified_name)})" if s.base else ""
        own = s.fields
        layout = self.layout(s)
        self.gap()
        p.value(f"class {name}{base}:")
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
        p.blank()
        if s.all_fields:
            # A call in a default, harmless: UUIDs are immutable (get: not marked used).
            immutable = f"{self.std.get('UUID')}("
            params = "\n".join(f"{field_attr(f.name)}: {ann} = {param},"
                               + ("  # noqa: B008" if param.startswith(immutable) else "")
                               for f, ann, param, _ in defaults)
            sets = "\n".join(f"self.{field_attr(f.name)} = {value}"
                             for f, _, _, value in defaults)
            p.print("""
                def __init__(
                    self,
                    $params$
                ) -> None:
                    $sets$
            """, params=params, sets=sets)
        else:
            p.print("""
                def __init__(self) -> None:
                    pass
            """)
        # One rule (docs/schema-language.md): equality, hashing and ordering by the [key]
        # fields when there are any, else equality over every field.
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
        p.blank()
        p.print("""
            def __repr__(self) -> str:
                return _S_$name$.text(self)

            __str__ = __repr__
        """, name=s.name)
        if self.options.json:
            p.blank()
            p.print("""
                def to_json(self) -> str:
                    \"\"\"This value as compact JSON text.\"\"\"
                    return _S_$name$.dump_json(self)

                @classmethod
                def from_json(cls, text: str | bytes) -> $cls$:
                    \"\"\"A value from JSON text; raises fastwire_runtime.DecodeError.\"\"\"
                    return _S_$name$.from_json(text)
            """, name=s.name, cls=name)
        p.outdent()
