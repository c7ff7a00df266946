"""An enum or flags type in Kotlin: a class over its raw value that keeps unknown values
(`of(Long)` returns the constant or a new instance)."""

from __future__ import annotations

from typing import Dict

from ... import ir
from ..jvm import names
from ..printer import Printer
from .names import ident, kstring
from .structs import doc


def enum(p: Printer, t: ir.EnumType) -> None:
    n = t.name
    flags = t.kind == "flags"
    base = t.base.upper()  # its dev.fastwire.Scalar
    doc(p, t.doc)
    p.value(f"/** {t.kind} {n} : {t.base}. Values without a name are kept (of() makes them). */")
    p.value(f"class {n} private constructor(@JvmField val value: Long, private val label: String?) "
            f": Comparable<{n}> {{")
    p.indent()
    p.value("companion object {")
    p.indent()
    canonical: Dict[int, str] = {}
    for v in t.values:
        if v.value in canonical:
            p.value(f"@JvmField val {ident(v.name)}: {n} = {ident(canonical[v.value])}")
            continue
        canonical[v.value] = v.name
        p.value(f"@JvmField val {ident(v.name)}: {n} = {n}({names.raw_literal(v.value, t.base)}, {kstring(v.name)})")
    p.value(f"private val NAMED: Array<{n}> = arrayOf({', '.join(ident(canonical[v]) for v in canonical)})")
    with p.block(f"private val BY_LOW_BYTE: Array<{n}?> = arrayOfNulls<{n}>(256).also {{ t ->", "}"):
        p.value("for (i in NAMED.indices.reversed()) t[NAMED[i].value.toInt() and 0xFF] = NAMED[i]")
    p.value(f"@JvmField val CODEC: dev.fastwire.Codecs.Int<{n}> = "
            f"dev.fastwire.Codecs.enumOf(dev.fastwire.Scalar.{base}, {{ of(it) }}, {{ it.value }})")
    p.value("")
    p.value("/** The constant of a value, or a new instance for a value without a name. */")
    with p.block(f"@JvmStatic fun of(value: Long): {n} {{", "}"):
        p.value("val hit = BY_LOW_BYTE[value.toInt() and 0xFF]")
        p.value("if (hit != null && hit.value == value) return hit")
        p.value("for (e in NAMED) if (e.value == value) return e")
        p.value(f"return {n}(value, null)")
    p.outdent()
    p.value("}")
    p.value("")
    if flags:
        p.value(f"fun has(flag: {n}): Boolean = (value and flag.value) == flag.value")
        p.value(f"infix fun or(flag: {n}): {n} = of(value or flag.value)")
        p.value(f"infix fun and(flag: {n}): {n} = of(value and flag.value)")
        p.value("")
    p.value(f"override fun equals(other: Any?): Boolean = other is {n} && other.value == value")
    p.value("override fun hashCode(): Int = value.hashCode()")
    p.value(f"override fun compareTo(other: {n}): Int = dev.fastwire.Scalar.{base}.compare(value, other.value)")
    if flags:
        with p.block("override fun toString(): String {", "}"):
            p.value("val sb = StringBuilder()")
            p.value("for (e in NAMED) if (e.value != 0L && (value and e.value) == e.value) "
                    "sb.append(if (sb.isNotEmpty()) \"|\" else \"\").append(e.label)")
            p.value("return sb.toString()")
    else:
        p.value('override fun toString(): String = label ?: "<unknown>"')
    p.outdent()
    p.value("}")
