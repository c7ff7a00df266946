"""The codec objects (`_E_` of an enum, `_S_` of a struct with its `_F_` field codecs,
fields and functions), root models and the protocol's (Final)Sender and (Final)Receiver."""

from __future__ import annotations

from typing import List

from ... import ir
from ..common.naming import snake
from .final import Final
from .types import BUILT, field_attr, fields_of, member_name, pyname, split


class Protocol(Final):
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
            p.value(f'_E_{e.name} = _rt.{e.kind}({pyname(e.name)}, "{e.base}"{extra})')
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

    def emit_models(self) -> None:
        models = [("", "a versioned root model: serialize(), verify(), deserialize()")]
        if self.options.final:
            models.append(("Final", "a final (compact) root model"))
        for s in self.pkg.structs:
            for prefix, what in models:
                self.gap()
                self.p.print(_MODEL, n=s.name, prefix=prefix, what=f"{pyname(s.name)} as {what}")

    def emit_protocol(self) -> None:
        # As in C++: an imported package's types are sent by that package's protocol.
        families = [("", "versioned", "Model")]
        if self.options.final:
            families.append(("Final", "final", "FinalModel"))
        sent = self.sent()
        for prefix, format_name, model in families:
            senders = [f"{pyname(m.name)}: {m.name}{model}()," for m in sent]
            handlers = [f'{m.type_number}: ({m.name}{model}(), "on_receive_{snake(m.name)}"),'
                        for m in sent]
            for side, what, table in (
                    ("Sender", "Sends", self.table("_fbe_models", senders)),
                    ("Receiver", "Receives", self.table("_fbe_handlers", handlers))):
                self.gap()
                self.p.print(_ENDPOINT, prefix=prefix, side=side, what=what, pkg=self.pkg.name,
                             format=format_name, table=table, more=_MORE[side][0],
                             rest=_MORE[side][1])
            self.p.indent()
            for m in sent:
                self.p.blank()
                self.p.print(_HOOK, snake=snake(m.name), cls=pyname(m.name), name=m.name)
            self.p.outdent()

    def sent(self) -> List[ir.StructType]:
        """What the protocol sends: its messages, else its structs."""
        by_name = {s.qualified_name: s for s in self.pkg.structs}
        return [by_name[n] for n in self.model.package(self.pkg.name).sends]

    @staticmethod
    def table(name: str, items: List[str]) -> str:
        """`name = {...}`, an entry a line."""
        if not items:
            return f"{name} = {{}}"
        return f"{name} = {{\n    " + "\n    ".join(items) + "\n}"


_MODEL = '''
    class $n$$prefix$Model(_rt.$prefix$Model):
        """$what$."""

        __slots__ = ()
        codec = _S_$n$
'''

_ENDPOINT = '''
    class $prefix$$side$(_rt.$prefix$$side$):
        """$what$ what the $pkg$ package's protocol sends ($format$): $more$
        $rest$."""

        $table$
'''
_MORE = {"Sender": ("its messages, or its", "structs when it declares none"),
         "Receiver": ("override the", "on_receive_<message> hooks")}

_HOOK = '''
    def on_receive_$snake$(self, value: $cls$) -> None:
        """Called for each $name$ received."""
'''
