"""The codec objects: an enum's or flags type's (`_E_`), a struct's (`_S_`) with the codecs
its fields build (`_F_`) and its table of fields and functions, around its versioned and
final functions."""

from __future__ import annotations

from typing import List

from ... import ir
from .final import Final
from .names import field_attr, member_name, pyname, split
from .types import BUILT, fields_of

ENUM_CODECS = {"enum": "enum", "flags": "flags"}


class Codecs(Final):
    def struct_codec(self, ref: ir.TypeRef) -> str:
        mod, name = split(ref.qualified_name, self.pkg.name)
        return f"{mod}_S_{name}"

    def emit_codecs(self, structs: List[ir.StructType]) -> None:
        p = self.p
        enums = [t for t in self.pkg.types if isinstance(t, ir.EnumType)]
        self.gap()
        p.print("# Codecs: how each type is written and read (fastwire_runtime.wire).")
        p.print("_new = object.__new__  # readers set every field, so they skip __init__")
        for e in enums:
            renamed = {member_name(v.name): v.name for v in e.values
                       if member_name(v.name) != v.name}
            extra = f", {renamed!r}" if renamed else ""
            p.value(f'_E_{e.name} = _rt.{ENUM_CODECS[e.kind]}({pyname(e.name)}, "{e.base}"{extra})')
        for s in structs:
            base = f", {self.struct_codec(s.base)}" if s.base else ""
            p.value(f'_S_{s.name} = _rt.StructCodec({pyname(s.name)}, "{s.name}", '
                    f"{s.type_number}{base})")

    def emit_struct_codec(self, s: ir.StructType) -> None:
        p = self.p
        fields = fields_of(self.layout(s).plan.versioned.steps)
        self.gap()
        p.value(f"# {s.name} " + "-" * max(3, 86 - len(s.name)))
        p.blank()
        for f in fields:
            if f.helper in BUILT:
                p.value(f"{self.field_codec(s, f)} = {self.codec(f.wire)}")
        self.emit_versioned(s)
        if self.options.final:
            self.emit_final(s)
        table = []
        for f, field in zip(fields, s.all_fields):
            extra = ""
            if field_attr(f.name) != f.name:
                extra += f', attr="{field_attr(f.name)}"'
            if field.hidden:
                extra += ", hidden=True"
            table.append(f'_rt.Field("{f.name}", {self.field_codec(s, f)}{extra}),')
        fns = [f"_vput_{s.name}, _vget_{s.name}, _vcheck_{s.name},"]
        if self.options.final:
            fns.append(f"_fput_{s.name}, _fget_{s.name}, _fcheck_{s.name},")
        self.gap()
        p.print("""
            _S_$name$.define(
                $table$,
                $body$,
                $fns$
            )
        """, name=s.name, table="(\n    " + "\n    ".join(table) + "\n)" if table else "()",
                body=self.layout(s).body_size, fns="\n".join(fns))
