"""Structs: the type with its defaults, Display, equality, ordering and hashing by the
`[key]` fields, and `visit_struct`."""

from __future__ import annotations

from typing import List

from ... import ir
from .codec import Codec
from .names import field_name, type_name


class Structs(Codec):
    # ---- structs ------------------------------------------------------------------------
    def emit_struct(self, s: ir.StructType) -> None:
        layout = self.model.struct(s.qualified_name)
        name = type_name(s.name)
        fields = list(zip(s.all_fields, layout.fields, layout.defaults))
        names = [field_name(f.name) for f in s.all_fields]
        self.emit("")
        self.doc(s.doc)
        self.emit(f"/// `{s.qualified_name}` (type {s.type_number}).")
        if s.deprecated:
            self.emit("#[deprecated]")
        derives = "Debug, Clone" if layout.keyed else "Debug, Clone, PartialEq"
        # Every field its type's default (no schema default, no array: `[T; N]` has no
        # Default above 32): derived, as clippy wants.
        plain = all(lit is None and f.type.container != "array" for f, _, lit in fields)
        if plain:
            derives += ", Default"
        self.emit(f"#[derive({derives})]")
        if not fields:
            self.emit(f"pub struct {name} {{}}")
        else:
            self.emit(f"pub struct {name} {{")
            for (f, _fl, _), n in zip(fields, names):
                self.doc(f.doc, "    ")
                if f.deprecated:
                    self.emit("    #[deprecated]")
                self.emit(f"    pub {n}: {self.field_type(f.type)},")
            self.emit("}")
        if not plain:
            self.emit("", f"impl Default for {name} {{", "    fn default() -> Self {")
            self.emit(f"        {name} {{")
            for (f, _fl, lit), n in zip(fields, names):
                self.emit(f"            {n}: {self.default_expr(f, lit)},")
            self.emit("        }")
            self.emit("    }", "}")
        if layout.keyed:
            self.emit_keyed(name, [field_name(n) for n in layout.equality])
        self.emit_display(s, name)
        self.emit_codec(s, name, fields, names, layout)

    def print_parts(self, s: ir.StructType) -> List[tuple]:
        """The text form of a struct as (literal or None, value expression) parts:
        `Name(f=v,…)`, a derived struct `Derived(Base(…),f=v,…)` (fastwire::print)."""
        parts: List[tuple] = [(f"{s.name}(", None)]
        first = True
        if s.base is not None:
            base = self.schema.lookup(s.base)
            assert isinstance(base, ir.StructType)
            parts += self.print_parts(base)
            first = False
        for f in s.fields:
            sep = "" if first else ","
            first = False
            n = field_name(f.name)
            if f.hidden:
                parts.append((f"{sep}{f.name}=***", None))
                continue
            parts.append((f"{sep}{f.name}=", None))
            t = f.type
            prim = t.value.name if t.value.kind == "primitive" else None
            if t.container is None and not t.optional and prim == "char":
                expr = f"::fastwire::print::Char(self.{n})"
            elif t.container is None and not t.optional and prim == "wchar":
                expr = f"::fastwire::print::WChar(self.{n})"
            elif t.container == "list":
                expr = f"::fastwire::print::List(&self.{n})"
            else:
                expr = f"self.{n}"
            parts.append((None, expr))
        parts.append((")", None))
        return parts

    def emit_display(self, s: ir.StructType, name: str) -> None:
        lines: List[str] = []
        text = ""
        for lit, expr in self.print_parts(s):
            if lit is not None:
                text += lit
                continue
            lines.append(f'f.write_str("{text}")?;')
            text = ""
            lines.append(f"::fastwire::print::Print::print(&{expr}, f)?;")
        lines.append(f'f.write_str("{text}")')
        self.emit("",
                  f"impl ::std::fmt::Display for {name} {{",
                  "    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {",
                  *[f"        {x}" for x in lines],
                  "    }",
                  "}")

    def emit_keyed(self, name: str, keys: List[str]) -> None:
        cmp = [f"::fastwire::Key::key_cmp(&self.{k}, &other.{k})" for k in keys]
        self.emit("",
                  f"impl PartialEq for {name} {{",
                  "    fn eq(&self, other: &Self) -> bool {",
                  "        self.cmp(other) == ::std::cmp::Ordering::Equal",
                  "    }",
                  "}",
                  "",
                  f"impl Eq for {name} {{}}",
                  "",
                  f"impl PartialOrd for {name} {{",
                  "    fn partial_cmp(&self, other: &Self) -> Option<::std::cmp::Ordering> {",
                  "        Some(self.cmp(other))",
                  "    }",
                  "}",
                  "",
                  f"impl Ord for {name} {{",
                  "    fn cmp(&self, other: &Self) -> ::std::cmp::Ordering {")
        if len(cmp) == 1:
            self.emit(f"        {cmp[0]}")
        else:
            self.emit(f"        {cmp[0]}")
            for c in cmp[1:]:
                self.emit(f"            .then_with(|| {c})")
        self.emit("    }",
                  "}",
                  "",
                  f"impl ::std::hash::Hash for {name} {{",
                  "    fn hash<H: ::std::hash::Hasher>(&self, state: &mut H) {")
        for k in keys:
            self.emit(f"        ::fastwire::Key::key_hash(&self.{k}, state);")
        self.emit("    }",
                  "}",
                  "",
                  f"impl ::fastwire::Key for {name} {{",
                  "    fn key_cmp(&self, other: &Self) -> ::std::cmp::Ordering {",
                  "        self.cmp(other)",
                  "    }",
                  "",
                  "    fn key_hash<H: ::std::hash::Hasher>(&self, state: &mut H) {",
                  "        ::std::hash::Hash::hash(self, state)",
                  "    }",
                  "}")

    def emit_visit(self, structs: List[ir.StructType]) -> None:
        self.emit("",
                  "/// Calls `visitor` with the struct named `name` (without the package).",
                  "pub fn visit_struct<V: ::fastwire::Visitor>(name: &str, visitor: V) -> Option<V::Output> {")
        if not structs:
            self.emit("    let _ = (name, visitor);", "    None", "}")
            return
        self.emit("    match name {")
        for s in structs:
            n = type_name(s.name)
            self.emit(f'        "{s.name}" => Some(visitor.visit::<{n}>()),')
        self.emit("        _ => None,", "    }", "}")
