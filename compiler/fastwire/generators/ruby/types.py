"""The type table: wire kind -> pack directive and runtime codec, range checks and the
conversions between wire values and Ruby values."""

from __future__ import annotations

from typing import Dict, List

from ... import ir, lower
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
# Constants of Ruby's core a package's module must not replace.
INT_RANGES: Dict[str, tuple] = {
    "byte": (0, 0xFF), "char": (0, 0xFF), "uint8": (0, 0xFF), "int8": (-0x80, 0x7F),
    "wchar": (0, 0xFFFFFFFF), "int16": (-0x8000, 0x7FFF), "uint16": (0, 0xFFFF),
    "int32": (-0x80000000, 0x7FFFFFFF), "uint32": (0, 0xFFFFFFFF),
    "int64": (-0x8000000000000000, 0x7FFFFFFFFFFFFFFF), "uint64": (0, 0xFFFFFFFFFFFFFFFF),
}


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
    if ref.kind == "primitive":
        return f"Fastwire::{CODECS[ref.name]}"
    if ref.kind in ("enum", "flags"):
        return g.qualify(ref.package, f"E_{ref.name}")
    return g.qualify(ref.package, f"S_{ref.name}")


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
    """The pack directive(s) of a slot, from its wire kind."""
    if w.kind in ("scalar", "enum", "flags"):
        assert w.scalar is not None
        return SCALARS[w.scalar]
    if w.kind == "timestamp":
        return "Q<"
    if w.kind in ("decimal", "uuid"):
        return "a16"
    if w.kind == "optional":
        return "CV"
    if w.kind == "array":
        assert w.element is not None and w.length is not None
        return directive(w.element) * w.length
    return "V"  # an offset: string, bytes, struct, sequence, map


def kind(w: lower.WireType) -> str:
    if w.kind in ("scalar", "enum", "flags"):
        assert w.scalar is not None
        if w.scalar in ("bool", "float", "double"):
            return w.scalar
        return "int"
    if w.kind == "timestamp":
        return "int"
    if w.kind in ("decimal", "uuid", "string", "bytes", "struct"):
        return w.kind
    return "other"  # optional, array, sequence, map: the runtime's codec


def struct_optional(w: lower.WireType) -> bool:
    return w.kind == "optional" and w.element is not None and w.element.kind == "struct"


def struct_vector(w: lower.WireType) -> bool:
    return (w.kind == "sequence" and w.collection in ("vector", "list")
            and w.element is not None and w.element.kind == "struct")


def read_directive(w: lower.WireType) -> str:
    """As directive(), but a float is read as a float ("e" keeps a NaN's payload;
    only writing one goes through its bits)."""
    if w.kind == "scalar" and w.scalar == "float":
        return "e"
    return directive(w)


def check(g: Scope, var: str, w: lower.WireType, where: str) -> List[str]:
    """Lines that leave the wire value of `var` in `var` (range-checked)."""
    k = kind(w)
    if k == "int":
        scalar = "uint64" if w.kind == "timestamp" else w.scalar
        assert scalar is not None
        lo, hi = INT_RANGES[scalar]
        return [f"raise Fastwire.out_of_range({ruby_string(where)}, {var}, \"{scalar}\") "
                f"unless {var}.is_a?(Integer) && {var} >= {lo} && {var} <= {hi}"]
    if k == "bool":
        return [f"{var} = Fastwire::BOOL.to_wire({var})"]
    if k == "double":
        return [f"{var} = Fastwire::DOUBLE.to_wire({var}) unless {var}.is_a?(Float)"]
    if k == "float":
        return [f"{var} = Fastwire::FLOAT.to_wire({var})"]
    if k == "decimal":
        return [f"{var} = Fastwire::DecimalCodec.bytes({var})"]
    if k == "uuid":
        return [f"{var} = Fastwire::UUID_.to_wire({var})"]
    raise AssertionError(k)


def convert(expr: str, w: lower.WireType) -> str:
    """A value read by read_directive() as the field's Ruby value."""
    k = kind(w)
    if k == "bool":
        return f"{expr} != 0"
    if k == "decimal":
        return f"Fastwire::DecimalCodec.of({expr})"
    if k == "uuid":
        return f"Fastwire::UUID.new({expr})"
    return expr
