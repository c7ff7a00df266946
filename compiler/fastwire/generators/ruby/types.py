"""Ruby literals and defaults, and the type table: wire kind -> pack directive, runtime
codec, range check and the conversions between wire values and Ruby values."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

from ... import ir, lower
from ...layouts import TIMESTAMP
from ..common import docs
from .names import Ref, Scope, member_names

ESCAPES = {'"': '\\"', "\\": "\\\\", "#": "\\#", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def ruby_string(text: str) -> str:
    out = []
    for ch in text:
        o = ord(ch)
        if ch in ESCAPES:
            out.append(ESCAPES[ch])
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02X}")
        else:
            out.append(f"\\u{{{o:X}}}" if o > 0x7F else ch)
    return '"' + "".join(out) + '"'


def float_literal(x: float) -> str:
    if x != x:
        return "Float::NAN"
    if x in (float("inf"), float("-inf")):
        return "Float::INFINITY" if x > 0 else "-Float::INFINITY"
    text = repr(float(x))
    mant, e, exp = text.partition("e")
    return f"{mant}.0e{exp}" if e and "." not in mant else text


def comments(doc: Optional[str]) -> List[str]:
    return [f"# {line}".rstrip() for line in docs.comment_lines("ruby", doc.strip())] if doc else []


ZEROS = {"bool": "false", "float": "0.0", "double": "0.0", "string": '+""', "bytes": '"".b',
         "decimal": "Fastwire::Decimal::ZERO", "uuid": "Fastwire::UUID::NIL"}
COMPUTED = {"utc": "Fastwire.utc", "uuid1": "Fastwire::UUID.uuid1", "uuid4": "Fastwire::UUID.uuid4"}


def zero(g: Scope, ref: ir.TypeRef) -> str:
    if ref.kind == "primitive":
        return ZEROS.get(ref.name, "0")
    return f"{g.type_name(ref)}.new" if ref.kind == "struct" else "0"


def _decimal(lit: lower.Literal) -> str:
    if lit.coefficient == 0 and lit.scale == 0 and not lit.negative:
        return "Fastwire::Decimal::ZERO"
    return f"Fastwire::Decimal.new({lit.coefficient}, {lit.scale}, {str(lit.negative).lower()})"


def _uuid(lit: lower.Literal) -> str:
    assert isinstance(lit.raw, bytes)
    return "Fastwire::UUID::NIL" if lit.raw == bytes(16) else f'Fastwire::UUID.parse("{lit.value}")'


# lower.Literal kind -> its Ruby expression (an integer of an enum or flags type: its members)
LITERALS: Dict[str, Callable[[lower.Literal], str]] = {
    "null": lambda lit: "nil",
    "bool": lambda lit: "true" if lit.value else "false",
    "computed": lambda lit: COMPUTED[str(lit.value)],
    "integer": lambda lit: str(lit.value),
    "float": lambda lit: float_literal(float(lit.value)),  # type: ignore[arg-type]
    "decimal": _decimal,
    "string": lambda lit: ruby_string(str(lit.value)),
    "uuid": _uuid,
}
CONTAINERS = {"vector": "[]", "list": "[]", "set": "Set.new", "map": "{}", "hash": "{}"}


def default(g: Scope, f: ir.Field, lit: Optional[lower.Literal]) -> str:
    t = f.type
    if t.container == "array":
        return f"Array.new({t.size}) {{ {'nil' if t.optional else zero(g, t.value)} }}"
    if t.container in CONTAINERS:
        return CONTAINERS[t.container]
    if lit is None:
        return "nil" if t.optional else zero(g, t.value)
    if lit.kind == "integer" and t.value.kind in ("enum", "flags") and lit.names:
        e = g.schema.lookup(t.value)
        assert isinstance(e, ir.EnumType)
        names = member_names(e)
        return " | ".join(f"{g.type_name(t.value)}::{names[n]}" for n in lit.names)
    return LITERALS[lit.kind](lit)


# Wire scalar -> pack directive (float as its bits: Ruby's "e" directive would write
# every NaN as the canonical one)
SCALARS: Dict[str, str] = {
    "bool": "C", "byte": "C", "char": "C", "wchar": "V", "int8": "c", "uint8": "C",
    "int16": "s<", "uint16": "S<", "int32": "l<", "uint32": "L<", "int64": "q<",
    "uint64": "Q<", "float": "L<", "double": "E",
}
INTS = ("byte", "char", "uint8", "int8", "wchar", "int16", "uint16", "int32", "uint32", "int64",
        "uint64")
# helper -> the pack directive of its slot (else its scalar's, else an offset's "V")
SLOT_DIRECTIVES = {"timestamp": "Q<", "decimal": "a16", "uuid": "a16", "optional": "CV"}
# helper -> how the fast paths treat it (kind())
ROLES: Dict[str, str] = {
    **{h: "int" for h in INTS + ("timestamp", "enum", "flags")},
    **{h: h for h in ("bool", "float", "double", "decimal", "uuid", "string", "bytes", "struct")},
}
STRUCT_HOLDERS = {"optional": "opt_struct", "vector": "vec_struct", "list": "vec_struct"}
# kind -> the line that leaves a value's wire form in {v} (ints: a range check)
CHECKS = {
    "bool": "{v} = Fastwire::BOOL.to_wire({v})",
    "double": "{v} = Fastwire::DOUBLE.to_wire({v}) unless {v}.is_a?(Float)",
    "float": "{v} = Fastwire::FLOAT.to_wire({v})",
    "decimal": "{v} = Fastwire::DecimalCodec.bytes({v})",
    "uuid": "{v} = Fastwire::UUID_.to_wire({v})",
}
# kind -> the Ruby value of a wire value {e} read by directive(w, read=True)
CONVERTS = {"bool": "{e} != 0", "decimal": "Fastwire::DecimalCodec.of({e})",
            "uuid": "Fastwire::UUID.new({e})"}


def count_directives(fmt: str) -> int:
    """How many values a pack format packs ("l<VCV": 4; "a16": 1)."""
    return len(fmt.replace("<", "").replace("16", ""))


def plain_codec(g: Scope, ref: Ref) -> str:
    """The runtime codec of a value type: Fastwire::<CODEC>, E_<Enum> or S_<Struct>."""
    if ref.kind == "primitive":
        return "Fastwire::" + ("UUID_" if ref.name == "uuid" else ref.name.upper())
    return g.qualify(ref.package, ("E_" if ref.kind in ("enum", "flags") else "S_") + ref.name)


def codec_expr(g: Scope, t: ir.FieldType) -> str:
    c = plain_codec(g, t.value)
    if t.optional:
        c = f"Fastwire.optional({c})"
    if t.container == "array":
        return f"Fastwire.array({c}, {t.size})"
    if t.container in ("vector", "list", "set"):
        return f"Fastwire.{t.container}({c})"
    if t.container in ("map", "hash"):
        assert t.key is not None
        return f"Fastwire.{'map' if t.container == 'map' else 'hash_map'}({plain_codec(g, t.key)}, {c})"
    return c


def directive(w: lower.WireType, read: bool = False) -> str:
    """The pack directive(s) of a slot: an array's elements' in turn, a value's by its
    helper or its scalar, else an offset. A float value is read as a float ("e" keeps a NaN's
    payload)."""
    h = w.helper
    if h == "array":
        assert w.element is not None and w.length is not None
        return directive(w.element) * w.length
    if read and h == "float":
        return "e"
    return SLOT_DIRECTIVES.get(h) or (SCALARS[w.scalar] if w.scalar else "V")


def kind(w: lower.WireType) -> str:
    """How the fast paths treat a value (ROLES), else other (the runtime's codec)."""
    return ROLES.get(w.helper, "other")


def shape(w: lower.WireType) -> str:
    """kind(), with an optional struct (opt_struct), a vector or list of structs
    (vec_struct) and an array told apart from the rest of the runtime's codecs."""
    k = ROLES.get(w.helper, "other")
    if k != "other":
        return k
    if w.element is not None and w.element.helper == "struct" and w.helper in STRUCT_HOLDERS:
        return STRUCT_HOLDERS[w.helper]
    return "array" if w.helper == "array" else k


def is_text(w: lower.WireType) -> bool:
    """A string or bytes: [u32 length][bytes]."""
    return kind(w) in ("string", "bytes")


def nested(layout: lower.StructLayout) -> bool:
    """Holds a struct or a field the runtime's codec writes (else: values and strings)."""
    return any(kind(fl.wire) in ("struct", "other") for fl in layout.fields)


def check(var: str, w: lower.WireType, where: str) -> str:
    """The line that leaves the wire value of `var` in `var` (range-checked)."""
    k = kind(w)
    if k != "int":
        return CHECKS[k].format(v=var)
    scalar = w.scalar or TIMESTAMP.scalar
    bits = 8 * lower.scalar_size(scalar)
    lo, hi = (-(1 << bits - 1), (1 << bits - 1) - 1) if SCALARS[scalar][0] in "csql" else (0, (1 << bits) - 1)
    return (f"raise Fastwire.out_of_range({ruby_string(where)}, {var}, \"{scalar}\") "
            f"unless {var}.is_a?(Integer) && {var} >= {lo} && {var} <= {hi}")


def convert(expr: str, w: lower.WireType) -> str:
    """A value read by directive(w, read=True) as the field's Ruby value."""
    return CONVERTS.get(kind(w), "{e}").format(e=expr)


def wrong_class(name: str, var: str, cls: str) -> str:
    """The line that refuses a value in `var` not of class `cls` (a struct `name`)."""
    return (f'raise Fastwire::EncodeError.new("{name} expected, got #{{{var}.class}}", "wrong_type") '
            f"unless {var}.is_a?({cls})")


def wrong_field(where: str, what: str, var: str, cls: str = "String") -> str:
    """The line that refuses a field's value in `var` not of class `cls`."""
    return (f'raise Fastwire::EncodeError.new("{where}: {what} expected", "wrong_type") '
            f"unless {var}.is_a?({cls})")
