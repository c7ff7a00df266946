"""A struct's Codec (a dev.fastwire.StructCodec): the static entry points other generated
structs call, the general bodies of both formats (jvm/codec.py), the fast paths when the
struct has them (jvm/fast.py, jvm/fastput.py), the framework's overrides and JSON."""

from __future__ import annotations

from ... import ir, lower
from ..jvm import codec as bodies
from ..jvm import names
from ..jvm.fast import FastRead, FastWalk, eligible, readable
from ..jvm.fastput import FastPut
from ..printer import Printer
from . import json
from .names import field, jstring
from .syntax import JavaSyntax

W, R = "dev.fastwire.Writer", "dev.fastwire.Reader"


def codec_class(p: Printer, model: lower.WireModel, s: ir.StructType, layout: lower.StructLayout) -> None:
    n = s.name
    schema = model.schema
    syn = JavaSyntax(schema)
    p.value(f"/** {n}'s codec: the versioned format, the final format and JSON. */")
    p.value(f"public static final class Codec extends dev.fastwire.StructCodec<{n}> {{")
    p.indent()
    with p.block("Codec() {", "}"):
        p.value(f"super({n}.class, {jstring(s.qualified_name)}, {layout.type_number}, {layout.body_size}, "
                f"{layout.final_min});")
    p.value("")
    p.value(f"@Override public {n} create() {{ return new {n}(); }}")
    p.value("")
    entries(p, model, s, layout)
    for head, part in ((f"static void vfields0({W} w, int body, {n} v) {{", "vfields"),
                       (f"static void vread0({R} r, int body, int size, int depth, {n} v) {{", "vread"),
                       (f"static void vverify0({R} r, int body, int size, int depth) {{", "vverify")):
        with p.block(head, "}"):
            bodies.versioned(p, syn, layout, part)
        p.value("")
    with p.block(f"static void ffields0({W} w, {n} v) {{", "}"):
        bodies.final_fields(p, syn, layout)
    p.value("")
    for head, verify in ((f"static void fread0({R} r, int depth, {n} v) {{", False),
                         (f"static void fverify0({R} r, int depth) {{", True)):
        with p.block(head, "}"):
            bodies.final_read(p, syn, layout, verify)
        p.value("")
    struct_class = syn.scodec
    if eligible(model, layout):
        FastPut(p, syn, struct_class, field).emit(n, jstring(s.qualified_name + " is null (not an optional)"),
                                                  layout)
        walk = FastWalk(p, syn, struct_class)
        p.value("/** verify's fast path for the usual message (see fast.py); -1: take the general walk. */")
        walk.versioned(layout)
        p.value("")
        walk.final(layout)
        p.value("")
        p.value(f"@Override public long vfast(byte[] d, int slot, int base, int size, long left, int depth) "
                f"{{ return depth >= {layout.depth} ? vfast0(d, slot, base, size, left) : -1; }}")
        p.value(f"@Override public int ffast(byte[] d, int p, int end, int depth) "
                f"{{ return depth >= {layout.depth} ? (int) ffast0(d, p, end) : -1; }}")
        p.value("")
    if readable(model, layout):
        rd = FastRead(p, syn, struct_class, lambda ref: names.qualified(schema, ref), field)
        p.value("/** deserialize's fast path for the usual message (see fast.py); -1: take the general read. */")
        rd.vread(n, layout)
        p.value("")
        rd.fread(n, layout)
        p.value("")
    for line in (
            f"@Override protected void vfields({W} w, int body, {n} v) {{ vfields0(w, body, v); }}",
            f"@Override protected void vread({R} r, int body, int size, int depth, {n} v) "
            "{ vread0(r, body, size, depth, v); }",
            f"@Override protected void vverify({R} r, int body, int size, int depth) "
            "{ vverify0(r, body, size, depth); }",
            f"@Override protected void ffields({W} w, {n} v) {{ ffields0(w, v); }}",
            f"@Override protected void fread({R} r, int depth, {n} v) {{ fread0(r, depth, v); }}",
            f"@Override protected void fverify({R} r, int depth) {{ fverify0(r, depth); }}",
            f"@Override public void vput({W} w, int pos, int base, {n} v) {{ vput0(w, pos, base, v); }}",
            f"@Override public {n} vget({R} r, int pos, int base, int depth, {n} reuse) "
            "{ return vget0(r, pos, base, depth, reuse); }",
            f"@Override public void vcheck({R} r, int pos, int base, int depth) {{ vcheck0(r, pos, base, depth); }}",
            f"@Override public void fput({W} w, {n} v) {{ fput0(w, v); }}",
            f"@Override public {n} fget({R} r, int depth, {n} reuse) {{ return fget0(r, depth, reuse); }}",
            f"@Override public void fcheck({R} r, int depth) {{ fcheck0(r, depth); }}",
            ""):
        p.value(line)
    json.json(p, schema, n, layout)
    p.outdent()
    p.value("}")


