"""Structs: the type with its defaults, Display, equality, ordering and hashing by
`[key]`; `visit_struct`; with --proto, the Sender/Receiver `Message` enum."""

from __future__ import annotations

from typing import Dict, List

from ... import ir
from .codec import Codec
from .types import field_name, match, type_name

_KEYED = """

impl PartialEq for $name$ {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == ::std::cmp::Ordering::Equal
    }
}

impl Eq for $name$ {}

impl PartialOrd for $name$ {
    fn partial_cmp(&self, other: &Self) -> Option<::std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for $name$ {
    fn cmp(&self, other: &Self) -> ::std::cmp::Ordering {
        $cmp$
    }
}

impl ::std::hash::Hash for $name$ {
    fn hash<H: ::std::hash::Hasher>(&self, state: &mut H) {
        $hash$
    }
}

impl ::fastwire::Key for $name$ {
    fn key_cmp(&self, other: &Self) -> ::std::cmp::Ordering {
        self.cmp(other)
    }

    fn key_hash<H: ::std::hash::Hasher>(&self, state: &mut H) {
        ::std::hash::Hash::hash(self, state)
    }
}
"""
_DISPLAY = """

impl ::std::fmt::Display for $name$ {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        $body$
    }
}
"""
# The text form's wrappers of these plain primitives (fastwire::print).
_PRINTED = {"char": "::fastwire::print::Char", "wchar": "::fastwire::print::WChar"}


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


class Structs(Codec):
    def emit_struct(self, s: ir.StructType) -> None:
        layout = self.model.struct(s.qualified_name)
        name = type_name(s.name)
        fields = list(zip(s.all_fields, layout.defaults))
        names = [field_name(f.name) for f in s.all_fields]
        self.emit("")
        self.doc(s.doc)
        self.emit(f"/// `{s.qualified_name}` (type {s.type_number}).")
        if s.deprecated:
            self.emit("#[deprecated]")
        derives = "Debug, Clone" if layout.keyed else "Debug, Clone, PartialEq"
        # Every field its type's default (none given, or false, 0, None; no `[T; N]`, which
        # has no Default above 32): derived, as clippy wants.
        defaults = [self.default_expr(f, lit) for f, lit in fields]
        plain = all((lit is None or d in ("false", "0", "None")) and f.type.container != "array"
                    for (f, lit), d in zip(fields, defaults))
        if plain:
            derives += ", Default"
        self.emit(f"#[derive({derives})]", f"pub struct {name} {{" + ("}" if not fields else ""))
        for (f, _), n in zip(fields, names):
            self.doc(f.doc, "    ")
            if f.deprecated:
                self.emit("    #[deprecated]")
            self.emit(f"    pub {n}: {self.field_type(f.type)},")
        if fields:
            self.emit("}")
        if not plain:
            self.emit("", f"impl Default for {name} {{", "    fn default() -> Self {", f"        {name} {{",
                      *[f"            {n}: {d}," for n, d in zip(names, defaults)], "        }", "    }", "}")
        if layout.keyed:
            keys = [field_name(n) for n in layout.equality]
            cmp = [f"::fastwire::Key::key_cmp(&self.{k}, &other.{k})" for k in keys]
            self.p.print(_KEYED, name=name, cmp=cmp[0] + "".join(f"\n    .then_with(|| {c})" for c in cmp[1:]),
                         hash="\n".join(f"::fastwire::Key::key_hash(&self.{k}, state);" for k in keys))
        lines: List[str] = []
        rest = self.print_text(s, lines)
        lines.append(f'f.write_str("{rest}")')
        self.p.print(_DISPLAY, name=name, body="\n".join(lines))
        self.emit_codec(s, name, names, layout)

    def print_text(self, s: ir.StructType, out: List[str], text: str = "") -> str:
        """Appends to `out` the writes of the text form of `s` after `text`: `Name(f=v,…)`, a
        derived struct `Derived(Base(…),f=v,…)` (fastwire::print); returns the text left."""
        text += f"{s.name}("
        if s.base is not None:
            base = self.schema.lookup(s.base)
            assert isinstance(base, ir.StructType)
            text = self.print_text(base, out, text)
        for i, f in enumerate(s.fields):
            text += f"{',' if i or s.base is not None else ''}{f.name}="
            if f.hidden:
                text += "***"
                continue
            t, n = f.type, field_name(f.name)
            wrap = _PRINTED.get(t.value.name) if t.container is None and not t.optional \
                and t.value.kind == "primitive" else None
            expr = f"{wrap}(self.{n})" if wrap else f"::fastwire::print::List(&self.{n})" \
                if t.container == "list" else f"self.{n}"
            out += [f'f.write_str("{text}")?;', f"::fastwire::print::Print::print(&{expr}, f)?;"]
            text = ""
        return text + ")"

    def emit_visit(self, structs: List[ir.StructType]) -> None:
        self.emit("",
                  "/// Calls `visitor` with the struct named `name` (without the package).",
                  "pub fn visit_struct<V: ::fastwire::Visitor>(name: &str, visitor: V) -> Option<V::Output> {")
        if structs:
            arms = [f'"{s.name}" => Some(visitor.visit::<{type_name(s.name)}>()),' for s in structs]
            self.emit(*[f"    {line}" for line in match("name", arms)])
        else:
            self.emit("    let _ = (name, visitor);", "    None")
        self.emit("}")

    def emit_protocol(self) -> None:
        """`Message` (fastwire::protocol::Protocol): what the package sends, by the model."""
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

        def arms(lines: List[str], none: str) -> str:
            """A match over what some messages have, `none` for the others (or alone)."""
            rest = f"_ => {none}," if len(lines) < len(sends) else ""
            return "\n".join(match("self", lines, rest)) if lines else none

        self.p.print(_PROTOCOL, **{var: "\n".join(arm.format(n=n, t=s.type_number) for s, n in zip(sends, names))
                                   for var, arm in _ARMS.items()},
                     id=arms(ids, "None"), reply=arms(answers, "::fastwire::protocol::Reply::None"))
