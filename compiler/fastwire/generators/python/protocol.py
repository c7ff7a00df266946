"""Root models (<Struct>Model, <Struct>FinalModel) and the package's protocol: Sender and
Receiver (FinalSender and FinalReceiver with --final)."""

from __future__ import annotations

from typing import List

from ... import ir
from ..common.naming import snake
from .codecs import Codecs
from .names import pyname


class Protocol(Codecs):
    def emit_models(self, structs: List[ir.StructType]) -> None:
        p = self.p
        for s in self.pkg.structs:
            self.gap()
            p.print(_MODEL, n=s.name, cls=pyname(s.name))
            if self.options.final:
                self.gap()
                p.print(_FINAL_MODEL, n=s.name, cls=pyname(s.name))

    def emit_protocol(self) -> None:
        families = [("", "versioned", "Model")]
        if self.options.final:
            families.append(("Final", "final", "FinalModel"))
        for prefix, format_name, model in families:
            self.emit_sender(prefix, format_name, model)
            self.emit_receiver(prefix, format_name, model)

    def sent(self) -> List[ir.StructType]:
        """What this package's protocol sends and receives (the rule of every language:
        its messages, else its structs; fastwire.lower.protocol_types)."""
        by_name = {s.qualified_name: s for s in self.pkg.structs}
        return [by_name[n] for n in self.model.package(self.pkg.name).sends]

    @staticmethod
    def table(name: str, items: List[str]) -> str:
        """`name = {...}` with one entry per line."""
        if not items:
            return f"{name} = {{}}"
        return f"{name} = {{\n    " + "\n    ".join(items) + "\n}"

    def emit_sender(self, prefix: str, format_name: str, model: str) -> None:
        # The package's own protocol (docs/schema-language.md, "Protocol"), as in C++:
        # an imported package's types are sent by that package's Sender.
        bases = f"_rt.{prefix}Sender"
        items = [f"{pyname(m.name)}: {m.name}{model}()," for m in self.sent()]
        self.gap()
        self.p.print(_SENDER, prefix=prefix, bases=bases, pkg=self.pkg.name,
                     format=format_name, table=self.table("_fbe_models", items))

    def emit_receiver(self, prefix: str, format_name: str, model: str) -> None:
        p = self.p
        # The package's own protocol (docs/schema-language.md, "Protocol"), as in C++:
        # an imported package's types are sent by that package's Receiver.
        bases = f"_rt.{prefix}Receiver"
        items = [f'{m.type_number}: ({m.name}{model}(), "on_receive_{snake(m.name)}"),'
                  for m in self.sent()]
        self.gap()
        p.print(_RECEIVER, prefix=prefix, bases=bases, pkg=self.pkg.name, format=format_name,
                table=self.table("_fbe_handlers", items))
        p.indent()
        for m in self.sent():
            p.blank()
            p.print(_HOOK, snake=snake(m.name), cls=pyname(m.name), name=m.name)
        p.outdent()


_MODEL = '''
    class $n$Model(_rt.Model):
        """$cls$ as a versioned root model: serialize(), verify(), deserialize()."""

        __slots__ = ()
        codec = _S_$n$
'''

_FINAL_MODEL = '''
    class $n$FinalModel(_rt.FinalModel):
        """$cls$ as a final (compact) root model."""

        __slots__ = ()
        codec = _S_$n$
'''

_SENDER = '''
    class $prefix$Sender($bases$):
        """Sends what the $pkg$ package's protocol sends ($format$): its messages, or its
        structs when it declares none."""

        $table$
'''

_RECEIVER = '''
    class $prefix$Receiver($bases$):
        """Receives what the $pkg$ package's protocol sends ($format$): override the
        on_receive_<message> hooks."""

        $table$
'''

_HOOK = '''
    def on_receive_$snake$(self, value: $cls$) -> None:
        """Called for each $name$ received."""
'''
