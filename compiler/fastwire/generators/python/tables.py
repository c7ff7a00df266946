"""The Python generator's type table: struct-module formats, runtime codecs, annotations
and zero values of the primitives, and how schema names become Python names. Sizes and
offsets are never worked out here: they come from the lowered model (fastwire.lower)."""

from __future__ import annotations

from typing import AbstractSet, List

from ... import lower
from ..common import naming

# Versioned slot formats (struct module letters) of the primitives.
FMT = {
    "bool": "?", "byte": "B", "char": "B", "wchar": "I", "int8": "b", "uint8": "B",
    "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q",
    "float": "f", "double": "d", "decimal": "16s", "timestamp": "Q", "uuid": "16s",
    "string": "I", "bytes": "I",
}
CODEC = {
    "bool": "BOOL", "byte": "BYTE", "char": "CHAR", "wchar": "WCHAR", "int8": "INT8",
    "uint8": "UINT8", "int16": "INT16", "uint16": "UINT16", "int32": "INT32",
    "uint32": "UINT32", "int64": "INT64", "uint64": "UINT64", "float": "FLOAT",
    "double": "DOUBLE", "decimal": "DECIMAL", "timestamp": "TIMESTAMP", "uuid": "UUID_",
    "string": "STRING", "bytes": "BYTES",
}
PY_TYPE = {
    "bool": "bool", "float": "float", "double": "float", "string": "str", "bytes": "bytes",
    "decimal": "Decimal", "uuid": "UUID",
}
ZERO = {"bool": "False", "float": "0.0", "double": "0.0", "string": '""', "bytes": 'b""',
        "decimal": 'Decimal("0")', "uuid": "_rt.NIL_UUID"}
CONTAINER_CODEC = {"vector": "vector", "list": "list_", "set": "set_", "map": "map_",
                   "hash": "hash_"}
# Field kinds a struct can be written at once with (see emit_versioned).
FLAT = ("number", "enum", "uuid", "decimal", "string", "bytes")
# Attribute names the generated classes use themselves.
CLASS_NAMES = {"self", "to_json", "from_json"}


def pyname(name: str, taken: AbstractSet[str] = frozenset()) -> str:
    """A schema identifier as a Python identifier: keywords and clashes get a trailing _,
    and a leading __ (which Python would mangle inside a class) becomes f__."""
    if name.startswith("__") and not name.endswith("__"):
        name = "f" + name
    name = naming.ident("python", name)
    while name in taken:
        name = naming.ident("python", name + "_")
    return name


def member_name(name: str) -> str:
    """An enum member name Python's enum module accepts."""
    if name.startswith("__") and not name.endswith("__"):
        return "m" + name
    if (name in naming.RESERVED["python"] or name in ("mro", "name", "value")
            or (len(name) > 1 and name[0] == "_" and name[-1] == "_")):
        return name + "_"
    return name



def pads(parts: List[str]) -> str:
    """Struct format parts joined, consecutive pad bytes ("4x", "8x") merged ("12x")."""
    out: List[str] = []
    for part in parts:
        if part.endswith("x") and out and out[-1].endswith("x"):
            out[-1] = f"{int(out[-1][:-1]) + int(part[:-1])}x"
        else:
            out.append(part)
    return "".join(out)


def letters(w: lower.WireType) -> str:
    """The struct-module format of a versioned slot of wire type `w` (the type table:
    sizes and offsets come from the lowered model, never from here)."""
    if w.kind in ("scalar", "enum", "flags"):
        assert w.scalar is not None
        return FMT[w.scalar]
    if w.kind in ("decimal", "uuid", "timestamp"):
        return FMT[w.kind]
    if w.kind == "optional":
        return "BI"
    if w.kind == "array":
        assert w.element is not None and w.length is not None
        return letters(w.element) * w.length
    return "I"  # an offset: string, bytes, struct, sequence, map
