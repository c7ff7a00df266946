"""The inner layout of each wire kind, as named data: the one place a generator or a
plan step takes a width, a position or a limit from.

Every number here is an FBE fact (docs/wire-format.md). `lower` and `plan` build on
these tables; generators read them through the plan (`plan.LAYOUTS` travels in IR
JSON), never as literals of their own.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Dict

# Wire scalars and their widths (also an enum's or a flags type's base).
SCALAR_WIDTHS: Dict[str, int] = {
    "bool": 1, "byte": 1, "char": 1, "wchar": 4, "int8": 1, "uint8": 1, "int16": 2,
    "uint16": 2, "int32": 4, "uint32": 4, "int64": 8, "uint64": 8, "float": 4, "double": 8,
}

OFFSET = 4  # an offset, a count or a length: u32


@dataclass(frozen=True)
class DecimalLayout:
    """16 bytes: a 96-bit unsigned integer, then a flags word (.NET decimal.GetBits)."""

    size: int = 16
    integer_size: int = 12  # bytes 0..11, little-endian
    scale_at: int = 14  # the scale byte: bits 16..23 of the flags word
    sign_at: int = 15  # bit 31 of the flags word: 0x80 in this byte
    sign_mask: int = 0x80
    max_scale: int = 28


@dataclass(frozen=True)
class UuidLayout:
    size: int = 16  # in the order of the canonical text (RFC 4122 big-endian fields)


@dataclass(frozen=True)
class TimestampLayout:
    size: int = 8  # u64 nanoseconds since 1970-01-01 UTC
    scalar: str = "uint64"


@dataclass(frozen=True)
class BlockLayout:
    """string, bytes: versioned, a slot holding the offset of [u32 length][bytes];
    final, [u32 length][bytes] inline."""

    slot: int = OFFSET
    length_size: int = OFFSET


@dataclass(frozen=True)
class OptionalLayout:
    """versioned: [u8 flag][u32 offset of a block holding one slot of the value], offset 0
    when the flag is 0; final: [u8 flag], then the value when the flag is 1."""

    flag_at: int = 0
    flag_size: int = 1
    offset_at: int = 1
    slot: int = 5


@dataclass(frozen=True)
class CollectionLayout:
    """vector, list, set: versioned, a slot with the offset of [u32 count][count slots];
    final, [u32 count] then the values. Map, hash: the same with key, value pairs."""

    slot: int = OFFSET
    count_size: int = OFFSET


@dataclass(frozen=True)
class StructLayoutFacts:
    """versioned: a body [u32 size][u32 type][slots]; a nested struct's slot is the offset
    of its body; final: the fields inline, no header."""

    header_size: int = 8
    size_at: int = 0
    type_at: int = 4
    slot: int = OFFSET


@dataclass(frozen=True)
class VariantLayout:
    """versioned: a slot holding the offset of a block [u32 index][the alternative's slot],
    offsets in that slot counted from the block's start; final: [u32 index][the
    alternative's final encoding] inline. The index is the alternative's position in the
    declaration, from 0 (docs/wire-format.md#variants)."""

    slot: int = OFFSET
    index_at: int = 0  # in the block
    index_size: int = OFFSET
    value_at: int = OFFSET  # the alternative's slot (versioned) or value (final)


@dataclass(frozen=True)
class RootLayout:
    """A root model. versioned: [u32 full size][u32 offset of the body (8)][body][heap];
    final: [u32 full size][u32 type][fields]."""

    header_size: int = 8
    size_at: int = 0
    body_offset_at: int = 4  # versioned
    type_at: int = 4  # final


DECIMAL = DecimalLayout()
UUID = UuidLayout()
TIMESTAMP = TimestampLayout()
BLOCK = BlockLayout()
OPTIONAL = OptionalLayout()
COLLECTION = CollectionLayout()
STRUCT = StructLayoutFacts()
ROOT = RootLayout()
VARIANT = VariantLayout()

LAYOUTS: Dict[str, Any] = {"decimal": DECIMAL, "uuid": UUID, "timestamp": TIMESTAMP, "block": BLOCK,
           "optional": OPTIONAL, "collection": COLLECTION, "struct": STRUCT, "root": ROOT}


def to_dict(variants: bool = False) -> Dict[str, object]:
    """Every layout table as plain data (IR JSON's `layouts`); `variant` only with
    `variants` (IR JSON version 4: a schema that has variants)."""
    out: Dict[str, object] = {name: asdict(value) for name, value in LAYOUTS.items()}
    out["scalars"] = dict(SCALAR_WIDTHS)
    out["offset"] = OFFSET
    if variants:
        out["variant"] = asdict(VARIANT)
    return out
