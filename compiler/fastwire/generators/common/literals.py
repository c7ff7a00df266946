"""Literal formatting shared by languages with C-like string literals."""

from __future__ import annotations


def c_string(text: str) -> str:
    """A double-quoted literal of `text`'s UTF-8 bytes: printable ASCII as is, `\\` and `"`
    escaped, every other byte as a three-digit octal escape (which, unlike `\\x`, a
    following digit cannot extend). Valid in C, C++, and as bytes in many others."""
    out = []
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def float_text(value: float) -> str:
    """The shortest text that reads back to `value`, always with a point or an exponent."""
    text = repr(float(value))
    if "e" not in text and "." not in text and "inf" not in text and "nan" not in text:
        text += ".0"
    return text
