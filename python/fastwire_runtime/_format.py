"""Text forms shared by the codecs: JSON numbers and the C++-style printout.

JSON doubles follow RapidJSON's Writer (what the FBE reference writes), with Python's
shortest round-trip digits: a whole number keeps `.0` (`1000.0`), numbers from 1e-6 up
to 1e21 are written positionally (`0.00001`, `10000000000000000.0`), the rest with an
exponent without `+` (`1e22`, `-1.23456e125`). fastwire's correction: NaN and the
infinities, which break the reference's JSON, are the strings "NaN", "Infinity" and
"-Infinity".

The printout (`str()` / `repr()` of generated values) follows the C++ runtime's
operator<< (cpp/include/fastwire/print.h), e.g. doubles as `%g` prints them (`1000`,
`1.23456`).
"""

from __future__ import annotations

import math
from decimal import Decimal

_INF = float("inf")


def json_double(x: float) -> str:
    """A double as RapidJSON writes it (shortest digits), NaN/Infinity as strings."""
    if x != x:
        return '"NaN"'
    if x == _INF:
        return '"Infinity"'
    if x == -_INF:
        return '"-Infinity"'
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    text = repr(float(x))
    sign = ""
    if text[0] == "-":
        sign, text = "-", text[1:]
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    k = (int(exponent) if exponent else 0) - len(fraction)  # value = digits * 10^k
    stripped = digits.rstrip("0")
    k += len(digits) - len(stripped)
    digits = stripped
    length = len(digits)
    kk = length + k  # 10^(kk-1) <= value < 10^kk
    if 0 <= k and kk <= 21:
        out = digits + "0" * k + ".0"
    elif 0 < kk <= 21:
        out = digits[:kk] + "." + digits[kk:]
    elif -6 < kk <= 0:
        out = "0." + "0" * -kk + digits
    elif length == 1:
        out = digits + "e" + str(kk - 1)
    else:
        out = digits[0] + "." + digits[1:] + "e" + str(kk - 1)
    return sign + out


def text_double(x: float) -> str:
    """A double as C++ `std::ostream << double` prints it (printf %g)."""
    return "%g" % x


def text_decimal(d: Decimal) -> str:
    """Exact positional text, keeping the scale: 1.50 prints as 1.50."""
    return format(d, "f")


def text_char(c: int) -> str:
    return "'" + chr(c) + "'"


def text_wchar(c: int) -> str:
    if 0x20 <= c < 0x7F:
        return "'" + chr(c) + "'"
    return "'U+%X'" % c
