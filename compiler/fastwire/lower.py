"""Lowering: from the resolved IR to the wire model every generator reads.

The FBE layout is worked out here, once: each field's wire kind, its slot size and offset
in the versioned format, its size in the final format, the runs of fixed-size values in
the final format, each struct's body size and depth, the fields that decide equality,
what each package's protocol sends, and the defaults as normalised literals. Generators
(Python ones here, or plugins through IR JSON version 3, docs/ir.md) read this model and
compute none of it.

    model = lower(schema)
    layout = model.struct("proto.Account")
    layout.body_size, [(f.name, f.offset, f.slot) for f in layout.fields]
"""

from __future__ import annotations

import struct as _struct
from dataclasses import dataclass, field
from functools import cached_property
from sys import intern
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Tuple, Union

from . import ir, layouts, plan
from .graph import postorder
from .layouts import COLLECTION, DECIMAL, OPTIONAL, STRUCT, TIMESTAMP, UUID, VARIANT
from .plan import SCALARS, VALUE_KINDS, WIRE_KINDS, Alternative, CodecPlan, VariantPlan, WireType

__all__ = ["SCALARS", "VALUE_KINDS", "WIRE_KINDS", "CodecPlan", "FieldLayout", "FinalRun",
           "Literal", "PackageLayout", "StructLayout", "VariantPlan", "WireModel", "WireType", "lower",
           "scalar_size", "wire_type"]

HEADER_SIZE = STRUCT.header_size  # a versioned struct body's [u32 size][u32 type]
OFFSET_SIZE = layouts.OFFSET  # an offset, a count or a length
FLAG_SIZE = OPTIONAL.flag_size  # an optional's presence flag
_VALUE_KINDS = frozenset(VALUE_KINDS)
_SPECIAL_SIZES = {"decimal": DECIMAL.size, "uuid": UUID.size, "timestamp": TIMESTAMP.size}


@dataclass(slots=True, unsafe_hash=True)
class FieldLayout:
    name: str
    index: int  # position among the struct's wire fields (all_fields)
    wire: WireType
    offset: int  # of the slot from the start of the body (the header is 0..7)
    final_offset: Optional[int]  # from the first field, when every field before is fixed

    @property
    def slot(self) -> int:
        return self.wire.slot


@dataclass(slots=True, unsafe_hash=True)
class FinalRun:
    """Consecutive fields that are each one fixed-size value (VALUE_KINDS), in the final
    format: they can be read or written at once. `offsets` are from the run's start."""

    first: int  # index of the first field
    count: int
    size: int
    offsets: Tuple[int, ...]

    @property
    def indexes(self) -> range:
        return range(self.first, self.first + self.count)


@dataclass(slots=True, unsafe_hash=True)
class Literal:
    """A default as a normalised literal.

    kind: bool (value True/False); integer (value, bits, signed; also char, wchar, enum
    and flags, whose `names` are the members named; timestamps as unsigned 64-bit
    nanoseconds); float (value, bits, and `raw` the IEEE-754 bit pattern); decimal
    (coefficient, scale, negative); string (value); uuid (raw: the 16 bytes); computed
    (value: utc, uuid1 or uuid4, made at construction); null (an empty optional).
    """

    kind: str
    value: object = None
    bits: int = 0
    signed: bool = False
    raw: object = None
    coefficient: int = 0
    scale: int = 0
    negative: bool = False
    names: Tuple[str, ...] = ()


@dataclass(frozen=True)
class StructLayout:
    name: str  # qualified
    type_number: int
    body_size: int  # versioned: header and slots
    depth: int  # deepest struct nesting (itself is 1), 0 when unbounded (recursive)
    fields: Tuple[FieldLayout, ...]  # all_fields, base-most first
    final_runs: Tuple[FinalRun, ...]
    final_min: int  # fewest bytes of the fields in the final format
    final_size: Optional[int]  # when every field is fixed
    equality: Tuple[str, ...]  # the fields ==, ordering and hashing use
    keyed: bool  # equality is by [key] fields (else every field; no ordering, no hash)
    defaults: Tuple[Optional[Literal], ...]  # per field, None for the type's zero
    plan: CodecPlan  # the steps of both formats and JSON (plan.py)

    def field(self, name: str) -> FieldLayout:
        return self._by_name[name]

    def default_of(self, name: str) -> Optional[Literal]:
        """The default of the field `name` (None: the type's zero)."""
        return self.defaults[self._by_name[name].index]

    @cached_property
    def _by_name(self) -> Dict[str, FieldLayout]:
        return {f.name: f for f in self.fields}


