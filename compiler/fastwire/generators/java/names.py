"""Java's names and string literals."""

from __future__ import annotations

from ... import lower, plan
from ..common import naming

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def jstring(text: str) -> str:
    """A Java string literal: printable text as is, escapes for the rest (octal for control
    characters, never a backslash-u, which javac would expand before lexing)."""
    return '"' + "".join(_ESCAPES.get(ch) or ("\\%03o" % ord(ch) if ord(ch) < 0x20 or ord(ch) == 0x7F
                                              else ch) for ch in text) + '"'


def ident(name: str) -> str:
    return naming.ident("java", name)


def field(f: "lower.FieldLayout | plan.PlanField") -> str:
    """A field's name in its class."""
    return ident(f.name)


def fcodec(f: "lower.FieldLayout | plan.PlanField") -> str:
    """A field's codec in its class (made on first use)."""
    return f"Fields.F_{f.name}"
