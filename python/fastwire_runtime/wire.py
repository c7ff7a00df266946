"""Codecs: how each schema type sits in the versioned format (spec §2), in the final
format (§3), in JSON (§4) and in the printout.

Generated modules hold the per-struct hot paths (straight-line code over precompiled
`struct.Struct` layouts: a versioned body's header and slots in one unpack, checked in
one condition for the usual case); everything else is here and shared: the
bounds-checked helpers those paths call, the slow paths they leave the unusual cases to
(StructCodec.vget_slow / vcheck_slow: older versions, and the precise error for
malformed input), and one codec object per schema type, which collections, optionals
and the generic paths (older struct versions, JSON, printing) compose:

    codec = vector(STRING)                      # string[]
    buf = bytearray(8)
    off = codec.vput(buf, 0, ["a", "b"])        # appends [count][slots][blocks]; the offset
    codec.text(["a", "b"])                      # '[2]["a","b"]'

Versioned interface (positions are absolute in the message; `base` is the position
offsets are relative to; `d` is how many struct levels may still be entered):
  slot, fmt           the slot's size and its `struct` format (packed inline by structs)
  multi               vput returns a tuple of slot values (optionals, arrays), else one
  vput(buf, base, v)  appends v's heap blocks to buf in the reference's order (§2.1) and
                      returns the slot value(s)
  vwrite(buf, pos, base, v)   vput, then stores the slot at pos
  vget_slot(r, pos, base, d) / vcheck_slot(r, pos, base, d)   checked read / verify
Offset-holding codecs (string, bytes, collections, structs) also take the raw offset
from an already unpacked body: vget(r, base, off, slot_end, d), vcheck(...); optionals
take (flag, off): vget(r, base, flag, off, slot_end, d).
Final: fmin (least wire size), fsize (fixed size or None), fput(buf, v),
fget(r, p, d) -> (value, next p), fcheck(r, p, d) -> next p.
JSON: dump_json(v) -> text, load_json(parsed) -> value, key_json / unkey_json for map
keys. Printout: text(v). Why a value cannot be written (the field, its type, a code):
explain(codec, value, cause) and problem(codec, value, path), at the end of this module.

The checks follow fastwire's contract (the C++ runtime's `versioned.h`, docs in
python/README.md): every offset leads forward to a block inside the message; counts fit
in the bytes that remain; every block reached is charged to a budget of the message
size (so shared blocks cannot multiply the work); struct sizes >= 8 and type numbers
must match; struct nesting is bounded; decimal scales <= 28.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import struct
import threading
import time
import uuid
from decimal import Decimal
from json.encoder import encode_basestring as _json_text
from operator import index as _index
from operator import itemgetter
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar, Union
from typing import Sequence as _Seq

from ._format import json_double, text_char, text_decimal, text_double, text_wchar
from .errors import DecodeError, EncodeError, fail
from .limits import DEFAULT_LIMITS, Limits

UUID = uuid.UUID
StructError = struct.error

_U32 = struct.Struct("<I")
_II = struct.Struct("<II")
_BI = struct.Struct("<BI")
_QII = struct.Struct("<QII")
_u32 = _U32.pack
u32 = _U32.pack  # for generated code
_u32_from = _U32.unpack_from
_u32_into = _U32.pack_into
_ii_from = _II.unpack_from
_bi_from = _BI.unpack_from
_bi_into = _BI.pack_into
_NULL = (0, 0)
# [count x u32] layouts for the offsets of short vectors of structs, ready made.
_OFFSETS = [struct.Struct("<%dI" % n) for n in range(33)]


def _offsets(n: int) -> struct.Struct:
    return _OFFSETS[n] if n < 33 else struct.Struct("<%dI" % n)


# Control characters without a short escape (all but \b \f \n \r \t) are written as
# RapidJSON, the reference's writer, writes them: \u00XX with upper-case hex (\u001F).
_CONTROL = re.compile("[\x00-\x07\x0b\x0e-\x1f]")
_TO_ESCAPE = re.compile('[\x00-\x1f"\\\\\ud800-\udfff]')
_ESCAPES = {chr(c): "\\u%04X" % c for c in range(0x20)}
_ESCAPES.update({'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n",
                 "\r": "\\r", "\t": "\\t"})


def _escape(m: "re.Match[str]") -> str:
    c = m.group()
    return _ESCAPES.get(c) or "\\u%04x" % ord(c)  # a surrogate


def _json_string(s: str) -> str:
    """A JSON string literal: UTF-8 as is (as RapidJSON writes), control characters as
    RapidJSON escapes them, and surrogates (bytes a reader kept from text that was not
    UTF-8) escaped, so the JSON text stays encodable and reads back to the same bytes."""
    if _CONTROL.search(s) is None:
        if s.isascii():
            return _json_text(s)
        try:
            s.encode()
            return _json_text(s)
        except UnicodeEncodeError:
            pass
    return '"' + _TO_ESCAPE.sub(_escape, s) + '"'


class Reader:
    """One message being read or verified: its bytes (exactly the message), the budget
    of bytes the walk may still visit (versioned) and the zero-size element cap (final)."""

    __slots__ = ("buf", "end", "budget", "zcap")

    def __init__(self, buf: bytes, budget: int, zcap: int) -> None:
        self.buf = buf
        self.end = len(buf)
        self.budget = budget
        self.zcap = zcap


# ---- defaults ----------------------------------------------------------------------------


class _Default:
    """The sentinel for "compute the declared default" where None already means null."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT: Any = _Default()


def utc() -> int:
    """The current time in nanoseconds since the Unix epoch (the `utc` default)."""
    return time.time_ns()


uuid1 = uuid.uuid1
uuid4 = uuid.uuid4
NIL_UUID = UUID(int=0)


def header(body: int, type_number: int) -> bytes:
    """A struct body's first bytes: [u32 size][u32 type], then zeros for the slots."""
    return _II.pack(body, type_number) + bytes(body - 8)


def layout(fmt: str) -> struct.Struct:
    return struct.Struct("<" + fmt)


# ---- versioned hot helpers (called by generated code) ------------------------------------


def _utf8(s: str) -> bytes:
    try:
        return s.encode()
    except UnicodeEncodeError:  # bytes a reader kept as surrogate escapes go back as they came
        return s.encode("utf-8", "surrogateescape")


def _text(data: bytes) -> str:
    try:
        return data.decode()
    except UnicodeDecodeError:  # not UTF-8: kept byte for byte (surrogate escapes)
        return data.decode("utf-8", "surrogateescape")


def vput_str(buf: bytearray, base: int, s: str) -> int:
    try:
        data = s.encode()
    except UnicodeEncodeError:
        data = s.encode("utf-8", "surrogateescape")
    pos = len(buf)
    buf += _u32(len(data))
    buf += data
    return pos - base


def vput_bytes(buf: bytearray, base: int, b: bytes) -> int:
    pos = len(buf)
    buf += _u32(len(b))
    buf += b
    return pos - base


def _vblock(r: Reader, base: int, off: int, slot_end: int) -> Tuple[int, int]:
    """Finds a [u32 length][length bytes] block; returns (payload position, length)."""
    pos = base + off
    end = r.end
    if pos > end:
        fail("truncated")
    if pos < slot_end:
        fail("bad_offset")
    if pos + 4 > end:
        fail("truncated")
    n = _u32_from(r.buf, pos)[0]
    pos += 4
    if n > end - pos:
        fail("truncated")
    budget = r.budget - 4 - n
    if budget < 0:
        fail("over_budget")
    r.budget = budget
    return pos, n


def vget_str(r: Reader, base: int, off: int, slot_end: int) -> str:
    pos = base + off
    if off and slot_end <= pos <= r.end - 4:  # the usual case; _vblock says what is wrong
        n = _u32_from(r.buf, pos)[0]
        pos += 4
        end = pos + n
        if end <= r.end and (budget := r.budget - 4 - n) >= 0:
            r.budget = budget
            data = r.buf[pos:end]
            try:
                return data.decode()
            except UnicodeDecodeError:  # not UTF-8: kept byte for byte
                return data.decode("utf-8", "surrogateescape")
    if not off:
        return ""  # written by no FBE writer; accepted as empty
    _vblock(r, base, off, slot_end)
    raise AssertionError("unreachable")  # pragma: no cover


def vget_bytes(r: Reader, base: int, off: int, slot_end: int) -> bytes:
    if not off:
        return b""
    pos, n = _vblock(r, base, off, slot_end)
    return r.buf[pos:pos + n]


def vcheck_str(r: Reader, base: int, off: int, slot_end: int) -> None:
    """Checks a string or bytes block (as vget_str does, without reading it)."""
    pos = base + off
    if off and slot_end <= pos <= r.end - 4:
        n = _u32_from(r.buf, pos)[0]
        if n <= r.end - pos - 4 and (budget := r.budget - 4 - n) >= 0:
            r.budget = budget
            return
    if off:
        _vblock(r, base, off, slot_end)


