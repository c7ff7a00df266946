"""Structs: the type with its defaults, Display, equality, ordering and hashing by
`[key]`, and `visit_struct`."""

from __future__ import annotations

from typing import List

from ... import ir
from .codec import Codec
from .enums import match
from .names import field_name, type_name

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
# How the text form prints a plain field of these primitives, and a list (fastwire::print).
_PRINTED = {"char": "::fastwire::print::Char", "wchar": "::fastwire::print::WChar"}


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
