"""The resolved schema: the intermediate representation every generator reads.

Plain immutable objects. Every name is resolved, every number computed: struct type
numbers (spec §1.3), enum and flags values (C semantics, §1.4), inherited fields
flattened base-first, defaults typed and range-checked. `ir_json.py` writes the same
model as JSON for generators written as plugins (format: docs/ir.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from .graph import components

# Wire size of each primitive in both binary formats. string and bytes are variable.
PRIMITIVE_SIZES: Dict[str, Optional[int]] = {
    "bool": 1, "byte": 1, "char": 1, "wchar": 4,
    "int8": 1, "uint8": 1, "int16": 2, "uint16": 2,
    "int32": 4, "uint32": 4, "int64": 8, "uint64": 8,
    "float": 4, "double": 8, "decimal": 16, "timestamp": 8, "uuid": 16,
    "string": None, "bytes": None,
}

# Inclusive value ranges of the types that hold integers.
INTEGER_RANGES: Dict[str, Tuple[int, int]] = {
    "byte": (0, 0xFF), "uint8": (0, 0xFF), "int8": (-0x80, 0x7F),
    "char": (0, 0xFF), "wchar": (0, 0xFFFFFFFF),
    "int16": (-0x8000, 0x7FFF), "uint16": (0, 0xFFFF),
    "int32": (-0x80000000, 0x7FFFFFFF), "uint32": (0, 0xFFFFFFFF),
    "int64": (-0x8000000000000000, 0x7FFFFFFFFFFFFFFF), "uint64": (0, 0xFFFFFFFFFFFFFFFF),
}

IR_FORMAT = "fastwire-ir"
# 2: the lowered wire model (lower.py); 3: the codec plan (plan.py), layouts; 4: variants.
# A schema without variants is written as version 3, as before them (IR_VERSION_PLAIN).
IR_VERSION = 4
IR_VERSION_PLAIN = 3
IR_READABLE = (2, 3, 4)  # what from_json reads: each only adds to the one before


# The classes are immutable by convention, not `frozen`: a frozen dataclass sets each
# attribute through object.__setattr__, which made creating one four times as slow, and a
# 10 MB schema creates millions (issue 37). They hash and compare by value as before
# (unsafe_hash), and nothing assigns to them once made. lower.py and plan.py do the same.
def _memo() -> Any:
    """An object's lookup tables, made on first use: not part of its value (not compared,
    hashed or printed). Every lookup by name is a dict, never a scan, so code that looks
    up each of n fields or types stays linear (issue 37)."""
    return field(default_factory=dict, init=False, repr=False, compare=False)


@dataclass(slots=True, unsafe_hash=True)
class SourceRef:
    file: str
    line: int
    column: int


@dataclass(slots=True, unsafe_hash=True)
class TypeRef:
    """A reference to a primitive (package None) or to a named enum, flags, struct or
    variant."""

    kind: str  # primitive | enum | flags | struct | variant
    name: str
    package: Optional[str] = None

    @property
    def qualified_name(self) -> str:
        return f"{self.package}.{self.name}" if self.package else self.name

    @property
    def is_primitive(self) -> bool:
        return self.kind == "primitive"


@dataclass(slots=True, unsafe_hash=True)
class FieldType:
    """`value` is the plain type, the element type of a collection, or a map's value type.

    `optional` makes the value (or each element) optional: `T?`, `T?[]`, `T?<K>`.
    """

    value: TypeRef
    optional: bool = False
    container: Optional[str] = None  # array | vector | list | set | map | hash
    size: Optional[int] = None  # array length
    key: Optional[TypeRef] = None  # map / hash key

    def describe(self) -> str:
        """The type in schema syntax, every named type qualified: `proto.Order?[]`."""
        return _spelled(self, lambda ref: ref.qualified_name)


def spell(t: FieldType, package: Optional[str] = None) -> str:
    """`t` as a schema of `package` writes it: that package's types by their bare names,
    other packages' qualified (`int32`, `Simple[]`, `proto.Order{int32}`, `bytes!`). The
    name of a variant's alternative in JSON (docs/wire-format.md#variants), with the
    variant's package."""
    return _spelled(t, lambda ref: ref.name if ref.package == package else ref.qualified_name)


def _spelled(t: FieldType, name: Any) -> str:
    v = name(t.value) + ("?" if t.optional else "")
    key = name(t.key) if t.key else ""
    return {
        None: v,
        "array": f"{v}[{t.size}]", "vector": f"{v}[]", "list": f"{v}()", "set": f"{v}!",
        "map": f"{v}<{key}>", "hash": f"{v}{{{key}}}",
    }[t.container]