def venter(r: Reader, base: int, off: int, slot_end: int, type_number: int,
           d: int) -> Tuple[int, int]:
    """Finds and checks a struct body; returns (its position, its stored size).

    The offset must lead forward (past the slot holding it) to a header inside the
    message; the stored size must be >= 8 and fit; the type must match; the nesting
    must be within bounds; the body is charged to the budget."""
    pos = base + off
    end = r.end
    if off and slot_end <= pos <= end - 8:
        stored, found = _ii_from(r.buf, pos)
        if 8 <= stored <= end - pos and found == type_number and d > 0:
            budget = r.budget - stored
            if budget >= 0:
                r.budget = budget
                return pos, stored
    _venter_error(r, base, off, slot_end, type_number, d)
    raise AssertionError("unreachable")  # pragma: no cover


def _venter_error(r: Reader, base: int, off: int, slot_end: int, type_number: int,
                  d: int) -> None:
    """Raises the error venter() found, checking in the C++ runtime's order."""
    if not off:
        fail("bad_offset")
    pos = base + off
    end = r.end
    if pos > end:
        fail("truncated")
    if pos < slot_end:
        fail("bad_offset")
    if pos + 8 > end:
        fail("truncated")
    stored, found = _ii_from(r.buf, pos)
    if stored < 8:
        fail("bad_size")
    if stored > end - pos:
        fail("truncated")
    if found != type_number:
        fail("bad_type", f"{found} where {type_number} was expected")
    if d < 1:
        fail("too_deep")
    fail("over_budget")


def _vcount(r: Reader, base: int, off: int, slot_end: int, elem_slot: int) -> Tuple[int, int]:
    """Finds a [u32 count][count x elem_slot] block; returns (first element, count)."""
    pos = base + off
    end = r.end
    if slot_end <= pos <= end - 4:
        n = _u32_from(r.buf, pos)[0]
        pos += 4
        size = n * elem_slot
        budget = r.budget - 4 - size
        if size <= end - pos and budget >= 0:
            r.budget = budget
            return pos, n
    pos = base + off  # the precise error, in the C++ runtime's order
    if pos > end:
        fail("truncated")
    if pos < slot_end:
        fail("bad_offset")
    if pos + 4 > end:
        fail("truncated")
    n = _u32_from(r.buf, pos)[0]
    if n > (end - pos - 4) // elem_slot:
        fail("truncated")
    fail("over_budget")


# ---- final hot helpers -------------------------------------------------------------------


def fput_str(buf: bytearray, s: str) -> None:
    data = _utf8(s)
    buf += _u32(len(data))
    buf += data


def fput_bytes(buf: bytearray, b: bytes) -> None:
    buf += _u32(len(b))
    buf += b


def fget_str(r: Reader, p: int) -> Tuple[str, int]:
    n = _u32_from(r.buf, p)[0]
    p += 4
    q = p + n
    if q > r.end:
        fail("truncated")
    return _text(r.buf[p:q]), q


def fget_bytes(r: Reader, p: int) -> Tuple[bytes, int]:
    n = _u32_from(r.buf, p)[0]
    p += 4
    q = p + n
    if q > r.end:
        fail("truncated")
    return r.buf[p:q], q


def fcheck_str(r: Reader, p: int) -> int:
    q = p + 4 + _u32_from(r.buf, p)[0]
    if q > r.end:
        fail("truncated")
    return q


def fail_deep() -> None:
    fail("too_deep")


def fail_truncated() -> None:
    fail("truncated")


# ---- decimal and uuid --------------------------------------------------------------------

_DECIMAL_MAX = (1 << 96) - 1
_MASK64 = (1 << 64) - 1


def decimal_bytes(value: Any) -> bytes:
    """The 16 wire bytes of a decimal (spec §2.3): 96-bit integer, scale 0..28, sign.

    The work is bounded by the number of digits written, never by the value they spell:
    `1e999999999` is rejected without computing 10 ** 999999999."""
    if not isinstance(value, Decimal):
        if isinstance(value, int) and not isinstance(value, bool):
            value = Decimal(value)
        else:
            raise EncodeError(f"decimal expected, got {type(value).__name__}", "wrong_type")
    sign, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int):
        raise EncodeError(f"decimal {_short(value)} is not finite", "out_of_range")
    if not any(digits):  # zero: any exponent, the scale clamped to 0..28
        return _QII.pack(0, 0, (min(-exponent, 28) << 16 if exponent < 0 else 0)
                         | (0x80000000 if sign else 0))
    if exponent < -28:
        # Trailing zeros beyond 28 places carry no value; drop just enough of them.
        drop = -28 - exponent
        zeros = len(digits) - len(bytes(digits).rstrip(b"\0"))
        if zeros < drop:
            raise EncodeError(f"decimal {_short(value)} has more than 28 decimal places", "out_of_range")
        digits, exponent = digits[:len(digits) - drop], -28
    # At most 29 digits fit in 96 bits (the largest value has 29).
    if len(digits) + max(exponent, 0) > 29:
        raise EncodeError(f"decimal {_short(value)} needs more than 96 bits", "out_of_range")
    n = int("".join(map(str, digits)))
    if exponent > 0:
        n *= 10 ** exponent
        exponent = 0
    if n > _DECIMAL_MAX:
        raise EncodeError(f"decimal {_short(value)} needs more than 96 bits", "out_of_range")
    return _QII.pack(n & _MASK64, n >> 64, (-exponent << 16) | (0x80000000 if sign else 0))


def _short(value: Any) -> str:
    """A value for a message, cut to a readable length (hostile input can be megabytes)."""
    text = str(value)
    return text if len(text) <= 60 else text[:40] + f"... ({len(text)} characters)"


def decimal_of(raw: bytes) -> Decimal:
    """The decimal in 16 wire bytes; DecodeError(bad_value) for a scale above 28."""
    low, high, flags = _QII.unpack(raw)
    scale = (flags >> 16) & 0xFF
    if scale > 28:
        fail("bad_value", f"decimal scale {scale}")
    n = (high << 64) | low
    return Decimal((flags >> 31, tuple(map(int, str(n))), -scale))


def vcheck_decimal(raw: bytes) -> None:
    if raw[14] > 28:
        fail("bad_value", f"decimal scale {raw[14]}")


def uuid_bytes(value: Any) -> bytes:
    if not isinstance(value, UUID):
        raise EncodeError(f"uuid.UUID expected, got {type(value).__name__}", "wrong_type")
    return value.bytes


def uuid_of(raw: bytes) -> UUID:
    return UUID(bytes=raw)


# ---- codecs ------------------------------------------------------------------------------


class Codec:
    """What every codec has; see the module docstring for the interface."""

    name = "?"
    slot = 4
    fmt = "I"
    multi = False
    vtrivial = False
    fsize: Optional[int] = None
    fmin = 4
    ftrivial = False
    scalar = False
    # The interface of the module docstring. Subclasses define these as methods or, where
    # a shape has a faster special case, set them per instance; declared here so that the
    # shared methods below type-check.
    vput: Callable[..., Any]
    vget: Callable[..., Any]
    vcheck: Callable[..., Any]
    fput: Callable[..., Any]
    fget: Callable[..., Tuple[Any, int]]
    fcheck: Callable[..., int]
    dump_json: Callable[[Any], Any]
    load_json: Callable[[Any], Any]
    text: Callable[[Any], str]

    def default(self) -> Any:
        raise NotImplementedError

    def vwrite(self, buf: bytearray, pos: int, base: int, v: Any) -> None:
        _u32_into(buf, pos, self.vput(buf, base, v))

    def vget_slot(self, r: Reader, pos: int, base: int, d: int) -> Any:
        return self.vget(r, base, _u32_from(r.buf, pos)[0], pos + 4, d)

    def vcheck_slot(self, r: Reader, pos: int, base: int, d: int) -> None:
        self.vcheck(r, base, _u32_from(r.buf, pos)[0], pos + 4, d)

    def key_json(self, v: Any) -> str:
        return self.dump_json(v)

    def unkey_json(self, s: str) -> Any:
        try:
            parsed = json.loads(s, parse_float=Decimal)
        except ValueError:
            fail("invalid_argument", f"map key {s!r}")
        return self.load_json(parsed)

    def __repr__(self) -> str:
        return f"<codec {self.name}>"


