"""The dynamic codec: any struct of any schema, without generated code.

Driven only by the schema's IR (IR JSON version 2 or 3, docs/ir.md: the documented format, so
the runtime needs no compiler): every offset, slot size, final size and default comes from
the IR's lowered wire model (`layout`); nothing here works out FBE's layout again. The values
are plain Python: a struct is a `Record` (a dict of its fields by schema name), and
fields hold ints (integers, char and wchar code units, timestamps in nanoseconds, enums and
flags by number), floats, bools, str, bytes, `decimal.Decimal`, `uuid.UUID`, lists, sets
and dicts, None for an empty optional.

    schema = dynamic.Schema.load("build/proto.ir.json")     # or Schema(ir_dict)
    account = schema.model("proto.Account").deserialize(data)   # verify contract, Limits
    account["orders"][0]["price"]
    data = schema.final_model("proto.Account").serialize(account)
    text = schema.to_json("proto.Account", account)

Reading and writing go through the same runtime codecs (fastwire_runtime.wire) and models
as the generated code, under the same verify contract and limits; the conformance suite
runs this module as its own testee (`dynamic`), so it answers every case as the generated
code does.
"""

from __future__ import annotations

import json
import struct
from decimal import Decimal
from typing import Any, Callable, ClassVar, Dict, List, Optional, Tuple, Type, Union

from .errors import EncodeError, fail
from .limits import Limits
from .model import FinalModel, Model
from .wire import (
    BYTES,
    DECIMAL,
    NIL_UUID,
    PRIMITIVES,
    STRING,
    TIMESTAMP,
    UUID_,
    ArrayCodec,
    Codec,
    Field,
    Int,
    JsonRepeated,
    MapCodec,
    OptionalCodec,
    Reader,
    SequenceCodec,
    StructCodec,
    check_repeated,
    explain,
    header,
    problem,
    utc,
    uuid1,
    uuid4,
    venter,
)

__all__ = ["Record", "Schema", "SchemaError", "DynamicStruct", "DynamicEnum"]

IR_FORMAT = "fastwire-ir"
IR_VERSIONS = (2, 3)  # 3 adds the codec plan, which this reader does not need


class SchemaError(ValueError):
    """An IR document this module cannot use (another format or version, a name that
    does not resolve, a layout the runtime's codecs disagree with)."""


# ---- values --------------------------------------------------------------------------------


class Record(dict):
    """A struct value: a dict of its fields by schema name. Each struct type has its own
    subclass (`schema.record_type(name)`), which carries the schema's equality rule
    (docs/schema-language.md): a struct with [key] fields is equal to another of its type,
    hashed and ordered by those fields, so it can be a set element or a map key; one
    without is equal field by field (as a dict) and has no hash."""

    __slots__ = ()
    type_name: ClassVar[str] = ""
    equality: ClassVar[Tuple[str, ...]] = ()
    keyed: ClassVar[bool] = False

    def _key(self) -> Tuple[Any, ...]:
        return tuple(self.get(n) for n in self.equality)

    def __repr__(self) -> str:
        return f"{self.type_name}({dict.__repr__(self)})"


class _KeyedRecord(Record):
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record) and other.type_name == self.type_name:
            return self._key() == other._key()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self._key())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Record) or other.type_name != self.type_name:
            return NotImplemented
        return self._key() < other._key()


# ---- codecs --------------------------------------------------------------------------------


class DynamicEnum(Int):
    """An enum or flags type as its base integer: values are plain ints."""

    def __init__(self, name: str, base: Int, values: List[Tuple[str, int]], flags: bool) -> None:
        super().__init__(name, base.fmt, base.lo, base.hi)
        self.flags = flags
        self.declared = values
        self.names: Dict[int, str] = {}
        for n, v in values:
            self.names.setdefault(v, n)

    def text(self, v: Any) -> str:
        v = int(v)
        if not self.flags:
            return self.names.get(v, "<unknown>")
        return "|".join(n for n, value in self.declared if value and v & value == value)


