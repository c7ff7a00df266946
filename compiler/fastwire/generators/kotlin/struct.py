"""A struct's Kotlin data class and its codec (versioned, final, JSON), from the lowered
model. A derived struct holds its base's fields (data classes are final)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ... import ir, lower
from ..java.generator import Lines
from .generator import JSON, RAW_WRITE, READ, READ_RAW, VALUE, WRITE, kstring

if TYPE_CHECKING:
    from .generator import KotlinGen


def fname(g: "KotlinGen", f: lower.FieldLayout) -> str:
    return g.ident(f.name)


def fcodec(s: ir.StructType, f: lower.FieldLayout) -> str:
    return f"{s.name}.Fields.F_{f.name}"


def fcodec_of(g: "KotlinGen", s: ir.StructType, f: lower.FieldLayout) -> str:
    if f.wire.kind == "struct":
        return g.codec(f.wire)
    return fcodec(s, f)


def is_value(w: lower.WireType) -> bool:
    return w.kind in VALUE


def emit_struct(g: "KotlinGen", out: Lines, s: ir.StructType) -> None:
    layout = g.model.struct(s.qualified_name)
    n = s.name
    irf = {f.name: f for f in s.all_fields}
    keyed = layout.keyed
    g.doc(out, s.doc)
    params = []
    for f in layout.fields:
        fi = irf[f.name]
        dep = "@Deprecated(\"deprecated in the schema\") " if fi.deprecated else ""
        params.append(f"{dep}var {fname(g, f)}: {g.ktype(f.wire)} = "
                      f"{g.default(f.wire, layout.defaults[f.index], fcodec(s, f))}")
    impl = f" : Comparable<{n}>" if keyed else ""
    if params:
        out(f"data class {n}(")
        out.level += 1
        for i, p in enumerate(params):
            out(p + ("," if i < len(params) - 1 else ""))
        out.level -= 1
        out.open(f"){impl} {{")
    else:
        out.open(f"class {n}{impl} {{")
    out.open("companion object {")
    out("@JvmField val CODEC: Codec = Codec()", f"const val TYPE: Int = {layout.type_number}")
    out.close()
    out("")
    emit_equality(g, out, s, layout)
    emit_to_string(g, out, s, layout)
    out("/** The fields' codecs, made on first use (after every struct's CODEC exists). */")
    out.open("object Fields {")
    for f in layout.fields:
        out(f"@JvmField val F_{f.name}: dev.fastwire.Codec<{g.ktype(f.wire)}> = {g.codec(f.wire)}")
    out.close()
    out("")
    emit_codec(g, out, s, layout)
    out.close()


def emit_equality(g: "KotlinGen", out: Lines, s: ir.StructType, layout: lower.StructLayout) -> None:
    n = s.name
    eq = [layout.field(name) for name in layout.equality]
    out("/** Equal by the [key] fields (every field when there is none), as in every language. */")
    out.open("override fun equals(other: Any?): Boolean {")
    out("if (this === other) return true", f"if (other !is {n}) return false")
    conds = []
    for f in eq:
        a, b = fname(g, f), "other." + fname(g, f)
        if f.wire.kind in ("scalar", "timestamp", "enum", "flags", "string", "uuid"):
            conds.append(f"{a} == {b}")
        else:
            conds.append(f"{fcodec(s, f)}.equal({a}, {b})")
    out("return " + (" && ".join(conds) if conds else "true"))
    out.close()
    out("")
    out.open("override fun hashCode(): Int {")
    out("var h = 17")
    for f in eq:
        out(f"h = 31 * h + {fcodec(s, f)}.hash({fname(g, f)})")
    out("return h")
    out.close()
    out("")
    if layout.keyed:
        out("/** Ordered by the [key] fields, in declaration order. */")
        out.open(f"override fun compareTo(other: {n}): Int {{")
        out("var c: Int")
        for f in eq:
            a, b = fname(g, f), "other." + fname(g, f)
            if f.wire.kind in ("scalar", "timestamp", "enum", "flags", "string", "decimal"):
                out(f"c = {a}.compareTo({b})")
            else:
                out(f"c = {fcodec(s, f)}.comparator().compare({a}, {b})")
            out("if (c != 0) return c")
        out("return 0")
        out.close()
        out("")


def emit_to_string(g: "KotlinGen", out: Lines, s: ir.StructType, layout: lower.StructLayout) -> None:
    irf = {f.name: f for f in s.all_fields}
    out.open("override fun toString(): String {")
    out(f"val sb = StringBuilder({kstring(s.name + '(')})")
    for i, f in enumerate(layout.fields):
        sep = "," if i else ""
        if irf[f.name].hidden:
            out(f"sb.append({kstring(sep + f.name + '=***')})")
        else:
            out(f"sb.append({kstring(sep + f.name + '=')}).append({fcodec(s, f)}.text({fname(g, f)}))")
    out("return sb.append(')').toString()")
    out.close()
    out("")


def value_read(g: "KotlinGen", w: lower.WireType, p: str) -> str:
    if w.kind in ("enum", "flags"):
        assert w.ref is not None and w.scalar is not None
        return f"{g.qualified(w.ref)}.of({READ_RAW[w.scalar].format(p=p)})"
    sc = g.scalar_of(w)
    assert sc is not None
    return READ[sc].format(p=p)


def value_write(g: "KotlinGen", w: lower.WireType, p: Optional[str], v: str) -> str:
    """Writes a value kind at p (versioned) or appends it (final, p None)."""
    which = 0 if p is not None else 1
    if w.kind in ("enum", "flags"):
        size = ir.PRIMITIVE_SIZES[w.scalar or ""] or 8
        return RAW_WRITE[size][which].format(p=p, v=v + ".value")
    sc = g.scalar_of(w)
    assert sc is not None
    return WRITE[sc][which].format(p=p, v=v)


def emit_codec(g: "KotlinGen", out: Lines, s: ir.StructType, layout: lower.StructLayout) -> None:
    n = s.name
    out(f"/** {n}'s codec: the versioned format, the final format and JSON. */")
    out.open(f"class Codec internal constructor() : dev.fastwire.StructCodec<{n}>("
             f"{n}::class.java, {kstring(s.qualified_name)}, {layout.type_number}, "
             f"{layout.body_size}, {layout.final_min}) {{")
    out(f"override fun create(): {n} = {n}()", "")
    fields = layout.fields

    out.open(f"override fun vfields(w: dev.fastwire.Writer, body: Int, v: {n}) {{")
    for f in fields:
        p = f"body + {f.offset}"
        val = "v." + fname(g, f)
        if is_value(f.wire):
            out(value_write(g, f.wire, p, val))
        else:
            out(f"{fcodec_of(g, s, f)}.vput(w, {p}, body, {val})")
    out.close()
    out("")

    out.open(f"override fun vread(r: dev.fastwire.Reader, body: Int, size: Int, depth: Int, v: {n}) {{")
    for f in fields:
        p = f"body + {f.offset}"
        end = f.offset + f.slot
        val = "v." + fname(g, f)
        read = value_read(g, f.wire, p) if is_value(f.wire) else \
            f"{fcodec_of(g, s, f)}.vget(r, {p}, body, depth, {val})"
        dflt = g.default(f.wire, layout.defaults[f.index], fcodec(s, f))
        out(f"{val} = if (size >= {end}) {read} else {dflt}")
    out.close()
    out("")

    out.open("override fun vverify(r: dev.fastwire.Reader, body: Int, size: Int, depth: Int) {")
    for f in fields:
        p = f"body + {f.offset}"
        w = f.wire
        if w.kind == "decimal":
            out(f"if (size >= {f.offset + f.slot}) dev.fastwire.Reader.checkScale(r.u8({p} + 14))")
        elif not is_value(w):
            out(f"if (size >= {f.offset + f.slot}) {fcodec_of(g, s, f)}.vcheck(r, {p}, body, depth)")
    out.close()
    out("")

    out.open(f"override fun ffields(w: dev.fastwire.Writer, v: {n}) {{")
    for f in fields:
        val = "v." + fname(g, f)
        if is_value(f.wire):
            out(value_write(g, f.wire, None, val))
        else:
            out(f"{fcodec_of(g, s, f)}.fput(w, {val})")
    out.close()
    out("")

    runs = {r.first: r for r in layout.final_runs}
    for verify in (False, True):
        if verify:
            out.open("override fun fverify(r: dev.fastwire.Reader, depth: Int) {")
        else:
            out.open(f"override fun fread(r: dev.fastwire.Reader, depth: Int, v: {n}) {{")
        i = 0
        declared = False
        while i < len(fields):
            if i in runs:
                run = runs[i]
                needs = not verify or any(fields[j].wire.kind == "decimal" for j in run.indexes)
                if needs:
                    out(f"{'' if declared else 'var '}p = r.take({run.size})")
                    declared = True
                else:
                    out(f"r.take({run.size})")
                for k, j in enumerate(run.indexes):
                    f = fields[j]
                    at = f"p + {run.offsets[k]}" if run.offsets[k] else "p"
                    if verify:
                        if f.wire.kind == "decimal":
                            out(f"dev.fastwire.Reader.checkScale(r.u8({at} + 14))")
                    else:
                        out(f"v.{fname(g, f)} = {value_read(g, f.wire, at)}")
                i += run.count
                continue
            f = fields[i]
            if verify:
                out(f"{fcodec_of(g, s, f)}.fcheck(r, depth)")
            else:
                out(f"v.{fname(g, f)} = {fcodec_of(g, s, f)}.fget(r, depth, v.{fname(g, f)})")
            i += 1
        if declared and verify is False:
            pass
        out.close()
        out("")

    out.open(f"override fun jfields(w: dev.fastwire.JsonWriter, v: {n}) {{")
    for i, f in enumerate(fields):
        key = ("," if i else "") + '"' + f.name + '":'
        out(f"w.key({kstring(key)})")
        val = "v." + fname(g, f)
        sc = f.wire.scalar if f.wire.kind == "scalar" else ("timestamp" if f.wire.kind == "timestamp" else None)
        if sc is not None:
            out(JSON[sc].format(v=val))
        else:
            out(f"{fcodec_of(g, s, f)}.jput(w, {val})")
    out.close()
    out("")
    out.open(f"override fun jfield(r: dev.fastwire.JsonReader, v: {n}): Boolean {{")
    out.open("when (r.key) {")
    for f in fields:
        out(f"{kstring(f.name)} -> v.{fname(g, f)} = {fcodec_of(g, s, f)}.jget(r)")
    out("else -> return false")
    out.close()
    out("return true")
    out.close()
    out.close()
