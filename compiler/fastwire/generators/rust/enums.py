"""Enums and flags: open newtypes over their integer with named constants."""

from __future__ import annotations

from typing import List, Optional

from ... import ir
from .literals import Literals
from .names import const_name, type_name
from .types import PRIMITIVES


class Enums(Literals):
    # ---- enums and flags ----------------------------------------------------------------
    def emit_enum(self, e: ir.EnumType) -> None:
        name = type_name(e.name)
        base = PRIMITIVES[e.base]
        flags = e.kind == "flags"
        consts: List[tuple] = []
        used = set()
        for v in e.values:
            c = const_name(v.name)
            while c in used:
                c += "_"
            used.add(c)
            consts.append((c, v))
        self.emit("")
        self.doc(e.doc)
        self.emit(f"/// {'Flags' if flags else 'Enum'} `{e.name}` (open: values without a name are kept).")
        if e.deprecated:
            self.emit("#[deprecated]")
        self.emit("#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]",
                  f"pub struct {name}(pub {base});",
                  "",
                  f"impl {name} {{")
        for c, v in consts:
            self.doc(v.doc, "    ")
            self.emit(f"    pub const {c}: {name} = {name}({self.int_literal(v.value, e.base)});")
        if consts:
            self.emit("")
        if not consts:
            self.emit("    /// The name of the value (none: the enum declares no value).",
                      "    pub fn name(self) -> Option<&'static str> {",
                      "        None",
                      "    }",
                      "",
                      "    /// The value of a name (none: the enum declares no value).",
                      "    pub fn from_name(_name: &str) -> Option<Self> {",
                      "        None",
                      "    }",
                      "}")
            self.emit_enum_tail(name, base, flags, consts)
            return
        self.emit("    /// The name of the value (the first declared with this number).",
                  "    pub fn name(self) -> Option<&'static str> {",
                  "        match self.0 {")
        seen = set()
        for _c, v in consts:
            if v.value in seen:
                continue
            seen.add(v.value)
            self.emit(f'            {self.int_literal(v.value, e.base)} => Some("{v.name}"),')
        self.emit("            _ => None,",
                  "        }",
                  "    }",
                  "",
                  "    /// The value of a name.",
                  "    pub fn from_name(name: &str) -> Option<Self> {",
                  "        match name {")
        for c, v in consts:
            self.emit(f'            "{v.name}" => Some(Self::{c}),')
        self.emit("            _ => None,",
                  "        }",
                  "    }")
        self.emit("}")
        self.emit_enum_tail(name, base, flags, consts)

    def emit_enum_tail(self, name: str, base: str, flags: bool, consts: Optional[List[tuple]] = None) -> None:
        self.emit("",
                  f"impl ::std::fmt::Debug for {name} {{",
                  "    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {",
                  "        match self.name() {",
                  '            Some(n) => f.write_str(n),',
                  "            None => write!(f, \"{}\", self.0),",
                  "        }",
                  "    }",
                  "}",
                  "",
                  f"::fastwire::impl_enum!({name}, {base});")
        if flags:
            self.emit(f"::fastwire::impl_flags!({name}, {base});")
        # The text form (fastwire::print): an enum's name or <unknown>, flags' names.
        self.emit("",
                  f"impl ::fastwire::print::Print for {name} {{",
                  "    fn print(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {")
        if not flags:
            self.emit('        f.write_str(self.name().unwrap_or("<unknown>"))')
        else:
            cast = "" if base == "u64" else " as u64"
            entries = [f'("{v.name}", Self::{c}.0{cast})' for c, v in (consts or [])]
            one = f"        ::fastwire::print::flags(f, self.0{cast}, &[{', '.join(entries)}])"
            if len(one) <= 120:
                self.emit(one)
            else:
                self.emit("        ::fastwire::print::flags(",
                          "            f,",
                          f"            self.0{cast},")
                arr = f"            &[{', '.join(entries)}],"
                if len(arr) <= 120:
                    self.emit(arr)
                else:
                    self.emit("            &[")
                    for x in entries:
                        self.emit(f"                {x},")
                    self.emit("            ],")
                self.emit("        )")
        self.emit("    }",
                  "}",
                  "",
                  f"impl ::std::fmt::Display for {name} {{",
                  "    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {",
                  "        ::fastwire::print::Print::print(self, f)",
                  "    }",
                  "}")
