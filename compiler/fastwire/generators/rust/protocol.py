"""--proto: the package's Sender/Receiver `Message` enum over the model's `sends`."""

from __future__ import annotations

from typing import Dict

from .names import field_name, type_name
from .structs import Structs


class Protocol(Structs):
    def emit_protocol(self) -> None:
        """The package's protocol: the `Message` enum of what it sends and receives
        (fastwire::protocol::Protocol), by the model's `sends`."""
        sends = [self.schema_struct(q) for q in self.model.package(self.pkg.name).sends]
        if not sends:
            return
        replies: Dict[str, str] = {}
        for s in self.pkg.structs:
            if s.request and s.response is not None:
                replies.setdefault(s.response.qualified_name, "Response")
                for r in s.rejects:
                    replies.setdefault(r.type.qualified_name, "Reject")
        e = self.emit
        e("",
          f"/// The messages of package `{self.pkg.name}`'s protocol: what its senders send and its",
          "/// receivers dispatch on, by type number.",
          "#[derive(Debug, Clone)]",
          "#[allow(clippy::large_enum_variant)] // built once per message, then matched",
          "pub enum Message {")
        for s in sends:
            e(f"    {type_name(s.name)}({type_name(s.name)}),")
        e("}", "")
        for s in sends:
            n = type_name(s.name)
            e(f"impl From<{n}> for Message {{",
              f"    fn from(m: {n}) -> Self {{",
              f"        Message::{n}(m)",
              "    }",
              "}",
              "")
        e("impl ::std::fmt::Display for Message {",
          "    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {",
          "        match self {")
        for s in sends:
            e(f"            Message::{type_name(s.name)}(m) => ::std::fmt::Display::fmt(m, f),")
        e("        }",
          "    }",
          "}",
          "")
        e("impl ::fastwire::protocol::Protocol for Message {",
          "    fn type_number(&self) -> u32 {",
          "        match self {")
        for s in sends:
            e(f"            Message::{type_name(s.name)}(_) => {s.type_number},")
        e("        }",
          "    }",
          "",
          "    fn serialize(&self, format: ::fastwire::protocol::Format, buf: &mut Vec<u8>) "
          "-> ::fastwire::Result<usize> {",
          "        match self {")
        for s in sends:
            e(f"            Message::{type_name(s.name)}(m) => ::fastwire::protocol::serialize(m, format, buf),")
        e("        }",
          "    }",
          "",
          "    fn deserialize(",
          "        type_number: u32,",
          "        data: &[u8],",
          "        format: ::fastwire::protocol::Format,",
          "        limits: &::fastwire::Limits,",
          "    ) -> Option<::fastwire::Result<Self>> {",
          "        match type_number {")
        for s in sends:
            n = type_name(s.name)
            e(f"            {s.type_number} => "
              f"Some(::fastwire::protocol::deserialize(data, format, limits).map(Message::{n})),")
        e("            _ => None,",
          "        }",
          "    }",
          "",
          "    fn verify(",
          "        type_number: u32,",
          "        data: &[u8],",
          "        format: ::fastwire::protocol::Format,",
          "        limits: &::fastwire::Limits,",
          "    ) -> Option<::fastwire::Result<usize>> {",
          "        match type_number {")
        for s in sends:
            e(f"            {s.type_number} => "
              f"Some(::fastwire::protocol::verify::<{type_name(s.name)}>(data, format, limits)),")
        e("            _ => None,",
          "        }",
          "    }",
          "")
        with_id = [s for s in sends if any(f.id for f in s.all_fields)]
        if with_id:
            e("    fn id(&self) -> Option<::fastwire::Uuid> {",
              "        match self {")
            for s in with_id:
                f = next(f for f in s.all_fields if f.id)
                e(f"            Message::{type_name(s.name)}(m) => Some(m.{field_name(f.name)}),")
            if len(with_id) < len(sends):
                e("            _ => None,")
            e("        }", "    }", "")
        else:
            e("    fn id(&self) -> Option<::fastwire::Uuid> {", "        None", "    }", "")
        answered = [s for s in sends if s.qualified_name in replies]
        if answered:
            e("    fn reply(&self) -> ::fastwire::protocol::Reply {",
              "        match self {")
            for s in answered:
                e(f"            Message::{type_name(s.name)}(_) => ::fastwire::protocol::Reply::"
                  f"{replies[s.qualified_name]},")
            if len(answered) < len(sends):
                e("            _ => ::fastwire::protocol::Reply::None,")
            e("        }", "    }")
        else:
            e("    fn reply(&self) -> ::fastwire::protocol::Reply {",
              "        ::fastwire::protocol::Reply::None",
              "    }")
        e("}")
