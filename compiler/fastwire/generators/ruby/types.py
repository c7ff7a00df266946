"""The type table: wire kind -> pack directive and runtime codec, range checks and the
conversions between wire values and Ruby values."""

from __future__ import annotations

from typing import Dict, List

from ... import ir, lower
from ...layouts import TIMESTAMP
from .literals import ruby_string
from .names import Scope

# Wire scalar -> (pack directive, runtime codec constant).
SCALARS: Dict[str, str] = {
    "bool": "C", "byte": "C", "char": "C", "wchar": "V", "int8": "c", "uint8": "C",
    "int16": "s<", "uint16": "S<", "int32": "l<", "uint32": "L<", "int64": "q<",
    "uint64": "Q<", "float": "L<", "double": "E",
}  # float as its bits: Ruby's "e" directive would write every NaN as the canonical one
CODECS: Dict[str, str] = {
    "bool": "BOOL", "byte": "BYTE", "char": "CHAR", "wchar": "WCHAR", "int8": "INT8",
    "uint8": "UINT8", "int16": "INT16", "uint16": "UINT16", "int32": "INT32",
    "uint32": "UINT32", "int64": "INT64", "uint64": "UINT64", "float": "FLOAT",
    "double": "DOUBLE", "decimal": "DECIMAL", "timestamp": "TIMESTAMP", "uuid": "UUID_",
    "string": "STRING", "bytes": "BYTES",
}
INT_RANGES: Dict[str, tuple] = {
    "byte": (0, 0xFF), "char": (0, 0xFF), "uint8": (0, 0xFF), "int8": (-0x80, 0x7F),
    "wchar": (0, 0xFFFFFFFF), "int16": (-0x8000, 0x7FFF), "uint16": (0, 0xFFFF),
    "int32": (-0x80000000, 0x7FFFFFFF), "uint32": (0, 0xFFFFFFFF),
    "int64": (-0x8000000000000000, 0x7FFFFFFFFFFFFFFF), "uint64": (0, 0xFFFFFFFFFFFFFFFF),
}
CODEC_PREFIX = {"enum": "E_", "flags": "E_"}  # (an IR type kind) else S_
# helper -> the pack directive of its slot (else its scalar's, else an offset's "V")
SLOT_DIRECTIVES = {"timestamp": "Q<", "decimal": "a16", "uuid": "a16", "optional": "CV"}
READ_DIRECTIVES = {"float": "e"}
# helper -> how the fast paths treat it (kind())
ROLES: Dict[str, str] = {
    **{h: "int" for h in INT_RANGES}, "timestamp": "int", "enum": "int", "flags": "int",
    **{h: h for h in ("bool", "float", "double", "decimal", "uuid", "string", "bytes", "struct")},
}
STRUCT_HOLDERS = {"optional": "opt_struct", "vector": "vec_struct", "list": "vec_struct"}
TEXT = ("string", "bytes")
OTHER_SHAPES = {"array": "array"}  # read and checked in place, not through an offset
# kind -> the line that leaves a value's wire form in {v} (ints: a range check)
CHECKS = {
    "bool": "{v} = Fastwire::BOOL.to_wire({v})",
    "double": "{v} = Fastwire::DOUBLE.to_wire({v}) unless {v}.is_a?(Float)",
    "float": "{v} = Fastwire::FLOAT.to_wire({v})",
    "decimal": "{v} = Fastwire::DecimalCodec.bytes({v})",
    "uuid": "{v} = Fastwire::UUID_.to_wire({v})",
}
# kind -> the Ruby value of a wire value {e} read by read_directive()
CONVERTS = {"bool": "{e} != 0", "decimal": "Fastwire::DecimalCodec.of({e})",
            "uuid": "Fastwire::UUID.new({e})"}


