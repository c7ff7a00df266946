"""The errors the runtime raises. Malformed input never raises anything else.

    try:
        account = proto.AccountModel().deserialize(data)
    except fastwire_runtime.DecodeError as err:
        print("rejected:", err.code, err)        # e.g. "truncated"

`DecodeError.code` names what was wrong, with the names of the C++ runtime's `errc`
(cpp/include/fastwire/status.h), so both languages report the same reason.
"""

from __future__ import annotations

from typing import NoReturn

# code -> message; the same codes and wording as fastwire's C++ `errc`.
CODES = {
    "truncated": "a size, offset or count reaches past the end",
    "bad_offset": "an offset is zero where a value is required, or points backwards",
    "bad_size": "a struct or model size is smaller than its header, or does not match",
    "bad_type": "unexpected struct type number",
    "bad_value": "a value outside its domain",
    "too_deep": "structs nested beyond Limits.max_depth",
    "too_large": "message or element count exceeds its limit",
    "over_budget": "blocks shared or reached repeatedly",
    "invalid_argument": "malformed text",
    "out_of_range": "value does not fit its type",
}


class FastwireError(ValueError):
    """Base class of the runtime's errors (a ValueError)."""


class DecodeError(FastwireError):
    """Bytes or JSON text that do not hold a valid value of the expected type.

    `code` is one of CODES; `detail` optionally says more.
    """

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        self.detail = detail
        text = CODES.get(code, code)
        super().__init__(f"{code}: {text}" + (f" ({detail})" if detail else ""))


# EncodeError.code -> what it means.
ENCODE_CODES = {
    "wrong_type": "a value of a Python type the field's schema type cannot take",
    "out_of_range": "a value that does not fit its schema type",
    "wrong_length": "an array with another number of elements than the schema's",
    "too_deep": "a value that contains itself, or nests beyond Python's recursion limit",
    "invalid_argument": "a value that cannot be serialized for another reason",
}


class EncodeError(FastwireError):
    """A value that cannot be serialized: a wrong type, a number out of range, an array
    of the wrong length, a decimal with more than 96 bits or a scale above 28.

    `code` is one of ENCODE_CODES; `path` names the field from the root struct
    (`Account.orders[2].price`, empty when unknown); `expected` is the field's schema
    type (`double`, `Balance?`, `Order[]`).

        try:
            proto.AccountModel().serialize(account)
        except fastwire_runtime.EncodeError as err:
            print(err.code, err.path, err.expected)   # wrong_type Account.uid int32
    """

    def __init__(self, message: str, code: str = "invalid_argument", path: str = "",
                 expected: str = "") -> None:
        self.code = code
        self.path = path
        self.expected = expected
        super().__init__(message)


def fail(code: str, detail: str = "") -> NoReturn:
    raise DecodeError(code, detail)
