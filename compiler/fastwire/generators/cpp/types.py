"""The C++ type table: each schema type's C++ spelling (std or std::pmr), which types
take an allocator, the types views return, and defaults as C++ expressions (from the
model's normalised literals, lower.Literal)."""

from __future__ import annotations

from typing import Callable, Dict, Optional, Set

from ... import ir, lower
from ..common import literals
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
# A collection's C++ type of its element {v}, key {k} and length {n}: the domain's (std, or
# std::pmr with --pmr) and a view accessor's (view.h; the elements in their std types).
CONTAINERS = {"array": "std::array<{v}, {n}>", "vector": "std::vector<{v}>", "list": "std::list<{v}>",
              "set": "std::set<{v}>", "map": "std::map<{k}, {v}>", "hash": "std::unordered_map<{k}, {v}>"}
PMR_CONTAINERS = {k: v if k == "array" else v.replace("std::", "std::pmr::", 1) for k, v in CONTAINERS.items()}
VIEWS = {**{k: "fastwire::versioned::sequence_view<{v}, P>" for k in CONTAINERS},
         "array": "fastwire::versioned::array_view<{v}, {n}, P>",
         "map": "fastwire::versioned::map_view<{k}, {v}, P>", "hash": "fastwire::versioned::map_view<{k}, {v}, P>"}
# What a view's accessor returns for a plain value that is not its own type.
VIEW_VALUES = {"string": "std::string_view", "bytes": "fastwire::versioned::byte_view"}

# Integer literals' suffixes, and the least values that have no literal of their own.
_SUFFIXES = {"uint64": "ull", "timestamp": "ull", "int64": "ll", "uint32": "u", "wchar": "u"}
_LEAST = {("int64", -2 ** 63): "(-9223372036854775807LL - 1)", ("int32", -2 ** 31): "(-2147483647 - 1)"}
_CASTS = {"char": "char", "wchar": "wchar_t"}
_COMPUTED = {"utc": "fastwire::utc()", "uuid1": "fastwire::uuid::v1()", "uuid4": "fastwire::uuid::v4()"}


def int_literal(value: int, prim: Optional[str]) -> str:
    return _LEAST.get((prim or "", value)) or f"{value}{_SUFFIXES.get(prim or '', '')}"


def _decimal(lit: lower.Literal) -> str:
    if lit.coefficient >= 2 ** 63:
        return f'*fastwire::decimal::from_string("{lit.value}")'
    scale = f", {lit.scale}" if lit.scale else ""
    return f"fastwire::decimal({'-' if lit.negative else ''}{lit.coefficient}ll{scale})"


def _float(lit: lower.Literal) -> str:
    assert isinstance(lit.value, float)
    return literals.float_text(lit.value)


# A default literal's C++ text by its kind (integers and null are handled before).
_LITERALS: Dict[str, Callable[[lower.Literal, Optional[str]], str]] = {
    "bool": lambda lit, prim: "true" if lit.value else "false",
    "float": lambda lit, prim: _float(lit) + ("f" if prim == "float" else ""),
    "decimal": lambda lit, prim: _decimal(lit),
    "string": lambda lit, prim: literals.c_string(str(lit.value)),
    "uuid": lambda lit, prim: f'fastwire::uuid::literal("{lit.value}")',
    "computed": lambda lit, prim: _COMPUTED[str(lit.value)],
}


