"""The Rust type table and what every part shares: package, model, output."""

from __future__ import annotations

from typing import List, Optional

from ... import ir, lower
from ..common import docs
from ..options import Options
from ..printer import Printer
from .names import module_name, type_name

PRIMITIVES = {
    "bool": "bool", "byte": "u8", "char": "u8", "wchar": "u32", "int8": "i8", "uint8": "u8",
    "int16": "i16", "uint16": "u16", "int32": "i32", "uint32": "u32", "int64": "i64",
    "uint64": "u64", "float": "f32", "double": "f64", "decimal": "::fastwire::Decimal",
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


class Types:
    def __init__(self, schema: ir.Schema, pkg: ir.Package, model: lower.WireModel,
                 options: Options) -> None:
        self.schema = schema
        self.pkg = pkg
        self.model = model
        self.options = options
        self.p = Printer(indent=4)  # rustfmt's indentation, whatever --indent says
        self.structs = {s.qualified_name: s for s in pkg.structs}

    def emit(self, *lines: str) -> None:
        """Lines of Rust, their indentation written out: appended as they are (what
        Printer.value() would print at level 0; there are millions)."""
        self.p.lines.extend(lines)

    def ordered_structs(self) -> List[ir.StructType]:
        return [self.structs[n] for n in self.model.package(self.pkg.name).emission_order]

    def doc(self, text: Optional[str], prefix: str = "") -> None:
        if text:
            for line in docs.comment_lines("rust", text):
                self.emit(f"{prefix}/// {line}".rstrip())

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