def entries(p: Printer, model: lower.WireModel, s: ir.StructType, layout: lower.StructLayout) -> None:
    """Static entry points that other generated structs call directly (no virtual call)."""
    n = s.name
    t = layout.type_number
    null = jstring(s.qualified_name + " is null (not an optional)")
    fresh = f"reuse != null && reuse.getClass() == {n}.class ? reuse : new {n}()"
    fast, read = eligible(model, layout), readable(model, layout)
    enter = f"int body = r.enter(base, r.u32(pos), pos + 4, {t}, depth);"
    p.value("/** Appends v's body (and its heap blocks) and writes its offset from base at pos. */")
    if fast:
        p.value(f"public static void vput0({W} w, int pos, int base, {n} v) "
                "{ w.size = vw0(w, w.buf, w.size, pos, base, v); }")
        p.value("")
        p.value(f"public static void fput0({W} w, {n} v) {{ w.size = fw0(w, w.buf, w.size, v); }}")
        p.value("")
    else:
        with p.block(f"public static void vput0({W} w, int pos, int base, {n} v) {{", "}"):
            for line in (f"if (v == null) throw new dev.fastwire.EncodeException({null});",
                         f"int body = w.allocRaw({layout.body_size});", f"w.i32(body, {layout.body_size});",
                         f"w.i32(body + 4, {t});", "vfields0(w, body, v);", "w.i32(pos, body - base);"):
                p.value(line)
        p.value("")
    with p.block(f"public static {n} vget0({R} r, int pos, int base, int depth, {n} reuse) {{", "}"):
        if read:
            p.value(f"{n} v = {fresh};")
            p.value(f"if (depth >= {layout.depth}) {{ long left = vgetFast0(r, r.buf, pos, base, r.end, r.budget, v); "
                    "if (left >= 0) { r.budget = left; return v; } }")
            p.value(enter)
        else:
            p.value(enter)
            p.value(f"{n} v = {fresh};")
        p.value("vread0(r, body, r.len, depth - 1, v);")
        p.value("return v;")
    p.value("")
    with p.block(f"public static void vcheck0({R} r, int pos, int base, int depth) {{", "}"):
        if fast:
            p.value(f"if (depth >= {layout.depth}) {{ long left = vfast0(r.buf, pos, base, r.end, r.budget); "
                    "if (left >= 0) { r.budget = left; return; } }")
        p.value(enter)
        p.value("vverify0(r, body, r.len, depth - 1);")
    p.value("")
    if not fast:
        with p.block(f"public static void fput0({W} w, {n} v) {{", "}"):
            p.value(f"if (v == null) throw new dev.fastwire.EncodeException({null});")
            p.value("ffields0(w, v);")
        p.value("")
    with p.block(f"public static {n} fget0({R} r, int depth, {n} reuse) {{", "}"):
        p.value("if (depth < 1) throw dev.fastwire.Reader.fail(\"too_deep\");")
        p.value(f"{n} v = {fresh};")
        if read:
            p.value(f"if (depth >= {layout.depth}) {{ int p = (int) fgetFast0(r, r.buf, r.pos, r.end, v); "
                    "if (p >= 0) { r.pos = p; return v; } }")
        p.value("fread0(r, depth - 1, v);")
        p.value("return v;")
    p.value("")
    with p.block(f"public static void fcheck0({R} r, int depth) {{", "}"):
        if fast:
            p.value(f"if (depth >= {layout.depth}) {{ int p = (int) ffast0(r.buf, r.pos, r.end); "
                    "if (p >= 0) { r.pos = p; return; } }")
        p.value("if (depth < 1) throw dev.fastwire.Reader.fail(\"too_deep\");")
        p.value("fverify0(r, depth - 1);")
    p.value("")