class Scalar(Codec):
    """A value held in the slot itself: numbers, bool, char, wchar, timestamp, enums,
    flags, uuid, decimal. Subclasses convert between Python values and wire values."""

    scalar = True
    fmin = 0
    fsize: int  # always known: a scalar is fixed-size

    def __init__(self, name: str, fmt: str) -> None:
        self.name = name
        self.fmt = fmt
        self.st = struct.Struct("<" + fmt)
        self.slot = self.fsize = self.fmin = self.st.size
        self.vtrivial = self.ftrivial = True

    # Wire value <-> Python value (identity for plain numbers).
    def to_wire(self, v: Any) -> Any:
        return v

    def of_wire(self, raw: Any) -> Any:
        return raw

    def vput(self, buf: bytearray, base: int, v: Any) -> Any:
        return self.to_wire(v)

    def vwrite(self, buf: bytearray, pos: int, base: int, v: Any) -> None:
        self.st.pack_into(buf, pos, self.to_wire(v))

    def vget_slot(self, r: Reader, pos: int, base: int, d: int) -> Any:
        return self.of_wire(self.st.unpack_from(r.buf, pos)[0])

    def vcheck_slot(self, r: Reader, pos: int, base: int, d: int) -> None:
        pass

    def fput(self, buf: bytearray, v: Any) -> None:
        buf += self.st.pack(self.to_wire(v))

    def fget(self, r: Reader, p: int, d: int) -> Tuple[Any, int]:
        return self.of_wire(self.st.unpack_from(r.buf, p)[0]), p + self.fsize

    def fcheck(self, r: Reader, p: int, d: int) -> int:
        return p + self.fsize

    def pack_many(self, values: _Seq[Any]) -> bytes:
        """n values as n consecutive slots."""
        return struct.pack("<%d%s" % (len(values), self.fmt), *values)

    def unpack_many(self, buf: bytes, pos: int, n: int) -> List[Any]:
        return list(struct.unpack_from("<%d%s" % (n, self.fmt), buf, pos))

    def check_many(self, buf: bytes, pos: int, n: int) -> None:
        pass

    def text(self, v: Any) -> str:
        return str(v)


class Bool(Scalar):
    def default(self) -> bool:
        return False

    def dump_json(self, v: Any) -> str:
        return "true" if v else "false"

    def load_json(self, j: Any) -> bool:
        if j is True or j is False:
            return j
        fail("bad_value", f"{self.name} expected, got {j!r}")

    def text(self, v: Any) -> str:
        return "true" if v else "false"


class Int(Scalar):
    """Integers, char and wchar (code units), timestamp (ns)."""

    def __init__(self, name: str, fmt: str, lo: int, hi: int,
                 text: Callable[[int], str] = str) -> None:
        super().__init__(name, fmt)
        self.lo, self.hi = lo, hi
        self._text = text

    def default(self) -> int:
        return 0

    def dump_json(self, v: Any) -> str:
        return "%d" % v

    def load_json(self, j: Any) -> int:
        if type(j) is not int:
            if j is _MINUS_ZERO:  # -0 is 0 in every integer kind
                return 0
            fail("bad_value", f"{self.name} expected, got {j!r}")
        if not self.lo <= j <= self.hi:
            fail("out_of_range", f"{j} does not fit {self.name}")
        return j

    def unkey_json(self, s: str) -> int:
        t = s[1:] if s[:1] == "-" else s
        if not t.isdigit() or not t.isascii():
            fail("invalid_argument", f"map key {_short(s)!r} is not an integer")
        if len(t.lstrip("0")) > 20:  # no 64-bit integer has more digits; int() would refuse
            fail("out_of_range", f"map key {_short(s)!r} does not fit {self.name}")
        digits = t.lstrip("0") or "0"
        return self.load_json(-int(digits) if t is not s else int(digits))

    def text(self, v: Any) -> str:
        return self._text(v)


_F32 = struct.Struct("<f")
_INF = float("inf")


def _as_float32(x: float) -> float:
    """x rounded to the nearest float, as C's (float) conversion does."""
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:
        return _INF if x > 0 else -_INF


# A float or double map key in number form (as C++'s from_chars takes it).
_FLOAT_KEY = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


class Float(Scalar):
    def __init__(self, name: str, fmt: str) -> None:
        super().__init__(name, fmt)
        self.single = fmt == "f"

    def default(self) -> float:
        return 0.0

    def dump_json(self, v: Any) -> str:
        return json_double(_as_float32(float(v)) if self.single else float(v))

    def load_json(self, j: Any) -> float:
        if type(j) in (int, float, Decimal):
            try:
                x = float(j)
            except OverflowError:  # an integer beyond the double range
                x = _INF
            if x in (_INF, -_INF):
                fail("out_of_range", f"{_short(j)} does not fit {self.name}")
        elif j == "NaN":
            x = float("nan")
        elif j == "Infinity":
            x = float("inf")
        elif j == "-Infinity":
            x = float("-inf")
        else:
            fail("bad_value", f"{self.name} expected, got {j!r}")
        if self.single:
            y = _as_float32(x)
            if y in (_INF, -_INF) and x not in (_INF, -_INF):
                fail("out_of_range", f"{j} does not fit float")
            x = y
        return x

    def unkey_json(self, s: str) -> float:
        if s in ("NaN", "Infinity", "-Infinity"):
            return self.load_json(s)
        if not _FLOAT_KEY.match(s):
            fail("invalid_argument", f"map key {_short(s)!r} is not a number")
        return self.load_json(Decimal(s))

    def key_json(self, v: Any) -> str:
        t = self.dump_json(v)
        return t[1:-1] if t[0] == '"' else t

    def text(self, v: Any) -> str:
        return text_double(v)


class UuidCodec(Scalar):
    def default(self) -> UUID:
        return NIL_UUID

    def to_wire(self, v: Any) -> bytes:
        return uuid_bytes(v)

    def of_wire(self, raw: bytes) -> UUID:
        return UUID(bytes=raw)

    def pack_many(self, values: _Seq[Any]) -> bytes:
        return b"".join(map(uuid_bytes, values))

    def unpack_many(self, buf: bytes, pos: int, n: int) -> List[Any]:
        return [UUID(bytes=buf[p:p + 16]) for p in range(pos, pos + 16 * n, 16)]

    def dump_json(self, v: Any) -> str:
        return '"' + str(v) + '"'

    def load_json(self, j: Any) -> UUID:
        if type(j) is not str:
            fail("bad_value", f"uuid expected, got {j!r}")
        try:
            return UUID(j)
        except ValueError:
            fail("invalid_argument", f"{j!r} is not a uuid")

    def key_json(self, v: Any) -> str:
        return str(v)

    def unkey_json(self, s: str) -> UUID:
        return self.load_json(s)

    def text(self, v: Any) -> str:
        return '"' + str(v) + '"'


# A decimal's text, as C++'s decimal::parse takes it (Decimal() also takes spaces,
# underscores, "Infinity" and "NaN").
_DECIMAL_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


class DecimalCodec(Scalar):
    def __init__(self, name: str, fmt: str) -> None:
        super().__init__(name, fmt)
        self.vtrivial = self.ftrivial = False

    def default(self) -> Decimal:
        return Decimal(0)

    def to_wire(self, v: Any) -> bytes:
        return decimal_bytes(v)

    def of_wire(self, raw: bytes) -> Decimal:
        return decimal_of(raw)

    def vcheck_slot(self, r: Reader, pos: int, base: int, d: int) -> None:
        if r.buf[pos + 14] > 28:
            fail("bad_value", "decimal scale above 28")

    def fcheck(self, r: Reader, p: int, d: int) -> int:
        if p + 16 > r.end:
            fail("truncated")
        if r.buf[p + 14] > 28:
            fail("bad_value", "decimal scale above 28")
        return p + 16

    def pack_many(self, values: _Seq[Any]) -> bytes:
        return b"".join(map(decimal_bytes, values))

    def unpack_many(self, buf: bytes, pos: int, n: int) -> List[Any]:
        return [decimal_of(buf[p:p + 16]) for p in range(pos, pos + 16 * n, 16)]

    def check_many(self, buf: bytes, pos: int, n: int) -> None:
        for p in range(pos + 14, pos + 16 * n, 16):
            if buf[p] > 28:
                fail("bad_value", "decimal scale above 28")

    def dump_json(self, v: Any) -> str:
        return '"' + text_decimal(v) + '"'

    def load_json(self, j: Any) -> Decimal:
        """The rule every language reads by (docs/wire-format.md#json): the digits as
        written, trailing zeros included, must fit 96 bits; the scale (digits after the
        point minus the exponent) must be 0..28 (a negative one multiplies, zero stays
        zero). The work is bounded by the text's length."""
        if type(j) is str:
            if not _DECIMAL_TEXT.match(j):
                fail("invalid_argument", f"{_short(j)!r} is not a decimal")
            value = Decimal(j)
        elif type(j) in (int, Decimal):
            value = Decimal(j)
        else:
            fail("bad_value", f"decimal expected, got {_short(j)!r}")
        sign, digits, exponent = value.as_tuple()
        assert isinstance(exponent, int)
        if len(digits) > 29:
            fail("out_of_range", f"decimal {_short(j)} needs more than 96 bits")
        n = int("".join(map(str, digits)))
        scale = -exponent
        if scale < 0:
            if n:
                if len(digits) - scale > 29:
                    fail("out_of_range", f"decimal {_short(j)} needs more than 96 bits")
                n *= 10 ** -scale
            scale = 0
        if n > _DECIMAL_MAX:
            fail("out_of_range", f"decimal {_short(j)} needs more than 96 bits")
        if scale > 28:
            fail("out_of_range", f"decimal {_short(j)} has more than 28 decimal places")
        return Decimal((sign, tuple(map(int, str(n))), -scale))

    def key_json(self, v: Any) -> str:
        return text_decimal(v)

    def unkey_json(self, s: str) -> Decimal:
        return self.load_json(s)

    def text(self, v: Any) -> str:
        return text_decimal(v)


