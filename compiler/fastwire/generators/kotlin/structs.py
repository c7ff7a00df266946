"""A struct's Kotlin data class: `var` properties with the schema's defaults (a struct
derived from another holds its base's fields: data classes cannot be derived from),
equals/hashCode (and compareTo with [key] fields) by the shared rule, toString as the C++
runtime prints, the fields' codecs, and its Codec (codec.py)."""

from __future__ import annotations

from typing import Optional

from ... import ir, lower, plan
from ..common.docs import line_comments
from ..jvm.codec import codec_class
from ..jvm.syntax import block
from ..printer import Printer
from . import literals
from .names import fcodec, field, kstring
from .syntax import KotlinSyntax
from .types import codec, ktype

# Compared with == and compareTo, by helper (else by the field's codec).
EQUAL = (*plan.SCALARS, "timestamp", "enum", "flags", "string", "uuid")
COMPARE = (*plan.SCALARS, "timestamp", "enum", "flags", "string", "decimal")


def doc(p: Printer, text: Optional[str]) -> None:
    for line in line_comments(text, "//", language="kotlin"):
        p.value(line)


def struct(p: Printer, model: lower.WireModel, pkg: ir.Package, s: ir.StructType) -> None:
    schema = model.schema
    layout = model.struct(s.qualified_name)
    n = s.name
    irf = {f.name: f for f in s.all_fields}
    doc(p, s.doc)
    params = []
    for f in layout.fields:
        dep = "@Deprecated(\"deprecated in the schema\") " if irf[f.name].deprecated else ""
        params.append(f"{dep}var {field(f)}: {ktype(schema, f.wire)} = "
                      f"{literals.default(schema, f.wire, layout.defaults[f.index], fcodec(s, f))}")
    impl = f" : Comparable<{n}>" if layout.keyed else ""
    if params:
        p.value(f"data class {n}(")
        p.indent()
        for i, param in enumerate(params):
            p.value(param + ("," if i < len(params) - 1 else ""))
        p.outdent()
        p.value(f"){impl} {{")
    else:
        p.value(f"class {n}{impl} {{")
    p.indent()
    with block(p, "companion object"):
        p.value("@JvmField val CODEC: Codec = Codec()")
        p.value(f"const val TYPE: Int = {layout.type_number}")
    p.value("")
    equality(p, s, layout)
    to_string(p, s, layout)
    p.value("/** The fields' codecs, made on first use (after every struct's CODEC exists). */")
    with block(p, "object Fields"):
        for f in layout.fields:
            p.value(f"@JvmField val F_{f.name}: dev.fastwire.Codec<{ktype(schema, f.wire)}> = "
                    f"{codec(schema, pkg, f.wire)}")
    p.value("")
    codec_class(p, model, s, layout, KotlinSyntax(schema, pkg, s))
    p.outdent()
    p.value("}")


def equality(p: Printer, s: ir.StructType, layout: lower.StructLayout) -> None:
    eq = [layout.field(name) for name in layout.equality]
    p.value("/** Equal by the [key] fields (every field when there is none), as in every language. */")
    with block(p, "override fun equals(other: Any?): Boolean"):
        p.value("if (this === other) return true")
        p.value(f"if (other !is {s.name}) return false")
        conds = [f"this.{field(f)} == other.{field(f)}" if f.wire.helper in EQUAL
                 else f"{fcodec(s, f)}.equal(this.{field(f)}, other.{field(f)})" for f in eq]
        p.value("return " + (" && ".join(conds) if conds else "true"))
    p.value("")
    with block(p, "override fun hashCode(): Int"):
        p.value("var h = 17")
        for f in eq:
            p.value(f"h = 31 * h + {fcodec(s, f)}.hash(this.{field(f)})")
        p.value("return h")
    p.value("")
    if not layout.keyed:
        return
    p.value("/** Ordered by the [key] fields, in declaration order. */")
    with block(p, f"override fun compareTo(other: {s.name}): Int"):
        p.value("var c: Int")
        for f in eq:
            p.value(f"c = this.{field(f)}.compareTo(other.{field(f)})" if f.wire.helper in COMPARE
                    else f"c = {fcodec(s, f)}.comparator().compare(this.{field(f)}, "
                         f"other.{field(f)})")
            p.value("if (c != 0) return c")
        p.value("return 0")
    p.value("")


def to_string(p: Printer, s: ir.StructType, layout: lower.StructLayout) -> None:
    hidden = {f.name: f.hidden for f in s.all_fields}
    with block(p, "override fun toString(): String"):
        p.value(f"val sb = StringBuilder({kstring(s.name + '(')})")
        for i, f in enumerate(layout.fields):
            sep = "," if i else ""
            if hidden[f.name]:
                p.value(f"sb.append({kstring(sep + f.name + '=***')})")
            else:
                p.value(f"sb.append({kstring(sep + f.name + '=')}).append({fcodec(s, f)}.text({field(f)}))")
        p.value("return sb.append(')').toString()")
    p.value("")
