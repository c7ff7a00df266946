"""The Rust type table and what every part shares: the package, the model, the output."""

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



class Types:
    def __init__(self, schema: ir.Schema, pkg: ir.Package, model: lower.WireModel,
                 options: Options) -> None:
        self.schema = schema
        self.pkg = pkg
        self.model = model
        self.options = options
        self.p = Printer(indent=4)  # rustfmt's indentation, whatever --indent says

    # ---- output -----------------------------------------------------------------------
    def emit(self, *lines: str) -> None:
        """Lines of Rust as they are (their indentation written out)."""
        for line in lines:
            self.p.value(line)

    def ordered_structs(self) -> List[ir.StructType]:
        by_name = {s.qualified_name: s for s in self.pkg.structs}
        return [by_name[n] for n in self.model.package(self.pkg.name).emission_order]

    def doc(self, text: Optional[str], prefix: str = "") -> None:
        if text:
            for line in docs.comment_lines("rust", text):
                self.emit(f"{prefix}/// {line}".rstrip())

    # ---- types --------------------------------------------------------------------------
    def ref_type(self, ref: ir.TypeRef, key: bool = False) -> str:
        if ref.kind == "primitive":
            t = PRIMITIVES[ref.name]
            if key and ref.name in FLOATS:
                return f"::fastwire::Ordered<{t}>"
            return t
        name = type_name(ref.name)
        if ref.package and ref.package != self.pkg.name:
            return f"super::{module_name(ref.package)}::{name}"
        return name

    def field_type(self, t: ir.FieldType) -> str:
        elem_key = t.container == "set"
        v = self.ref_type(t.value, key=elem_key)
        if t.optional:
            v = f"Option<{v}>"
        c = t.container
        if c is None:
            return v
        if c == "array":
            return f"[{v}; {t.size}]"
        if c in ("vector", "list"):
            return f"Vec<{v}>"
        if c == "set":
            return f"::std::collections::BTreeSet<{v}>"
        assert t.key is not None
        k = self.ref_type(t.key, key=True)
        if c == "map":
            return f"::std::collections::BTreeMap<{k}, {v}>"
        return f"::std::collections::HashMap<{k}, {v}>"

    def schema_struct(self, qualified: str) -> ir.StructType:
        return next(s for s in self.pkg.structs if s.qualified_name == qualified)
