"""--proto: the package's Sender/Receiver `Message` enum over the model's `sends`."""

from __future__ import annotations

from typing import Dict, List

from .enums import match
from .names import field_name, type_name
from .structs import Structs

_MESSAGE = """

/// The messages of package `$package$`'s protocol: what its senders send and its
/// receivers dispatch on, by type number.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // built once per message, then matched
pub enum Message {
    $variants$
}
"""
_FROM = """

impl From<$n$> for Message {
    fn from(m: $n$) -> Self {
        Message::$n$(m)
    }
}
"""
_PROTOCOL = """

impl ::std::fmt::Display for Message {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        $display$
    }
}

impl ::fastwire::protocol::Protocol for Message {
    fn type_number(&self) -> u32 {
        $numbers$
    }

    fn serialize(&self, format: ::fastwire::protocol::Format, buf: &mut Vec<u8>) -> ::fastwire::Result<usize> {
        $serialize$
    }

    fn deserialize(
        type_number: u32,
        data: &[u8],
        format: ::fastwire::protocol::Format,
        limits: &::fastwire::Limits,
    ) -> Option<::fastwire::Result<Self>> {
        $deserialize$
    }

    fn verify(
        type_number: u32,
        data: &[u8],
        format: ::fastwire::protocol::Format,
        limits: &::fastwire::Limits,
    ) -> Option<::fastwire::Result<usize>> {
        $verify$
    }

    fn id(&self) -> Option<::fastwire::Uuid> {
        $id$
    }

    fn reply(&self) -> ::fastwire::protocol::Reply {
        $reply$
    }
}
"""


class Protocol(Structs):
    def emit_protocol(self) -> None:
        """The package's protocol: the `Message` enum of what it sends and receives
        (fastwire::protocol::Protocol), by the model's `sends`."""
        sends = [self.structs[q] for q in self.model.package(self.pkg.name).sends]
        if not sends:
            return
        replies: Dict[str, str] = {}
        for s in self.pkg.structs:
            if s.request and s.response is not None:
                replies.setdefault(s.response.qualified_name, "Response")
                for r in s.rejects:
                    replies.setdefault(r.type.qualified_name, "Reject")
        names = [type_name(s.name) for s in sends]
        self.p.print(_MESSAGE, package=self.pkg.name, variants="\n".join(f"{n}({n})," for n in names))
        for n in names:
            self.p.print(_FROM, n=n)
        ids = []
        for s, n in zip(sends, names):
            f = next((f for f in s.all_fields if f.id), None)
            if f is not None:
                ids.append(f"Message::{n}(m) => Some(m.{field_name(f.name)}),")
        answers = [f"Message::{n}(_) => ::fastwire::protocol::Reply::{replies[s.qualified_name]},"
                   for s, n in zip(sends, names) if s.qualified_name in replies]

        def arms(scrutinee: str, lines: List[str], default: str = "", some: bool = False) -> str:
            """A match over `lines`, `default` last (`some`: when only some messages have a line)."""
            return "\n".join(match(scrutinee, lines, default if not some or len(lines) < len(sends) else ""))

        self.p.print(
            _PROTOCOL,
            display=arms("self", [f"Message::{n}(m) => ::std::fmt::Display::fmt(m, f)," for n in names]),
            numbers=arms("self", [f"Message::{n}(_) => {s.type_number}," for s, n in zip(sends, names)]),
            serialize=arms("self", [f"Message::{n}(m) => ::fastwire::protocol::serialize(m, format, buf),"
                                    for n in names]),
            deserialize=arms("type_number", [f"{s.type_number} => Some(::fastwire::protocol::deserialize("
                                             f"data, format, limits).map(Message::{n})),"
                                             for s, n in zip(sends, names)], "_ => None,"),
            verify=arms("type_number", [f"{s.type_number} => Some(::fastwire::protocol::verify::<{n}>("
                                        "data, format, limits)),"for s, n in zip(sends, names)], "_ => None,"),
            id=arms("self", ids, "_ => None,", some=True) if ids else "None",
            reply=arms("self", answers, "_ => ::fastwire::protocol::Reply::None,", some=True) if answers
            else "::fastwire::protocol::Reply::None")