class _Members(dict):
    """raw wire value -> enum member; values no member has stay plain ints."""

    __slots__ = ("cls", "flags")
    cls: Any
    flags: bool

    def __missing__(self, raw: int) -> Any:
        value: Any = raw
        if self.flags:
            try:
                member = self.cls(raw)
                if int(member) == raw:  # IntFlag folds some values (negative ones)
                    value = member
            except (ValueError, TypeError):
                pass
        if len(self) < 4096:  # bounded: the values come from untrusted input
            self[raw] = value
        return value


class EnumCodec(Int):
    """An enum (IntEnum) or flags (IntFlag) type over its underlying integer.

    Reading keeps values without a member as plain ints. `names` maps the Python member
    names that differ from the schema's (Python keywords get a trailing _)."""

    def __init__(self, cls: Any, base: "Int", flags: bool = False,
                 names: Optional[Dict[str, str]] = None) -> None:
        super().__init__(cls.__name__, base.fmt, base.lo, base.hi)
        self.cls = cls
        self.flags = flags
        renamed = names or {}
        of = _Members()
        of.cls, of.flags = cls, flags
        # (value, schema name) in declaration order, aliases included.
        self.declared = [(int(m), renamed.get(n, n)) for n, m in cls.__members__.items()]
        for n, m in cls.__members__.items():
            if not flags and m.name != n:
                continue  # an alias; the first name of a value is its canonical member
            of.setdefault(int(m), m)
        self.of: Any = of
        if not flags and base.fmt in ("B", "b"):
            # A byte enum: a tuple indexed by the raw value (negative int8 values index
            # from the end), faster to look up than the dict.
            self.of = tuple(of.get(i if i < 128 or base.fmt == "B" else i - 256,
                                   i if i < 128 or base.fmt == "B" else i - 256)
                            for i in range(256))
        self.names = {v: n for v, n in reversed(self.declared)}

    def of_wire(self, raw: int) -> Any:
        return self.of[raw]

    def default(self) -> Any:
        return self.of[0]

    def unpack_many(self, buf: bytes, pos: int, n: int) -> List[Any]:
        of = self.of
        return [of[x] for x in struct.unpack_from("<%d%s" % (n, self.fmt), buf, pos)]

    def load_json(self, j: Any) -> Any:
        return self.of[super().load_json(j)]

    def text(self, v: Any) -> str:
        v = int(v)
        if not self.flags:
            return self.names.get(v, "<unknown>")
        return "|".join(n for value, n in self.declared if value and v & value == value)


