"""Tables keyed by the plan's helper names (fastwire.plan.HELPERS): TypeScript types,
runtime codecs, DataView accessors and zeros; and the schema's defaults from the lowered
model's literals (lower.Literal, StructLayout.defaults)."""

from __future__ import annotations

import json
import math
import uuid
from typing import Callable, Dict, cast

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
    """The statement writing value field `f` at `base` + its offset, or reading it into v."""
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
    """How a field that is not a value is coded: in line (`string`, `bytes`, `struct`,
    `struct_optional`, `struct_sequence`: a vector or list of structs) or by the `table`."""
    if w.element is not None and w.element.helper == "struct":
        return OF_STRUCTS.get(w.helper, "table")
    return w.helper if w.helper in IN_LINE else "table"


ZERO = {"boolean": "false", "number": "0", "bigint": "0n", "string": '""'}


def js_string(text: str) -> str:
    """A JavaScript string literal as prettier writes it: JSON's escapes (ASCII only), in
    double quotes unless the text holds more double quotes than single ones."""
    body = json.dumps(text, ensure_ascii=True)[1:-1]
    if text.count('"') <= text.count("'"):
        return '"' + body + '"'
    return "'" + body.replace('\\"', '"').replace("'", "\\'") + "'"


def number_text(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0 and math.copysign(1.0, value) < 0:
        return "-0"
    return repr(float(value)).replace("e+", "e")


# helper -> its zero ({ref}: the struct's class; a number's by its TypeScript type, ZERO)
ZEROS = {
    "decimal": "rt.Decimal.ZERO", "uuid": "rt.NIL_UUID", "timestamp": "0n", "string": '""',
    "bytes": "new Uint8Array(0)", "struct": "new {ref}()", "optional": "null",
    **dict.fromkeys(("vector", "list", "set"), "[]"), **dict.fromkeys(("map", "hash"), "new Map()"),
}


def zero(g: Scope, w: Wire) -> str:
    if w.element is not None and w.length is not None:  # an array: its zero elements
        z = zero(g, w.element)
        return "[" + ", ".join([z] * w.length) + "]" if w.length <= 8 else \
            f"Array.from({{ length: {w.length} }}, () => {z})"
    if w.helper not in ZEROS:
        assert w.scalar is not None
        return ZERO[base_type(w.scalar)]
    return ZEROS[w.helper].format(ref=g.wire_ref(w.ref) if w.ref else "")


# lower.Literal.kind -> its text, for a value of wire type `t`
LITERALS: Dict[str, Callable[[lower.Literal, Wire], str]] = {
    "null": lambda lit, t: "null",
    "bool": lambda lit, t: "true" if lit.value else "false",
    "computed": lambda lit, t: f"rt.{lit.value}()",  # utc, uuid1, uuid4
    "integer": lambda lit, t: f"{lit.value}n" if t.helper == "timestamp" or t.scalar in ("int64", "uint64")
    else str(lit.value),
    "float": lambda lit, t: number_text(cast(float, lit.value)),
    "decimal": lambda lit, t: f"new rt.Decimal({lit.coefficient}n, {lit.scale}, {str(lit.negative).lower()})",
    "string": lambda lit, t: js_string(str(lit.value)),
    "uuid": lambda lit, t: js_string(str(uuid.UUID(bytes=cast(bytes, lit.raw)))),
}


def literal(lit: lower.Literal, w: Wire) -> str:
    target = w.element if w.helper == "optional" and w.element is not None else w
    return LITERALS[lit.kind](lit, target)


def default(g: Scope, s: lower.StructLayout, i: int) -> str:
    lit = s.defaults[i]
    w = s.fields[i].wire
    return zero(g, w) if lit is None else literal(lit, w)
