"""Models: one root struct as a self-contained message, in either binary format.

    model = proto.AccountModel()              # versioned; proto.AccountFinalModel(): final
    data = model.serialize(account)           # bytes (252 for the seed account)
    model.verify(data)                        # True / False
    model.validate(data)                      # 252, or raises DecodeError(code)
    account = model.deserialize(data)         # checked: raises DecodeError on bad input

Versioned layout (spec §2.4): [u32 full_size][u32 8][struct body][heap]. Final (§3):
[u32 size][u32 type][fields]. Several models may follow each other in one buffer: pass
`offset` and step by the size that `validate` returns (or `size(data, offset)`).

deserialize() makes every check verify() makes, as it reads; it never needs a prior
verify(). Once verify() accepts a buffer, deserialize() of it succeeds. Neither raises
anything but DecodeError, and both stop at the limits (`Limits`): nesting depth,
message size, counts that do not fit the bytes left, blocks reached twice.
"""

from __future__ import annotations

import struct
from typing import Any, ClassVar, Optional, Tuple

from .errors import DecodeError, EncodeError, fail
from .limits import DEFAULT_LIMITS, Limits
from .wire import Reader, StructCodec, explain

_U32 = struct.Struct("<I")
_II = struct.Struct("<II")
_u32_from = _U32.unpack_from
_ii_into = _II.pack_into
_ii_from = _II.unpack_from
_HEAD = bytes(8)
_new = object.__new__
_MAX_MESSAGE = 0xFFFFFFFF

# What user values that do not fit the schema raise inside the writers (EncodeError
# included: the runtime's own checks, which do not know the field's path).
_ENCODE_ERRORS = (EncodeError, struct.error, TypeError, ValueError, AttributeError,
                  OverflowError, KeyError, IndexError, RecursionError)


def _message(buf: Any, offset: int, full: int) -> bytes:
    """Exactly the model's bytes, as `bytes` (copied only when it is not already so)."""
    if offset == 0 and type(buf) is bytes and len(buf) == full:
        return buf
    return bytes(buf[offset:offset + full])


class _ModelBase:
    __slots__ = ("limits",)

    codec: ClassVar[StructCodec]

    def __init__(self, limits: Optional[Limits] = None) -> None:
        self.limits = limits or DEFAULT_LIMITS

    @property
    def type(self) -> int:
        """The root struct's type number."""
        return self.codec.type

    def deserialize(self, buf: Any, offset: int = 0) -> Any:
        raise NotImplementedError  # Model and FinalModel, each for its format

    def size(self, buf: Any, offset: int = 0) -> int:
        """The size the model at `offset` declares (0 when fewer than 4 bytes remain)."""
        return _u32_from(buf, offset)[0] if len(buf) - offset >= 4 else 0

    def verify(self, buf: Any, offset: int = 0) -> bool:
        """True when the model at `offset` is valid: deserialize() will succeed."""
        try:
            self.validate(buf, offset)
        except DecodeError:
            return False
        return True

    def serialize(self, value: Any) -> bytes:
        buf = bytearray()
        self.serialize_into(buf, value)
        return bytes(buf)

    def serialize_into(self, buf: bytearray, value: Any) -> int:  # pragma: no cover
        raise NotImplementedError

    def validate(self, buf: Any, offset: int = 0) -> int:  # pragma: no cover
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.limits!r})"


class Model(_ModelBase):
    """A root struct in the versioned format (the default format)."""

    __slots__ = ()

    def serialize(self, value: Any) -> bytes:
        """The value as one versioned root model."""
        buf = bytearray(_HEAD)
        try:
            off = self.codec.vput(buf, 0, value)
            _ii_into(buf, 0, len(buf), off)
        except _ENCODE_ERRORS as err:
            raise explain(self.codec, value, err) from err
        return bytes(buf)

    def serialize_into(self, buf: bytearray, value: Any) -> int:
        """Appends the value as a root model to `buf`; returns its size."""
        start = len(buf)
        buf += _HEAD
        try:
            off = self.codec.vput(buf, start, value)
            _ii_into(buf, start, len(buf) - start, off)
        except _ENCODE_ERRORS as err:
            del buf[start:]
            raise explain(self.codec, value, err) from err
        return len(buf) - start

    def _root(self, buf: Any, offset: int) -> Tuple[Reader, int]:
        """A reader of the model at `offset`, and the offset of its root struct."""
        limits = self.limits
        if not offset and type(buf) is bytes:  # the usual case: exactly one message
            try:
                full, root = _ii_from(buf, 0)
            except struct.error:
                fail("truncated")
            if 16 <= full == len(buf) <= limits.max_message_size:
                r = _new(Reader)  # as Reader(), without calling __init__
                r.buf = buf
                r.end = full
                r.budget = full - 8
                r.zcap = limits.max_zero_size_elements
                return r, root
        avail = len(buf) - offset
        if offset < 0 or avail < 8:
            fail("truncated")
        full = _u32_from(buf, offset)[0]
        if full > limits.max_message_size:
            fail("too_large", f"{full} bytes")
        if full > avail:
            fail("truncated")
        if full < 16:
            fail("bad_size")
        buf = bytes(buf[offset:offset + full])  # exactly the message, immutable
        return Reader(buf, full - 8, limits.max_zero_size_elements), _u32_from(buf, 4)[0]

    def validate(self, buf: Any, offset: int = 0) -> int:
        """Checks the model at `offset`; returns its size or raises DecodeError."""
        r, root = self._root(buf, offset)
        try:
            self.codec.vcheck(r, 0, root, 8, self.limits.max_depth)
        except struct.error:
            fail("truncated")
        except RecursionError:
            fail("too_deep")
        return r.end

    def deserialize(self, buf: Any, offset: int = 0) -> Any:
        """Reads the model at `offset`. Raises DecodeError on malformed input."""
        limits = self.limits
        r = None
        if not offset and type(buf) is bytes and len(buf) >= 16:  # _root's usual case, inline
            full, root = _ii_from(buf, 0)
            if 16 <= full == len(buf) <= limits.max_message_size:
                r = _new(Reader)
                r.buf = buf
                r.end = full
                r.budget = full - 8
                r.zcap = limits.max_zero_size_elements
        if r is None:
            r, root = self._root(buf, offset)
        try:
            return self.codec.vget(r, 0, root, 8, self.limits.max_depth)
        except struct.error:
            fail("truncated")
        except RecursionError:
            fail("too_deep")

    def deserialize_sized(self, buf: Any, offset: int = 0) -> Tuple[Any, int]:
        """(value, model size): for reading models that follow each other."""
        return self.deserialize(buf, offset), _u32_from(buf, offset)[0]


