"""An enum or flags type in Java: a final class over its raw value (`long value`), with a
constant per name; `of(long)` returns the constant or a new instance, so values without a
name survive a round trip."""

from __future__ import annotations

from typing import Dict

from ... import ir
from ..jvm import names
from ..printer import Printer
from .names import ident, jstring
from .structs import doc


def enum(p: Printer, t: ir.EnumType) -> None:
    n = t.name
    flags = t.kind == "flags"
    base = t.base.upper()  # its dev.fastwire.Scalar
    doc(p, t.doc)
    p.value(f"// {t.kind} {n} : {t.base}. Values without a name are kept (of() makes them).")
    p.value(f"public final class {n} implements Comparable<{n}> {{")
    p.indent()
    canonical: Dict[int, str] = {}
    for v in t.values:
        if v.value in canonical:
            p.value(f"public static final {n} {ident(v.name)} = {ident(canonical[v.value])};")
            continue
        canonical[v.value] = v.name
        p.value(f"public static final {n} {ident(v.name)} = new {n}({names.raw_literal(v.value, t.base)}, "
                f"{jstring(v.name)});")
    named = ", ".join(ident(canonical[v]) for v in canonical)
    p.value(f"private static final {n}[] NAMED = {{{named}}};")
    p.value(f"private static final {n}[] BY_LOW_BYTE = new {n}[256];  // the named values by their low byte")
    with p.block("static {", "}"):
        p.value("for (int i = NAMED.length - 1; i >= 0; i--) BY_LOW_BYTE[(int) NAMED[i].value & 0xFF] = NAMED[i];")
    p.value(f"public static final dev.fastwire.Codecs.Int<{n}> CODEC = "
            f"dev.fastwire.Codecs.enumOf(dev.fastwire.Scalar.{base}, {n}::of, e -> e.value);")
    p.value("")
    p.value("/** The raw value: signed types sign-extended, unsigned ones zero-extended (uint64: its bits). */")
    p.value("public final long value;")
    p.value("private final String name;")
    p.value("")
    with p.block(f"private {n}(long value, String name) {{", "}"):
        p.value("this.value = value;")
        p.value("this.name = name;")
    p.value("")
    p.value("/** The constant of a value, or a new instance for a value without a name. */")
    with p.block(f"public static {n} of(long value) {{", "}"):
        p.value(f"{n} hit = BY_LOW_BYTE[(int) value & 0xFF];")
        p.value("if (hit != null && hit.value == value) return hit;")
        with p.block(f"for ({n} e : NAMED) {{", "}"):
            p.value("if (e.value == value) return e;")
        p.value(f"return new {n}(value, null);")
    p.value("")
    if flags:
        p.value(f"public boolean has({n} flag) {{ return (value & flag.value) == flag.value; }}")
        p.value(f"public {n} or({n} flag) {{ return of(value | flag.value); }}")
        p.value(f"public {n} and({n} flag) {{ return of(value & flag.value); }}")
        p.value("")
    p.value(f"@Override public boolean equals(Object o) {{ return o instanceof {n} && ((({n}) o).value == value); }}")
    p.value("@Override public int hashCode() { return Long.hashCode(value); }")
    p.value(f"@Override public int compareTo({n} o) {{ return dev.fastwire.Scalar.{base}.compare(value, o.value); }}")
    if flags:
        with p.block("@Override public String toString() {", "}"):
            p.value("StringBuilder sb = new StringBuilder();")
            with p.block(f"for ({n} e : NAMED) {{", "}"):
                p.value("if (e.value != 0 && (value & e.value) == e.value) "
                        "sb.append(sb.length() > 0 ? \"|\" : \"\").append(e.name);")
            p.value("return sb.toString();")
    else:
        p.value('@Override public String toString() { return name != null ? name : "<unknown>"; }')
    p.outdent()
    p.value("}")