@dataclass(frozen=True)
class PackageLayout:
    name: str
    # the structs and variants, each after the local ones it refers to
    emission_order: Tuple[str, ...]
    sends: Tuple[str, ...]  # what its Sender sends and its Receiver dispatches, by number
    unsendable: Tuple[str, ...]  # left out: their number is taken by an earlier one
    imports: Tuple[str, ...]  # the import closure, imports first


@dataclass(frozen=True)
class WireModel:
    """What generators render: the layouts, and the resolved schema they were lowered
    from (names, docs, enum members)."""

    structs: Dict[str, StructLayout]
    packages: Dict[str, PackageLayout]
    schema: ir.Schema
    variants: Dict[str, VariantPlan] = field(default_factory=dict)  # by qualified name
    # Facts a generator derives from the model, once per struct (a walk per use over what
    # a struct holds is quadratic in a chain and exponential in a lattice): name -> table.
    derived: Dict[str, Dict[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    def struct(self, qualified_name: str) -> StructLayout:
        return self.structs[qualified_name]

    def package(self, name: str) -> PackageLayout:
        return self.packages[name]

    def structs_named(self, names: Iterable[str]) -> List[ir.StructType]:
        """The structs of these qualified names (a package's emission_order or sends)."""
        out = []
        for q in names:
            package, _, name = q.rpartition(".")
            s = self.schema.package(package).type(name)
            assert isinstance(s, ir.StructType), q
            out.append(s)
        return out

    def variant(self, qualified_name: str) -> VariantPlan:
        return self.variants[qualified_name]


# ---- wire types -------------------------------------------------------------------------

def scalar_size(scalar: str) -> int:
    """Bytes of a wire scalar (also an enum's or a flags type's base)."""
    return layouts.SCALAR_WIDTHS[scalar]


def _plain(schema: ir.Schema, ref: ir.TypeRef) -> WireType:
    if ref.kind == "primitive":
        if ref.name in ("string", "bytes"):  # an offset in the body; [u32 length][bytes]
            return WireType(ref.name, layouts.BLOCK.slot, layouts.BLOCK.length_size)
        special = _SPECIAL_SIZES.get(ref.name)
        if special is not None:
            return WireType(ref.name, special, special, special)
        size = scalar_size(ref.name)
        return WireType("scalar", size, size, size, scalar=ref.name)
    if ref.kind in ("enum", "flags"):
        t = schema.lookup(ref)
        assert isinstance(t, ir.EnumType)
        size = scalar_size(t.base)
        return WireType(ref.kind, size, size, size, scalar=t.base, ref=intern(ref.qualified_name))
    s = schema.lookup(ref)
    assert isinstance(s, ir.StructType)
    fmin, fsize = _final_sizes(schema, s, set())
    return WireType("struct", OFFSET_SIZE, fmin, fsize, ref=intern(ref.qualified_name))


_Sized = Union[ir.StructType, ir.VariantType]


def _final_sizes(schema: ir.Schema, s: _Sized, active: set) -> Tuple[int, Optional[int]]:
    """(minimum, fixed or None) final size of a struct's fields (or of a variant's value),
    where the structs and variants in `active` (those being sized around it) count 0.

    Each struct is sized once per context: the result depends only on which members of
    its own strongly connected component are active (an active struct it reaches is in
    it), so that is the memo's key, and structs in no cycle are sized once. Sizing every
    field anew each time a struct is held took time exponential in the nesting (a chain
    of 9 structs holding the previous one four ways took 10 s). The memo is filled sinks
    first, so a walk recurses only within a cycle (at most MAX_NESTING structs)."""
    name = s.qualified_name
    if name in active:  # recursion goes through a collection: count 0
        return 0, None
    memo, cyclic = _size_memo(schema)
    group = cyclic.get(name)
    key = (name, group & active if group else _NO_STRUCTS)
    sizes = memo.get(key)
    if sizes is None:
        sizes = memo[key] = _sum_sizes(schema, s, active | {name})
    return sizes


_NO_STRUCTS: FrozenSet[str] = frozenset()
_SizeMemo = Dict[Tuple[str, FrozenSet[str]], Tuple[int, Optional[int]]]


def _size_memo(schema: ir.Schema) -> Tuple[_SizeMemo, Dict[str, FrozenSet[str]]]:
    """The schema's memo of final sizes, and each struct in a cycle's component, made on
    first use: every struct is sized once, sinks first."""
    index = schema._index  # the IR's own lookup tables (ir._memo)
    made = index.get("final_sizes")
    if made is None:
        succ, component, members = schema.struct_graph()
        cyclic: Dict[str, FrozenSet[str]] = {}
        for group in members:
            if len(group) > 1 or group[0] in succ[group[0]]:
                names = frozenset(group)
                cyclic.update((n, names) for n in group)
        memo: _SizeMemo = {}
        made = index["final_sizes"] = (memo, cyclic)
        by_name: Dict[str, _Sized] = {s.qualified_name: s for p in schema.packages
                                      for s in p.structs}
        by_name.update((v.qualified_name, v) for p in schema.packages for v in p.variants)
        for group in members:  # sinks first: each struct's sizes find what it holds sized
            for n in group:
                _final_sizes(schema, by_name[n], set())
    return made


def _sum_sizes(schema: ir.Schema, s: _Sized, active: set) -> Tuple[int, Optional[int]]:
    total_min, fixed = 0, True
    # A struct in no cycle reaches none of the structs being sized around it (one would
    # reach it back), so its fields' wire types are their context-free ones, shared.
    acyclic = s.qualified_name not in _size_memo(schema)[1]
    if isinstance(s, ir.VariantType):  # [u32 index][one alternative]
        wires = [wire_type(schema, t) if acyclic else _field_wire(schema, t, active)
                 for t in s.alternatives]
        sizes = {w.final_size for w in wires}
        same = sizes.pop() if len(sizes) == 1 else None
        index = VARIANT.index_size
        return index + min(w.final_min for w in wires), (None if same is None else index + same)
    for f in s.all_fields:
        w = wire_type(schema, f.type) if acyclic else _field_wire(schema, f.type, active)
        total_min += w.final_min
        fixed = fixed and w.fixed
    return total_min, (total_min if fixed else None)


def _field_wire(schema: ir.Schema, t: ir.FieldType, active: Optional[set] = None) -> WireType:
    visiting: set = active or set()

    def plain(ref: ir.TypeRef) -> WireType:
        if ref.kind == "struct":
            s = schema.lookup(ref)
            assert isinstance(s, ir.StructType)
            fmin, fsize = _final_sizes(schema, s, visiting)
            return WireType("struct", OFFSET_SIZE, fmin, fsize, ref=intern(ref.qualified_name))
        if ref.kind == "variant":
            v = schema.lookup(ref)
            assert isinstance(v, ir.VariantType)
            fmin, fsize = _final_sizes(schema, v, visiting)
            return WireType("variant", VARIANT.slot, fmin, fsize, ref=intern(ref.qualified_name))
        return _plain(schema, ref)

    value = plain(t.value)
    if t.optional:  # [u8 flag][u32 offset] / [u8 flag][value when set]
        value = WireType("optional", OPTIONAL.slot, OPTIONAL.flag_size, element=value)
    if t.container is None:
        return value
    if t.container == "array":
        n = t.size or 0
        return WireType("array", value.slot * n, value.final_min * n,
                        None if value.final_size is None else value.final_size * n,
                        element=value, collection="array", length=n)
    if t.container in ("map", "hash"):
        assert t.key is not None
        return WireType("map", COLLECTION.slot, COLLECTION.count_size, element=value,
                        key=plain(t.key), collection=t.container)
    return WireType("sequence", COLLECTION.slot, COLLECTION.count_size, element=value,
                    collection=t.container)


def wire_type(schema: ir.Schema, t: ir.FieldType) -> WireType:
    """The wire type of a field type.

    Worked out once per field type object and schema: the resolver shares equal field
    types, so a big schema's fields have few, and their fields share the one answer (a
    wire type is a value, never changed). The memo is keyed by the object's id and holds
    the object, so no id is reused while its entry lives."""
    memo = schema._index.get("wire_types")
    if memo is None:
        memo = schema._index["wire_types"] = {}
    known = memo.get(id(t))
    if known is not None and known[0] is t:
        return known[1]
    w = _field_wire(schema, t)
    memo[id(t)] = (t, w)
    return w


# ---- literals ---------------------------------------------------------------------------

def literal(schema: ir.Schema, f: ir.Field) -> Optional[Literal]:
    """A field's declared default as a normalised literal (None: no default). One object
    per distinct default and type, kept in the schema's memo: a big schema repeats the
    same few defaults on most of its fields."""
    d = f.default
    if d is None:
        return None
    memo = schema._index.get("literals")
    if memo is None:
        memo = schema._index["literals"] = {}
    key = (d.kind, type(d.value), d.value, d.text, d.names, f.type.value)
    lit = memo.get(key)
    if lit is None:
        lit = memo[key] = _literal(schema, f, d)
    return lit


def _literal(schema: ir.Schema, f: ir.Field, d: ir.Default) -> Literal:
    ref = f.type.value
    prim = ref.name if ref.kind == "primitive" else None
    if d.kind == "null":
        return Literal("null")
    if d.kind == "bool":
        return Literal("bool", bool(d.value))
    if d.kind in ("utc", "uuid1", "uuid4"):
        return Literal("computed", d.kind)
    if d.kind in ("enum", "flags"):
        t = schema.lookup(ref)
        assert isinstance(t, ir.EnumType)
        return _integer(d.int_value(), t.base, names=d.names)
    if d.kind == "timestamp":
        return _integer(d.int_value(), "uint64")
    if d.kind == "string":
        return Literal("string", d.value)
    if d.kind == "uuid":
        return Literal("uuid", str(d.value), raw=bytes.fromhex(str(d.value).replace("-", "")))
    if prim in ("float", "double") and d.kind in ("integer", "float"):
        x = d.float_value()
        if prim == "float":
            return Literal("float", x, 32, raw=_struct.unpack("<I", _struct.pack("<f", x))[0])
        return Literal("float", x, 64, raw=_struct.unpack("<Q", _struct.pack("<d", x))[0])
    if prim == "decimal" or d.kind == "decimal":
        text = str(d.value)
        negative = text.startswith("-")
        whole, _, frac = text.lstrip("-+").partition(".")
        return Literal("decimal", text, coefficient=int(whole + frac or "0"), scale=len(frac),
                       negative=negative)
    if d.kind == "integer":
        return _integer(d.int_value(), prim or "int32")
    raise AssertionError(f"default kind {d.kind}")


def _integer(value: int, base: str, names: Tuple[str, ...] = ()) -> Literal:
    size = scalar_size(base)
    signed = base.startswith("int")
    return Literal("integer", value, 8 * size, signed, names=names)


# ---- structs and packages ---------------------------------------------------------------

def held_structs(w: WireType, variants: Optional[Dict[str, VariantPlan]] = None) -> List[str]:
    """The structs a value of wire type `w` holds directly (as itself, an element or a key;
    with `variants`, the model's, also as an alternative of a variant it holds)."""
    out: List[str] = []
    todo = [w]
    seen: set = set()  # the variants looked into (a variant may hold itself in a collection)
    while todo:
        t = todo.pop()
        if t.kind == "struct" and t.ref is not None:
            out.append(t.ref)
        elif t.kind == "variant" and variants is not None and t.ref not in seen:
            seen.add(t.ref)
            todo.extend(a.wire for a in variants[t.ref or ""].alternatives)
        todo.extend(p for p in (t.key, t.element) if p is not None)
    return out


def derive(model: WireModel, table: str, layout: StructLayout,
           rule: Callable[[StructLayout, Dict[str, Any]], Any],
           needs: Callable[[StructLayout], bool] = lambda layout: True) -> Any:
    """A fact about `layout` that `rule(layout, known)` decides from the same fact about
    the structs it holds (in `known`, by qualified name), worked out once per struct and
    model: for every struct it reaches, sinks first, in a loop (nesting can be hundreds
    of levels deep). `needs(layout)` False: the rule does not look at what it holds (it
    must, for a recursive struct, else a cycle has no sink)."""
    known = model.derived.setdefault(table, {})
    if layout.name not in known:
        def succ(name: str) -> List[str]:
            held = model.structs[name]
            if name in known or not needs(held):
                return []
            return [r for fl in held.fields for r in held_structs(fl.wire, model.variants)]
        for name in postorder([layout.name], succ):
            if name not in known:
                known[name] = rule(model.structs[name], known)
    return known[layout.name]


def lower_struct(schema: ir.Schema, s: ir.StructType) -> StructLayout:
    fields: List[FieldLayout] = []
    offset = HEADER_SIZE
    final_offset: Optional[int] = 0
    runs: List[FinalRun] = []
    run: List[int] = []  # the offsets in the open run of value fields, from its start
    run_size = 0  # a running sum: a run can be 100,000 fields long
    value_kinds = _VALUE_KINDS
    for i, f in enumerate(s.all_fields):
        w = wire_type(schema, f.type)
        fields.append(FieldLayout(f.name, i, w, offset, final_offset))
        offset += w.slot
        size = w.final_size
        final_offset = None if final_offset is None or size is None else final_offset + size
        if w.kind in value_kinds:
            run.append(run_size)
            run_size += size or 0
        elif run:
            runs.append(FinalRun(i - len(run), len(run), run_size, tuple(run)))
            run, run_size = [], 0
    if run:
        runs.append(FinalRun(len(fields) - len(run), len(run), run_size, tuple(run)))
    final_min, final_size = _final_sizes(schema, s, set())
    keys = s.key_fields
    return StructLayout(
        name=s.qualified_name, type_number=s.type_number, body_size=offset,
        depth=schema.struct_depth(s), fields=tuple(fields), final_runs=tuple(runs),
        final_min=final_min, final_size=final_size,
        equality=tuple(f.name for f in (keys or s.all_fields)), keyed=bool(keys),
        defaults=tuple(literal(schema, f) for f in s.all_fields),
        plan=plan.build(offset, fields, final_min, final_size, _json_memo(schema)))


def _json_memo(schema: ir.Schema) -> Dict[int, Any]:
    """The schema's memo of JSON forms by wire type (plan.build)."""
    memo = schema._index.get("json_forms")
    if memo is None:
        memo = schema._index["json_forms"] = {}
    return memo


def emission_order(package: ir.Package) -> List[Union[ir.StructType, ir.VariantType]]:
    """The package's structs and variants, each after the local ones it refers to (a
    struct's base, what it holds, its collections' elements and keys; a variant's
    alternatives), else in declaration order. Languages that need a type defined before
    use (C++: members, std::hash of a key) emit in this order."""
    local: Dict[str, Union[ir.StructType, ir.VariantType]] = {
        t.name: t for t in package.types if isinstance(t, (ir.StructType, ir.VariantType))}

    def deps(name: str) -> List[str]:
        s = local[name]
        names = []
        if isinstance(s, ir.VariantType):
            types: Any = s.alternatives
        else:
            types = (f.type for f in s.fields)
            if s.base is not None and s.base.package == package.name:
                names.append(s.base.name)
        for t in types:
            for ref in (t.value, t.key):
                if ref is not None and ref.kind in ("struct", "variant") \
                        and ref.package == package.name and ref.name != s.name:
                    names.append(ref.name)
        return [n for n in names if n in local]

    # A loop, not a recursion: a chain of structs can be as long as the nesting limit, and
    # a package's structs as many as a schema holds.
    return [local[n] for n in postorder(list(local), deps)]


def protocol_types(package: ir.Package) -> Tuple[List[ir.StructType], List[ir.StructType]]:
    """(sent, left out). The rule (docs/schema-language.md, "Protocol"): a package's
    protocol sends and receives its messages; a package that declares no message, its
    structs. Receivers dispatch on the type number: of several with one number the first
    declared is kept and the others are left out."""
    candidates = list(package.messages) or list(package.structs)
    seen: Dict[int, ir.StructType] = {}
    kept: List[ir.StructType] = []
    dropped: List[ir.StructType] = []
    for s in candidates:
        if s.type_number in seen:
            dropped.append(s)
        else:
            seen[s.type_number] = s
            kept.append(s)
    return kept, dropped


def import_closure(schema: ir.Schema, package: ir.Package) -> List[str]:
    """Every package `package` imports, directly or not, imports first (a loop, not a
    recursion: an import chain can be any length)."""
    closure = postorder([package.name], lambda name: schema.package(name).imports)
    return closure[:-1]  # all but the package itself, listed last


def lower_variant(schema: ir.Schema, v: ir.VariantType) -> VariantPlan:
    alternatives = []
    for i, t in enumerate(v.alternatives):
        w = wire_type(schema, t)
        alternatives.append(Alternative(i, w, VARIANT.value_at + w.slot, v.alternative_name(i),
                                        plan.json_form(w)))
    final_min, final_size = _final_sizes(schema, v, set())
    return VariantPlan(v.qualified_name, tuple(alternatives), final_min, final_size,
                       schema.struct_depth(v))


def lower(schema: ir.Schema) -> WireModel:
    structs: Dict[str, StructLayout] = {}
    packages: Dict[str, PackageLayout] = {}
    variants: Dict[str, VariantPlan] = {}
    for p in schema.packages:
        for v in p.variants:
            variants[v.qualified_name] = lower_variant(schema, v)
        for s in p.structs:
            structs[s.qualified_name] = lower_struct(schema, s)
        sent, dropped = protocol_types(p)
        packages[p.name] = PackageLayout(
            p.name, tuple(s.qualified_name for s in emission_order(p)),
            tuple(s.qualified_name for s in sent), tuple(s.qualified_name for s in dropped),
            tuple(import_closure(schema, p)))
    return WireModel(structs, packages, schema, variants)
