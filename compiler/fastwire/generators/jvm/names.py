"""Names Java and Kotlin share: packages (`domain` first, as FBE), qualified types, the
schema class, enum raw values, float digits, field codecs (dev.fastwire.Codecs)."""

from __future__ import annotations

import functools
import re
from typing import Callable, Optional, cast

from ... import ir, lower
from ..common import naming

# Containers by helper: the runtime's codec factory and what it takes after the element.
_CONTAINERS = {"optional": "", "array": ", {length}", "vector": "", "list": "", "set": ""}


# The generated code's locals (p, end, off8, ...) obscure a package of their name (JLS
# 6.4.2; Kotlin too): such a package's first name takes a `_`, as a keyword does.
LOCAL_NAMES = re.compile(r"(?:[a-z]|at|base|body|buf|codec|depth|end|error|last|left|len|level|"
                         r"limit|off|old|other|out|pos|reuse|sb|size|sl|slot|text|tp|type)\d*")


def java_package(pkg: ir.Package) -> str:
    return _package(pkg.domain, pkg.name)


@functools.lru_cache(maxsize=None)
def _package(domain: Optional[str], name: str) -> str:
    parts = [naming.ident("java", part) for part in (domain.split(".") if domain else []) + [name]]
    if LOCAL_NAMES.fullmatch(parts[0]):
        parts[0] += "_"
    return ".".join(parts)


def folder(pkg: ir.Package) -> str:
    return java_package(pkg).replace(".", "/")


def qualified(schema: ir.Schema, qname: str) -> str:
    """A struct, enum or flags type's JVM name from its qualified schema name."""
    package, _, name = qname.partition(".")
    return java_package(schema.package(package)) + "." + name


def schema_class(pkg: ir.Package) -> str:
    return naming.pascal(pkg.name) + "Schema"


def enum_type(schema: ir.Schema, ref: str) -> ir.EnumType:
    package, _, name = ref.partition(".")
    t = schema.package(package).type(name)
    assert isinstance(t, ir.EnumType)
    return t


def raw_literal(value: int, base: str) -> str:
    """An enum's raw value as a long literal (uint64: its bits)."""
    if base == "uint64" and value >= 1 << 63:
        value -= 1 << 64
    if value == -(1 << 63):
        return "Long.MIN_VALUE"
    return f"{value}L"


def enum_value(schema: ir.Schema, ident: Callable[[str], str], ref: str, lit: lower.Literal) -> str:
    """An enum or flags default: its constant when it names one, else of(raw)."""
    t = enum_type(schema, ref)
    name = qualified(schema, ref)
    if len(lit.names) == 1 and t.value(lit.names[0]) is not None:
        return f"{name}.{ident(lit.names[0])}"
    return f"{name}.of({raw_literal(int(cast(int, lit.value)), t.base)})"


def float_literal(x: float) -> str:
    text = repr(x)
    if "e" not in text and "." not in text:
        text += ".0"
    return text


def codec(schema: ir.Schema, w: lower.WireType, leaf: Callable[[lower.WireType], Optional[str]]) -> str:
    """A value's codec: `leaf` names the scalars', the types' CODEC, then the containers'."""
    name = leaf(w)
    if name is not None:
        return name
    if w.ref is not None:
        return qualified(schema, w.ref) + ".CODEC"
    assert w.element is not None
    e = codec(schema, w.element, leaf)
    if w.key is not None:
        return f"dev.fastwire.Codecs.{w.helper}({codec(schema, w.key, leaf)}, {e})"
    return f"dev.fastwire.Codecs.{w.helper}({e}{_CONTAINERS[w.helper].format(length=w.length)})"