class _Text(Codec):
    """string and bytes: an offset to [u32 length][bytes]; final: [u32 length][bytes]."""

    fmin = 4

    def vcheck(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> None:
        if off:
            _vblock(r, base, off, slot_end)

    def fcheck(self, r: Reader, p: int, d: int) -> int:
        return fcheck_str(r, p)


# A surrogate left in a decoded JSON string is a lone one ("\\ud800"): JSON's decoder
# joins the pairs. It has no UTF-8 form, so such a string could never be written.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(s: str) -> None:
    at = _SURROGATE.search(s)
    assert at is not None
    fail("invalid_argument", f"string holds a lone surrogate U+{ord(at.group()):04X} "
         f"(not valid UTF-8)")


class StringCodec(_Text):
    name = "string"

    def default(self) -> str:
        return ""

    def vput(self, buf: bytearray, base: int, v: str) -> int:
        return vput_str(buf, base, v)

    def vget(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> str:
        return vget_str(r, base, off, slot_end)

    def fput(self, buf: bytearray, v: str) -> None:
        fput_str(buf, v)

    def fget(self, r: Reader, p: int, d: int) -> Tuple[str, int]:
        return fget_str(r, p)

    def dump_json(self, v: str) -> str:
        return _json_string(v)

    def load_json(self, j: Any) -> str:
        if type(j) is not str:
            fail("bad_value", f"string expected, got {j!r}")
        if not j.isascii() and _SURROGATE.search(j):
            _lone_surrogate(j)
        return j

    def key_json(self, v: str) -> str:
        return v

    def unkey_json(self, s: str) -> str:
        if not s.isascii() and _SURROGATE.search(s):
            _lone_surrogate(s)
        return s

    def text(self, v: str) -> str:
        return '"' + v + '"'


class BytesCodec(_Text):
    name = "bytes"

    def default(self) -> bytes:
        return b""

    def vput(self, buf: bytearray, base: int, v: bytes) -> int:
        return vput_bytes(buf, base, v)

    def vget(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> bytes:
        return vget_bytes(r, base, off, slot_end)

    def fput(self, buf: bytearray, v: bytes) -> None:
        fput_bytes(buf, v)

    def fget(self, r: Reader, p: int, d: int) -> Tuple[bytes, int]:
        return fget_bytes(r, p)

    def dump_json(self, v: bytes) -> str:
        return '"' + base64.b64encode(v).decode("ascii") + '"'

    def load_json(self, j: Any) -> bytes:
        if type(j) is not str:
            fail("bad_value", f"base64 string expected, got {j!r}")
        try:
            return base64.b64decode(j, validate=True)
        except (binascii.Error, ValueError):
            fail("invalid_argument", "malformed base64")

    def text(self, v: bytes) -> str:
        return "bytes[%d]" % len(v)


BOOL = Bool("bool", "?")
BYTE = Int("byte", "B", 0, 0xFF)
CHAR = Int("char", "B", 0, 0xFF, text_char)
WCHAR = Int("wchar", "I", 0, 0xFFFFFFFF, text_wchar)
INT8 = Int("int8", "b", -0x80, 0x7F)
UINT8 = Int("uint8", "B", 0, 0xFF)
INT16 = Int("int16", "h", -0x8000, 0x7FFF)
UINT16 = Int("uint16", "H", 0, 0xFFFF)
INT32 = Int("int32", "i", -0x80000000, 0x7FFFFFFF)
UINT32 = Int("uint32", "I", 0, 0xFFFFFFFF)
INT64 = Int("int64", "q", -0x8000000000000000, 0x7FFFFFFFFFFFFFFF)
UINT64 = Int("uint64", "Q", 0, 0xFFFFFFFFFFFFFFFF)
TIMESTAMP = Int("timestamp", "Q", 0, 0xFFFFFFFFFFFFFFFF)
FLOAT = Float("float", "f")
DOUBLE = Float("double", "d")
DECIMAL = DecimalCodec("decimal", "16s")
UUID_ = UuidCodec("uuid", "16s")
STRING = StringCodec()
BYTES = BytesCodec()

PRIMITIVES: Dict[str, Codec] = {
    "bool": BOOL, "byte": BYTE, "char": CHAR, "wchar": WCHAR, "int8": INT8, "uint8": UINT8,
    "int16": INT16, "uint16": UINT16, "int32": INT32, "uint32": UINT32, "int64": INT64,
    "uint64": UINT64, "float": FLOAT, "double": DOUBLE, "decimal": DECIMAL,
    "timestamp": TIMESTAMP, "uuid": UUID_, "string": STRING, "bytes": BYTES,
}


def enum(cls: Any, base: str, names: Optional[Dict[str, str]] = None) -> EnumCodec:
    return EnumCodec(cls, PRIMITIVES[base], False, names)  # type: ignore[arg-type]


def flags(cls: Any, base: str, names: Optional[Dict[str, str]] = None) -> EnumCodec:
    return EnumCodec(cls, PRIMITIVES[base], True, names)  # type: ignore[arg-type]


class OptionalCodec(Codec):
    """T?: versioned [u8 flag][u32 offset] -> a block of slot(T) bytes holding the value
    (written with the base moved to the block); null is flag 0, offset 0.
    Final: [u8 flag] and the value when the flag is set."""

    slot = 5
    fmt = "BI"
    multi = True
    fmin = 1

    def __init__(self, inner: Codec) -> None:
        self.inner = inner
        self.name = inner.name + "?"
        self.zero = bytes(inner.slot)
        if isinstance(inner, StructCodec):
            self.vget = self._vget_struct  # type: ignore[method-assign]
            self.vcheck = self._vcheck_struct  # type: ignore[method-assign]

    def _vcheck_struct(self, r: Reader, base: int, flag: int, off: int, slot_end: int,
                       d: int) -> None:
        if flag:
            pos = self._find(r, base, off, slot_end)
            self.inner.vcheck(r, pos, _u32_from(r.buf, pos)[0], pos + 4, d)

    def _vget_struct(self, r: Reader, base: int, flag: int, off: int, slot_end: int,
                     d: int) -> Any:
        if not flag:
            return None
        pos = base + off
        if off and slot_end <= pos <= r.end - 4 and r.budget >= 4:  # _find, inlined
            r.budget -= 4
            return self.inner.vget(r, pos, _u32_from(r.buf, pos)[0], pos + 4, d)
        self._find(r, base, off, slot_end)  # raises the precise error
        raise AssertionError("unreachable")  # pragma: no cover

    def default(self) -> None:
        return None

    def vput(self, buf: bytearray, base: int, v: Any) -> Tuple[int, int]:
        if v is None:
            return _NULL
        pos = len(buf)
        buf += self.zero
        inner = self.inner
        if inner.__class__ is StructCodec:  # the common case, one call less
            _u32_into(buf, pos, inner.vput(buf, pos, v))
        else:
            inner.vwrite(buf, pos, pos, v)
        return 1, pos - base

    def vwrite(self, buf: bytearray, pos: int, base: int, v: Any) -> None:
        _bi_into(buf, pos, *self.vput(buf, base, v))

    def _find(self, r: Reader, base: int, off: int, slot_end: int) -> int:
        if not off:
            fail("bad_offset", "a set optional with offset 0")
        need = self.inner.slot
        pos = base + off
        end = r.end
        if pos > end:
            fail("truncated")
        if pos < slot_end:
            fail("bad_offset")
        if pos + need > end:
            fail("truncated")
        budget = r.budget - need
        if budget < 0:
            fail("over_budget")
        r.budget = budget
        return pos

    def vget(self, r: Reader, base: int, flag: int, off: int, slot_end: int, d: int) -> Any:
        if not flag:
            return None  # the offset of a null optional is ignored (reference bug B1)
        inner = self.inner
        need = inner.slot
        pos = base + off
        if off and slot_end <= pos <= r.end - need and r.budget >= need:  # _find, inlined
            r.budget -= need
            if inner.__class__ is StructCodec:
                return inner.vget(r, pos, _u32_from(r.buf, pos)[0], pos + 4, d)
            return inner.vget_slot(r, pos, pos, d)
        self._find(r, base, off, slot_end)  # raises the precise error
        raise AssertionError("unreachable")  # pragma: no cover

    def vcheck(self, r: Reader, base: int, flag: int, off: int, slot_end: int, d: int) -> None:
        if flag:
            pos = self._find(r, base, off, slot_end)
            self.inner.vcheck_slot(r, pos, pos, d)

    def vget_slot(self, r: Reader, pos: int, base: int, d: int) -> Any:
        flag, off = _bi_from(r.buf, pos)
        return self.vget(r, base, flag, off, pos + 5, d)

    def vcheck_slot(self, r: Reader, pos: int, base: int, d: int) -> None:
        flag, off = _bi_from(r.buf, pos)
        self.vcheck(r, base, flag, off, pos + 5, d)

    def fput(self, buf: bytearray, v: Any) -> None:
        if v is None:
            buf += b"\x00"
        else:
            buf += b"\x01"
            self.inner.fput(buf, v)

    def fget(self, r: Reader, p: int, d: int) -> Tuple[Any, int]:
        if p >= r.end:
            fail("truncated")
        if r.buf[p]:
            return self.inner.fget(r, p + 1, d)
        return None, p + 1

    def fcheck(self, r: Reader, p: int, d: int) -> int:
        if p >= r.end:
            fail("truncated")
        if r.buf[p]:
            return self.inner.fcheck(r, p + 1, d)
        return p + 1

    def dump_json(self, v: Any) -> str:
        return "null" if v is None else self.inner.dump_json(v)

    def load_json(self, j: Any) -> Any:
        return None if j is None else self.inner.load_json(j)

    def text(self, v: Any) -> str:
        return "null" if v is None else self.inner.text(v)


def _final_count(r: Reader, p: int, elem_min: int) -> int:
    """Reads a final-format count at p and checks it against the bytes left."""
    n = _u32_from(r.buf, p)[0]
    if elem_min:
        if n * elem_min > r.end - p - 4:
            fail("truncated")
    elif n > r.zcap:
        fail("too_large", f"{n} elements of zero size")
    return n


class ArrayCodec(Codec):
    """T[N]: N element slots inline (versioned) or N elements inline (final)."""

    multi = True

    def __init__(self, elem: Codec, n: int) -> None:
        self.elem, self.n = elem, n
        self.name = f"{elem.name}[{n}]"
        self.slot = n * elem.slot
        self.fmt = elem.fmt * n
        self.st = struct.Struct("<" + self.fmt)
        self.vtrivial = elem.vtrivial
        self.fmin = n * elem.fmin
        self.fsize = None if elem.fsize is None else n * elem.fsize
        self.ftrivial = elem.ftrivial

    def default(self) -> list:
        return [self.elem.default() for _ in range(self.n)]

    def _items(self, values: Any) -> Any:
        if len(values) != self.n:
            raise EncodeError(f"{self.name} needs exactly {self.n} elements, got {len(values)}",
                              "wrong_length")
        return values

    def vput(self, buf: bytearray, base: int, values: Any) -> Any:
        values = self._items(values)
        e = self.elem
        if e.multi:
            out: list = []
            for x in values:
                out.extend(e.vput(buf, base, x))
            return out
        return [e.vput(buf, base, x) for x in values]

    def vwrite(self, buf: bytearray, pos: int, base: int, values: Any) -> None:
        self.st.pack_into(buf, pos, *self.vput(buf, base, values))

    def vget_slot(self, r: Reader, pos: int, base: int, d: int) -> list:
        e = self.elem
        if e.scalar:
            return e.unpack_many(r.buf, pos, self.n)  # type: ignore[attr-defined]
        g, step = e.vget_slot, e.slot
        return [g(r, pos + i * step, base, d) for i in range(self.n)]

    def vcheck_slot(self, r: Reader, pos: int, base: int, d: int) -> None:
        e = self.elem
        if e.vtrivial:
            return
        if e.scalar:
            e.check_many(r.buf, pos, self.n)  # type: ignore[attr-defined]
            return
        c, step = e.vcheck_slot, e.slot
        for i in range(self.n):
            c(r, pos + i * step, base, d)

    def fput(self, buf: bytearray, values: Any) -> None:
        values = self._items(values)
        e = self.elem
        if e.scalar:
            buf += e.pack_many(values)  # type: ignore[attr-defined]
        else:
            for x in values:
                e.fput(buf, x)

    def fget(self, r: Reader, p: int, d: int) -> Tuple[list, int]:
        e = self.elem
        if e.scalar:
            size = self.fsize or 0
            if p + size > r.end:
                fail("truncated")
            return e.unpack_many(r.buf, p, self.n), p + size  # type: ignore[attr-defined]
        out = []
        g = e.fget
        for _ in range(self.n):
            x, p = g(r, p, d)
            out.append(x)
        return out, p

    def fcheck(self, r: Reader, p: int, d: int) -> int:
        e = self.elem
        if e.scalar:
            size = self.fsize or 0
            if p + size > r.end:
                fail("truncated")
            e.check_many(r.buf, p, self.n)  # type: ignore[attr-defined]
            return p + size
        c = e.fcheck
        for _ in range(self.n):
            p = c(r, p, d)
        return p

    def dump_json(self, values: Any) -> str:
        d = self.elem.dump_json
        return "[" + ",".join([d(x) for x in values]) + "]"

    def load_json(self, j: Any) -> list:
        if type(j) is not list:
            fail("bad_value", f"{self.name} expects an array")
        if len(j) != self.n:
            fail("bad_value", f"{self.name} expects {self.n} elements, got {len(j)}")
        if self.elem.fmin == 0:
            _charge_zero_size(len(j))
        return [self.elem.load_json(x) for x in j]

    def text(self, values: Any) -> str:
        t = self.elem.text
        return "[%d][" % len(values) + ",".join([t(x) for x in values]) + "]"


class SequenceCodec(Codec):
    """vector T[], list T() and set T!: an offset to [u32 count][count x slot(T)]
    (versioned) or [u32 count][elements] (final). Python: list, list, set. A set is
    written sorted, as the reference's std::set iterates."""

    _BRACKETS = {"vector": ("[", "]"), "list": ("<", ">"), "set": ("{", "}")}

    def __init__(self, elem: Codec, kind: str) -> None:
        self.elem, self.kind = elem, kind
        self.is_set = kind == "set"
        self.name = elem.name + {"vector": "[]", "list": "()", "set": "!"}[kind]
        self.open, self.close = self._BRACKETS[kind]
        if isinstance(elem, StructCodec) and not self.is_set:
            # The most common collection: its own loops, without a call per element slot.
            self.vput, self.vget = self._vput_structs, self._vget_structs  # type: ignore[method-assign]
            self.vcheck = self._vcheck_structs  # type: ignore[method-assign]
            self.fput, self.fget = self._fput_structs, self._fget_structs  # type: ignore[method-assign]

    def _vput_structs(self, buf: bytearray, base: int, values: Any) -> int:
        n = len(values)
        pos = len(buf)
        buf += bytes(4 + 4 * n)  # [count][offsets], packed once the elements are written
        put = self.elem.vput
        offsets = [n]
        for x in values:
            offsets.append(put(buf, base, x))
        (_OFFSETS[n + 1] if n < 32 else _offsets(n + 1)).pack_into(buf, pos, *offsets)
        return pos - base

    def _vget_structs(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> list:
        pos = base + off
        if off and slot_end <= pos <= r.end - 4:  # _vcount, inlined
            buf = r.buf
            n = _u32_from(buf, pos)[0]
            pos += 4
            if 4 * n <= r.end - pos and (budget := r.budget - 4 - 4 * n) >= 0:
                r.budget = budget
                get = self.elem.vget
                out = []
                for o in (_OFFSETS[n] if n < 33 else _offsets(n)).unpack_from(buf, pos):
                    pos += 4
                    out.append(get(r, base, o, pos, d))
                return out
        if not off:
            return []
        _vcount(r, base, off, slot_end, 4)  # raises the precise error
        raise AssertionError("unreachable")  # pragma: no cover

    def _fput_structs(self, buf: bytearray, values: Any) -> None:
        buf += _u32(len(values))
        put = self.elem.fput
        for x in values:
            put(buf, x)

    def _fget_structs(self, r: Reader, p: int, d: int) -> Tuple[list, int]:
        n = _u32_from(r.buf, p)[0]
        size = self.elem.fmin
        if not size or n * size > r.end - p - 4:
            _final_count(r, p, size)  # raises, or allows n elements of zero size
        p += 4
        get = self.elem.fget
        out = []
        for _ in range(n):
            x, p = get(r, p, d)
            out.append(x)
        return out, p

    def _vcheck_structs(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> None:
        if not off:
            return
        pos, n = _vcount(r, base, off, slot_end, 4)
        check = self.elem.vcheck
        for o in (_OFFSETS[n] if n < 33 else _offsets(n)).unpack_from(r.buf, pos):
            pos += 4
            check(r, base, o, pos, d)

    def default(self) -> Any:
        return set() if self.is_set else []

    def _items(self, values: Any) -> Any:
        return sorted(values) if self.is_set else values

    def _result(self, items: list) -> Any:
        return set(items) if self.is_set else items

    def vput(self, buf: bytearray, base: int, values: Any) -> int:
        values = self._items(values)
        e = self.elem
        n = len(values)
        pos = len(buf)
        buf += _u32(n)
        if e.scalar:
            buf += e.pack_many(values)  # type: ignore[attr-defined]
        elif e.__class__ is StructCodec:  # the common case: offsets packed at once
            at = len(buf)
            buf += bytes(4 * n)
            put = e.vput
            _offsets(n).pack_into(buf, at, *[put(buf, base, x) for x in values])
        else:
            at, step = len(buf), e.slot
            buf += bytes(n * step)
            w = e.vwrite
            for x in values:
                w(buf, at, base, x)
                at += step
        return pos - base

    def vget(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> Any:
        if not off:
            return self.default()
        e = self.elem
        pos, n = _vcount(r, base, off, slot_end, e.slot)
        if e.scalar:
            return self._result(e.unpack_many(r.buf, pos, n))  # type: ignore[attr-defined]
        if e.__class__ is StructCodec:  # the common case, without a call per slot
            get = e.vget
            offs = _offsets(n).unpack_from(r.buf, pos)
            return self._result([get(r, base, offs[i], pos + 4 * i + 4, d) for i in range(n)])
        g, step = e.vget_slot, e.slot
        return self._result([g(r, pos + i * step, base, d) for i in range(n)])

    def vcheck(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> None:
        if not off:
            return
        e = self.elem
        pos, n = _vcount(r, base, off, slot_end, e.slot)
        if e.vtrivial:
            return
        if e.scalar:
            e.check_many(r.buf, pos, n)  # type: ignore[attr-defined]
            return
        c, step = e.vcheck_slot, e.slot
        for i in range(n):
            c(r, pos + i * step, base, d)

    def fput(self, buf: bytearray, values: Any) -> None:
        values = self._items(values)
        e = self.elem
        buf += _u32(len(values))
        if e.scalar:
            buf += e.pack_many(values)  # type: ignore[attr-defined]
        else:
            put = e.fput
            for x in values:
                put(buf, x)

    def fget(self, r: Reader, p: int, d: int) -> Tuple[Any, int]:
        e = self.elem
        n = _final_count(r, p, e.fmin)
        p += 4
        if e.scalar:
            return self._result(e.unpack_many(r.buf, p, n)), p + n * e.fmin  # type: ignore[attr-defined]
        out = []
        g = e.fget
        for _ in range(n):
            x, p = g(r, p, d)
            out.append(x)
        return self._result(out), p

    def fcheck(self, r: Reader, p: int, d: int) -> int:
        e = self.elem
        n = _final_count(r, p, e.fmin)
        p += 4
        if e.scalar:
            e.check_many(r.buf, p, n)  # type: ignore[attr-defined]
            return p + n * e.fmin
        c = e.fcheck
        for _ in range(n):
            p = c(r, p, d)
        return p

    def dump_json(self, values: Any) -> str:
        d = self.elem.dump_json
        return "[" + ",".join([d(x) for x in self._items(values)]) + "]"

    def load_json(self, j: Any) -> Any:
        if type(j) is not list:
            fail("bad_value", f"{self.name} expects an array")
        if self.elem.fmin == 0:
            _charge_zero_size(len(j))
        load = self.elem.load_json
        return self._result([load(x) for x in j])

    def text(self, values: Any) -> str:
        t = self.elem.text
        items = self._items(values)
        return "[%d]%s" % (len(items), self.open) + ",".join([t(x) for x in items]) + self.close


class MapCodec(Codec):
    """map V<K> and hash V{K}: an offset to [u32 count][count x (slot(K) slot(V))]
    (versioned) or [u32 count][key value ...] (final). Python: dict. A map is written in
    key order (std::map), a hash in the dict's order. Reading keeps the first of
    duplicate keys, as the reference's containers do.

    JSON: an object keyed by the key's text; a map whose key is a struct (JSON has no
    such key) is an array of [key, value] pairs instead, `[]` when empty."""

    def __init__(self, key: Codec, value: Codec, kind: str) -> None:
        self.key, self.value, self.kind = key, value, kind
        self.pairs = isinstance(key, StructCodec)
        self.sorted = kind == "map"
        self.name = (f"{value.name}<{key.name}>" if self.sorted
                     else f"{value.name}{{{key.name}}}")
        self.pair = key.slot + value.slot
        self.open, self.close = ("<", ">") if self.sorted else ("[", "]")

    def default(self) -> dict:
        return {}

    def _items(self, d: Any) -> Any:
        return sorted(d.items(), key=itemgetter(0)) if self.sorted else d.items()

    def vput(self, buf: bytearray, base: int, d: Any) -> int:
        items = self._items(d)
        pos = len(buf)
        buf += _u32(len(items))
        at = len(buf)
        buf += bytes(len(items) * self.pair)
        wk, wv, ks, step = self.key.vwrite, self.value.vwrite, self.key.slot, self.pair
        for k, v in items:
            wk(buf, at, base, k)
            wv(buf, at + ks, base, v)
            at += step
        return pos - base

    def vget(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> dict:
        out: dict = {}
        if not off:
            return out
        pos, n = _vcount(r, base, off, slot_end, self.pair)
        gk, gv, ks, step = self.key.vget_slot, self.value.vget_slot, self.key.slot, self.pair
        for _ in range(n):
            k = gk(r, pos, base, d)
            v = gv(r, pos + ks, base, d)
            if k not in out:
                out[k] = v
            pos += step
        return out

    def vcheck(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> None:
        if not off:
            return
        pos, n = _vcount(r, base, off, slot_end, self.pair)
        if self.key.vtrivial and self.value.vtrivial:
            return
        ck, cv, ks, step = self.key.vcheck_slot, self.value.vcheck_slot, self.key.slot, self.pair
        for _ in range(n):
            ck(r, pos, base, d)
            cv(r, pos + ks, base, d)
            pos += step

    def fput(self, buf: bytearray, d: Any) -> None:
        items = self._items(d)
        buf += _u32(len(items))
        pk, pv = self.key.fput, self.value.fput
        for k, v in items:
            pk(buf, k)
            pv(buf, v)

    def fget(self, r: Reader, p: int, d: int) -> Tuple[dict, int]:
        n = _final_count(r, p, self.key.fmin + self.value.fmin)
        p += 4
        out: dict = {}
        gk, gv = self.key.fget, self.value.fget
        for _ in range(n):
            k, p = gk(r, p, d)
            v, p = gv(r, p, d)
            if k not in out:
                out[k] = v
        return out, p

    def fcheck(self, r: Reader, p: int, d: int) -> int:
        n = _final_count(r, p, self.key.fmin + self.value.fmin)
        p += 4
        ck, cv = self.key.fcheck, self.value.fcheck
        for _ in range(n):
            p = cv(r, ck(r, p, d), d)
        return p

    def dump_json(self, d: Any) -> str:
        if self.pairs:
            k, v = self.key.dump_json, self.value.dump_json
            return "[" + ",".join(["[" + k(a) + "," + v(b) + "]" for a, b in self._items(d)]) + "]"
        k, v = self.key.key_json, self.value.dump_json
        return "{" + ",".join([_json_string(k(a)) + ":" + v(b) for a, b in self._items(d)]) + "}"

    def load_json(self, j: Any) -> dict:
        if self.pairs:
            return self._load_pairs(j)
        if type(j) is not dict and type(j) is not JsonRepeated:
            fail("bad_value", f"{self.name} expects an object")
        k, v = self.key.unkey_json, self.value.load_json
        out: dict = {}
        for a, b in (j.pairs if type(j) is JsonRepeated else j.items()):
            key, value = k(a), v(b)  # a duplicate key's value must be valid too
            if key not in out:
                out[key] = value
        return out

    def _load_pairs(self, j: Any) -> dict:
        if type(j) is not list:
            fail("bad_value", f"{self.name} expects an array of [key, value] pairs")
        k, v = self.key.load_json, self.value.load_json
        if self.key.fmin + self.value.fmin == 0:
            _charge_zero_size(len(j))
        out: dict = {}
        for pair in j:
            if type(pair) is not list or len(pair) != 2:
                fail("bad_value", f"{self.name} expects [key, value] pairs, got {pair!r}")
            key, value = k(pair[0]), v(pair[1])
            if key not in out:
                out[key] = value
        return out

    def text(self, d: Any) -> str:
        k, v = self.key.text, self.value.text
        items = self._items(d)
        return ("[%d]%s" % (len(items), self.open)
                + ",".join(["{" + k(a) + "->" + v(b) + "}" for a, b in items]) + self.close)


class Field:
    """One field of a struct as the generic paths see it."""

    __slots__ = ("name", "codec", "attr", "hidden", "offset", "json_key")

    def __init__(self, name: str, codec: Codec, attr: Optional[str] = None,
                 hidden: bool = False) -> None:
        self.name = name
        self.codec = codec
        self.attr = attr or name
        self.hidden = hidden
        self.offset = 0
        self.json_key = _json_string(name) + ":"


class StructCodec(Codec):
    """A generated struct: the generated functions do the work of both formats; this
    object makes the struct usable inside collections and optionals, and holds the
    field table the generic paths walk (older versions, JSON, printing)."""

    def __init__(self, cls: Any, name: str, type_number: int,
                 base: Optional["StructCodec"] = None) -> None:
        self.cls = cls
        self.name = name
        self.type = type_number
        self.base = base
        _STRUCT_CODECS[cls] = self
        self.fields: Tuple[Field, ...] = ()
        self.own: Tuple[Field, ...] = ()
        self.body = 8

    def define(self, fields: Tuple[Field, ...], body: int, vput: Callable, vget: Callable,
               vcheck: Callable, fput: Optional[Callable] = None,
               fget: Optional[Callable] = None, fcheck: Optional[Callable] = None) -> None:
        """Binds the field table and the generated functions (called once, at import)."""
        at = 8
        for f in fields:
            f.offset = at
            at += f.codec.slot
        if at != body:
            raise AssertionError(f"{self.name}: generated body size {body}, runtime {at}")
        self.fields = fields
        self.own = fields[len(self.base.fields):] if self.base else fields
        self.body = body
        # Instance attributes: called as plain functions, without a bound self.
        self.vput, self.vget, self.vcheck = vput, vget, vcheck
        if fput is not None:
            self.fput, self.fget, self.fcheck = fput, fget, fcheck  # type: ignore[assignment]
        self.fmin = sum(f.codec.fmin for f in fields)
        sizes = [f.codec.fsize for f in fields]
        self.fsize = None if None in sizes else sum(sizes)  # type: ignore[arg-type]

    def default(self) -> Any:
        return self.cls()

    def vwrite(self, buf: bytearray, pos: int, base: int, v: Any) -> None:
        _u32_into(buf, pos, self.vput(buf, base, v))

    # The generated readers' slow path: they handle this version and newer ones in one
    # condition; an older writer's shorter body, or an error, comes here.
    def vget_slow(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> Any:
        pos, stored = venter(r, base, off, slot_end, self.type, d)  # raises the error
        return self.vget_older(r, pos, stored, d)

    def vcheck_slow(self, r: Reader, base: int, off: int, slot_end: int, d: int) -> None:
        pos, stored = venter(r, base, off, slot_end, self.type, d)
        self.vcheck_older(r, pos, stored, d)

    # An older writer's shorter struct: fields beyond its stored size keep their defaults.
    def vget_older(self, r: Reader, pos: int, stored: int, d: int) -> Any:
        obj = self.cls()
        for f in self.fields:
            c = f.codec
            if f.offset + c.slot <= stored:
                setattr(obj, f.attr, c.vget_slot(r, pos + f.offset, pos, d - 1))
        return obj

    def vcheck_older(self, r: Reader, pos: int, stored: int, d: int) -> None:
        for f in self.fields:
            c = f.codec
            if f.offset + c.slot <= stored:
                c.vcheck_slot(r, pos + f.offset, pos, d - 1)

    def dump_json(self, v: Any) -> str:
        try:
            return "{" + ",".join([f.json_key + f.codec.dump_json(getattr(v, f.attr))
                                   for f in self.fields]) + "}"
        except (EncodeError, TypeError, ValueError, AttributeError, OverflowError,
                RecursionError) as err:
            raise explain(self, v, err) from err  # only when a value does not fit: name the field

    def load_json(self, j: Any) -> Any:
        if type(j) is not dict:
            if type(j) is not JsonRepeated:
                fail("bad_value", f"{self.name} expects an object")
            check_repeated(self.fields, j)
        obj = self.cls()
        for f in self.fields:
            if f.name in j:
                setattr(obj, f.attr, f.codec.load_json(j[f.name]))
        return obj

    def from_json(self, text: Any, limits: Optional[Limits] = None) -> Any:
        """A value of this struct from JSON text (str or UTF-8 bytes). Fields that are
        missing keep their defaults; unknown keys are ignored. Hostile text is bounded as
        binary input is (docs/wire-format.md#json): its length by max_message_size, its
        nesting of arrays and objects (unknown keys' too) by max_depth, its elements of
        zero final size by max_zero_size_elements."""
        lim = limits or DEFAULT_LIMITS
        try:
            if isinstance(text, (bytes, bytearray, memoryview)):
                if len(text) > lim.max_message_size:
                    fail("too_large", "JSON text longer than max_message_size")
                text = bytes(text).decode("utf-8")
            if len(text) > lim.max_message_size or (not text.isascii() and len(
                    text.encode("utf-8", "surrogatepass")) > lim.max_message_size):
                fail("too_large", "JSON text longer than max_message_size")
            parsed = json.loads(text, parse_float=Decimal, parse_int=_json_int,
                                parse_constant=_not_json, object_pairs_hook=_json_object)
            if "\\u" in text:
                _no_lone_surrogates(text)
        except (ValueError, TypeError) as err:
            if isinstance(err, DecodeError):
                raise
            fail("invalid_argument", str(err))
        except RecursionError:
            fail("too_deep")
        if _nested_deeper(text, lim.max_depth):
            fail("too_deep", f"arrays and objects nested beyond {lim.max_depth}")
        _json_state.zero_left = lim.max_zero_size_elements
        try:
            return self.load_json(parsed)
        except RecursionError:
            fail("too_deep")

    def text(self, v: Any) -> str:
        parts = [self.base.text(v)] if self.base else []
        for f in self.own:
            if f.hidden:
                parts.append(f.name + "=***")
            else:
                parts.append(f.name + "=" + f.codec.text(getattr(v, f.attr)))
        return self.name + "(" + ",".join(parts) + ")"


_STRUCT_CODECS: Dict[type, StructCodec] = {}  # each generated class's codec
_S = TypeVar("_S", bound="JsonStruct")


class Struct:
    """The base of a generated struct class: printed as C++ prints it, by its codec."""

    __slots__ = ()

    def __repr__(self) -> str:
        return _STRUCT_CODECS[self.__class__].text(self)

    __str__ = __repr__


class JsonStruct(Struct):
    """The base of a generated struct class with JSON (--json)."""

    __slots__ = ()

    def to_json(self) -> str:
        """This value as compact JSON text."""
        return _STRUCT_CODECS[self.__class__].dump_json(self)

    @classmethod
    def from_json(cls: Type[_S], text: Union[str, bytes]) -> _S:
        """A value from JSON text; raises fastwire_runtime.DecodeError."""
        return _STRUCT_CODECS[cls].from_json(text)


# ---- hostile JSON: the bounds every language applies (docs/wire-format.md#json) ----------

_json_state = threading.local()  # zero_left: zero-size elements the read may still take
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


class JsonRepeated(dict):
    """A JSON object with a repeated key: the dict of each key's last value (a struct
    field's), and `pairs`, every member as written (a map keeps each key's first value)."""
    __slots__ = ("pairs",)
    pairs: list


def _json_object(pairs: list) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        d = JsonRepeated(d)
        d.pairs = pairs
    return d


def check_repeated(fields: Any, j: JsonRepeated) -> None:
    """Reads every value of a repeated field, also those a later one overrides: each must
    be valid (docs/wire-format.md#json, "Repeated keys")."""
    by_name = {f.name: f.codec for f in fields}
    for k, x in j.pairs:
        c = by_name.get(k)
        if c is not None:
            c.load_json(x)


# JSON's -0: 0 for an integer field, -0 for a decimal (its exact text) or a double. The
# json module's int() would drop the sign.
_MINUS_ZERO = Decimal("-0")


def _json_int(text: str) -> Any:
    return _MINUS_ZERO if text == "-0" else int(text)


_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.S)


def _no_lone_surrogates(text: str) -> None:
    """A \\u escape of a surrogate must be one of a pair, anywhere in the text (under
    unknown keys too): the json module keeps a lone one, which has no UTF-8 form."""
    high_end = -1  # where the last escape, a high surrogate, ended
    for m in _ESCAPE.finditer(text):
        hexa = m.group(1)
        cp = int(hexa, 16) if hexa else -1
        if high_end >= 0:
            if m.start() == high_end and 0xDC00 <= cp <= 0xDFFF:
                high_end = -1
                continue
            break
        if 0xD800 <= cp <= 0xDBFF:
            high_end = m.end()
        elif 0xDC00 <= cp <= 0xDFFF:
            break
    else:
        if high_end < 0:
            return
    fail("invalid_argument", "a lone surrogate escape (not valid UTF-8)")


def _not_json(word: str) -> Any:
    fail("invalid_argument", f"{word} is not JSON (write the string \"{word}\")")


def _charge_zero_size(n: int) -> None:
    left = getattr(_json_state, "zero_left", DEFAULT_LIMITS.max_zero_size_elements) - n
    if left < 0:
        fail("over_budget", "elements of zero size beyond max_zero_size_elements")
    _json_state.zero_left = left


def _nested_deeper(text: str, limit: int) -> bool:
    """True when valid JSON `text` nests arrays and objects more than `limit` deep. Each
    pass removes the innermost level, so the work is at most limit passes over the text's
    brackets (and none for text with few brackets)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    for _ in range(limit):
        brackets = _INNERMOST.sub("", brackets)
        if not brackets:
            return False
    return True


def optional(inner: Codec) -> OptionalCodec:
    return OptionalCodec(inner)


def array(elem: Codec, n: int) -> ArrayCodec:
    return ArrayCodec(elem, n)


def vector(elem: Codec) -> SequenceCodec:
    return SequenceCodec(elem, "vector")


def list_(elem: Codec) -> SequenceCodec:
    return SequenceCodec(elem, "list")


def set_(elem: Codec) -> SequenceCodec:
    return SequenceCodec(elem, "set")


def map_(key: Codec, value: Codec) -> MapCodec:
    return MapCodec(key, value, "map")


def hash_(key: Codec, value: Codec) -> MapCodec:
    return MapCodec(key, value, "hash")


# ---- why a value could not be serialized ------------------------------------------------
# The generated writers are straight-line code that trusts the value's types; when one of
# them fails (`struct.error`, `AttributeError`, ... from deep inside a pack), the model (or
# StructCodec.dump_json) calls `explain()`, which walks the value along the struct's field
# table and reports the first field whose value its schema type cannot take:
#
#     >>> proto.AccountModel().serialize(proto.Account(uid="one"))
#     EncodeError: cannot serialize Account.uid: expected int32 (an int in
#     -2147483648..2147483647), got str 'one'      # .code 'wrong_type', .path 'Account.uid'
#
# Only the failure pays for this: the serialize fast path is unchanged.

_BYTES_LIKE = (bytes, bytearray, memoryview)


def explain(codec: StructCodec, value: Any, cause: Optional[BaseException] = None) -> EncodeError:
    """The EncodeError for `value`, which a writer of `codec` failed on with `cause`."""
    try:
        found = problem(codec, value, codec.name)
    except RecursionError:
        return EncodeError(f"cannot serialize {codec.name}: the value contains itself or nests "
                           f"too deeply", "too_deep", codec.name, codec.name)
    if found is not None:
        return found
    # Nothing the walk recognises (a custom __index__ that raises, say): say what failed.
    code = cause.code if isinstance(cause, EncodeError) else "invalid_argument"
    what = f"{type(cause).__name__}: {cause}" if cause is not None else "unknown error"
    return EncodeError(f"cannot serialize {codec.name}: {what}", code, "", codec.name)


def _show(v: Any) -> str:
    try:
        text = repr(v)
    except Exception:  # noqa: BLE001 - a value that cannot print itself is shown by its type
        return f"<{type(v).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def _wrong_type(path: str, codec: Codec, v: Any, wanted: str) -> EncodeError:
    return EncodeError(f"cannot serialize {path}: expected {codec.name} ({wanted}), got "
                       f"{type(v).__name__} {_show(v)}", "wrong_type", path, codec.name)


def _out_of_range(path: str, codec: Codec, v: Any, why: str) -> EncodeError:
    return EncodeError(f"cannot serialize {path}: {_show(v)} does not fit {codec.name} ({why})",
                       "out_of_range", path, codec.name)


def problem(codec: Codec, v: Any, path: str) -> Optional[EncodeError]:
    """The first part of `v` that `codec` cannot write, or None when all of it fits."""
    own = getattr(codec, "problem", None)  # a codec that checks its values itself (dynamic)
    if own is not None:
        return own(v, path)
    if isinstance(codec, StructCodec):
        if not isinstance(v, codec.cls):
            return _wrong_type(path, codec, v, f"a {codec.cls.__module__}.{codec.cls.__name__}")
        for f in codec.fields:
            try:
                x = getattr(v, f.attr)
            except AttributeError:
                return EncodeError(f"cannot serialize {path}.{f.attr}: the field has no value",
                                   "wrong_type", f"{path}.{f.attr}", f.codec.name)
            found = problem(f.codec, x, f"{path}.{f.attr}")
            if found is not None:
                return found
        return None
    if isinstance(codec, OptionalCodec):
        return None if v is None else problem(codec.inner, v, path)
    if isinstance(codec, ArrayCodec):
        if isinstance(v, (str, dict, set, frozenset) + _BYTES_LIKE) or not hasattr(v, "__len__"):
            return _wrong_type(path, codec, v, f"a list of {codec.n}")
        if len(v) != codec.n:
            return EncodeError(f"cannot serialize {path}: {codec.name} needs exactly {codec.n} "
                               f"elements, got {len(v)}", "wrong_length", path, codec.name)
        return _elements(codec.elem, v, path)
    if isinstance(codec, SequenceCodec):
        wanted = "a set" if codec.is_set else "a list"
        if isinstance(v, (str, dict) + _BYTES_LIKE) or not hasattr(v, "__len__"):
            return _wrong_type(path, codec, v, wanted)
        found = _elements(codec.elem, v, path)
        if found is None and codec.is_set:
            try:
                sorted(v)
            except TypeError as err:
                return EncodeError(f"cannot serialize {path}: the elements of a set are written "
                                   f"in order and these cannot be ordered ({err})",
                                   "wrong_type", path, codec.name)
        return found
    if isinstance(codec, MapCodec):
        if not hasattr(v, "items"):
            return _wrong_type(path, codec, v, "a dict")
        for k, x in v.items():
            found = problem(codec.key, k, f"{path}[{_show(k)}] (key)")
            if found is None:
                found = problem(codec.value, x, f"{path}[{_show(k)}]")
            if found is not None:
                return found
        if codec.sorted:
            try:
                sorted(v.keys())
            except TypeError as err:
                return EncodeError(f"cannot serialize {path}: a map is written in key order and "
                                   f"these keys cannot be ordered ({err})", "wrong_type", path,
                                   codec.name)
        return None
    return _scalar(codec, v, path)


def _elements(elem: Codec, values: Any, path: str) -> Optional[EncodeError]:
    for i, x in enumerate(values):
        found = problem(elem, x, f"{path}[{i}]")
        if found is not None:
            return found
    return None


def _scalar(codec: Codec, v: Any, path: str) -> Optional[EncodeError]:
    if isinstance(codec, Bool):
        return None  # any value has a truth value
    if isinstance(codec, Int):  # integers, char, wchar, timestamp, enums, flags
        if isinstance(codec, EnumCodec):
            wanted = f"a {codec.cls.__name__} or an int in {codec.lo}..{codec.hi}"
        else:
            wanted = f"an int in {codec.lo}..{codec.hi}"
        try:
            n = _index(v)
        except TypeError:
            return _wrong_type(path, codec, v, wanted)
        if not codec.lo <= n <= codec.hi:
            return _out_of_range(path, codec, v, f"{codec.lo}..{codec.hi}")
        return None
    if isinstance(codec, Float):
        kind = type(v)
        if not (hasattr(kind, "__float__") or hasattr(kind, "__index__")):  # as struct takes
            return _wrong_type(path, codec, v, "a float or an int")
        try:
            x = float(v)
        except (TypeError, ValueError, OverflowError):
            return _out_of_range(path, codec, v, "not a float")
        if codec.single:
            try:
                _F32.pack(x)
            except OverflowError:
                return _out_of_range(path, codec, v, "beyond float's range, ±3.4e38")
        return None
    if isinstance(codec, DecimalCodec):
        try:
            decimal_bytes(v)
        except EncodeError as err:
            if err.code == "wrong_type":
                return _wrong_type(path, codec, v, "a decimal.Decimal or an int")
            return _out_of_range(path, codec, v, str(err).replace(f"decimal {v} ", ""))
        return None
    if isinstance(codec, UuidCodec):
        return None if isinstance(v, UUID) else _wrong_type(path, codec, v, "a uuid.UUID")
    if isinstance(codec, StringCodec):
        return None if isinstance(v, str) else _wrong_type(path, codec, v, "a str")
    if isinstance(codec, BytesCodec):
        return None if isinstance(v, _BYTES_LIKE) else _wrong_type(path, codec, v, "bytes, bytearray or memoryview")
    return None
