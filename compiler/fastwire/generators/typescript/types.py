"""TypeScript types, runtime codecs and DataView accessors, in tables keyed by the plan's
helper names (fastwire.plan.HELPERS)."""

from __future__ import annotations

from typing import Callable, Dict

from ... import layouts, lower
from .names import Scope

Wire = lower.WireType

# wire scalar -> (runtime codec, TypeScript type)
SCALARS = {
    "bool": ("BOOL", "boolean"), "byte": ("BYTE", "number"), "char": ("CHAR", "number"),
    "wchar": ("WCHAR", "number"), "int8": ("INT8", "number"), "uint8": ("UINT8", "number"),
    "int16": ("INT16", "number"), "uint16": ("UINT16", "number"),
    "int32": ("INT32", "number"), "uint32": ("UINT32", "number"),
    "int64": ("INT64", "bigint"), "uint64": ("UINT64", "bigint"),
    "float": ("FLOAT", "number"), "double": ("DOUBLE", "number"),
}
# the other helpers of one runtime codec -> (runtime codec, TypeScript type)
PLAIN = {
    **SCALARS,
    "decimal": ("DECIMAL", "rt.Decimal"), "uuid": ("UUID", "string"),
    "timestamp": ("TIMESTAMP", "bigint"), "string": ("STRING", "string"),
    "bytes": ("BYTES", "Uint8Array"),
}
# wire scalar -> (DataView accessor, size)
DATAVIEW = {
    "byte": ("Uint8", 1), "char": ("Uint8", 1), "uint8": ("Uint8", 1), "int8": ("Int8", 1),
    "int16": ("Int16", 2), "uint16": ("Uint16", 2), "int32": ("Int32", 4),
    "uint32": ("Uint32", 4), "wchar": ("Uint32", 4), "int64": ("BigInt64", 8),
    "uint64": ("BigUint64", 8), "float": ("Float32", 4), "double": ("Float64", 8),
}
# value helpers the runtime reads and writes in place (the others by a DataView)
IN_PLACE = {"decimal": "rt.DECIMAL", "uuid": "rt.UUID"}


def _plain_codec(g: Scope, w: Wire) -> str:
    return "rt." + PLAIN[w.helper][0]


def _ref_codec(g: Scope, w: Wire) -> str:
    assert w.ref is not None
    return g.wire_ref(w.ref) + "Codec"


def _element_codec(g: Scope, w: Wire) -> str:
    assert w.element is not None
    return codec(g, w.element)


def _map_codec(g: Scope, w: Wire) -> str:
    assert w.key is not None
    return f"rt.{w.helper}({codec(g, w.key)}, {_element_codec(g, w)})"


CODECS: Dict[str, Callable[[Scope, Wire], str]] = {
    **{h: _plain_codec for h in PLAIN},
    "enum": _ref_codec, "flags": _ref_codec, "struct": _ref_codec,
    "optional": lambda g, w: f"rt.optional({_element_codec(g, w)})",
    "array": lambda g, w: f"rt.array({_element_codec(g, w)}, {w.length})",
    **{h: lambda g, w: f"rt.{w.helper}({_element_codec(g, w)})" for h in ("vector", "list", "set")},
    "map": _map_codec, "hash": _map_codec,
}


def codec(g: Scope, w: Wire) -> str:
    """The runtime codec of a value of `w`."""
    return CODECS[w.helper](g, w)


def _list_type(g: Scope, w: Wire) -> str:
    assert w.element is not None
    inner = type_of(g, w.element)
    return f"({inner})[]" if " " in inner else f"{inner}[]"


def _ref_type(g: Scope, w: Wire) -> str:
    assert w.ref is not None
    return g.wire_ref(w.ref)


def _map_type(g: Scope, w: Wire) -> str:
    assert w.key is not None and w.element is not None
    return f"Map<{type_of(g, w.key)}, {type_of(g, w.element)}>"


def _optional_type(g: Scope, w: Wire) -> str:
    assert w.element is not None
    return f"{type_of(g, w.element)} | null"


TYPES: Dict[str, Callable[[Scope, Wire], str]] = {
    **{h: (lambda g, w: PLAIN[w.helper][1]) for h in PLAIN},
    "enum": _ref_type, "flags": _ref_type, "struct": _ref_type, "optional": _optional_type,
    **{h: _list_type for h in ("array", "vector", "list", "set")},
    "map": _map_type, "hash": _map_type,
}


def type_of(g: Scope, w: Wire) -> str:
    """The TypeScript type of a value of `w`."""
    return TYPES[w.helper](g, w)


def base_type(scalar: str) -> str:
    return SCALARS[scalar][1]


def _dv_scalar(w: Wire) -> str:
    scalar = layouts.TIMESTAMP.scalar if w.helper == "timestamp" else w.scalar
    assert scalar is not None
    return scalar


def dv_read(w: Wire, pos: str, view: str = "dv") -> str:
    """An expression reading the value of `w` at `pos` (r, the Reader, in scope)."""
    if w.helper in IN_PLACE:
        return f"{IN_PLACE[w.helper]}.read(r, {pos})"
    scalar = _dv_scalar(w)
    if scalar == "bool":
        return f"{view}.getUint8({pos}) !== 0"
    t, size = DATAVIEW[scalar]
    return f"{view}.get{t}({pos}{', true' if size > 1 else ''})"


def dv_write(w: Wire, pos: str, value: str, view: str = "dv") -> str:
    """A statement writing `value` of `w` at `pos` (w, the Writer, in scope)."""
    if w.helper in IN_PLACE:
        return f"{IN_PLACE[w.helper]}.write(w, {pos}, {value});"
    scalar = _dv_scalar(w)
    if scalar == "bool":
        return f"{view}.setUint8({pos}, {value} ? 1 : 0);"
    t, size = DATAVIEW[scalar]
    return f"{view}.set{t}({pos}, {value}{', true' if size > 1 else ''});"


# helpers of a field generated code codes in line; the others through the field table
IN_LINE = ("string", "bytes", "struct")
# a container helper whose element is a struct -> how generated code codes it in line
OF_STRUCTS = {"optional": "struct_optional", "vector": "struct_sequence", "list": "struct_sequence"}


def in_line(w: Wire) -> str:
    """How generated code codes a field that is not a value: `string`, `bytes`, `struct`,
    `struct_optional`, `struct_sequence` (a vector or list of structs, by loops), or
    `table` (the field table's runtime codec)."""
    if w.element is not None and w.element.helper == "struct":
        return OF_STRUCTS.get(w.helper, "table")
    return w.helper if w.helper in IN_LINE else "table"
