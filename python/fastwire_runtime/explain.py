"""Why a value could not be serialized: the field, the schema type, a code.

The generated writers are straight-line code that trusts the value's types; when one of
them fails (`struct.error`, `AttributeError`, … from deep inside a pack), the model calls
`explain()`, which walks the value along the struct's field table (the `Field` list every
generated struct already gives the runtime) and reports the first field whose value its
schema type cannot take:

    >>> proto.AccountModel().serialize(proto.Account(uid="one"))
    EncodeError: cannot serialize Account.uid: expected int32 (an int in
    -2147483648..2147483647), got str 'one'          # .code 'wrong_type', .path 'Account.uid'

Only the failure pays for this: the serialize fast path is unchanged.
"""

from __future__ import annotations

import operator
import struct
from typing import Any, Optional

from .errors import EncodeError
from .wire import (
    ArrayCodec,
    Bool,
    BytesCodec,
    Codec,
    DecimalCodec,
    EnumCodec,
    Float,
    Int,
    MapCodec,
    OptionalCodec,
    SequenceCodec,
    StringCodec,
    StructCodec,
    UuidCodec,
    decimal_bytes,
)

_F32 = struct.Struct("<f")
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
            n = operator.index(v)
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
        import uuid
        return None if isinstance(v, uuid.UUID) else _wrong_type(path, codec, v, "a uuid.UUID")
    if isinstance(codec, StringCodec):
        return None if isinstance(v, str) else _wrong_type(path, codec, v, "a str")
    if isinstance(codec, BytesCodec):
        return None if isinstance(v, _BYTES_LIKE) else _wrong_type(path, codec, v, "bytes, bytearray or memoryview")
    return None
