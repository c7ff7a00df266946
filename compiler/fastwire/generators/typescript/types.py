"""TypeScript types, runtime codecs and DataView accessors, in tables keyed by the plan's
helper names (fastwire.plan.HELPERS)."""

from __future__ import annotations

from typing import Callable

from ... import layouts, lower, plan
from .names import Scope

Wire = lower.WireType

# the TypeScript type of each helper of one runtime codec (rt.<HELPER>): "number" unless listed
PLAIN = {h: {"bool": "boolean", "int64": "bigint", "uint64": "bigint", "decimal": "rt.Decimal", "uuid": "string",
             "timestamp": "bigint", "string": "string", "bytes": "Uint8Array"}.get(h, "number")
         for h in (*plan.SCALARS, "decimal", "uuid", "timestamp", "string", "bytes")}
# wire scalar -> (DataView accessor, size)
DATAVIEW = {
    "bool": ("Uint8", 1), "byte": ("Uint8", 1), "char": ("Uint8", 1), "uint8": ("Uint8", 1), "int8": ("Int8", 1),
    "int16": ("Int16", 2), "uint16": ("Uint16", 2), "int32": ("Int32", 4),
    "uint32": ("Uint32", 4), "wchar": ("Uint32", 4), "int64": ("BigInt64", 8),
    "uint64": ("BigUint64", 8), "float": ("Float32", 4), "double": ("Float64", 8),
}
# value helpers the runtime reads and writes in place (the others by a DataView)
IN_PLACE = {"decimal": "rt.DECIMAL", "uuid": "rt.UUID"}


# the helpers of a runtime codec built from the type's (ref) name, element, key or length
# -> (runtime codec, TypeScript type)
BUILT = {
    **dict.fromkeys(("enum", "flags", "struct"), ("{ref}Codec", "{ref}")),
    "optional": ("rt.optional({element})", "{element} | null"), "array": ("rt.array({element}, {length})", "{list}"),
    **dict.fromkeys(("vector", "list", "set"), ("rt.{helper}({element})", "{list}")),
    **dict.fromkeys(("map", "hash"), ("rt.{helper}({key}, {element})", "Map<{key}, {element}>")),
}


def _built(g: Scope, w: Wire, i: int, of: Callable[[Scope, Wire], str]) -> str:
    element = of(g, w.element) if w.element else ""
    return BUILT[w.helper][i].format(
        ref=g.wire_ref(w.ref) if w.ref else "", element=element, key=of(g, w.key) if w.key else "",
        length=w.length, helper=w.helper, list=f"({element})[]" if " " in element else f"{element}[]")


def codec(g: Scope, w: Wire) -> str:
    """The runtime codec of a value of `w`."""
    return "rt." + w.helper.upper() if w.helper in PLAIN else _built(g, w, 0, codec)


def type_of(g: Scope, w: Wire) -> str:
    """The TypeScript type of a value of `w`."""
    return PLAIN.get(w.helper) or _built(g, w, 1, type_of)


def base_type(scalar: str) -> str:
    return PLAIN[scalar]


def dv(g: Scope, f: plan.PlanField, base: str, put: bool) -> str:
    """The statement writing field `f`, a value, at `base` + its offset (w, the Writer, in
    scope), or else reading it into v (r, the Reader): by a DataView, or the runtime."""
    w, pos, prop = f.wire, f"{base} + {f.at}", f"v.{g.prop(f.name)}"
    if w.helper in IN_PLACE:
        return f"{IN_PLACE[w.helper]}.write(w, {pos}, {prop});" if put else \
            f"{prop} = {IN_PLACE[w.helper]}.read(r, {pos});"
    scalar = layouts.TIMESTAMP.scalar if w.helper == "timestamp" else w.scalar
    accessor, size = DATAVIEW[scalar or ""]
    little = ", true" if size > 1 else ""
    if put:
        return f"dv.set{accessor}({pos}, {prop}{' ? 1 : 0' if scalar == 'bool' else ''}{little});"
    return f"{prop} = dv.get{accessor}({pos}{little}){' !== 0' if scalar == 'bool' else ''};"


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
