"""A struct's Codec (a dev.fastwire.StructCodec): in its companion object the static entry
points other generated structs call, the general bodies of both formats (jvm/codec.py) and
the fast paths when the struct has them (jvm/fast.py, jvm/fastput.py); the framework's
overrides and JSON."""

from __future__ import annotations

from ... import ir, lower
from ..jvm import codec as bodies
from ..jvm import names
from ..jvm.fast import FastRead, FastWalk, eligible, readable
from ..jvm.fastput import FastPut
from ..printer import Printer
from . import json
from .names import field, kstring
from .syntax import KotlinSyntax

W, R = "dev.fastwire.Writer", "dev.fastwire.Reader"


def codec_class(p: Printer, model: lower.WireModel, pkg: ir.Package, s: ir.StructType,
                layout: lower.StructLayout) -> None:
    n, t, schema = s.name, layout.type_number, model.schema
    syn = KotlinSyntax(schema, pkg, s)
    null = kstring(s.qualified_name + " is null (not an optional)")
    fast, read = eligible(model, layout), readable(model, layout)
    enter = f"val body = r.enter(base, r.u32(pos), pos + 4, {t}, depth)"
    p.value(f"/** {n}'s codec: the versioned format, the final format and JSON. */")
    p.value(f"class Codec internal constructor() : dev.fastwire.StructCodec<{n}>({n}::class.java, "
            f"{kstring(s.qualified_name)}, {t}, {layout.body_size}, {layout.final_min}) {{")
    p.indent()
    p.value(f"override fun create(): {n} = {n}()")
    p.value("")
    p.value("/** Static entry points that other generated structs call directly (no virtual call). */")
    p.value("companion object {")
    p.indent()
    if fast:
        p.value(f"fun vput0(w: {W}, pos: Int, base: Int, v: {n}?) {{ w.size = vw0(w, w.size, pos, base, v) }}")
        p.value("")
        p.value(f"fun fput0(w: {W}, v: {n}?) {{ w.size = fw0(w, w.buf, w.size, v) }}")
        p.value("")
        FastPut(p, syn, syn.scodec, field).emit(n, null, layout)
    else:
        with p.block(f"fun vput0(w: {W}, pos: Int, base: Int, v: {n}?) {{", "}"):
            for line in (f"if (v == null) throw dev.fastwire.EncodeException({null})",
                         f"val body = w.allocRaw({layout.body_size})", f"w.i32(body, {layout.body_size})",
                         f"w.i32(body + 4, {t})", "vfields0(w, body, v)", "w.i32(pos, body - base)"):
                p.value(line)
        p.value("")
    with p.block(f"fun vget0(r: {R}, pos: Int, base: Int, depth: Int, reuse: {n}?): {n} {{", "}"):
        if read:
            p.value(f"val v = reuse ?: {n}()")
            p.value(f"if (depth >= {layout.depth}) {{ val left = vgetFast0(r, r.buf, pos.toLong(), base.toLong(), "
                    "r.end.toLong(), r.budget, v); if (left >= 0) { r.budget = left; return v } }")
            p.value(enter)
        else:
            p.value(enter)
            p.value(f"val v = reuse ?: {n}()")
        p.value("vread0(r, body, r.len, depth - 1, v)")
        p.value("return v")
    p.value("")
    with p.block(f"fun vcheck0(r: {R}, pos: Int, base: Int, depth: Int) {{", "}"):
        if fast:
            p.value(f"if (depth >= {layout.depth}) {{ val left = vfast0(r.buf, pos.toLong(), base.toLong(), "
                    "r.end.toLong(), r.budget); if (left >= 0) { r.budget = left; return } }")
        p.value(enter)
        p.value("vverify0(r, body, r.len, depth - 1)")
    p.value("")
    if not fast:
        with p.block(f"fun fput0(w: {W}, v: {n}?) {{", "}"):
            p.value(f"if (v == null) throw dev.fastwire.EncodeException({null})")
            p.value("ffields0(w, v)")
        p.value("")
    with p.block(f"fun fget0(r: {R}, depth: Int, reuse: {n}?): {n} {{", "}"):
        p.value("if (depth < 1) throw dev.fastwire.Reader.fail(\"too_deep\")")
        p.value(f"val v = reuse ?: {n}()")
        if read:
            p.value(f"if (depth >= {layout.depth}) {{ val p = fgetFast0(r, r.buf, r.pos.toLong(), r.end.toLong(), "
                    "v).toInt(); if (p >= 0) { r.pos = p; return v } }")
        p.value("fread0(r, depth - 1, v)")
        p.value("return v")
    p.value("")
    with p.block(f"fun fcheck0(r: {R}, depth: Int) {{", "}"):
        if fast:
            p.value(f"if (depth >= {layout.depth}) {{ val p = ffast0(r.buf, r.pos.toLong(), r.end.toLong()).toInt(); "
                    "if (p >= 0) { r.pos = p; return } }")
        p.value("if (depth < 1) throw dev.fastwire.Reader.fail(\"too_deep\")")
        p.value("fverify0(r, depth - 1)")
    p.value("")
    for head, part in ((f"fun vfields0(w: {W}, body: Int, v: {n}) {{", "vfields"),
                       (f"fun vread0(r: {R}, body: Int, size: Int, depth: Int, v: {n}) {{", "vread"),
                       (f"fun vverify0(r: {R}, body: Int, size: Int, depth: Int) {{", "vverify")):
        with p.block(head, "}"):
            bodies.versioned(p, syn, layout, part)
        p.value("")
    with p.block(f"fun ffields0(w: {W}, v: {n}) {{", "}"):
        bodies.final_fields(p, syn, layout)
    p.value("")
    for head, verify in ((f"fun fread0(r: {R}, depth: Int, v: {n}) {{", False),
                         (f"fun fverify0(r: {R}, depth: Int) {{", True)):
        with p.block(head, "}"):
            bodies.final_read(p, syn, layout, verify)
        p.value("")
    if fast:
        walk = FastWalk(p, syn, syn.scodec)
        p.value("/** verify's fast path for the usual message (see fast.py); -1: take the general walk. */")
        walk.versioned(layout)
        p.value("")
        walk.final(layout)
        p.value("")
    if read:
        rd = FastRead(p, syn, syn.scodec, lambda ref: names.qualified(schema, ref), field)
        p.value("/** deserialize's fast path for the usual message (see fast.py); -1: take the general read. */")
        rd.vread(n, layout)
        p.value("")
        rd.fread(n, layout)
        p.value("")
    p.outdent()
    p.value("}")
    p.value("")
    if fast:
        p.value(f"override fun vfast(d: ByteArray, slot: Int, base: Int, size: Int, left: Long, depth: Int): Long = "
                f"if (depth >= {layout.depth}) vfast0(d, slot.toLong(), base.toLong(), size.toLong(), left) else -1")
        p.value(f"override fun ffast(d: ByteArray, p: Int, end: Int, depth: Int): Int = "
                f"if (depth >= {layout.depth}) ffast0(d, p.toLong(), end.toLong()).toInt() else -1")
    for line in (
            f"override fun vfields(w: {W}, body: Int, v: {n}) = vfields0(w, body, v)",
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
            ""):
        p.value(line)
    json.json(p, schema, pkg, s, layout)
    p.outdent()
    p.value("}")