@dataclass(slots=True, unsafe_hash=True)
class Default:
    """A field's declared default, already typed.

    kind and value:
      bool: True/False; integer: int (also char and wchar code units, min/max resolved);
      float: float (with `text` the literal as written); decimal: exact text "123.45";
      string: str; timestamp: int nanoseconds (`epoch` is 0); utc: None (now, at
      construction); uuid: canonical text (`uuid0` is the nil uuid); uuid1 / uuid4:
      None (generated at construction); enum: int, names=(value,); flags: int, names;
      null: None.
    """

    kind: str
    value: Union[None, bool, int, float, str]
    text: str = ""
    names: Tuple[str, ...] = ()

    def int_value(self) -> int:
        """`value` of an integer, timestamp, enum or flags default."""
        assert isinstance(self.value, int), self.kind
        return int(self.value)

    def float_value(self) -> float:
        """`value` of an integer or float default, as a float."""
        assert isinstance(self.value, (int, float)), self.kind
        return float(self.value)

    def text_value(self) -> str:
        """`value` of a decimal, string or uuid default."""
        assert isinstance(self.value, str), self.kind
        return self.value


@dataclass(slots=True, unsafe_hash=True)
class Field:
    name: str
    type: FieldType
    default: Optional[Default]
    key: bool
    id: bool
    hidden: bool
    deprecated: bool
    declared_in: str  # qualified name of the struct that declares it (a base, when inherited)
    doc: Optional[str]
    location: SourceRef
    reset_of: Optional[str] = None  # for the `<name>Reset` bool that `T~ name` adds


@dataclass(slots=True, unsafe_hash=True)
class EnumValue:
    name: str
    value: int
    hidden: bool
    deprecated: bool
    doc: Optional[str]
    location: SourceRef


@dataclass(slots=True, unsafe_hash=True)
class EnumType:
    """An enum or a flags type (`kind` tells which)."""

    kind: str  # enum | flags
    name: str
    package: str
    base: str  # underlying primitive
    values: Tuple[EnumValue, ...]
    hidden: bool
    deprecated: bool
    doc: Optional[str]
    location: SourceRef
    _index: Dict[str, Any] = _memo()

    @property
    def qualified_name(self) -> str:
        return f"{self.package}.{self.name}"

    def value(self, name: str) -> Optional[EnumValue]:
        by_name = self._index.get("values")
        if by_name is None:
            by_name = self._index["values"] = _first_by_name(self.values)
        return by_name.get(name)


@dataclass(slots=True, unsafe_hash=True)
class Reject:
    type: TypeRef
    global_: bool


@dataclass(slots=True, unsafe_hash=True)
class StructType:
    kind: str  # struct | message
    name: str
    package: str
    type_number: int
    numbering: str  # auto | shift | fixed | base
    base: Optional[TypeRef]
    fields: Tuple[Field, ...]  # declared here, in order
    all_fields: Tuple[Field, ...]  # base-most first, then this struct's own
    hidden: bool
    deprecated: bool
    request: bool
    response: Optional[TypeRef]
    rejects: Tuple[Reject, ...]
    doc: Optional[str]
    location: SourceRef
    _index: Dict[str, Any] = _memo()

    @property
    def qualified_name(self) -> str:
        return f"{self.package}.{self.name}"

    @property
    def key_fields(self) -> Tuple[Field, ...]:
        keys = self._index.get("keys")
        if keys is None:
            keys = self._index["keys"] = tuple(f for f in self.all_fields if f.key)
        return keys

    @property
    def id_field(self) -> Optional[Field]:
        if "id" not in self._index:
            self._index["id"] = next((f for f in self.all_fields if f.id), None)
        return self._index["id"]

    def field(self, name: str) -> Optional[Field]:
        by_name = self._index.get("fields")
        if by_name is None:
            by_name = self._index["fields"] = _first_by_name(self.all_fields)
        return by_name.get(name)


@dataclass(slots=True, unsafe_hash=True)
class VariantType:
    """`variant Name { T; ... }`: a value of exactly one of `alternatives`, each a type as a
    field would have it (never optional itself), all different; its index on the wire is
    its position here (docs/wire-format.md#variants)."""

    kind: str  # variant
    name: str
    package: str
    alternatives: Tuple[FieldType, ...]
    hidden: bool
    deprecated: bool
    doc: Optional[str]
    location: SourceRef

    @property
    def qualified_name(self) -> str:
        return f"{self.package}.{self.name}"

    def alternative_name(self, index: int) -> str:
        """The alternative's name in JSON and in messages: its type, spelled in the
        variant's package (`spell`)."""
        return spell(self.alternatives[index], self.package)


NamedType = Union[EnumType, StructType, VariantType]