class FinalModel(_ModelBase):
    """A root struct in the final (compact) format."""

    __slots__ = ()

    def serialize(self, value: Any) -> bytes:
        buf = bytearray(_HEAD)
        try:
            self.codec.fput(buf, value)
            _ii_into(buf, 0, len(buf), self.codec.type)
        except _ENCODE_ERRORS as err:
            raise explain(self.codec, value, err) from err
        return bytes(buf)

    def serialize_into(self, buf: bytearray, value: Any) -> int:
        start = len(buf)
        buf += _HEAD
        try:
            self.codec.fput(buf, value)
            _ii_into(buf, start, len(buf) - start, self.codec.type)
        except _ENCODE_ERRORS as err:
            del buf[start:]
            raise explain(self.codec, value, err) from err
        return len(buf) - start

    def _root(self, buf: Any, offset: int) -> Reader:
        """A reader of exactly the model at `offset`, its header checked."""
        limits = self.limits
        if not offset and type(buf) is bytes:  # the usual case: exactly one message
            try:
                size, found = _ii_from(buf, 0)
            except struct.error:
                fail("truncated")
            if 8 <= size == len(buf) <= limits.max_message_size and found == self.codec.type:
                r = _new(Reader)  # as Reader(), without calling __init__
                r.buf = buf
                r.end = size
                r.budget = 0
                r.zcap = limits.max_zero_size_elements
                return r
        avail = len(buf) - offset
        if offset < 0 or avail < 8:
            fail("truncated")
        size = _u32_from(buf, offset)[0]
        if size > limits.max_message_size:
            fail("too_large", f"{size} bytes")
        if size > avail:
            fail("truncated")
        if size < 8:
            fail("bad_size")
        found = _u32_from(buf, offset + 4)[0]
        if found != self.codec.type:
            fail("bad_type", f"{found} where {self.codec.type} was expected")
        return Reader(_message(buf, offset, size), 0, limits.max_zero_size_elements)

    def validate(self, buf: Any, offset: int = 0) -> int:
        r = self._root(buf, offset)
        try:
            p = self.codec.fcheck(r, 8, self.limits.max_depth)
        except struct.error:
            fail("truncated")
        except RecursionError:
            fail("too_deep")
        if p != r.end:  # the fields must fill the model exactly
            fail("truncated" if p > r.end else "bad_size")
        return p

    def deserialize(self, buf: Any, offset: int = 0) -> Any:
        limits = self.limits
        r = None
        if not offset and type(buf) is bytes and len(buf) >= 8:  # _root's usual case, inline
            size, found = _ii_from(buf, 0)
            if 8 <= size == len(buf) <= limits.max_message_size and found == self.codec.type:
                r = _new(Reader)
                r.buf = buf
                r.end = size
                r.budget = 0
                r.zcap = limits.max_zero_size_elements
        if r is None:
            r = self._root(buf, offset)
        try:
            value, p = self.codec.fget(r, 8, self.limits.max_depth)
        except struct.error:
            fail("truncated")
        except RecursionError:
            fail("too_deep")
        if p != r.end:  # the fields must fill the model exactly
            fail("truncated" if p > r.end else "bad_size")
        return value

    def deserialize_sized(self, buf: Any, offset: int = 0) -> Tuple[Any, int]:
        return self.deserialize(buf, offset), _u32_from(buf, offset)[0]
