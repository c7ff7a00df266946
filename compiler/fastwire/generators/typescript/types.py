"""TypeScript types, runtime codecs and DataView accessors, in tables keyed by the plan's
helper names (fastwire.plan.HELPERS)."""

from __future__ import annotations

from typing import Callable, Dict, Tuple

from ... import layouts, lower
from .names import Scope

Wire = lower.WireType

# wire scalar -> (runtime codec, TypeScript type, DataView accessor, size)
SCALARS = {
    "bool": ("BOOL", "boolean", "Uint8", 1), "byte": ("BYTE", "number", "Uint8", 1),
    "char": ("CHAR", "number", "Uint8", 1), "wchar": ("WCHAR", "number", "Uint32", 4),
    "int8": ("INT8", "number", "Int8", 1), "uint8": ("UINT8", "number", "Uint8", 1),
    "int16": ("INT16", "number", "Int16", 2), "uint16": ("UINT16", "number", "Uint16", 2),
    "int32": ("INT32", "number", "Int32", 4), "uint32": ("UINT32", "number", "Uint32", 4),
    "int64": ("INT64", "bigint", "BigInt64", 8), "uint64": ("UINT64", "bigint", "BigUint64", 8),
    "float": ("FLOAT", "number", "Float32", 4), "double": ("DOUBLE", "number", "Float64", 8),
}
# a helper of one runtime codec -> (runtime codec, TypeScript type)
PLAIN: Dict[str, Tuple[str, str]] = {
    **{h: (c, t) for h, (c, t, _, _) in SCALARS.items()},
    "decimal": ("DECIMAL", "rt.Decimal"), "uuid": ("UUID", "string"),
    "timestamp": ("TIMESTAMP", "bigint"), "string": ("STRING", "string"), "bytes": ("BYTES", "Uint8Array"),
}
# value helpers the runtime reads and writes in place (the others by a DataView)
IN_PLACE = {"decimal": "rt.DECIMAL", "uuid": "rt.UUID"}


def _el(w: Wire) -> Wire:
    assert w.element is not None
    return w.element


def _key(w: Wire) -> Wire:
    assert w.key is not None
    return w.key


def _ref(g: Scope, w: Wire) -> str:
    assert w.ref is not None
    return g.wire_ref(w.ref)


REFS = ("enum", "flags", "struct")
SEQUENCES = ("vector", "list", "set")
CODECS: Dict[str, Callable[[Scope, Wire], str]] = {
    **{h: lambda g, w: "rt." + PLAIN[w.helper][0] for h in PLAIN},
    **{h: lambda g, w: _ref(g, w) + "Codec" for h in REFS},
    "optional": lambda g, w: f"rt.optional({codec(g, _el(w))})",
    "array": lambda g, w: f"rt.array({codec(g, _el(w))}, {w.length})",
    **{h: lambda g, w: f"rt.{w.helper}({codec(g, _el(w))})" for h in SEQUENCES},
    **{h: lambda g, w: f"rt.{w.helper}({codec(g, _key(w))}, {codec(g, _el(w))})" for h in ("map", "hash")},
}


def codec(g: Scope, w: Wire) -> str:
    """The runtime codec of a value of `w`."""
    return CODECS[w.helper](g, w)


def _list_type(g: Scope, w: Wire) -> str:
    inner = type_of(g, _el(w))
    return f"({inner})[]" if " " in inner else f"{inner}[]"


TYPES: Dict[str, Callable[[Scope, Wire], str]] = {
    **{h: (lambda g, w: PLAIN[w.helper][1]) for h in PLAIN},
    **{h: _ref for h in REFS},
    "optional": lambda g, w: f"{type_of(g, _el(w))} | null",
    **{h: _list_type for h in ("array", *SEQUENCES)},
    **{h: lambda g, w: f"Map<{type_of(g, _key(w))}, {type_of(g, _el(w))}>" for h in ("map", "hash")},
}


def type_of(g: Scope, w: Wire) -> str:
    """The TypeScript type of a value of `w`."""
    return TYPES[w.helper](g, w)


def base_type(scalar: str) -> str:
    return SCALARS[scalar][1]


def _access(w: Wire) -> Tuple[str, str]:
    """The DataView accessor of `w` and its little-endian flag (wider than a byte)."""
    scalar = layouts.TIMESTAMP.scalar if w.helper == "timestamp" else w.scalar
    _, _, accessor, size = SCALARS[str(scalar)]
    return accessor, ", true" if size > 1 else ""


def dv_read(w: Wire, pos: str, view: str = "dv") -> str:
    """An expression reading the value of `w` at `pos` (r, the Reader, in scope)."""
    if w.helper in IN_PLACE:
        return f"{IN_PLACE[w.helper]}.read(r, {pos})"
    accessor, little = _access(w)
    return f"{view}.get{accessor}({pos}{little})" + (" !== 0" if w.scalar == "bool" else "")


def dv_write(w: Wire, pos: str, value: str, view: str = "dv") -> str:
    """A statement writing `value` of `w` at `pos` (w, the Writer, in scope)."""
    if w.helper in IN_PLACE:
        return f"{IN_PLACE[w.helper]}.write(w, {pos}, {value});"
    accessor, little = _access(w)
    return f"{view}.set{accessor}({pos}, {value}{' ? 1 : 0' if w.scalar == 'bool' else ''}{little});"


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
