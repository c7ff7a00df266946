"""Root models (<Struct>Model, <Struct>FinalModel) and the package's protocol: Sender and
Receiver (FinalSender and FinalReceiver with --final)."""

from __future__ import annotations

from typing import List

from ... import ir
from ..common.naming import snake
from .codecs import Codecs
from .names import pyname


class Protocol(Codecs):
    def emit_models(self) -> None:
        models = [("", "a versioned root model: serialize(), verify(), deserialize()")]
        if self.options.final:
            models.append(("Final", "a final (compact) root model"))
        for s in self.pkg.structs:
            for prefix, what in models:
                self.gap()
                self.p.print(_MODEL, n=s.name, prefix=prefix, what=f"{pyname(s.name)} as {what}")

    def emit_protocol(self) -> None:
        # The package's own protocol (docs/schema-language.md, "Protocol"), as in C++: an
        # imported package's types are sent by that package's Sender and Receiver.
        families = [("", "versioned", "Model")]
        if self.options.final:
            families.append(("Final", "final", "FinalModel"))
        sent = self.sent()
        for prefix, format_name, model in families:
            senders = [f"{pyname(m.name)}: {m.name}{model}()," for m in sent]
            handlers = [f'{m.type_number}: ({m.name}{model}(), "on_receive_{snake(m.name)}"),'
                        for m in sent]
            for template, table in ((_SENDER, self.table("_fbe_models", senders)),
                                    (_RECEIVER, self.table("_fbe_handlers", handlers))):
                self.gap()
                self.p.print(template, prefix=prefix, pkg=self.pkg.name, format=format_name,
                             table=table)
            self.p.indent()
            for m in sent:
                self.p.blank()
                self.p.print(_HOOK, snake=snake(m.name), cls=pyname(m.name), name=m.name)
            self.p.outdent()

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


_MODEL = '''
    class $n$$prefix$Model(_rt.$prefix$Model):
        """$what$."""

        __slots__ = ()
        codec = _S_$n$
'''

_SENDER = '''
    class $prefix$Sender(_rt.$prefix$Sender):
        """Sends what the $pkg$ package's protocol sends ($format$): its messages, or its
        structs when it declares none."""

        $table$
'''

_RECEIVER = '''
    class $prefix$Receiver(_rt.$prefix$Receiver):
        """Receives what the $pkg$ package's protocol sends ($format$): override the
        on_receive_<message> hooks."""

        $table$
'''

_HOOK = '''
    def on_receive_$snake$(self, value: $cls$) -> None:
        """Called for each $name$ received."""
'''
