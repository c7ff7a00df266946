"""How the general codec bodies code a field (its route), from the helper the plan names:

- `value`: a fixed-size value, read and written in place;
- `string`, `bytes`, `struct`: through dev.fastwire.Direct or the struct's static entries;
- `opt`: an optional string or struct; `seq`: a vector or list of structs, both in line;
- `codec`: anything else, through the field's codec (Fields.F_<name>).
"""

from __future__ import annotations

from ... import lower

DIRECT = {"string": "string", "bytes": "bytes", "struct": "struct"}
# What an optional or a vector or list holds for it to be coded in line.
IN_LINE = {"optional": ("opt", ("string", "struct")), "vector": ("seq", ("struct",)),
           "list": ("seq", ("struct",))}


def route(w: lower.WireType) -> str:
    """How a field is coded by the general bodies (see the module's doc)."""
    if w.is_value:
        return "value"
    way, elements = IN_LINE.get(w.helper, ("codec", ()))
    if w.element is not None and w.element.helper in elements:
        return way
    return DIRECT.get(w.helper, "codec")
