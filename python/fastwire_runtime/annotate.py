"""Byte by byte: what each byte of an FBE message is, from the schema alone.

`annotate()` walks one root model the way verify() does — the same checks, in the same
order, through the same runtime functions, charging the same budget — and records every
slot, header and heap block it visits: its offset, its size, the field path and the
value. Bytes no walk reaches are reported as unreachable, bytes reached twice as read
again. When the walk fails, the DecodeError it raises carries `offset` and `path`: where
the walk was and what it was reading (`locate()` gives just that for a failed verify).

    from fastwire_runtime import dynamic, annotate
    schema = dynamic.Schema.load("proto.ir.json")
    for line in annotate.annotate(schema.struct("proto.Account"), data).lines():
        print(line)

This is `fastwire explain` (docs/tools.md); the dynamic codec (fastwire_runtime.dynamic)
gives the struct.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

from .errors import DecodeError, fail
from .limits import DEFAULT_LIMITS, Limits
from .wire import (
    ArrayCodec,
    BytesCodec,
    Codec,
    MapCodec,
    OptionalCodec,
    Reader,
    Scalar,
    SequenceCodec,
    StringCodec,
    StructCodec,
    _final_count,
    _json_string,
    _vblock,
    _vcount,
    venter,
)

_U32 = struct.Struct("<I")
_BI = struct.Struct("<BI")
_SHOW = 12  # bytes shown of a block before "…"


@dataclass
class Entry:
    """One thing the walk read: `size` bytes at `offset` (0 for a marker), shown as
    `groups` (sizes of the hex groups), with its field path and what it means."""

    offset: int
    size: int
    path: str
    note: str
    groups: Tuple[int, ...] = ()
    flag: str = ""  # "unreachable", "read again", "skipped": a problem or an oddity


@dataclass
class Annotation:
    data: bytes  # the model's bytes
    final: bool
    entries: List[Entry] = field(default_factory=list)
    error: Optional[DecodeError] = None  # why the walk stopped, if it did

    def lines(self, width: int = 34, start: int = 0) -> List[str]:
        """The annotated dump: one line per entry, in offset order, with the unreachable
        and twice-read bytes flagged; offsets from the model's start, plus `start`."""
        digits = max(2, len(f"{max(start + len(self.data) - 1, 0):x}"))
        out = []
        for e in _with_gaps(self.entries, len(self.data), self.error is not None):
            shown = _hex(self.data, e)
            text = f"{start + e.offset:0{digits}x}  {shown:<{width}}"
            if len(shown) >= width:
                text += " "
            sep = " " if e.note[:1] in ("=", "-") else ": "
            note = f"{e.path}{sep if e.path and e.note else ''}{e.note}"
            if e.flag:
                note = f"!! {e.flag}: {note}" if note else f"!! {e.flag}"
            out.append((text + note).rstrip())
        if self.error is not None:
            where, path = getattr(self.error, "offset", None), getattr(self.error, "path", "")
            out.append(f"!! error at {'?' if where is None else f'{start + where:0{digits}x}'}"
                       f"{' (' + path + ')' if path else ''}: {self.error}")
        return out


def _hex(data: bytes, e: Entry) -> str:
    if not e.size:
        return ""
    groups = list(e.groups) or [e.size]
    parts, at, shown = [], e.offset, 0
    for g in groups:
        if shown >= _SHOW:
            parts.append("…")
            break
        take = min(g, _SHOW - shown)
        chunk = data[at:at + take].hex()
        parts.append(chunk + ("…" if take < g else ""))
        at += g
        shown += take
    return " ".join(parts)


def _with_gaps(entries: List[Entry], end: int, stopped: bool) -> List[Entry]:
    """The entries in offset order, a flagged entry for each run of bytes none covers
    (`unreachable`; `not read` when the walk stopped at an error), and `read again` on an
    entry whose bytes an earlier one already covered."""
    seen = bytearray(end)
    for e in entries:  # in walk order: the second visit is the one flagged
        lo, hi = max(e.offset, 0), min(e.offset + e.size, end)
        if lo < hi:
            if not e.flag and seen.find(1, lo, hi) >= 0:
                e.flag = "read again"
            seen[lo:hi] = b"\1" * (hi - lo)
    out: List[Entry] = []
    at = 0
    while True:
        lo = seen.find(0, at)
        if lo < 0:
            break
        hi = seen.find(1, lo)
        hi = end if hi < 0 else hi
        out.append(Entry(lo, hi - lo, "", f"{hi - lo} byte{'s' if hi - lo != 1 else ''}",
                         flag="not read" if stopped else "unreachable"))
        at = hi
    out.extend(entries)
    out.sort(key=lambda e: e.offset)  # stable: gaps first, then the walk's order
    return out


