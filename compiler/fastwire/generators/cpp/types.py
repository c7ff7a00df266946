"""The C++ type table: each schema type's C++ spelling (std or std::pmr), which types
take an allocator, and the types views return."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Dict, Iterator, Set

from ... import ir, lower
from ..options import Options
from .names import ident

PRIMITIVES = {
    "bool": "bool", "byte": "std::uint8_t", "char": "char", "wchar": "wchar_t",
    "int8": "std::int8_t", "uint8": "std::uint8_t", "int16": "std::int16_t",
    "uint16": "std::uint16_t", "int32": "std::int32_t", "uint32": "std::uint32_t",
    "int64": "std::int64_t", "uint64": "std::uint64_t", "float": "float", "double": "double",
    "decimal": "fastwire::decimal", "string": "std::string", "bytes": "fastwire::bytes",
    "timestamp": "std::uint64_t", "uuid": "fastwire::uuid",
}

CONTAINERS = {"vector": "std::vector", "list": "std::list", "set": "std::set",
              "map": "std::map", "hash": "std::unordered_map"}

# --pmr: the allocator-aware spellings (fastwire/pmr.h). `bytes` stays fastwire::bytes.
PMR_STRING = "std::pmr::string"

PMR_CONTAINERS = {k: v.replace("std::", "std::pmr::") for k, v in CONTAINERS.items()}



class Types:
    """The model, the options and the type table every part of the generator uses."""

    def __init__(self, model: lower.WireModel, options: Options):
        self.schema = model.schema
        self.options = options
        self.model = model
        # --pmr: the domain types use std::pmr; views always name the std types (they
        # only describe the wire form), so they switch this off while they print.
        self.pmr = options.cpp_pmr
        self._allocates: Dict[str, bool] = {}
        # Inside a struct body, the names of its bases: C++ injects each base's class name
        # there, so a local type of the same name must be spelled with its namespace.
        self.injected: Set[str] = set()

    # -- names and types ------------------------------------------------------------------
    def qualified(self, ref: ir.TypeRef, package: str) -> str:
        if ref.package == package and ref.name not in self.injected:
            return ident(ref.name)
        assert ref.package is not None  # a named type's: primitives have no package
        return f"::{ident(ref.package)}::{ident(ref.name)}"

    def plain_type(self, ref: ir.TypeRef, package: str) -> str:
        if ref.kind == "primitive":
            if self.pmr and ref.name == "string":
                return PMR_STRING
            return PRIMITIVES[ref.name]
        return self.qualified(ref, package)

    def field_type(self, t: ir.FieldType, package: str) -> str:
        value = self.plain_type(t.value, package)
        if t.optional:
            value = f"std::optional<{value}>"
        if t.container is None:
            return value
        if t.container == "array":
            return f"std::array<{value}, {t.size}>"
        containers = PMR_CONTAINERS if self.pmr else CONTAINERS
        if t.container in ("map", "hash"):
            assert t.key is not None
            return f"{containers[t.container]}<{self.plain_type(t.key, package)}, {value}>"
        return f"{containers[t.container]}<{value}>"

    @contextmanager
    def std_types(self) -> Iterator[None]:
        """Within: the std (not std::pmr) spellings, whatever --pmr says."""
        saved, self.pmr = self.pmr, False
        try:
            yield
        finally:
            self.pmr = saved

    # -- --pmr: which types take an allocator ------------------------------------------
    def allocates(self, t: ir.FieldType) -> bool:
        """Whether a field of type `t` takes an allocator (std::pmr strings and collections,
        allocator-aware structs, and optionals and arrays of them)."""
        if t.container in ("vector", "list", "set", "map", "hash"):
            return True
        return self.ref_allocates(t.value)

    def ref_allocates(self, ref: ir.TypeRef) -> bool:
        if ref.kind == "primitive":
            return ref.name == "string"
        if ref.kind != "struct":
            return False
        s = self.schema.lookup(ref)
        assert isinstance(s, ir.StructType)
        return self.struct_allocates(s)

    def struct_allocates(self, s: ir.StructType) -> bool:
        """Whether struct `s` is allocator-aware: it (or its base) holds a string, a
        collection, or a struct that is."""
        key = s.qualified_name
        if key not in self._allocates:
            self._allocates[key] = False  # a struct reaches itself only through collections
            base = self.schema.lookup(s.base) if s.base is not None else None
            self._allocates[key] = (isinstance(base, ir.StructType) and self.struct_allocates(base)) \
                or any(self.allocates(f.type) for f in s.fields)
        return self._allocates[key]

    # -- views (cpp/include/fastwire/view.h) -----------------------------------------------
    def view_value_type(self, ref: ir.TypeRef, package: str) -> str:
        if ref.kind == "primitive":
            if ref.name == "string":
                return "std::string_view"
            if ref.name == "bytes":
                return "fastwire::versioned::byte_view"
            return PRIMITIVES[ref.name]
        if ref.kind == "struct":
            scope, sep, name = self.qualified(ref, package).rpartition("::")
            return f"{scope}{sep}Basic{name}View<P>"
        return self.qualified(ref, package)

    def view_field_type(self, t: ir.FieldType, package: str) -> str:
        """What a view's accessor returns for a field of type `t` (view.h, element<T, P>),
        inside the view class template BasicSView<P>."""
        if t.container is None:
            value = self.view_value_type(t.value, package)
            return f"std::optional<{value}>" if t.optional else value
        elem = self.plain_type(t.value, package)
        if t.optional:
            elem = f"std::optional<{elem}>"
        if t.container == "array":
            return f"fastwire::versioned::array_view<{elem}, {t.size}, P>"
        if t.container in ("map", "hash"):
            assert t.key is not None
            key = self.plain_type(t.key, package)
            return f"fastwire::versioned::map_view<{key}, {elem}, P>"
        return f"fastwire::versioned::sequence_view<{elem}, P>"