@dataclass(slots=True, unsafe_hash=True)
class Package:
    name: str
    domain: Optional[str]
    offset: int
    version: Optional[Tuple[int, int]]
    imports: Tuple[str, ...]
    types: Tuple[NamedType, ...]  # in declaration order
    path: str
    doc: Optional[str]
    # `option NAME = "VALUE"` of the file header, in order (docs/schema-language.md#options);
    # each is read by one generator and ignored by the others.
    options: Tuple[Tuple[str, str], ...] = ()
    _index: Dict[str, Any] = _memo()

    def option(self, name: str) -> Optional[str]:
        for n, v in self.options:
            if n == name:
                return v
        return None

    def _kinds(self) -> Dict[str, Any]:
        """The types by kind (each tuple in declaration order), made once."""
        if "struct" not in self._index:
            kinds: Dict[str, List[NamedType]] = {"enum": [], "flags": [], "struct": [],
                                                 "message": [], "variant": []}
            for t in self.types:
                if isinstance(t, StructType):
                    kinds["struct"].append(t)
                    if t.kind == "message":
                        kinds["message"].append(t)
                elif t.kind in kinds:
                    kinds[t.kind].append(t)
            self._index.update({k: tuple(v) for k, v in kinds.items()})
        return self._index

    @property
    def enums(self) -> Tuple[EnumType, ...]:
        return self._kinds()["enum"]

    @property
    def flags(self) -> Tuple[EnumType, ...]:
        return self._kinds()["flags"]

    @property
    def structs(self) -> Tuple[StructType, ...]:
        """Structs and messages, in declaration order."""
        return self._kinds()["struct"]

    @property
    def messages(self) -> Tuple[StructType, ...]:
        return self._kinds()["message"]

    @property
    def variants(self) -> Tuple[VariantType, ...]:
        return self._kinds()["variant"]

    def type(self, name: str) -> Optional[NamedType]:
        by_name = self._index.get("types")
        if by_name is None:
            by_name = self._index["types"] = _first_by_name(self.types)
        return by_name.get(name)


@dataclass(slots=True, unsafe_hash=True)
class Schema:
    """A compiled schema: the root package and every package it imports, imports first."""

    root: str
    packages: Tuple[Package, ...]
    _index: Dict[str, Any] = _memo()

    def package(self, name: str) -> Package:
        by_name = self._index.get("packages")
        if by_name is None:
            by_name = self._index["packages"] = _first_by_name(self.packages)
        return by_name[name]

    @property
    def root_package(self) -> Package:
        return self.package(self.root)

    @property
    def has_variants(self) -> bool:
        return any(p.variants for p in self.packages)

    def lookup(self, ref: TypeRef) -> NamedType:
        """The enum, flags, struct or variant a non-primitive TypeRef names."""
        t = self.package(ref.package).type(ref.name) if ref.package else None
        if t is None:
            raise KeyError(ref.qualified_name)
        return t

    def struct_depth(self, struct: Union[StructType, VariantType]) -> int:
        """The deepest struct nesting a value of `struct` can have (itself is level 1, and a
        variant on the way counts a level as a struct does), or 0 when no bound exists:
        the struct reaches itself through a collection (the only way a struct can recur),
        or reaches a struct that does. Readers use it to skip depth counting where the
        schema already bounds the nesting. Worked out once for every struct and variant of
        the schema, by strongly connected components (a loop, not a recursion)."""
        depths = self._index.get("depths")
        if depths is None:
            depths = self._index["depths"] = self._struct_depths()
        return depths[struct.qualified_name]

    def struct_graph(self) -> Tuple[Dict[str, List[str]], Dict[str, int], List[List[str]]]:
        """(successors, component, members): each struct's qualified name and the structs
        and variants its fields hold (values, elements, keys; inherited fields included),
        each variant's and what its alternatives hold, with the strongly connected
        components of that graph, numbered sinks first."""
        graph = self._index.get("graph")
        if graph is None:
            succ: Dict[str, List[str]] = {}
            for p in self.packages:
                for s in p.structs:
                    succ[s.qualified_name] = _held(f.type for f in s.all_fields)
                for v in p.variants:
                    succ[v.qualified_name] = _held(v.alternatives)
            component, members = components(list(succ), succ)
            graph = self._index["graph"] = (succ, component, members)
        return graph

    def _struct_depths(self) -> Dict[str, int]:
        succ, component, members = self.struct_graph()
        depth: List[int] = []  # per component, sinks first
        for c, group in enumerate(members):
            deepest = 0
            for name in group:
                for nxt in succ[name]:
                    d = depth[component[nxt]] if component[nxt] != c else 0
                    if d == 0:  # a cycle here, or reached through nxt
                        deepest = -1
                        break
                    deepest = max(deepest, d)
                if deepest < 0:
                    break
            depth.append(deepest + 1)
        return {name: depth[component[name]] for name in succ}


def _held(types: Iterable[FieldType]) -> List[str]:
    """The structs and variants field types hold, by qualified name."""
    return [ref.qualified_name for t in types for ref in (t.value, t.key)
            if ref is not None and ref.kind in ("struct", "variant")]


def _first_by_name(items) -> Dict[str, Any]:
    """`items` by their `name`; the first of each name (as a scan from the start finds)."""
    out: Dict[str, Any] = {}
    for item in items:
        out.setdefault(item.name, item)
    return out