class _Walk:
    def __init__(self, r: Reader, final: bool) -> None:
        self.r = r
        self.final = final
        self.entries: List[Entry] = []
        self.at: Tuple[int, str] = (0, "")

    def emit(self, offset: int, size: int, path: str, note: str,
             groups: Tuple[int, ...] = ()) -> None:
        self.entries.append(Entry(offset, size, path, note, groups))

    def u32(self, pos: int) -> int:
        if pos + 4 > self.r.end:
            fail("truncated")
        return int(_U32.unpack_from(self.r.buf, pos)[0])

    # -- versioned ---------------------------------------------------------------------------
    def vstruct(self, codec: StructCodec, base: int, off: int, slot_end: int, d: int,
                path: str) -> None:
        pos, stored = venter(self.r, base, off, slot_end, codec.type, d)
        self.emit(pos, 8, path, f"{codec.name} body, {stored} bytes, type {codec.type}, "
                  f"base {pos}", (4, 4))
        for f in codec.fields:
            c = f.codec
            if f.offset + c.slot <= stored:
                self.vslot(c, pos + f.offset, pos, d - 1, _join(path, f.name))
        if stored > codec.body:
            e = Entry(pos + codec.body, stored - codec.body, path,
                      "slots of a newer version's fields, not read", flag="skipped")
            self.entries.append(e)
        elif stored < codec.body:
            missing = [f.name for f in codec.fields if f.offset + f.codec.slot > stored]
            self.emit(pos + stored, 0, path, "older version: " + ", ".join(missing)
                      + " not written (defaults)")

    def vslot(self, c: Codec, at: int, base: int, d: int, path: str) -> None:
        r = self.r
        self.at = (at, path)
        if isinstance(c, Scalar):
            if at + c.slot > r.end:
                fail("truncated")
            value = c.vget_slot(r, at, base, d)  # raises on a decimal scale above 28
            self.emit(at, c.slot, path, "= " + _value(c, value))
            return
        if isinstance(c, ArrayCodec):
            e = c.elem
            for i in range(c.n):
                self.vslot(e, at + i * e.slot, base, d, f"{path}[{i}]")
            return
        if isinstance(c, OptionalCodec):
            flag, off = _BI.unpack_from(r.buf, at)
            if not flag:
                self.emit(at, 5, path, "null" if not off else f"null (offset {off} ignored)",
                          (1, 4))
                return
            self.emit(at, 5, path, f"set, value block at {base}+{off} = {base + off}", (1, 4))
            pos = c._find(r, base, off, at + 5)
            self.vslot(c.inner, pos, pos, d, path)
            return
        off = self.u32(at)
        if isinstance(c, (StringCodec, BytesCodec)):
            if not off:
                self.emit(at, 4, path, "= empty (offset 0)")
                return
            self.emit(at, 4, path, f"-> {base}+{off} = {base + off}")
            pos, n = _vblock(r, base, off, at + 4)
            raw = r.buf[pos:pos + n]
            shown = (_json_string(raw.decode("utf-8", "surrogateescape"))
                     if isinstance(c, StringCodec) else f"bytes[{n}]")
            self.emit(pos - 4, 4 + n, path, "= " + shown, (4, n) if n else (4,))
            return
        if isinstance(c, StructCodec):
            self.emit(at, 4, path, f"-> {base}+{off} = {base + off}")
            self.vstruct(c, base, off, at + 4, d, path)
            return
        if isinstance(c, (SequenceCodec, MapCodec)):
            if not off:
                self.emit(at, 4, path, "= empty (offset 0)")
                return
            self.emit(at, 4, path, f"-> {base}+{off} = {base + off}")
            step = c.elem.slot if isinstance(c, SequenceCodec) else c.pair
            pos, n = _vcount(r, base, off, at + 4, step)
            self.emit(pos - 4, 4, path, f"{n} element{'s' if n != 1 else ''}")
            for i in range(n):
                p = pos + i * step
                if isinstance(c, SequenceCodec):
                    self.vslot(c.elem, p, base, d, f"{path}[{i}]")
                else:
                    self.vslot(c.key, p, base, d, f"{path}[{i}].key")
                    self.vslot(c.value, p + c.key.slot, base, d, f"{path}[{i}].value")
            return
        raise AssertionError(f"unknown codec {c!r}")

    # -- final -------------------------------------------------------------------------------
    def fstruct(self, codec: StructCodec, p: int, d: int, path: str) -> int:
        self.at = (p, path)
        if d < 1:
            fail("too_deep")
        self.emit(p, 0, path, f"{codec.name} fields")
        for f in codec.fields:
            p = self.fvalue(f.codec, p, d - 1, _join(path, f.name))
        return p

    def fvalue(self, c: Codec, p: int, d: int, path: str) -> int:
        r = self.r
        self.at = (p, path)
        if isinstance(c, StructCodec):
            return self.fstruct(c, p, d, path)
        if isinstance(c, Scalar):
            if p + c.fsize > r.end:
                fail("truncated")
            value, q = c.fget(r, p, d)
            self.emit(p, c.fsize, path, "= " + _value(c, value))
            return q
        if isinstance(c, (StringCodec, BytesCodec)):
            n = self.u32(p)
            if p + 4 + n > r.end:
                fail("truncated")
            value, q = c.fget(r, p, d)
            shown = _json_string(str(value)) if isinstance(c, StringCodec) else f"bytes[{n}]"
            self.emit(p, 4 + n, path, "= " + shown, (4, n) if n else (4,))
            return q
        if isinstance(c, OptionalCodec):
            if p >= r.end:
                fail("truncated")
            if not r.buf[p]:
                self.emit(p, 1, path, "null")
                return p + 1
            self.emit(p, 1, path, "set")
            return self.fvalue(c.inner, p + 1, d, path)
        if isinstance(c, ArrayCodec):
            for i in range(c.n):
                p = self.fvalue(c.elem, p, d, f"{path}[{i}]")
            return p
        if isinstance(c, SequenceCodec):
            self.u32(p)
            n = _final_count(r, p, c.elem.fmin)
            self.emit(p, 4, path, f"{n} element{'s' if n != 1 else ''}")
            p += 4
            for i in range(n):
                p = self.fvalue(c.elem, p, d, f"{path}[{i}]")
            return p
        if isinstance(c, MapCodec):
            self.u32(p)
            n = _final_count(r, p, c.key.fmin + c.value.fmin)
            self.emit(p, 4, path, f"{n} element{'s' if n != 1 else ''}")
            p += 4
            for i in range(n):
                p = self.fvalue(c.key, p, d, f"{path}[{i}].key")
                p = self.fvalue(c.value, p, d, f"{path}[{i}].value")
            return p
        raise AssertionError(f"unknown codec {c!r}")


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _value(c: Codec, v: Any) -> str:
    text = str(c.dump_json(v))
    named = c.text(v) if hasattr(c, "names") else ""
    return f"{text} ({named})" if named and named != text and named != "<unknown>" else text


