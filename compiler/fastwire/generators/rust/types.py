"""Rust names (each made once), the type table, defaults from the model's lower.Literal,
and enums and flags: open newtypes over their integer with named constants."""

from __future__ import annotations

from functools import lru_cache
from typing import List, Optional

from ... import ir, lower
from ..common import docs, naming
from ..options import Options
from ..printer import Printer


@lru_cache(maxsize=None)
def type_name(name: str) -> str:
    return naming.ident("rust", naming.pascal(name))


@lru_cache(maxsize=None)
def field_name(name: str) -> str:
    return naming.ident("rust", naming.snake(name))


module_name = field_name  # a package's module: snake_case, as a field


def const_name(name: str) -> str:
    return naming.snake(name).upper() or "_"


PRIMITIVES = {
    "bool": "bool", "byte": "u8", "char": "u8", "wchar": "u32", "float": "f32", "double": "f64",
    **{f"{name}{bits}": f"{short}{bits}" for name, short in (("int", "i"), ("uint", "u")) for bits in (8, 16, 32, 64)},
    "decimal": "::fastwire::Decimal",
    "string": "::fastwire::Text", "bytes": "::fastwire::Bytes",
    "timestamp": "::fastwire::Timestamp", "uuid": "::fastwire::Uuid",
}
FLOATS = ("float", "double")
# A collection's Rust type of its element `v`, key `k` and length `n`.
CONTAINERS = {
    "array": "[{v}; {n}]", "vector": "Vec<{v}>", "list": "Vec<{v}>",
    "set": "::std::collections::BTreeSet<{v}>", "map": "::std::collections::BTreeMap<{k}, {v}>",
    "hash": "::std::collections::HashMap<{k}, {v}>",
}


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
# A primitive's zero (others: 0); enums and flags are `T(0)`, structs `T::default()`.
_ZEROS = {"bool": "false", "float": "0.0", "double": "0.0", "decimal": "::fastwire::Decimal::ZERO",
          "string": "::fastwire::Text::new()", "bytes": "::fastwire::Bytes::default()",
          "timestamp": "::fastwire::Timestamp(0)", "uuid": "::fastwire::Uuid::NIL"}
_COMPUTED = {"utc": "::fastwire::Timestamp::now()", "uuid1": "::fastwire::Uuid::new_v1()",
             "uuid4": "::fastwire::Uuid::new_v4()"}
_MIN_BITS = {"int64": 63, "int32": 31, "int16": 15, "int8": 7}  # i<N>::MIN is -(1 << this)


def rust_string(text: str) -> str:
    return '"' + "".join(_ESCAPES.get(ch) or (ch if 0x20 <= ord(ch) < 0x7F else "\\u{%x}" % ord(ch))
                         for ch in text) + '"'


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


def wrapped(head: str, items: List[str], tail: str, room: int) -> List[str]:
    """`head`, the items and `tail` on one line of at most `room` characters, else as rustfmt
    breaks them: an item a line, indented, each with a comma."""
    one = head + ", ".join(items) + tail
    if len(one) <= room and "\n" not in one:
        return [one]
    return [head, *(f"    {line}" for item in items for line in f"{item},".split("\n")), tail]


class Types:
    def __init__(self, pkg: ir.Package, model: lower.WireModel, options: Options) -> None:
        self.schema = model.schema
        self.pkg = pkg
        self.model = model
        self.options = options
        self.p = Printer(indent=4)  # rustfmt's indentation, whatever --indent says

    def emit(self, *lines: str) -> None:
        """Lines of Rust with their indentation, appended as they are (there are millions)."""
        self.p.lines.extend(lines)

    def doc(self, text: Optional[str], prefix: str = "", marker: str = "///") -> None:
        for line in docs.comment_lines("rust", text):
            self.emit(f"{prefix}{marker} {line}".rstrip())

    def ref_type(self, ref: ir.TypeRef, key: bool = False) -> str:
        if ref.kind == "primitive":
            t = PRIMITIVES[ref.name]
            return f"::fastwire::Ordered<{t}>" if key and ref.name in FLOATS else t
        name = type_name(ref.name)
        if ref.package and ref.package != self.pkg.name:
            return f"super::{module_name(ref.package)}::{name}"
        return name

    def field_type(self, t: ir.FieldType) -> str:
        v = self.ref_type(t.value, key=t.container == "set")
        if t.optional:
            v = f"Option<{v}>"
        if t.container is None:
            return v
        k = self.ref_type(t.key, key=True) if t.key is not None else ""
        return CONTAINERS[t.container].format(v=v, k=k, n=t.size)

    @staticmethod
    def int_literal(value: int, base: str) -> str:
        if base in _MIN_BITS and value == -(1 << _MIN_BITS[base]):
            return f"{PRIMITIVES[base]}::MIN"
        return str(value)

    def plain_value(self, ref: ir.TypeRef, lit: Optional[lower.Literal]) -> str:
        """The expression of a plain value: `lit` (the schema's default) or the zero."""
        prim = ref.name if ref.kind == "primitive" else None
        if lit is None or lit.kind == "null":
            if prim is not None:
                return _ZEROS.get(prim, "0")
            return f"{self.ref_type(ref)}(0)" if ref.kind in ("enum", "flags") else f"{self.ref_type(ref)}::default()"
        k, value = lit.kind, lit.value
        if k == "computed":
            return _COMPUTED[str(value)]
        if k == "bool":
            return "true" if value else "false"
        if k == "integer":
            assert isinstance(value, int)
            if prim is None:
                t = self.schema.lookup(ref)
                assert isinstance(t, ir.EnumType)
                return f"{self.ref_type(ref)}({self.int_literal(value, t.base)})"
            if prim == "timestamp":
                return f"::fastwire::Timestamp({value})"
            return self.int_literal(value, prim)  # (lower gives a float or decimal field its kind)
        if k == "float":
            return f"f32::from_bits({lit.raw:#010x})" if lit.bits == 32 else f"f64::from_bits({lit.raw:#018x})"
        if k == "decimal":
            return f"::fastwire::Decimal::lit({lit.coefficient}, {lit.scale}, {str(lit.negative).lower()})"
        if k == "string":
            return f"::fastwire::Text::from({rust_string(str(value))})"
        assert k == "uuid" and isinstance(lit.raw, bytes), k
        return f"::fastwire::Uuid::from_u128(0x{lit.raw.hex()})" if any(lit.raw) else "::fastwire::Uuid::NIL"

    def default_expr(self, f: ir.Field, lit: Optional[lower.Literal]) -> str:
        t = f.type
        if t.container == "array":
            return f"::std::array::from_fn(|_| {'None' if t.optional else self.plain_value(t.value, None)})"
        if t.container is not None:
            return "Default::default()"
        if t.optional:
            return "None" if lit is None or lit.kind == "null" else f"Some({self.plain_value(t.value, lit)})"
        return self.plain_value(t.value, lit)

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
        text = 'f.write_str(self.name().unwrap_or("<unknown>"))'
        if flags:
            arr = "\n".join(wrapped("&[", entries, "]", 107))
            text = "\n".join(wrapped("::fastwire::print::flags(", ["f", f"self.0{cast}", arr], ")", 112))
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