class Types:
    """The model, the options and the type table every part of the generator uses."""

    def __init__(self, model: lower.WireModel, options: Options):
        self.schema = model.schema
        self.options = options
        self.model = model
        # --pmr: the domain types use std::pmr; views name the std types (of the wire form).
        self.pmr = options.cpp_pmr
        self.domain = PMR_CONTAINERS if self.pmr else CONTAINERS
        self._allocates: Dict[str, bool] = {}
        # Inside a struct body, the names of its bases: C++ injects each base's class name
        # there, so a local type of the same name must be spelled with its namespace.
        self.injected: Set[str] = set()

    def qualified(self, ref: ir.TypeRef, package: str) -> str:
        if ref.package == package and ref.name not in self.injected:
            return ident(ref.name)
        assert ref.package is not None  # a named type's: primitives have no package
        return f"::{ident(ref.package)}::{ident(ref.name)}"

    def plain_type(self, ref: ir.TypeRef, package: str, pmr: bool = False) -> str:
        if ref.kind == "primitive":
            return "std::pmr::string" if pmr and ref.name == "string" else PRIMITIVES[ref.name]
        return self.qualified(ref, package)

    def field_type(self, t: ir.FieldType, package: str, table: Optional[Dict[str, str]] = None) -> str:
        """A field's C++ type: in the domain's spelling, or `table`'s (CONTAINERS, VIEWS)."""
        table = table or self.domain
        pmr = table is PMR_CONTAINERS
        value = self.plain_type(t.value, package, pmr)
        if t.optional:
            value = f"std::optional<{value}>"
        if t.container is None:
            return value
        key = self.plain_type(t.key, package, pmr) if t.key is not None else ""
        return table[t.container].format(v=value, k=key, n=t.size)

    def allocates(self, t: ir.FieldType) -> bool:
        """Whether a field of type `t` takes an allocator (std::pmr strings and collections,
        allocator-aware structs, and optionals and arrays of them)."""
        if t.container not in (None, "array"):
            return True
        ref = t.value
        if ref.kind == "primitive":
            return ref.name == "string"
        return self.struct_allocates(self.schema.lookup(ref))

    def struct_allocates(self, s: Optional[ir.NamedType]) -> bool:
        """Whether struct `s` is allocator-aware: it (or its base) holds a string, a
        collection, or a struct that is."""
        if not isinstance(s, ir.StructType):
            return False
        key = s.qualified_name
        if key not in self._allocates:
            self._allocates[key] = False  # a struct reaches itself only through collections
            base = self.schema.lookup(s.base) if s.base is not None else None
            self._allocates[key] = self.struct_allocates(base) or any(self.allocates(f.type) for f in s.fields)
        return self._allocates[key]

    def view_field_type(self, t: ir.FieldType, package: str) -> str:
        """What a view's accessor returns for a field of type `t` (view.h, element<T, P>),
        inside the view class template BasicSView<P>."""
        if t.container is not None:
            return self.field_type(t, package, VIEWS)
        ref = t.value
        if ref.kind == "primitive":
            value = VIEW_VALUES.get(ref.name) or PRIMITIVES[ref.name]
        elif ref.kind == "struct":
            scope, sep, name = self.qualified(ref, package).rpartition("::")
            value = f"{scope}{sep}Basic{name}View<P>"
        else:
            value = self.qualified(ref, package)
        return f"std::optional<{value}>" if t.optional else value

    def default_expr(self, s: ir.StructType, f: ir.Field, package: str) -> Optional[str]:
        """The default member initializer, or None for the type's own zero/empty."""
        lit = self.model.struct(s.qualified_name).default_of(f.name)
        t = f.type
        if lit is None or lit.kind == "null":
            if lit is None and t.container is None and not t.optional and t.value.kind in ("enum", "flags"):
                return f"{self.qualified(t.value, package)}{{}}"
            return None
        prim = t.value.name if t.value.kind == "primitive" else None
        if lit.kind == "integer" and lit.names:
            return " | ".join(f"{self.qualified(t.value, package)}::{ident(n)}" for n in lit.names)
        if lit.kind == "integer":
            assert isinstance(lit.value, int)
            return f"static_cast<{_CASTS[prim]}>({lit.value})" if prim in _CASTS else int_literal(lit.value, prim)
        if lit.kind == "uuid" and lit.raw == bytes(16):
            return None
        return _LITERALS[lit.kind](lit, prim)