def annotate(codec: StructCodec, data: Any, final: bool = False,
             limits: Optional[Limits] = None) -> Annotation:
    """The annotated walk of the root model at the start of `data` (bytes of one model;
    more bytes after it are reported as not part of it). Never raises DecodeError: a walk
    that fails stops there, with `error` set (carrying `offset` and `path`)."""
    data = bytes(data)
    lim = limits or DEFAULT_LIMITS
    ann = Annotation(data, final)
    walk = _Walk(Reader(data, 0, lim.max_zero_size_elements), final)
    try:
        _walk_model(walk, codec, data, final, lim)
    except (DecodeError, struct.error, RecursionError) as err:
        if isinstance(err, DecodeError):
            error = err
        elif isinstance(err, RecursionError):
            error = DecodeError("too_deep")
        else:
            error = DecodeError("truncated")
        error.offset, error.path = walk.at  # type: ignore[attr-defined]
        ann.error = error
    ann.entries = walk.entries
    return ann


def _walk_model(walk: _Walk, codec: StructCodec, data: bytes, final: bool, lim: Limits) -> None:
    name = codec.name
    walk.at = (0, name)
    if len(data) < 8:
        fail("truncated")
    size, second = struct.unpack_from("<II", data, 0)
    if size > lim.max_message_size:
        fail("too_large", f"{size} bytes")
    if size > len(data):
        fail("truncated", f"the model's size is {size} bytes, {len(data)} given")
    if final:
        if size < 8:
            fail("bad_size")
        walk.emit(0, 8, "", f"model: {size} bytes, type {second}", (4, 4))
        if second != codec.type:
            fail("bad_type", f"{second} where {codec.type} was expected")
        r = walk.r
        r.buf, r.end = data[:size], size
        p = walk.fstruct(codec, 8, lim.max_depth, name)
        walk.at = (p, name)
        if p != size:
            fail("truncated" if p > size else "bad_size",
                 f"the fields end at {p}, the model at {size}")
    else:
        if size < 16:
            fail("bad_size")
        walk.emit(0, 8, "", f"model: {size} bytes, root body at {second}", (4, 4))
        r = walk.r
        r.buf, r.end, r.budget = data[:size], size, size - 8
        walk.at = (4, name)
        walk.vstruct(codec, 0, second, 8, lim.max_depth, name)
    if size < len(data):
        walk.entries.append(Entry(size, len(data) - size, "", "after the model", flag="not read"))


def locate(codec: StructCodec, data: Any, final: bool = False,
           limits: Optional[Limits] = None) -> Tuple[Optional[int], str, Optional[DecodeError]]:
    """(offset, field path, error) where verifying the model fails, or (None, "", None)."""
    ann = annotate(codec, data, final, limits)
    if ann.error is None:
        return None, "", None
    return getattr(ann.error, "offset", None), getattr(ann.error, "path", ""), ann.error
