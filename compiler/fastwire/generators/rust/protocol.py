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
        match self {
            $display$
        }
    }
}

impl ::fastwire::protocol::Protocol for Message {
    fn type_number(&self) -> u32 {
        match self {
            $numbers$
        }
    }

    fn serialize(&self, format: ::fastwire::protocol::Format, buf: &mut Vec<u8>) -> ::fastwire::Result<usize> {
        match self {
            $serialize$
        }
    }

    fn deserialize(
        type_number: u32,
        data: &[u8],
        format: ::fastwire::protocol::Format,
        limits: &::fastwire::Limits,
    ) -> Option<::fastwire::Result<Self>> {
        match type_number {
            $deserialize$
            _ => None,
        }
    }

    fn verify(
        type_number: u32,
        data: &[u8],
        format: ::fastwire::protocol::Format,
        limits: &::fastwire::Limits,
    ) -> Option<::fastwire::Result<usize>> {
        match type_number {
            $verify$
            _ => None,
        }
    }

    fn id(&self) -> Option<::fastwire::Uuid> {
        $id$
    }

    fn reply(&self) -> ::fastwire::protocol::Reply {
        $reply$
    }
}
"""
# Each method's match arm for a message `n` of type number `t`.
_ARMS = {"display": "Message::{n}(m) => ::std::fmt::Display::fmt(m, f),", "numbers": "Message::{n}(_) => {t},",
         "serialize": "Message::{n}(m) => ::fastwire::protocol::serialize(m, format, buf),",
         "deserialize": "{t} => Some(::fastwire::protocol::deserialize(data, format, limits).map(Message::{n})),",
         "verify": "{t} => Some(::fastwire::protocol::verify::<{n}>(data, format, limits)),"}


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
        ids = [f"Message::{n}(m) => Some(m.{field_name(s.id_field.name)})," for s, n in zip(sends, names)
               if s.id_field is not None]
        answers = [f"Message::{n}(_) => ::fastwire::protocol::Reply::{replies[s.qualified_name]},"
                   for s, n in zip(sends, names) if s.qualified_name in replies]

        def arms(lines: List[str], default: str) -> str:
            """A match over what some messages have: `default` for the others."""
            return "\n".join(match("self", lines, default if len(lines) < len(sends) else ""))

        self.p.print(_PROTOCOL, **{var: "\n".join(arm.format(n=n, t=s.type_number) for s, n in zip(sends, names))
                                   for var, arm in _ARMS.items()},
                     id=arms(ids, "_ => None,") if ids else "None",
                     reply=arms(answers, "_ => ::fastwire::protocol::Reply::None,") if answers
                     else "::fastwire::protocol::Reply::None")
