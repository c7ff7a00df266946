"""The resolved schema: the intermediate representation every generator reads.

Plain immutable objects. Every name is resolved, every number computed: struct type
numbers (spec §1.3), enum and flags values (C semantics, §1.4), inherited fields
flattened base-first, defaults typed and range-checked. `ir_json.py` writes the same
model as JSON for generators written as plugins (format: docs/ir.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple, Union

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
IR_VERSION = 3  # 2: the lowered wire model (lower.py); 3: the codec plan (plan.py), layouts
IR_READABLE = (2, 3)  # what from_json reads: 3 only adds to 2


@dataclass(frozen=True, slots=True)
class SourceRef:
    file: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class TypeRef:
    """A reference to a primitive (package None) or to a named enum, flags or struct."""

    kind: str  # primitive | enum | flags | struct
    name: str
    package: Optional[str] = None

    @property
    def qualified_name(self) -> str:
        return f"{self.package}.{self.name}" if self.package else self.name

    @property
    def is_primitive(self) -> bool:
        return self.kind == "primitive"


@dataclass(frozen=True, slots=True)
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
        v = self.value.qualified_name + ("?" if self.optional else "")
        return {
            None: v,
            "array": f"{v}[{self.size}]", "vector": f"{v}[]", "list": f"{v}()",
            "set": f"{v}!",
            "map": f"{v}<{self.key.qualified_name if self.key else ''}>",
            "hash": f"{v}{{{self.key.qualified_name if self.key else ''}}}",
        }[self.container]


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class EnumValue:
    name: str
    value: int
    hidden: bool
    deprecated: bool
    doc: Optional[str]
    location: SourceRef


@dataclass(frozen=True, slots=True)
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

    @property
    def qualified_name(self) -> str:
        return f"{self.package}.{self.name}"

    def value(self, name: str) -> Optional[EnumValue]:
        for v in self.values:
            if v.name == name:
                return v
        return None


@dataclass(frozen=True, slots=True)
class Reject:
    type: TypeRef
    global_: bool


@dataclass(frozen=True, slots=True)
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

    @property
    def qualified_name(self) -> str:
        return f"{self.package}.{self.name}"

    @property
    def key_fields(self) -> Tuple[Field, ...]:
        return tuple(f for f in self.all_fields if f.key)

    @property
    def id_field(self) -> Optional[Field]:
        for f in self.all_fields:
            if f.id:
                return f
        return None

    def field(self, name: str) -> Optional[Field]:
        for f in self.all_fields:
            if f.name == name:
                return f
        return None


NamedType = Union[EnumType, StructType]


@dataclass(frozen=True, slots=True)
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

    def option(self, name: str) -> Optional[str]:
        for n, v in self.options:
            if n == name:
                return v
        return None

    @property
    def enums(self) -> Tuple[EnumType, ...]:
        return tuple(t for t in self.types if isinstance(t, EnumType) and t.kind == "enum")

    @property
    def flags(self) -> Tuple[EnumType, ...]:
        return tuple(t for t in self.types if isinstance(t, EnumType) and t.kind == "flags")

    @property
    def structs(self) -> Tuple[StructType, ...]:
        """Structs and messages, in declaration order."""
        return tuple(t for t in self.types if isinstance(t, StructType))

    @property
    def messages(self) -> Tuple[StructType, ...]:
        return tuple(t for t in self.structs if t.kind == "message")

    def type(self, name: str) -> Optional[NamedType]:
        for t in self.types:
            if t.name == name:
                return t
        return None


@dataclass(frozen=True, slots=True)
class Schema:
    """A compiled schema: the root package and every package it imports, imports first."""

    root: str
    packages: Tuple[Package, ...]

    def package(self, name: str) -> Package:
        for p in self.packages:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def root_package(self) -> Package:
        return self.package(self.root)

    def lookup(self, ref: TypeRef) -> NamedType:
        """The enum, flags or struct a non-primitive TypeRef names."""
        t = self.package(ref.package).type(ref.name) if ref.package else None
        if t is None:
            raise KeyError(ref.qualified_name)
        return t

    def struct_depth(self, struct: StructType) -> int:
        """The deepest struct nesting a value of `struct` can have (itself is level 1), or 0
        when no bound exists: the struct reaches itself through a collection (the only way
        a struct can recur). Readers use it to skip depth counting where the schema already
        bounds the nesting."""
        active: set = set()
        memo: Dict[str, int] = {}

        def depth(s: StructType) -> int:
            name = s.qualified_name
            if name in memo:
                return memo[name]
            if name in active:
                return 0  # a cycle
            active.add(name)
            deepest = 0
            for f in s.all_fields:
                for ref in (f.type.value, f.type.key):
                    if ref is not None and ref.kind == "struct":
                        inner = self.lookup(ref)
                        assert isinstance(inner, StructType)
                        d = depth(inner)
                        if d == 0:
                            active.discard(name)
                            memo[name] = 0
                            return 0
                        deepest = max(deepest, d)
            active.discard(name)
            memo[name] = deepest + 1
            return deepest + 1

        return depth(struct)
