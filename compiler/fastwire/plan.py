"""The codec plan: for every struct, the ordered steps that write, read and verify it in
the versioned format, the final format and JSON. Computed once by `lower`; generators
render the steps and work out nothing of the format.

A step is either a run of fixed-size values (op `values`: scalars, enums, flags,
decimals, uuids, timestamps at known offsets, which a generator may print as one
straight-line block) or one field handled by the runtime helper its op names
(`string`, `bytes`, `struct`, `optional`, `array`, `vector`, `list`, `set`, `map`,
`hash`, `variant`). Helper names are the same in every runtime's per-kind helpers
(HELPERS): `write_<helper>`, `read_<helper>`, `verify_<helper>` in that language's
spelling. A variant's alternatives have a plan of their own (VariantPlan).

    plan = model.struct("proto.Account").plan
    for step in plan.versioned.steps:
        step.op, step.at, step.size, [f.name for f in step.fields]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Protocol, Sequence, Tuple

# The closed set of wire kinds. `scalar` has a wire type (SCALARS); `enum` and `flags` are
# written as their base scalar; `sequence` is a vector, list or set; `map` a map or hash;
# `variant` one of a variant's alternatives (its plan: VariantPlan).
WIRE_KINDS = ("scalar", "decimal", "uuid", "timestamp", "string", "bytes", "struct",
              "optional", "array", "sequence", "map", "enum", "flags", "variant")
SCALARS = ("bool", "byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32",
           "uint32", "int64", "uint64", "float", "double")
# Wire kinds that are one fixed-size value in both formats.
VALUE_KINDS = ("scalar", "decimal", "uuid", "timestamp", "enum", "flags")
# Value kinds whose bytes are checked when read or verified (a decimal's scale).
CHECKED_KINDS = ("decimal",)


@dataclass(slots=True, unsafe_hash=True)
class WireType:
    """How one value is written: the value's codec, which plan steps name.

    kind: one of WIRE_KINDS. scalar: the wire type (scalar, also the base of enum and
    flags). ref: the qualified name of a struct, enum, flags or variant. element: an optional's
    value, an array's or a sequence's element, a map's value; key: a map's key.
    collection: the schema container (array, vector, list, set, map, hash). length: an
    array's element count. slot: bytes in a versioned body (or in a collection block).
    final_size: bytes in the final format when fixed, else None; final_min: the fewest
    bytes a value takes in the final format.
    """

    kind: str
    slot: int
    final_min: int
    final_size: Optional[int] = None
    scalar: Optional[str] = None
    ref: Optional[str] = None
    element: Optional["WireType"] = None
    key: Optional["WireType"] = None
    collection: Optional[str] = None
    length: Optional[int] = None

    @property
    def fixed(self) -> bool:
        """Of one size in the final format."""
        return self.final_size is not None

    @property
    def is_value(self) -> bool:
        """One fixed-size value (read and written in place in both formats)."""
        return self.kind in VALUE_KINDS

    @property
    def helper(self) -> str:
        """The runtime helper that codes a value of this wire type (HELPERS)."""
        return helper(self)

    @property
    def json(self) -> "JsonForm":
        return json_form(self)

    @property
    def parts(self) -> List["WireType"]:
        """What a value holds: a map's key, then the element (an optional's value too)."""
        return [x for x in (self.key, self.element) if x is not None]

    @property
    def fallible(self) -> bool:
        """Reading it can fail: a heap block, a struct, a container, or a checked value."""
        return not self.is_value or self.kind in CHECKED_KINDS

    @property
    def checks(self) -> bool:
        """Verifying it checks more than that its bytes are there (in either format): it is
        fallible, or an array of fallible values."""
        if self.kind == "array":
            assert self.element is not None
            return self.element.checks
        return self.fallible


class FieldLike(Protocol):
    """What a plan is built from (lower.FieldLayout)."""

    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def wire(self) -> WireType: ...
    @property
    def offset(self) -> int: ...
    @property
    def final_offset(self) -> Optional[int]: ...

# Every helper a runtime provides, by what it codes. `values` is not a helper: it is a
# run of the value helpers (the scalar names, decimal, uuid, timestamp, enum, flags).
VALUE_HELPERS = ("bool", "byte", "char", "wchar", "int8", "uint8", "int16", "uint16",
                 "int32", "uint32", "int64", "uint64", "float", "double", "decimal", "uuid",
                 "timestamp", "enum", "flags")
FIELD_HELPERS = ("string", "bytes", "struct", "optional", "array", "vector", "list", "set",
                 "map", "hash", "variant")
HELPERS = VALUE_HELPERS + FIELD_HELPERS

# JSON forms (docs/wire-format.md#json): how a value is written as text.
JSON_FORMS = ("bool", "integer", "float", "decimal", "uuid", "string", "base64", "object",
              "nullable", "array", "entries", "pairs", "variant")
# How a map key is written as a JSON object key: always a string, spelling these.
JSON_KEY_FORMS = ("integer", "float", "bool", "decimal", "uuid", "string", "base64")


def helper(w: WireType) -> str:
    """The runtime helper that codes a value of this wire type."""
    if w.kind == "scalar":
        assert w.scalar is not None
        return w.scalar
    if w.kind in ("sequence", "map"):
        assert w.collection is not None
        return w.collection
    return w.kind  # decimal, uuid, timestamp, enum, flags, string, bytes, struct, optional,
    # array, variant


@dataclass(slots=True, unsafe_hash=True)
class PlanField:
    """One field in a step: its index among the struct's wire fields, its name, its
    wire type, `at` its offset (versioned: from the body's start; final: from the run's
    start in a `values` step, else None) and its helper."""

    index: int
    name: str
    wire: WireType
    at: Optional[int]
    helper: str


@dataclass(slots=True, unsafe_hash=True)
class Step:
    """op: `values` or a FIELD_HELPERS name. at: versioned, the slot offset from the body's
    start; final, the offset from the first field when every field before is fixed, else
    None (at the cursor). size: bytes the step covers (versioned: its slots; final: the
    run's or the field's fixed size, None when variable)."""

    op: str
    at: Optional[int]
    size: Optional[int]
    fields: Tuple[PlanField, ...]

    @property
    def field(self) -> PlanField:
        """The one field of a field step."""
        assert len(self.fields) == 1, self.op
        return self.fields[0]


@dataclass(slots=True, unsafe_hash=True)
class VersionedPlan:
    body_size: int  # the header included
    steps: Tuple[Step, ...]


@dataclass(slots=True, unsafe_hash=True)
class FinalPlan:
    min_size: int  # the fewest bytes of the fields
    fixed_size: Optional[int]  # when every field is fixed
    steps: Tuple[Step, ...]


@dataclass(slots=True, unsafe_hash=True)
class JsonForm:
    """How a value is written as JSON: form (JSON_FORMS); element for nullable, array,
    entries and pairs (the value); key for entries (JSON_KEY_FORMS) and pairs (an
    object's form)."""

    form: str
    element: Optional["JsonForm"] = None
    key: Optional["JsonForm"] = None


@dataclass(slots=True, unsafe_hash=True)
class JsonField:
    index: int
    name: str  # the object key
    form: JsonForm


@dataclass(slots=True, unsafe_hash=True)
class JsonPlan:
    fields: Tuple[JsonField, ...]


@dataclass(slots=True, unsafe_hash=True)
class CodecPlan:
    versioned: VersionedPlan
    final: FinalPlan
    json: JsonPlan


@dataclass(slots=True, unsafe_hash=True)
class Alternative:
    """One alternative of a variant: `index` on the wire (its position), `wire` what a
    field of its type would be (versioned: the slot after the index in the variant's
    block; final: the encoding after the index), `block_size` the versioned block's
    bytes ([u32 index] and that slot), `name` its JSON member name (ir.spell) and
    `form` its value's JSON form."""

    index: int
    wire: WireType
    block_size: int
    name: str
    form: JsonForm

    @property
    def helper(self) -> str:
        return helper(self.wire)


@dataclass(slots=True, unsafe_hash=True)
class VariantPlan:
    """A variant's codec: its alternatives in index order. final_min / final_size: the
    fewest bytes a value takes in the final format, and its size when every alternative
    takes the same fixed size (else None). depth as StructLayout.depth."""

    name: str  # qualified
    alternatives: Tuple[Alternative, ...]
    final_min: int
    final_size: Optional[int]
    depth: int


# ---- building ----------------------------------------------------------------------------

_INTEGER_SCALARS = ("byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32",
                    "uint32", "int64", "uint64")


def json_form(w: WireType) -> JsonForm:
    """The JSON form of a value of wire type `w`."""
    k = w.kind
    if k == "optional":
        assert w.element is not None
        return JsonForm("nullable", json_form(w.element))
    if k in ("array", "sequence"):
        assert w.element is not None
        return JsonForm("array", json_form(w.element))
    if k == "map":
        assert w.element is not None and w.key is not None
        if w.key.kind == "struct":
            return JsonForm("pairs", json_form(w.element), json_form(w.key))
        return JsonForm("entries", json_form(w.element), JsonForm(json_key_form(w.key)))
    return JsonForm(_LEAF_FORMS.get(k) or _scalar_form(w))


_LEAF_FORMS = {"decimal": "decimal", "uuid": "uuid", "timestamp": "integer", "string": "string",
               "bytes": "base64", "struct": "object", "enum": "integer", "flags": "integer",
               "variant": "variant"}


def _scalar_form(w: WireType) -> str:
    if w.scalar == "bool":
        return "bool"
    if w.scalar in _INTEGER_SCALARS:
        return "integer"
    assert w.scalar in ("float", "double"), w
    return "float"


def json_key_form(key: WireType) -> str:
    """What a map key's text spells (JSON_KEY_FORMS)."""
    form = json_form(key).form
    assert form in JSON_KEY_FORMS, key
    return form


def _field(f: FieldLike, at: Optional[int]) -> PlanField:
    return PlanField(f.index, f.name, f.wire, at, helper(f.wire))


_VALUE_KIND_SET = frozenset(VALUE_KINDS)
_Groups = List[Tuple[bool, List[FieldLike]]]


def _values_runs(fields: Sequence[FieldLike]) -> _Groups:
    """The fields in order, consecutive value fields grouped: (is a run, fields)."""
    groups: _Groups = []
    run: Optional[List[FieldLike]] = None
    for f in fields:
        if f.wire.kind in _VALUE_KIND_SET:
            if run is None:
                run = []
                groups.append((True, run))
            run.append(f)
        else:
            run = None
            groups.append((False, [f]))
    return groups


def versioned_plan(body_size: int, fields: Sequence[FieldLike],
                   groups: Optional[_Groups] = None) -> VersionedPlan:
    steps: List[Step] = []
    for is_run, group in _values_runs(fields) if groups is None else groups:
        if is_run:
            size = 0
            out = []
            for f in group:
                w = f.wire
                size += w.slot
                out.append(PlanField(f.index, f.name, w, f.offset, helper(w)))
            steps.append(Step("values", group[0].offset, size, tuple(out)))
        else:
            f = group[0]
            w = f.wire
            op = helper(w)
            steps.append(Step(op, f.offset, w.slot, (PlanField(f.index, f.name, w, f.offset, op),)))
    return VersionedPlan(body_size, tuple(steps))


def final_plan(fields: Sequence[FieldLike], min_size: int, fixed_size: Optional[int],
               groups: Optional[_Groups] = None) -> FinalPlan:
    steps: List[Step] = []
    for is_run, group in _values_runs(fields) if groups is None else groups:
        if is_run:
            size = 0
            out = []
            for f in group:
                w = f.wire
                out.append(PlanField(f.index, f.name, w, size, helper(w)))
                size += w.final_size or 0
            steps.append(Step("values", group[0].final_offset, size, tuple(out)))
        else:
            f = group[0]
            w = f.wire
            op = helper(w)
            steps.append(Step(op, f.final_offset, w.final_size,
                              (PlanField(f.index, f.name, w, None, op),)))
    return FinalPlan(min_size, fixed_size, tuple(steps))


def json_plan(fields: Sequence[FieldLike],
              memo: Optional[Dict[int, Tuple[WireType, JsonForm]]] = None) -> JsonPlan:
    """`memo`: JSON forms already worked out, by the id of their wire type (lower shares
    wire types between fields, so most fields find theirs); each entry holds its wire
    type, so no id is reused while the memo lives."""
    if memo is None:
        memo = {}
    out = []
    for f in fields:
        w = f.wire
        known = memo.get(id(w))
        if known is None or known[0] is not w:
            known = memo[id(w)] = (w, json_form(w))
        out.append(JsonField(f.index, f.name, known[1]))
    return JsonPlan(tuple(out))


def build(body_size: int, fields: Sequence[FieldLike], final_min: int,
          final_size: Optional[int],
          memo: Optional[Dict[int, Tuple[WireType, JsonForm]]] = None) -> CodecPlan:
    groups = _values_runs(fields)
    return CodecPlan(versioned_plan(body_size, fields, groups),
                     final_plan(fields, final_min, final_size, groups), json_plan(fields, memo))


# ---- as plain data (IR JSON version 3) ---------------------------------------------------

def _step_dict(s: Step) -> Dict[str, object]:
    return {"op": s.op, "at": s.at, "size": s.size,
            "fields": [{"index": f.index, "name": f.name, "at": f.at, "helper": f.helper}
                       for f in s.fields]}


def _form_dict(form: JsonForm) -> Dict[str, object]:
    out: Dict[str, object] = {"form": form.form}
    if form.element is not None:
        out["element"] = _form_dict(form.element)
    if form.key is not None:
        out["key"] = _form_dict(form.key)
    return out


def variant_dict(v: VariantPlan, wire: Callable[[WireType], Dict[str, object]]) -> Dict[str, object]:
    """A variant's plan as plain data (IR JSON version 4), `wire` writing a wire type."""
    return {"final_min": v.final_min, "final_size": v.final_size, "depth": v.depth,
            "alternatives": [{"index": a.index, "name": a.name, "helper": a.helper,
                              "block_size": a.block_size, "wire": wire(a.wire),
                              "json": _form_dict(a.form)} for a in v.alternatives]}


def to_dict(p: CodecPlan) -> Dict[str, object]:
    return {
        "versioned": {"body_size": p.versioned.body_size,
                      "steps": [_step_dict(s) for s in p.versioned.steps]},
        "final": {"min_size": p.final.min_size, "fixed_size": p.final.fixed_size,
                  "steps": [_step_dict(s) for s in p.final.steps]},
        "json": {"fields": [{"index": f.index, "name": f.name, **_form_dict(f.form)}
                            for f in p.json.fields]},
    }