def split_directives(fmt: str) -> List[str]:
    """A pack format split into its directives ("l<VCV" -> ["l<", "V", "C", "V"])."""
    out: List[str] = []
    i = 0
    while i < len(fmt):
        if fmt[i] == "a":
            out.append(fmt[i:i + 3])
            i += 3
        elif i + 1 < len(fmt) and fmt[i + 1] == "<":
            out.append(fmt[i:i + 2])
            i += 2
        else:
            out.append(fmt[i])
            i += 1
    return out


def plain_codec(g: Scope, ref: ir.TypeRef) -> str:
    """The runtime codec of a value type: Fastwire::<CODEC>, E_<Enum> or S_<Struct>."""
    if ref.kind == "primitive":
        return f"Fastwire::{CODECS[ref.name]}"
    return g.qualify(ref.package, CODEC_PREFIX.get(ref.kind, "S_") + ref.name)


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
        fn = "map" if t.container == "map" else "hash_map"
        return f"Fastwire.{fn}({plain_codec(g, t.key)}, {c})"
    return c


def directive(w: lower.WireType) -> str:
    """The pack directive(s) of a slot: an array's elements' in turn, a value's by its
    helper or its scalar, else an offset."""
    if w.helper == "array":
        assert w.element is not None and w.length is not None
        return directive(w.element) * w.length
    return SLOT_DIRECTIVES.get(w.helper) or (SCALARS[w.scalar] if w.scalar else "V")


def kind(w: lower.WireType) -> str:
    """How the fast paths treat a value (ROLES): int, bool, float, double, decimal, uuid,
    string, bytes, struct, or other (the runtime's codec)."""
    return ROLES.get(w.helper, "other")


def shape(w: lower.WireType) -> str:
    """kind(), with an optional struct (opt_struct), a vector or list of structs
    (vec_struct) and an array (array) told apart from the rest of the runtime's codecs."""
    k = kind(w)
    if k != "other":
        return k
    if w.element is not None and w.element.helper == "struct" and w.helper in STRUCT_HOLDERS:
        return STRUCT_HOLDERS[w.helper]
    return OTHER_SHAPES.get(w.helper, k)


def is_text(w: lower.WireType) -> bool:
    """A string or bytes: [u32 length][bytes]."""
    return kind(w) in TEXT


def struct_optional(w: lower.WireType) -> bool:
    return shape(w) == "opt_struct"


def struct_vector(w: lower.WireType) -> bool:
    return shape(w) == "vec_struct"


def read_directive(w: lower.WireType) -> str:
    """As directive(), but a float is read as a float ("e" keeps a NaN's payload;
    only writing one goes through its bits)."""
    return READ_DIRECTIVES.get(w.helper) or directive(w)


def check(g: Scope, var: str, w: lower.WireType, where: str) -> List[str]:
    """Lines that leave the wire value of `var` in `var` (range-checked)."""
    k = kind(w)
    if k != "int":
        return [CHECKS[k].format(v=var)]
    scalar = w.scalar or TIMESTAMP.scalar
    lo, hi = INT_RANGES[scalar]
    return [f"raise Fastwire.out_of_range({ruby_string(where)}, {var}, \"{scalar}\") "
            f"unless {var}.is_a?(Integer) && {var} >= {lo} && {var} <= {hi}"]


def convert(expr: str, w: lower.WireType) -> str:
    """A value read by read_directive() as the field's Ruby value."""
    return CONVERTS.get(kind(w), "{e}").format(e=expr)


def wrong_class(name: str, var: str, cls: str) -> str:
    """The line that refuses a value in `var` not of class `cls` (a struct `name`)."""
    return (f'raise Fastwire::EncodeError.new("{name} expected, got #{{{var}.class}}", "wrong_type") '
            f"unless {var}.is_a?({cls})")


def wrong_field(where: str, what: str, var: str, cls: str) -> str:
    """The line that refuses a field's value in `var` not of class `cls`."""
    return (f'raise Fastwire::EncodeError.new("{where}: {what} expected", "wrong_type") '
            f"unless {var}.is_a?({cls})")
