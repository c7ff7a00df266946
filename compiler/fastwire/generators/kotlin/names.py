"""Kotlin's names and string literals."""

from __future__ import annotations

from ... import ir, lower, plan
from ..common import naming

_ESCAPES = {"\\": "\\\\", '"': '\\"', "$": "\\$", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def kstring(text: str) -> str:
    """A Kotlin string literal (a `$` escaped: no template)."""
    return '"' + "".join(_ESCAPES.get(ch) or ("\\u%04x" % ord(ch) if ord(ch) < 0x20 or ord(ch) == 0x7F
                                              else ch) for ch in text) + '"'


def ident(name: str) -> str:
    return naming.ident("kotlin", name)


def field(f: "lower.FieldLayout | plan.PlanField") -> str:
    """A field's name in its data class."""
    return ident(f.name)


def fcodec(s: ir.StructType, f: "lower.FieldLayout | plan.PlanField") -> str:
    """A field's codec (made on first use)."""
    return f"{s.name}.Fields.F_{f.name}"
