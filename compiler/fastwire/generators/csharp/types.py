"""C# types, codecs, new values and the inlined loads and stores, by the runtime helper
(plan.HELPERS) a wire type names."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from ...lower import Literal, WireType
from ...plan import VALUE_HELPERS
from .names import RT, Scope, ident, string

G = "global::System.Collections.Generic."
# helper: C# type, field of Fastwire.Codecs (its class: <field>Codec unless given) | load at
# {at} | store of {v} at {at}
_TABLE = """
bool bool Bool | r.U8({at}) != 0 | b[{at}] = {v} ? (byte)1 : (byte)0;
byte byte Byte | r.U8({at}) | b[{at}] = (byte){v};
char char Char | (char)r.U8({at}) | b[{at}] = (byte){v};
wchar uint WChar UInt32Codec | r.U32({at}) | w.PutU32({at}, (uint){v});
int8 sbyte Int8 SByteCodec | (sbyte)r.U8({at}) | b[{at}] = (byte){v};
uint8 byte UInt8 ByteCodec | r.U8({at}) | b[{at}] = (byte){v};
int16 short Int16 | (short)r.U16({at}) | {rt}.Le.Put(b, {at}, (ushort){v});
uint16 ushort UInt16 | r.U16({at}) | {rt}.Le.Put(b, {at}, (ushort){v});
int32 int Int32 | r.I32({at}) | w.PutU32({at}, (uint){v});
uint32 uint UInt32 | r.U32({at}) | w.PutU32({at}, (uint){v});
int64 long Int64 | (long)r.U64({at}) | w.PutU64({at}, (ulong){v});
uint64 ulong UInt64 | r.U64({at}) | w.PutU64({at}, (ulong){v});
float float Float | r.F32({at}) | {rt}.Le.PutF32(b, {at}, {v});
double double Double | r.F64({at}) | w.PutF64({at}, {v});
decimal decimal Decimal | {rt}.Decimals.Read(b, {at}) | {rt}.Decimals.Write(b, {at}, {v});
timestamp {rt}.Timestamp Timestamp | new {rt}.Timestamp(r.U64({at})) | {rt}.Le.Put(b, {at}, {v}.Nanoseconds);
uuid global::System.Guid Uuid | {rt}.Uuid.Read(b, {at}) | {rt}.Uuid.Write(b, {at}, {v});
string string String
bytes byte[] Bytes"""
LEAF: Dict[str, Tuple[str, ...]] = {}
READ: Dict[str, str] = {}
WRITE: Dict[str, str] = {}
for _row in _TABLE.strip().split("\n"):
    _head, *_code = [x.strip() for x in _row.replace("{rt}", RT).split("|")]
    _h, _t, _field, *_cls = _head.split()
    LEAF[_h] = (_t, _field, _cls[0] if _cls else _field + "Codec")
    if _code:
        READ[_h], WRITE[_h] = _code
_ENUM = {"char": "byte", "uint8": "byte", "wchar": "uint32"}  # C# has no char enums


def enum_base(scalar: str) -> Tuple[str, ...]:
    """The LEAF row (C# type, codec) an enum of this base scalar is stored as."""
    return LEAF[_ENUM.get(scalar, scalar)]


# Containers and optionals: C# type and codec ({e} {ex}: the element's type and codec; {k}
# {kx}: the key's); an optional of a value type, then of a reference type.
FORMS = {
    "array": ("{e}[]", "ArrayCodec<{e}>({ex}, {n})"),
    "vector": (G + "List<{e}>", "ListCodec<{e}>({ex})"),
    "list": (G + "List<{e}>", "ListCodec<{e}>({ex}, true)"),
    "set": (G + "SortedSet<{e}>", "SetCodec<{e}>({ex})"),
    "map": (G + "SortedDictionary<{k}, {e}>", "MapCodec<{k}, {e}>({kx}, {ex}, {pairs})"),
    "hash": (G + "Dictionary<{k}, {e}>", "HashCodec<{k}, {e}>({kx}, {ex}, {pairs})"),
    True: ("{e}?", "OptionalValueCodec<{e}>({ex})"), False: ("{e}", "OptionalRefCodec<{e}>({ex})"),
}
# A field's new value without a default ({order}: the keys' comparer; none: C#'s default).
ZERO = {"string": '""', "bytes": "new byte[0]", "struct": "new {t}()", "vector": "new {t}()",
        "list": "new {t}()", "hash": "new {t}()", "set": "new {t}({order})",
        "map": "new {t}({order})"}
ORDER = {"string": f"{RT}.StringOrder.Instance", "uuid": f"{RT}.UuidOrder.Instance"}
TRIVIAL = tuple(h for h in VALUE_HELPERS if h != "decimal")  # nothing to verify
# What generated code inlines, by helper (and element helper); else "codec": F<index>.
INLINED = {"string": "text", "bytes": "text", "struct": "struct", ("optional", "struct"):
           "optstruct", ("vector", "struct"): "structs", ("list", "struct"): "structs"}
TEXT = {"string": "String", "bytes": "Bytes"}  # the runtime's text calls: VPutString, ...


def parts(sc: Scope, w: WireType) -> Tuple[str, str, str]:
    """(C# type, codec type, codec expression), once per wire type and package."""
    got = sc.parts.get(w)
    if got is None:
        got = sc.parts[w] = _parts(sc, w)
    return got


def _parts(sc: Scope, w: WireType) -> Tuple[str, str, str]:
    h = w.helper
    if h in LEAF:
        t, field, cls = LEAF[h]
        return t, f"{RT}.{cls}", f"{RT}.Codecs.{field}"
    if w.ref is not None:  # enum, flags, struct
        t, c = sc.type_name(w.ref), sc.codec_name(w.ref)
        if w.scalar is None:
            return t, c, c + ".Instance"
        return t, f"{RT}.EnumCodec<{t}, {enum_base(w.scalar)[0]}>", sc.enum_codec(w.ref)
    assert w.element is not None
    e, k = parts(sc, w.element), parts(sc, w.key) if w.key is not None else ("", "", "")
    form, cform = FORMS[w.element.is_value if h == "optional" else h]
    t = form.format(e=e[0], k=k[0])
    pairs = "true" if w.json.form == "pairs" else "false"
    return t, f"{RT}.Codec<{t}>", f"new {RT}." + cform.format(e=e[0], ex=e[2], k=k[0], kx=k[2],
                                                               n=w.length, pairs=pairs)


def zero(sc: Scope, w: WireType) -> str:
    """A field's new value without a default ("": C#'s default)."""
    t = parts(sc, w)[0]
    e = w.element
    if w.helper == "array" and e is not None:
        inner, et = zero(sc, e), parts(sc, e)[0]
        if inner:
            return f"{RT}.Arrays.New<{et}>({w.length}, () => {inner})"
        if et.endswith("[]"):  # bytes?[N]: a jagged array's length comes first
            return f"new {et[:-2]}[{w.length}][]"
        return f"new {et}[{w.length}]"
    order = w.key or e
    return ZERO.get(w.helper, "").format(t=t, order=ORDER.get(order.helper, "") if order else "")


def trivial(w: WireType) -> bool:
    """Nothing to verify (arrays of such values too)."""
    return trivial(w.element) if w.helper == "array" and w.element else w.helper in TRIVIAL


def inlined(w: WireType) -> str:
    """A field's handling: value, text, struct, optstruct, structs or codec."""
    if w.is_value:
        return "value"
    return INLINED.get((w.helper, w.element.helper) if w.element else w.helper, "codec")


def leaf(w: WireType) -> Optional[str]:
    """The struct an inlined field holds."""
    if inlined(w) not in ("struct", "optstruct", "structs"):
        return None
    return w.ref if w.element is None else w.element.ref


def spelled(sc: Scope, w: WireType, final: bool) -> bool:
    """Whether VFast or FFast (final) checks a field itself: values, text, structs of such
    fields (optional, in vectors: of final_min > 0 in FFast), not recursive (depth > 0)."""
    if w.is_value or inlined(w) == "text" or (not final and trivial(w)):
        return True
    ref = leaf(w)
    if ref is None or (final and inlined(w) == "structs" and w.element is not None
                       and w.element.final_min <= 0):
        return False
    got = sc.spelled.get((ref, final))
    if got is None:
        inner = sc.model.struct(ref)
        got = inner.depth > 0 and all(spelled(sc, f.wire, final) for f in inner.fields)
        sc.spelled[(ref, final)] = got
    return got


def read_value(sc: Scope, w: WireType, at: str) -> str:
    """Reads a fixed-size value (an enum or flags: its base, cast)."""
    if w.ref is None:
        return READ[w.helper].format(at=at)
    scalar = w.scalar or ""
    return f"({sc.type_name(w.ref)})({READ[_ENUM.get(scalar, scalar)].format(at=at)})"


def write_value(w: WireType, at: str, v: str) -> str:
    return WRITE[w.scalar or w.helper].format(at=at, v=v)


def field_vars(sc: Scope, w: WireType, index: int, v: str) -> Dict[str, object]:
    """A field's template variables: $v$ its member, $i$ its index, $t$ its type, $c$ the
    codec of the struct it holds, $fn$ String or Bytes, $fmin$ an element's final_min."""
    ref = leaf(w)
    e = w.element
    return {"v": v, "i": index, "t": parts(sc, w)[0], "c": sc.codec_name(ref) if ref else "",
            "fn": TEXT.get(w.helper, ""), "rt": RT, "fmin": e.final_min if e else 0}


def local_b(lines: List[str], source: str) -> str:
    """`byte[] b = <source>;` when statements use the local `b`, else ""."""
    return f"byte[] b = {source};" if any("b[" in x or "(b, " in x for x in lines) else ""


# ---- defaults as C# expressions, from the lowered literals (lower.Literal), by literal kind
_MIN = {("long", -(1 << 63)): "long.MinValue", ("int", -(1 << 31)): "int.MinValue"}
_SUFFIX = {"uint": "U", "long": "L", "ulong": "UL"}
_INFINITY = {float("inf"): "PositiveInfinity", float("-inf"): "NegativeInfinity"}


def int_text(t: str, v: int) -> str:
    """Integer v as a literal of C# type t (cast to the narrow types)."""
    if (t, v) in _MIN:
        return _MIN[(t, v)]
    if t in ("byte", "sbyte", "short", "ushort", "char"):
        return f"({t})({v})" if v < 0 or t == "char" else f"({t}){v}"
    return f"{v}{_SUFFIX.get(t, '')}"


def _decimal(sc: Scope, w: WireType, lit: Literal) -> str:
    c = lit.coefficient
    words = (c & 0xFFFFFFFF, (c >> 32) & 0xFFFFFFFF, c >> 64)
    ints = [f"unchecked((int)0x{x:08X})" if x >= 0x80000000 else str(x) for x in words]
    return f"new decimal({', '.join(ints)}, {'true' if lit.negative else 'false'}, {lit.scale})"


def _float(sc: Scope, w: WireType, lit: Literal) -> str:
    x = lit.value if isinstance(lit.value, float) else float(str(lit.value))
    t = "float" if lit.bits == 32 else "double"
    if x != x or x in _INFINITY:
        return f"{t}.{_INFINITY.get(x, 'NaN')}"
    text = repr(x)
    return text + ("" if "e" in text or "." in text else ".0") + t[0]


def _integer(sc: Scope, w: WireType, lit: Literal) -> str:
    value = lit.value if isinstance(lit.value, int) else int(str(lit.value))
    if w.helper == "timestamp":
        return f"new {RT}.Timestamp({value}UL)"
    if w.ref is None:
        assert w.scalar is not None
        return int_text(LEAF[w.scalar][0], value)
    t = sc.type_name(w.ref)  # an enum or flags: its members, or the value cast
    if lit.names:
        return " | ".join(f"{t}.{ident(n)}" for n in lit.names)
    return f"({t})({int_text(enum_base(w.scalar or 'int32')[0], value)})"


_COMPUTED = {"utc": f"{RT}.Timestamp.Now", "uuid1": f"{RT}.Uuid.NewTimeBased()",
             "uuid4": "global::System.Guid.NewGuid()"}
_LITERAL: Dict[str, Callable[[Scope, WireType, Literal], str]] = {
    "bool": lambda sc, w, lit: "true" if lit.value else "false",
    "computed": lambda sc, w, lit: _COMPUTED[str(lit.value)],
    "string": lambda sc, w, lit: string(str(lit.value)),
    "uuid": lambda sc, w, lit: f'new global::System.Guid("{lit.value}")',
    "decimal": _decimal, "float": _float, "integer": _integer, "null": lambda sc, w, lit: "null",
}


def literal(sc: Scope, w: WireType, lit: Literal) -> str:
    """The default `lit` of a field of wire type w (an optional's: its value's, or null)."""
    return _LITERAL[lit.kind](sc, w.element if w.helper == "optional" and w.element else w, lit)