class _Field(Field):
    __slots__ = ("default_of", "index")
    default_of: Callable[[], Any]  # the field's value when the input does not give it
    index: int


class DynamicStruct(StructCodec):
    """A struct read and written from its IR layout: header and slots at the layout's
    offsets (versioned), fields in order (final). Reading a body of another version goes
    field by field as the generated code's slow path does: fields beyond an older
    writer's body keep their defaults; a newer writer's extra fields are skipped."""

    def __init__(self, schema: "Schema", qualified: str, name: str, type_number: int,
                 record: Type[Record]) -> None:
        super().__init__(record, name, type_number)
        self.schema = schema
        self.qualified = qualified
        self.record = record
        self.fields: Tuple[_Field, ...] = ()
        self.vput = self._vput
        self.vget = self._vget
        self.vcheck = self.vcheck_slow
        self.fput = self._fput
        self.fget = self._fget
        self.fcheck = self._fcheck

    def bind(self, fields: Tuple[_Field, ...], body: int, fmin: int,
             fsize: Optional[int]) -> None:
        self.fields = fields
        self.own = fields
        self.body = body
        self.fmin = fmin
        self.fsize = fsize
        self._header = header(body, self.type)

    def default(self) -> Record:
        obj = self.record()
        for f in self.fields:
            obj[f.name] = f.default_of()
        return obj

    # versioned
    def _vput(self, buf: bytearray, base: int, v: Any) -> int:
        pos = len(buf)
        buf += self._header
        for f in self.fields:
            x = v[f.name] if f.name in v else f.default_of()
            f.codec.vwrite(buf, pos + f.offset, pos, x)
        return pos - base

    def _vget(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> Record:
        pos, stored = venter(r, base, off, slot_end, self.type, d)
        return self.vget_older(r, pos, stored, d)

    def vget_older(self, r: Reader, pos: int, stored: int, d: int) -> Record:
        obj = self.record()
        for f in self.fields:
            c = f.codec
            if f.offset + c.slot <= stored:
                obj[f.name] = c.vget_slot(r, pos + f.offset, pos, d - 1)
            else:
                obj[f.name] = f.default_of()
        return obj

    # final
    def _fput(self, buf: bytearray, v: Any) -> None:
        for f in self.fields:
            f.codec.fput(buf, v[f.name] if f.name in v else f.default_of())

    def _fget(self, r: Reader, p: int, d: int) -> Tuple[Record, int]:
        if d < 1:
            fail("too_deep")
        obj = self.record()
        d -= 1
        for f in self.fields:
            obj[f.name], p = f.codec.fget(r, p, d)
        return obj, p

    def _fcheck(self, r: Reader, p: int, d: int) -> int:
        if d < 1:
            fail("too_deep")
        d -= 1
        for f in self.fields:
            p = f.codec.fcheck(r, p, d)
        return p

    # JSON and text
    def dump_json(self, v: Any) -> str:
        try:
            return "{" + ",".join([f.json_key + f.codec.dump_json(
                v[f.name] if f.name in v else f.default_of()) for f in self.fields]) + "}"
        except (EncodeError, TypeError, ValueError, AttributeError, OverflowError, KeyError,
                RecursionError) as err:
            raise explain(self, v, err) from err  # only when a value does not fit: name the field

    def load_json(self, j: Any) -> Record:
        if type(j) is not dict:
            if type(j) is not JsonRepeated:
                fail("bad_value", f"{self.name} expects an object")
            check_repeated(self.fields, j)
        obj = self.record()
        for f in self.fields:
            obj[f.name] = f.codec.load_json(j[f.name]) if f.name in j else f.default_of()
        return obj

    def text(self, v: Any) -> str:
        parts = []
        for f in self.fields:
            x = v[f.name] if f.name in v else f.default_of()
            parts.append(f.name + "=" + ("***" if f.hidden else f.codec.text(x)))
        return self.name + "(" + ",".join(parts) + ")"

    def problem(self, v: Any, path: str) -> Optional[EncodeError]:
        """The first field of `v` its schema type cannot take (wire.problem's hook)."""
        if not isinstance(v, dict):
            return EncodeError(f"cannot serialize {path}: expected {self.name} (a dict of its "
                               f"fields), got {type(v).__name__}", "wrong_type", path, self.name)
        for f in self.fields:
            if f.name in v:
                found = problem(f.codec, v[f.name], f"{path}.{f.name}")
                if found is not None:
                    return found
        return None


# ---- defaults ------------------------------------------------------------------------------

_ZERO_SCALAR: Dict[str, Any] = {"bool": False, "float": 0.0, "double": 0.0}


def _zero(wire: Dict[str, Any], structs: Dict[str, DynamicStruct]) -> Callable[[], Any]:
    """The value of a wire type without a declared default."""
    kind = wire["kind"]
    if kind == "scalar":
        z = _ZERO_SCALAR.get(wire["scalar"], 0)
        return lambda: z
    if kind in ("enum", "flags", "timestamp"):
        return lambda: 0
    if kind == "decimal":
        return lambda: Decimal(0)
    if kind == "uuid":
        return lambda: NIL_UUID
    if kind == "string":
        return lambda: ""
    if kind == "bytes":
        return lambda: b""
    if kind == "struct":
        ref = wire["ref"]
        return lambda: structs[ref].default()
    if kind == "optional":
        return lambda: None
    if kind == "array":
        elem = _zero(wire["element"], structs)
        n = wire["length"]
        return lambda: [elem() for _ in range(n)]
    if kind == "sequence":
        return set if wire["collection"] == "set" else list
    if kind == "map":
        return dict
    raise SchemaError(f"unknown wire kind {kind!r}")


def _literal(lit: Dict[str, Any]) -> Callable[[], Any]:
    """The value of a declared default (the IR's normalised literal)."""
    kind = lit["kind"]
    if kind == "integer":
        n = int(lit["value_text"])
        return lambda: n
    if kind == "float":
        raw = bytes.fromhex(lit["raw_hex"])[::-1]  # the IEEE-754 bits, big-endian text
        x = struct.unpack("<f" if lit["bits"] == 32 else "<d", raw)[0]
        return lambda: x
    if kind == "decimal":
        digits = tuple(int(c) for c in lit["coefficient_text"])
        dec = Decimal((1 if lit["negative"] else 0, digits, -int(lit["scale"])))
        return lambda: dec
    if kind == "uuid":
        from uuid import UUID
        u = UUID(bytes=bytes.fromhex(lit["bytes_hex"]))
        return lambda: u
    if kind in ("bool", "string"):
        value = lit["value"]
        return lambda: value
    if kind == "computed":
        makers: Dict[str, Callable[[], Any]] = {"utc": utc, "uuid1": uuid1, "uuid4": uuid4}
        made = makers.get(lit["value"])
        if made is None:
            raise SchemaError(f"unknown computed default {lit['value']!r}")
        return made
    if kind == "null":
        return lambda: None
    raise SchemaError(f"unknown default kind {kind!r}")


# ---- the schema ----------------------------------------------------------------------------


class Schema:
    """Every struct, enum and flags type of an IR document (the root package and its
    imports), ready to read and write."""

    def __init__(self, ir: Any, limits: Optional[Limits] = None) -> None:
        doc = _document(ir)
        try:
            self._build(doc, limits)
        except (KeyError, TypeError, AttributeError, IndexError) as err:
            what = f"missing key {err}" if isinstance(err, KeyError) else str(err)
            raise SchemaError(f"malformed IR document ({what})") from None

    def _build(self, doc: Dict[str, Any], limits: Optional[Limits]) -> None:
        self.doc = doc
        self.root: str = doc["root"]
        self.limits = limits
        self.packages: Dict[str, Dict[str, Any]] = {p["name"]: p for p in doc["packages"]}
        self.enums: Dict[str, DynamicEnum] = {}
        self.structs: Dict[str, DynamicStruct] = {}
        self.ir_structs: Dict[str, Dict[str, Any]] = {}
        self.ir_enums: Dict[str, Dict[str, Any]] = {}
        for p in doc["packages"]:
            for t in p["types"]:
                q = f"{p['name']}.{t['name']}"
                if t["kind"] in ("enum", "flags"):
                    base = PRIMITIVES.get(t["base"])
                    if not isinstance(base, Int):
                        raise SchemaError(f"{q}: base {t['base']!r} is not an integer type")
                    self.ir_enums[q] = t
                    self.enums[q] = DynamicEnum(
                        t["name"], base, [(v["name"], int(v["value_text"])) for v in t["values"]],
                        t["kind"] == "flags")
                elif t["kind"] in ("struct", "message"):
                    if "layout" not in t:
                        raise SchemaError(f"{q}: no layout (IR version 1?)")
                    self.ir_structs[q] = t
                    lay = t["layout"]
                    record = type(t["name"], (_KeyedRecord if lay["keyed"] else Record,),
                                  {"__slots__": (), "type_name": q,
                                   "equality": tuple(lay["equality"]), "keyed": lay["keyed"]})
                    self.structs[q] = DynamicStruct(self, q, t["name"], t["type_number"], record)
        for q, t in self.ir_structs.items():
            self._bind(q, t)
        self._models: Dict[Tuple[str, bool], Any] = {}

    @classmethod
    def load(cls, path: str, limits: Optional[Limits] = None) -> "Schema":
        """From an IR JSON file (`fastwire compile S.fbe --emit ir-json`)."""
        with open(path, encoding="utf-8") as fh:
            return cls(fh.read(), limits)

    # lookups
    def resolve(self, name: str) -> str:
        """The qualified name of a struct: `pkg.Name`, or a bare `Name` that one package
        declares (the root package first). Raises SchemaError naming the choices."""
        if name in self.structs:
            return name
        if "." not in name:
            found = [q for q in self.structs if q.split(".", 1)[1] == name]
            root = [q for q in found if q.startswith(self.root + ".")]
            if len(root) == 1 or len(found) == 1:
                return (root or found)[0]
        known = ", ".join(sorted(self.structs)) or "none"
        raise SchemaError(f"unknown type '{name}' (structs: {known})")

    def struct(self, name: str) -> DynamicStruct:
        return self.structs[self.resolve(name)]

    def layout(self, name: str) -> Dict[str, Any]:
        """The IR layout of a struct (`body_size`, `fields` with offsets, …)."""
        return dict(self.ir_structs[self.resolve(name)]["layout"])

    def record_type(self, name: str) -> Type[Record]:
        return self.struct(name).record

    def new(self, name: str, **fields: Any) -> Record:
        """A struct value with its defaults, then the fields given."""
        obj = self.struct(name).default()
        for k, v in fields.items():
            if k not in obj:
                raise KeyError(f"{name} has no field {k!r}")
            obj[k] = v
        return obj

    def model(self, name: str, limits: Optional[Limits] = None) -> Model:
        """The versioned model of a struct: serialize, verify, validate, deserialize."""
        return self._model(name, False, limits)

    def final_model(self, name: str, limits: Optional[Limits] = None) -> FinalModel:
        return self._model(name, True, limits)

    def _model(self, name: str, final: bool, limits: Optional[Limits]) -> Any:
        q = self.resolve(name)
        kind = self._models.get((q, final))
        if kind is None:
            base = FinalModel if final else Model
            kind = type(q.split(".", 1)[1] + ("FinalModel" if final else "Model"), (base,),
                        {"__slots__": (), "codec": self.structs[q]})
            self._models[(q, final)] = kind
        return kind(limits or self.limits)

    def to_json(self, name: str, value: Any) -> str:
        return self.struct(name).dump_json(value)

    def from_json(self, name: str, text: Union[str, bytes], limits: Optional[Limits] = None) -> Record:
        return self.struct(name).from_json(text, limits or self.limits)

    def by_type_number(self, package: Optional[str] = None) -> Dict[int, str]:
        """What a package's protocol sends, by type number (its `layout.sends`)."""
        p = self.packages[package or self.root]
        out: Dict[int, str] = {}
        for q in p.get("layout", {}).get("sends", []):
            out.setdefault(self.structs[q].type, q)
        return out

    # building
    def codec(self, wire: Dict[str, Any]) -> Codec:
        """The runtime codec of an IR wire type."""
        kind = wire["kind"]
        c: Codec
        if kind == "scalar":
            c = PRIMITIVES[wire["scalar"]]
        elif kind in ("enum", "flags"):
            c = self.enums[wire["ref"]]
        elif kind == "timestamp":
            c = TIMESTAMP
        elif kind == "decimal":
            c = DECIMAL
        elif kind == "uuid":
            c = UUID_
        elif kind == "string":
            c = STRING
        elif kind == "bytes":
            c = BYTES
        elif kind == "struct":
            c = self.structs[wire["ref"]]
        elif kind == "optional":
            c = OptionalCodec(self.codec(wire["element"]))
        elif kind == "array":
            c = ArrayCodec(self.codec(wire["element"]), int(wire["length"]))
        elif kind == "sequence":
            c = SequenceCodec(self.codec(wire["element"]), wire["collection"])
        elif kind == "map":
            c = MapCodec(self.codec(wire["key"]), self.codec(wire["element"]), wire["collection"])
        else:
            raise SchemaError(f"unknown wire kind {kind!r}")
        if c.slot != wire["slot"]:  # the IR's layout is the truth; the codecs must agree
            raise SchemaError(f"{c.name}: the IR's slot is {wire['slot']} bytes, the "
                              f"runtime's {c.slot}")
        return c

    def _bind(self, q: str, t: Dict[str, Any]) -> None:
        lay = t["layout"]
        hidden = {f["name"]: f.get("hidden", False) for f in t["all_fields"]}
        fields = []
        for i, fl in enumerate(lay["fields"]):
            try:
                codec = self.codec(fl["wire"])
            except KeyError as err:
                raise SchemaError(f"{q}.{fl['name']}: unknown type {err}") from None
            f = _Field(fl["name"], codec, hidden=hidden.get(fl["name"], False))
            f.offset = fl["offset"]
            f.index = i
            lit = fl.get("default")
            if lit is not None and lit["kind"] != "null":
                f.default_of = _literal(lit)
            elif fl["wire"]["kind"] == "optional":
                f.default_of = _none
            else:
                f.default_of = _zero(fl["wire"], self.structs)
            fields.append(f)
        self.structs[q].bind(tuple(fields), lay["body_size"], lay["final_min"], lay["final_size"])


def _none() -> None:
    return None


def _document(ir: Any) -> Dict[str, Any]:
    """IR JSON: text, bytes or the parsed dict (docs/ir.md). Not the compiler's model: the
    runtime reads the documented format only, so it needs no compiler (a compiler's
    `fastwire.ir.Schema` becomes IR JSON with `fastwire.ir_json.to_dict`)."""
    if isinstance(ir, (str, bytes)):
        try:
            ir = json.loads(ir)
        except ValueError as err:
            raise SchemaError(f"not IR JSON: {err}") from None
    if not isinstance(ir, dict) or ir.get("format") != IR_FORMAT:
        raise SchemaError("not a fastwire IR document")
    if ir.get("version") not in IR_VERSIONS:
        raise SchemaError(f"IR version {ir.get('version')} (this runtime reads 2 and 3)")
    return ir
