"""Enums and flags: open newtypes over their integer with named constants."""

from __future__ import annotations

from typing import List

from ... import ir
from .literals import Literals
from .names import const_name, type_name
from .types import PRIMITIVES

_ENUM = """
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct $name$(pub $base$);

impl $name$ {
"""
_NAMES = """
    /// The name of the value ($which$).
    pub fn name(self) -> Option<&'static str> {
        $names$
    }

    /// The value of a name$none$.
    pub fn from_name($u$name: &str) -> Option<Self> {
        $values$
    }
}

impl ::std::fmt::Debug for $name$ {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "{}", self.0),
        }
    }
}

::fastwire::impl_enum!($name$, $base$);
"""
_PRINT = """

impl ::fastwire::print::Print for $name$ {
    fn print(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        $print$
    }
}

impl ::std::fmt::Display for $name$ {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        ::fastwire::print::Print::print(self, f)
    }
}
"""


def match(scrutinee: str, arms: List[str], default: str = "_ => None,") -> List[str]:
    """The lines of a `match` over `arms`, with the `default` arm last when given."""
    return [f"match {scrutinee} {{", *(f"    {a}" for a in arms), *([f"    {default}"] if default else []), "}"]


class Enums(Literals):
    def emit_enum(self, e: ir.EnumType) -> None:
        name = type_name(e.name)
        base = PRIMITIVES[e.base]
        flags = e.kind == "flags"
        consts, seen, names = [], set(), []
        for v in e.values:
            c = const_name(v.name)
            while c in seen:
                c += "_"
            seen.add(c)
            consts.append((c, v))
        self.emit("")
        self.doc(e.doc)
        self.emit(f"/// {'Flags' if flags else 'Enum'} `{e.name}` (open: values without a name are kept).")
        if e.deprecated:
            self.emit("#[deprecated]")
        self.p.print(_ENUM, name=name, base=base)
        numbers = set()
        for c, v in consts:
            self.doc(v.doc, "    ")
            self.emit(f"    pub const {c}: {name} = {name}({self.int_literal(v.value, e.base)});")
            if v.value not in numbers:  # a name for the first declared with this number
                numbers.add(v.value)
                names.append(f'{self.int_literal(v.value, e.base)} => Some("{v.name}"),')
        cast = "" if base == "u64" else " as u64"
        entries = [f'("{v.name}", Self::{c}.0{cast})' for c, v in consts]
        if not flags:
            text = 'f.write_str(self.name().unwrap_or("<unknown>"))'
        elif len(one := f"::fastwire::print::flags(f, self.0{cast}, &[{', '.join(entries)}])") <= 112:
            text = one
        else:  # as rustfmt breaks it: the arguments a line, the array too when it is long
            arr = f"&[{', '.join(entries)}],"
            if len(arr) > 108:
                arr = "\n".join(["&[", *(f"    {x}," for x in entries), "],"])
            text = "\n".join(["::fastwire::print::flags(", "    f,", f"    self.0{cast},",
                              *(f"    {x}" for x in arr.split("\n")), ")"])
        if consts:
            self.emit("")
            self.p.print(_NAMES, name=name, base=base, which="the first declared with this number", none="", u="",
                         names="\n".join(match("self.0", names)),
                         values="\n".join(match("name", [f'"{v.name}" => Some(Self::{c}),' for c, v in consts])))
        else:
            none = "none: the enum declares no value"
            self.p.print(_NAMES, name=name, base=base, which=none, none=f" ({none})", u="_", names="None",
                         values="None")
        if flags:
            self.emit(f"::fastwire::impl_flags!({name}, {base});")
        self.p.print(_PRINT, name=name, print=text)
