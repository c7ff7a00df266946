"""A struct's Kotlin data class and its codec (versioned, final, JSON), from the lowered
model. A derived struct holds its base's fields (data classes are final)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ... import ir, lower
from ..jvm.fast import FastRead, FastWalk, eligible, readable
from ..jvm.fastput import FastPut, direct
from ..jvm.names import Lines
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


def scodec(g: "KotlinGen", w: lower.WireType) -> str:
    assert w.ref is not None
    return g.qualified(w.ref) + ".Codec"


D = "dev.fastwire.Direct"


def vput_stmt(g: "KotlinGen", s: ir.StructType, f: lower.FieldLayout, p: str, base: str, v: str) -> str:
    w = f.wire
    if is_value(w):
        return value_write(g, w, p, v)
    d = direct(w)
    e = w.element
    if d == "string":
        return f"{D}.vputString(w, {p}, {base}, {v})"
    if d == "bytes":
        return f"{D}.vputBytes(w, {p}, {base}, {v})"
    if d == "struct":
        return f"{scodec(g, w)}.vput0(w, {p}, {base}, {v})"
    if d == "opt":
        assert e is not None
        inner = (f"{D}.vputString(w, q, q, x)" if e.kind == "string" else f"{scodec(g, e)}.vput0(w, q, q, x)")
        return (f"run {{ val x = {v}; val q = {D}.vputOptional(w, {p}, {base}, x != null, {e.slot}); "
                f"if (x != null) {inner} }}")
    if d == "seq":
        assert e is not None
        return (f"run {{ val x = {v}; val n = x.size; val at = {D}.vputSequence(w, {p}, {base}, n, {e.slot}); "
                f"for (i in 0 until n) {scodec(g, e)}.vput0(w, at + {e.slot} * i, {base}, x[i]) }}")
    return f"{fcodec_of(g, s, f)}.vput(w, {p}, {base}, {v})"


def vget_expr(g: "KotlinGen", s: ir.StructType, f: lower.FieldLayout, p: str, cur: str) -> str:
    w = f.wire
    if is_value(w):
        return value_read(g, w, p)
    d = direct(w)
    e = w.element
    if d == "string":
        return f"{D}.vgetString(r, {p}, body, {cur})"
    if d == "bytes":
        return f"{D}.vgetBytes(r, {p}, body)"
    if d == "struct":
        return f"{scodec(g, w)}.vget0(r, {p}, body, depth, {cur})"
    if d == "opt":
        assert e is not None
        inner = (f"{D}.vgetString(r, q, q, {cur})" if e.kind == "string"
                 else f"{scodec(g, e)}.vget0(r, q, q, depth, {cur})")
        return f"run {{ val q = {D}.vgetOptional(r, {p}, body, {e.slot}); if (q < 0) null else {inner} }}"
    if d == "seq":
        assert e is not None
        u = g.unit
        return "\n".join([
            f"run {{ val out = {D}.list({cur}); val at = {D}.vgetSequence(r, {p}, body, {e.slot})",
            f"{u}val n = if (at < 0) 0 else r.len; val old = out.size",
            f"{u}for (i in 0 until n) {D}.set(out, i, old, "
            f"{scodec(g, e)}.vget0(r, at + {e.slot} * i, body, depth, if (i < old) out[i] else null))",
            f"{u}{D}.trim(out, n); out }}"])
    return f"{fcodec_of(g, s, f)}.vget(r, {p}, body, depth, {cur})"


def vcheck_stmt(g: "KotlinGen", s: ir.StructType, f: lower.FieldLayout, p: str) -> Optional[str]:
    w = f.wire
    if w.kind == "decimal":
        return f"dev.fastwire.Reader.checkScale(r.u8({p} + 14))"
    if is_value(w):
        return None
    d = direct(w)
    e = w.element
    if d in ("string", "bytes"):
        return f"{D}.vcheckText(r, {p}, body)"
    if d == "struct":
        return f"{scodec(g, w)}.vcheck0(r, {p}, body, depth)"
    if d == "opt":
        assert e is not None
        inner = (f"{D}.vcheckText(r, q, q)" if e.kind == "string" else f"{scodec(g, e)}.vcheck0(r, q, q, depth)")
        return f"run {{ val q = {D}.vgetOptional(r, {p}, body, {e.slot}); if (q >= 0) {inner} }}"
    if d == "seq":
        assert e is not None
        return (f"run {{ val at = {D}.vgetSequence(r, {p}, body, {e.slot}); "
                f"if (at >= 0) for (i in 0 until r.len) {scodec(g, e)}.vcheck0(r, at + {e.slot} * i, body, depth) }}")
    return f"{fcodec_of(g, s, f)}.vcheck(r, {p}, body, depth)"


def fput_stmt(g: "KotlinGen", s: ir.StructType, f: lower.FieldLayout, v: str) -> str:
    w = f.wire
    if is_value(w):
        return value_write(g, w, None, v)
    d = direct(w)
    e = w.element
    if d == "string":
        return f"{D}.fputString(w, {v})"
    if d == "bytes":
        return f"{D}.fputBytes(w, {v})"
    if d == "struct":
        return f"{scodec(g, w)}.fput0(w, {v})"
    if d == "opt":
        assert e is not None
        inner = (f"{D}.fputString(w, x)" if e.kind == "string" else f"{scodec(g, e)}.fput0(w, x)")
        return f"run {{ val x = {v}; w.addU8(if (x != null) 1 else 0); if (x != null) {inner} }}"
    if d == "seq":
        assert e is not None
        return (f"run {{ val x = {v}; val n = x.size; w.addI32(n); "
                f"for (i in 0 until n) {scodec(g, e)}.fput0(w, x[i]) }}")
    return f"{fcodec_of(g, s, f)}.fput(w, {v})"


def fget_expr(g: "KotlinGen", s: ir.StructType, f: lower.FieldLayout, cur: str) -> str:
    w = f.wire
    d = direct(w)
    e = w.element
    if d == "string":
        return f"{D}.fgetString(r, {cur})"
    if d == "bytes":
        return f"{D}.fgetBytes(r)"
    if d == "struct":
        return f"{scodec(g, w)}.fget0(r, depth, {cur})"
    if d == "opt":
        assert e is not None
        inner = (f"{D}.fgetString(r, {cur})" if e.kind == "string" else f"{scodec(g, e)}.fget0(r, depth, {cur})")
        return f"if ({D}.fpresent(r)) {inner} else null"
    if d == "seq":
        assert e is not None
        u = g.unit
        return "\n".join([
            f"run {{ val out = {D}.list({cur}); val n = r.count({e.final_min}); val old = out.size",
            f"{u}for (i in 0 until n) {D}.set(out, i, old, "
            f"{scodec(g, e)}.fget0(r, depth, if (i < old) out[i] else null))",
            f"{u}{D}.trim(out, n); out }}"])
    return f"{fcodec_of(g, s, f)}.fget(r, depth, {cur})"


def fcheck_stmt(g: "KotlinGen", s: ir.StructType, f: lower.FieldLayout) -> str:
    w = f.wire
    d = direct(w)
    e = w.element
    if d in ("string", "bytes"):
        return f"{D}.fcheckText(r)"
    if d == "struct":
        return f"{scodec(g, w)}.fcheck0(r, depth)"
    if d == "opt":
        assert e is not None
        inner = (f"{D}.fcheckText(r)" if e.kind == "string" else f"{scodec(g, e)}.fcheck0(r, depth)")
        return f"if ({D}.fpresent(r)) {inner}"
    if d == "seq":
        assert e is not None
        return f"for (i in 0 until r.count({e.final_min})) {scodec(g, e)}.fcheck0(r, depth)"
    return f"{fcodec_of(g, s, f)}.fcheck(r, depth)"


def emit_codec(g: "KotlinGen", out: Lines, s: ir.StructType, layout: lower.StructLayout) -> None:
    n = s.name
    t = layout.type_number
    out(f"/** {n}'s codec: the versioned format, the final format and JSON. */")
    out.open(f"class Codec internal constructor() : dev.fastwire.StructCodec<{n}>("
             f"{n}::class.java, {kstring(s.qualified_name)}, {t}, "
             f"{layout.body_size}, {layout.final_min}) {{")
    out(f"override fun create(): {n} = {n}()", "")
    fields = layout.fields
    W, R = "dev.fastwire.Writer", "dev.fastwire.Reader"
    null = kstring(s.qualified_name + " is null (not an optional)")

    out("/** Static entry points that other generated structs call directly (no virtual call). */")
    out.open("companion object {")
    if eligible(g.model, layout):
        out(f"fun vput0(w: {W}, pos: Int, base: Int, v: {n}?) {{ w.size = vw0(w, w.size, pos, base, v) }}",
            "",
            f"fun fput0(w: {W}, v: {n}?) {{ w.size = fw0(w, w.buf, w.size, v) }}",
            "")
        FastPut(True, lambda f, at, base, v: vput_stmt(g, s, f, at, base, v),
                lambda f, v: fput_stmt(g, s, f, v), lambda f, at, base, v: value_write(g, f.wire, at, v),
                lambda w: scodec(g, w), lambda f: fname(g, f), lambda w: "").emit(out, n, null, layout)
    else:
        out.open(f"fun vput0(w: {W}, pos: Int, base: Int, v: {n}?) {{")
        out(f"if (v == null) throw dev.fastwire.EncodeException({null})",
            f"val body = w.allocRaw({layout.body_size})",
            f"w.i32(body, {layout.body_size})",
            f"w.i32(body + 4, {t})",
            "vfields0(w, body, v)",
            "w.i32(pos, body - base)")
        out.close()
        out("")
    read = readable(g.model, layout)
    out.open(f"fun vget0(r: {R}, pos: Int, base: Int, depth: Int, reuse: {n}?): {n} {{")
    if read:
        out(f"val v = reuse ?: {n}()",
            f"if (depth >= {layout.depth}) {{ val left = vgetFast0(r, r.buf, pos.toLong(), base.toLong(), "
            "r.end.toLong(), r.budget, v); "
            "if (left >= 0) { r.budget = left; return v } }",
            f"val body = r.enter(base, r.u32(pos), pos + 4, {t}, depth)")
    else:
        out(f"val body = r.enter(base, r.u32(pos), pos + 4, {t}, depth)",
            f"val v = reuse ?: {n}()")
    out("vread0(r, body, r.len, depth - 1, v)",
        "return v")
    out.close()
    out("")
    fast = eligible(g.model, layout)
    out.open(f"fun vcheck0(r: {R}, pos: Int, base: Int, depth: Int) {{")
    if fast:
        out(f"if (depth >= {layout.depth}) {{ val left = vfast0(r.buf, pos.toLong(), base.toLong(), "
            "r.end.toLong(), r.budget); "
            "if (left >= 0) { r.budget = left; return } }")
    out(f"val body = r.enter(base, r.u32(pos), pos + 4, {t}, depth)",
        "vverify0(r, body, r.len, depth - 1)")
    out.close()
    out("")
    if not eligible(g.model, layout):
        out.open(f"fun fput0(w: {W}, v: {n}?) {{")
        out(f"if (v == null) throw dev.fastwire.EncodeException({null})", "ffields0(w, v)")
        out.close()
        out("")
    out.open(f"fun fget0(r: {R}, depth: Int, reuse: {n}?): {n} {{")
    out("if (depth < 1) throw dev.fastwire.Reader.fail(\"too_deep\")",
        f"val v = reuse ?: {n}()")
    if read:
        out(f"if (depth >= {layout.depth}) {{ val p = fgetFast0(r, r.buf, r.pos.toLong(), r.end.toLong(), v).toInt(); "
            "if (p >= 0) { r.pos = p; return v } }")
    out("fread0(r, depth - 1, v)", "return v")
    out.close()
    out("")
    out.open(f"fun fcheck0(r: {R}, depth: Int) {{")
    if fast:
        out(f"if (depth >= {layout.depth}) {{ val p = ffast0(r.buf, r.pos.toLong(), r.end.toLong()).toInt(); "
            "if (p >= 0) { r.pos = p; return } }")
    out("if (depth < 1) throw dev.fastwire.Reader.fail(\"too_deep\")", "fverify0(r, depth - 1)")
    out.close()
    out("")

    out.open(f"fun vfields0(w: {W}, body: Int, v: {n}) {{")
    for f in fields:
        out(vput_stmt(g, s, f, f"body + {f.offset}", "body", "v." + fname(g, f)))
    out.close()
    out("")

    out.open(f"fun vread0(r: {R}, body: Int, size: Int, depth: Int, v: {n}) {{")
    for f in fields:
        p = f"body + {f.offset}"
        end = f.offset + f.slot
        val = "v." + fname(g, f)
        dflt = g.default(f.wire, layout.defaults[f.index], fcodec(s, f))
        out(f"{val} = if (size >= {end}) {vget_expr(g, s, f, p, val)} else {dflt}")
    out.close()
    out("")

    out.open(f"fun vverify0(r: {R}, body: Int, size: Int, depth: Int) {{")
    for f in fields:
        st = vcheck_stmt(g, s, f, f"body + {f.offset}")
        if st:
            out(f"if (size >= {f.offset + f.slot}) {st}")
    out.close()
    out("")

    runs = {r.first: r for r in layout.final_runs}
    out.open(f"fun ffields0(w: {W}, v: {n}) {{")
    i = 0
    while i < len(fields):
        if i in runs:
            run = runs[i]
            out.open(f"run {{ val p = w.allocRaw({run.size})")
            for k, j in enumerate(run.indexes):
                f = fields[j]
                at = f"p + {run.offsets[k]}" if run.offsets[k] else "p"
                out(value_write(g, f.wire, at, "v." + fname(g, f)))
            out.close()
            i += run.count
            continue
        out(fput_stmt(g, s, fields[i], "v." + fname(g, fields[i])))
        i += 1
    out.close()
    out("")

    for verify in (False, True):
        if verify:
            out.open(f"fun fverify0(r: {R}, depth: Int) {{")
        else:
            out.open(f"fun fread0(r: {R}, depth: Int, v: {n}) {{")
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
                out(fcheck_stmt(g, s, f))
            else:
                out(f"v.{fname(g, f)} = {fget_expr(g, s, f, 'v.' + fname(g, f))}")
            i += 1
        out.close()
        out("")
    if fast:
        walk = FastWalk(g.model, True, lambda ref: g.qualified(ref) + ".Codec", g.unit)
        out("/** verify's fast path for the usual message (see fast.py); -1: take the general walk. */")
        out(*walk.versioned(layout))
        out("")
        out(*walk.final(layout))
        out("")
    if read:
        rd = FastRead(g.model, True, lambda ref: g.qualified(ref) + ".Codec", g.unit, g.qualified,
                      lambda w, p: value_read(g, w, p), lambda f: fname(g, f))
        out("/** deserialize's fast path for the usual message (see fast.py); -1: take the general read. */")
        out(*rd.vread(n, layout))
        out("")
        out(*rd.fread(n, layout))
        out("")
    out.close()
    out("")

    if fast:
        out(f"override fun vfast(d: ByteArray, slot: Int, base: Int, size: Int, left: Long, depth: Int): Long = "
            f"if (depth >= {layout.depth}) vfast0(d, slot.toLong(), base.toLong(), size.toLong(), left) else -1",
            f"override fun ffast(d: ByteArray, p: Int, end: Int, depth: Int): Int = "
            f"if (depth >= {layout.depth}) ffast0(d, p.toLong(), end.toLong()).toInt() else -1")
    out(f"override fun vfields(w: {W}, body: Int, v: {n}) = vfields0(w, body, v)",
        f"override fun vread(r: {R}, body: Int, size: Int, depth: Int, v: {n}) = vread0(r, body, size, depth, v)",
        f"override fun vverify(r: {R}, body: Int, size: Int, depth: Int) = vverify0(r, body, size, depth)",
        f"override fun ffields(w: {W}, v: {n}) = ffields0(w, v)",
        f"override fun fread(r: {R}, depth: Int, v: {n}) = fread0(r, depth, v)",
        f"override fun fverify(r: {R}, depth: Int) = fverify0(r, depth)",
        f"override fun vput(w: {W}, pos: Int, base: Int, v: {n}?) = vput0(w, pos, base, v)",
        f"override fun vget(r: {R}, pos: Int, base: Int, depth: Int, reuse: {n}?): {n} = "
        "vget0(r, pos, base, depth, reuse)",
        f"override fun vcheck(r: {R}, pos: Int, base: Int, depth: Int) = vcheck0(r, pos, base, depth)",
        f"override fun fput(w: {W}, v: {n}?) = fput0(w, v)",
        f"override fun fget(r: {R}, depth: Int, reuse: {n}?): {n} = fget0(r, depth, reuse)",
        f"override fun fcheck(r: {R}, depth: Int) = fcheck0(r, depth)",
        "")

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
