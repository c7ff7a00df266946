"""Names Java and Kotlin share: packages (`domain` first, as FBE), qualified types, the
schema class, enum raw values, float digits, field codecs (dev.fastwire.Codecs); and a
field's initial value, from its lowered default (lower.Literal) or its type's zero, what
the languages spell apart coming in a Spelling."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple, cast

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


ZEROS = {"optional": "null", "timestamp": "0L", "decimal": "java.math.BigDecimal.ZERO",
         "uuid": "dev.fastwire.Uuids.NIL", "string": '""', "enum": "{t}.of(0L)", "flags": "{t}.of(0L)"}
COMPUTED = {"utc": "dev.fastwire.Timestamps.utc()", "uuid1": "dev.fastwire.Uuids.uuid1()",
            "uuid4": "dev.fastwire.Uuids.uuid4()"}


@dataclass(frozen=True)
class Spelling:
    quote: Callable[[str], str]  # a string literal
    ident: Callable[[str], str]
    integer: Callable[[lower.Literal, str], str]  # an integer literal of a helper's type
    floats: Tuple[str, str]  # a float's, a double's NaN or infinity from its {raw} bits
    zeros: Dict[str, str]  # the zeros of the language's own ({t}: the type)


def zero(schema: ir.Schema, w: lower.WireType, fcodec: str, sp: Spelling) -> str:
    template = sp.zeros.get(w.helper) or ZEROS.get(w.helper) or "{c}.zero()"
    return template.format(t=w.ref and qualified(schema, w.ref), c=fcodec)


def _float(lit: lower.Literal, w: lower.WireType, sp: Spelling) -> str:
    x = float(cast(float, lit.value))
    single = w.helper == "float"
    if x != x or x in (float("inf"), float("-inf")):
        return sp.floats[0 if single else 1].format(raw=int(cast(int, lit.raw)))
    return float_literal(x) + ("f" if single else "")


def _integer(schema: ir.Schema, lit: lower.Literal, w: lower.WireType, sp: Spelling) -> str:
    if w.ref is not None:  # an enum or flags value
        return enum_value(schema, sp.ident, w.ref, lit)
    return sp.integer(lit, w.helper)


LITERALS: Dict[str, Callable[[ir.Schema, lower.Literal, lower.WireType, Spelling], str]] = {
    "null": lambda s, lit, w, sp: "null",
    "computed": lambda s, lit, w, sp: COMPUTED[str(lit.value)],
    "bool": lambda s, lit, w, sp: "true" if lit.value else "false",
    "string": lambda s, lit, w, sp: sp.quote(str(lit.value)),
    "uuid": lambda s, lit, w, sp: f'java.util.UUID.fromString("{lit.value}")',
    "decimal": lambda s, lit, w, sp: f'dev.fastwire.Decimals.parse("{lit.value}")',
    "float": lambda s, lit, w, sp: _float(lit, w, sp),
    "integer": _integer,
}


def default(schema: ir.Schema, w: lower.WireType, lit: Optional[lower.Literal], fcodec: str,
            sp: Spelling) -> str:
    """The expression of a field's initial value."""
    if lit is None:
        return zero(schema, w, fcodec, sp)
    value = w.element if w.element is not None and w.helper == "optional" else w
    return LITERALS[lit.kind](schema, lit, value, sp)
