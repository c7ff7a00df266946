"""A struct's Java class and its codec (versioned, final, JSON), from the lowered model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ... import ir, lower
from ..jvm.fast import FastRead, FastWalk, eligible, readable
from ..jvm.fastput import FastPut, direct
from ..jvm.names import Lines
from .generator import READ, READ_RAW, SIZE_ADD, SIZE_CAST, SIZE_PUT, jstring

if TYPE_CHECKING:
    from .generator import JavaGen

VALUE = ("scalar", "timestamp", "decimal", "uuid", "enum", "flags")


def comparable_root(g: "JavaGen", s: ir.StructType) -> Optional[ir.StructType]:
    """The base-most struct of s's chain that has [key] fields (it implements Comparable)."""
    chain = [s]
    while chain[-1].base is not None:
        b = g.schema.lookup(chain[-1].base)
        assert isinstance(b, ir.StructType)
        chain.append(b)
    for t in reversed(chain):
        if t.key_fields:
            return t
    return None


def fname(g: "JavaGen", f: lower.FieldLayout) -> str:
    return g.ident(f.name)


def emit_struct(g: "JavaGen", out: Lines, pkg: ir.Package, s: ir.StructType) -> None:
    layout = g.model.struct(s.qualified_name)
    n = s.name
    base = None
    if s.base is not None:
        b = g.schema.lookup(s.base)
        assert isinstance(b, ir.StructType)
        base = b
    nbase = len(base.all_fields) if base is not None else 0
    own = layout.fields[nbase:]
    root = comparable_root(g, s)
    g.doc(out, s.doc)
    ext = f" extends {g.qualified(base.qualified_name)}" if base is not None else ""
    impl = f" implements Comparable<{g.qualified(root.qualified_name)}>" \
        if root is s else ""
    out.open(f"public class {n}{ext}{impl} {{")
    out("public static final Codec CODEC = new Codec();",
        f"public static final int TYPE = {layout.type_number};", "")
    irf = {f.name: f for f in s.all_fields}
    for f in own:
        fi = irf[f.name]
        g.doc(out, fi.doc)
        if fi.deprecated:
            out("@Deprecated")
        out(f"public {g.jtype(f.wire)} {fname(g, f)};")
    out("")
    out("/** A value with the schema's defaults. */")
    out.open(f"public {n}() {{")
    for f in own:
        out(f"{fname(g, f)} = {g.default(f.wire, layout.defaults[f.index], fcodec(f))};")
    out.close()
    out("")
    emit_equality(g, out, s, layout, root)
    emit_to_string(g, out, s, layout)
    emit_fields(g, out, s, layout)
    emit_codec(g, out, s, layout)
    out.close()


def fcodec(f: lower.FieldLayout) -> str:
    return f"Fields.F_{f.name}"


def is_value(w: lower.WireType) -> bool:
    return w.kind in VALUE


def emit_fields(g: "JavaGen", out: Lines, s: ir.StructType, layout: lower.StructLayout) -> None:
    """The field codecs, made on first use (after every CODEC exists: recursive types)."""
    out("/** The fields' codecs, made on first use (after every struct's CODEC exists). */")
    out.open("static final class Fields {")
    for f in layout.fields:
        out(f"static final dev.fastwire.Codec<{g.jtype(f.wire, True)}> F_{f.name} = {g.codec(f.wire)};")
    out.close()
    out("")


def eq_expr(g: "JavaGen", f: lower.FieldLayout, a: str, b: str) -> str:
    w = f.wire
    if w.kind in ("scalar", "timestamp"):
        return f"{a} == {b}"
    if w.kind in ("enum", "flags", "string", "uuid"):
        return f"java.util.Objects.equals({a}, {b})"
    return f"{fcodec(f)}.equal({a}, {b})"


def hash_expr(g: "JavaGen", f: lower.FieldLayout, a: str) -> str:
    w = f.wire
    if w.kind in ("scalar", "timestamp"):
        return f"{g.jtype(w, True)}.hashCode({a})"
    return f"{fcodec(f)}.hash({a})"


def cmp_expr(g: "JavaGen", f: lower.FieldLayout, a: str, b: str) -> str:
    w = f.wire
    sc = g.scalar_of(w)
    if sc in ("byte",):
        return f"Integer.compare({a} & 0xFF, {b} & 0xFF)"
    if sc in ("wchar",):
        return f"Integer.compareUnsigned({a}, {b})"
    if sc in ("uint64", "timestamp"):
        return f"Long.compareUnsigned({a}, {b})"
    if sc is not None and sc not in ("decimal", "uuid"):
        return f"{g.jtype(w, True)}.compare({a}, {b})"
    return f"{fcodec(f)}.comparator().compare({a}, {b})"


def emit_equality(g: "JavaGen", out: Lines, s: ir.StructType, layout: lower.StructLayout,
                  root: Optional[ir.StructType]) -> None:
    n = s.name
    eq = [layout.field(name) for name in layout.equality]
    out("/** Equal by the [key] fields (every field when there is none), as in every language. */")
    out("@Override")
    out.open("public boolean equals(Object o) {")
    out("if (this == o) return true;",
        "if (o == null || o.getClass() != getClass()) return false;")
    if eq:
        out(f"{n} other = ({n}) o;")
    conds = [eq_expr(g, f, fname(g, f), "other." + fname(g, f)) for f in eq]
    out("return " + (" && ".join(conds) if conds else "true") + ";")
    out.close()
    out("")
    out("@Override")
    out.open("public int hashCode() {")
    out("int h = 17;")
    for f in eq:
        out(f"h = 31 * h + {hash_expr(g, f, fname(g, f))};")
    out("return h;")
    out.close()
    out("")
    if root is not None:
        rt = g.qualified(root.qualified_name)
        keys = [layout.field(name) for name in layout.equality]
        out("/** Ordered by the [key] fields, in declaration order. */")
        out("@Override")
        out.open(f"public int compareTo({rt} o) {{")
        if root is not s:
            out(f"if (!(o instanceof {n})) return {rt}.CODEC.comparator().compare(this, o);")
        out(f"{n} other = ({n}) o;", "int c;")
        for f in keys:
            out(f"if ((c = {cmp_expr(g, f, fname(g, f), 'other.' + fname(g, f))}) != 0) return c;")
        out("return 0;")
        out.close()
        out("")


def emit_to_string(g: "JavaGen", out: Lines, s: ir.StructType, layout: lower.StructLayout) -> None:
    irf = {f.name: f for f in s.all_fields}
    out("@Override")
    out.open("public String toString() {")
    out(f"StringBuilder sb = new StringBuilder({jstring(s.name + '(')});")
    for i, f in enumerate(layout.fields):
        sep = "," if i else ""
        if irf[f.name].hidden:
            out(f"sb.append({jstring(sep + f.name + '=***')});")
        else:
            out(f"sb.append({jstring(sep + f.name + '=')}).append({fcodec(f)}.text({fname(g, f)}));")
    out("return sb.append(')').toString();")
    out.close()
    out("")


def emit_codec(g: "JavaGen", out: Lines, s: ir.StructType, layout: lower.StructLayout) -> None:
    n = s.name
    out(f"/** {n}'s codec: the versioned format, the final format and JSON. */")
    out.open(f"public static final class Codec extends dev.fastwire.StructCodec<{n}> {{")
    out.open("Codec() {")
    out(f"super({n}.class, {jstring(s.qualified_name)}, {layout.type_number}, {layout.body_size}, {layout.final_min});")
    out.close()
    out("")
    out(f"@Override public {n} create() {{ return new {n}(); }}", "")
    emit_entries(g, out, s, layout)

    # versioned write
    out.open(f"static void vfields0(dev.fastwire.Writer w, int body, {n} v) {{")
    for f in layout.fields:
        out(vput_stmt(g, f, f"body + {f.offset}", "body", "v." + fname(g, f)))
    out.close()
    out("")

    # versioned read
    out.open(f"static void vread0(dev.fastwire.Reader r, int body, int size, int depth, {n} v) {{")
    for f in layout.fields:
        end = f.offset + f.slot
        dflt = g.default(f.wire, layout.defaults[f.index], fcodec(f))
        out(f"if (size >= {end}) " + vget_stmt(g, f, f"body + {f.offset}", "v." + fname(g, f)),
            f"else v.{fname(g, f)} = {dflt};")
    out.close()
    out("")
    out.open("static void vverify0(dev.fastwire.Reader r, int body, int size, int depth) {")
    for f in layout.fields:
        st = vcheck_stmt(g, f, f"body + {f.offset}")
        if st:
            out(f"if (size >= {f.offset + f.slot}) {st}")
    out.close()
    out("")

    # final
    runs = {r.first: r for r in layout.final_runs}
    fields = layout.fields
    out.open(f"static void ffields0(dev.fastwire.Writer w, {n} v) {{")
    i = 0
    while i < len(fields):
        if i in runs:
            run = runs[i]
            out.open(f"{{ int p = w.allocRaw({run.size});")
            for k, j in enumerate(run.indexes):
                f = fields[j]
                at = f"p + {run.offsets[k]}" if run.offsets[k] else "p"
                out(vput_stmt(g, f, at, "p", "v." + fname(g, f)))
            out.close()
            i += run.count
            continue
        out(fput_stmt(g, fields[i], "v." + fname(g, fields[i])))
        i += 1
    out.close()
    out("")
    for verify in (False, True):
        if verify:
            out.open("static void fverify0(dev.fastwire.Reader r, int depth) {")
        else:
            out.open(f"static void fread0(dev.fastwire.Reader r, int depth, {n} v) {{")
        i = 0
        declared = False
        while i < len(fields):
            if i in runs:
                run = runs[i]
                needs = not verify or any(fields[j].wire.kind == "decimal" for j in run.indexes)
                if needs:
                    out(f"{'' if declared else 'int '}p = r.take({run.size});")
                    declared = True
                else:
                    out(f"r.take({run.size});")
                for k, j in enumerate(run.indexes):
                    f = fields[j]
                    at = f"p + {run.offsets[k]}" if run.offsets[k] else "p"
                    if verify:
                        if f.wire.kind == "decimal":
                            out(f"dev.fastwire.Reader.checkScale(r.u8({at} + 14));")
                    else:
                        out(f"v.{fname(g, f)} = {value_read(g, f.wire, at)};")
                i += run.count
                continue
            f = fields[i]
            if verify:
                out(fcheck_stmt(g, f))
            else:
                out(fget_stmt(g, f, "v." + fname(g, f)))
            i += 1
        out.close()
        out("")
    if eligible(g.model, layout):
        FastPut(False, lambda f, at, base, v: vput_stmt(g, f, at, base, v),
                lambda f, v: fput_stmt(g, f, v), lambda f, at, base, v: vput_stmt(g, f, at, base, v),
                lambda w: scodec(g, w), lambda f: fname(g, f), lambda w: g.jtype(w, True)).emit(
            out, n, jstring(s.qualified_name + " is null (not an optional)"), layout)
        walk = FastWalk(g.model, False, lambda ref: g.qualified(ref) + ".Codec", g.unit)
        out("/** verify's fast path for the usual message (see fast.py); -1: take the general walk. */")
        out(*walk.versioned(layout))
        out("")
        out(*walk.final(layout))
        out("")
        out(f"@Override public long vfast(byte[] d, int slot, int base, int size, long left, int depth) "
            f"{{ return depth >= {layout.depth} ? vfast0(d, slot, base, size, left) : -1; }}",
            f"@Override public int ffast(byte[] d, int p, int end, int depth) "
            f"{{ return depth >= {layout.depth} ? (int) ffast0(d, p, end) : -1; }}",
            "")
    if readable(g.model, layout):
        rd = FastRead(g.model, False, lambda ref: g.qualified(ref) + ".Codec", g.unit, g.qualified,
                      lambda w, p: value_read(g, w, p), lambda f: fname(g, f))
        out("/** deserialize's fast path for the usual message (see fast.py); -1: take the general read. */")
        out(*rd.vread(n, layout))
        out("")
        out(*rd.fread(n, layout))
        out("")

    # the framework's entry points, over the static ones
    W, R = "dev.fastwire.Writer", "dev.fastwire.Reader"
    out(f"@Override protected void vfields({W} w, int body, {n} v) {{ vfields0(w, body, v); }}",
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
        "")

    # JSON
    out("@Override")
    out.open(f"protected void jfields(dev.fastwire.JsonWriter w, {n} v) {{")
    for i, f in enumerate(layout.fields):
        key = ("," if i else "") + '"' + f.name + '":'
        out(f"w.key({jstring(key)});")
        out(jput_stmt(g, f, "v." + fname(g, f)))
    out.close()
    out("")
    out("@Override")
    out.open(f"protected boolean jfield(dev.fastwire.JsonReader r, {n} v) {{")
    out.open("switch (r.key) {")
    for f in layout.fields:
        out(f"case {jstring(f.name)}: v.{fname(g, f)} = {fcodec_of(g, f)}.jget(r); return true;")
    out("default: return false;")
    out.close()
    out.close()
    out.close()


def emit_entries(g: "JavaGen", out: Lines, s: ir.StructType, layout: lower.StructLayout) -> None:
    """Static entry points that other generated structs call directly (no virtual call)."""
    n = s.name
    t = layout.type_number
    null = jstring(s.qualified_name + " is null (not an optional)")
    fresh = f"reuse != null && reuse.getClass() == {n}.class ? reuse : new {n}()"
    out("/** Appends v's body (and its heap blocks) and writes its offset from base at pos. */")
    if eligible(g.model, layout):
        out(f"public static void vput0(dev.fastwire.Writer w, int pos, int base, {n} v) "
            "{ w.size = vw0(w, w.buf, w.size, pos, base, v); }",
            "",
            f"public static void fput0(dev.fastwire.Writer w, {n} v) {{ w.size = fw0(w, w.buf, w.size, v); }}",
            "")
    else:
        out.open(f"public static void vput0(dev.fastwire.Writer w, int pos, int base, {n} v) {{")
        out(f"if (v == null) throw new dev.fastwire.EncodeException({null});",
            f"int body = w.allocRaw({layout.body_size});",
            f"w.i32(body, {layout.body_size});",
            f"w.i32(body + 4, {t});",
            "vfields0(w, body, v);",
            "w.i32(pos, body - base);")
        out.close()
        out("")
    read = readable(g.model, layout)
    out.open(f"public static {n} vget0(dev.fastwire.Reader r, int pos, int base, int depth, {n} reuse) {{")
    if read:
        out(f"{n} v = {fresh};",
            f"if (depth >= {layout.depth}) {{ long left = vgetFast0(r, r.buf, pos, base, r.end, r.budget, v); "
            "if (left >= 0) { r.budget = left; return v; } }",
            f"int body = r.enter(base, r.u32(pos), pos + 4, {t}, depth);")
    else:
        out(f"int body = r.enter(base, r.u32(pos), pos + 4, {t}, depth);",
            f"{n} v = {fresh};")
    out("vread0(r, body, r.len, depth - 1, v);",
        "return v;")
    out.close()
    out("")
    fast = eligible(g.model, layout)
    out.open("public static void vcheck0(dev.fastwire.Reader r, int pos, int base, int depth) {")
    if fast:
        out(f"if (depth >= {layout.depth}) {{ long left = vfast0(r.buf, pos, base, r.end, r.budget); "
            "if (left >= 0) { r.budget = left; return; } }")
    out(f"int body = r.enter(base, r.u32(pos), pos + 4, {t}, depth);",
        "vverify0(r, body, r.len, depth - 1);")
    out.close()
    out("")
    if not eligible(g.model, layout):
        out.open(f"public static void fput0(dev.fastwire.Writer w, {n} v) {{")
        out(f"if (v == null) throw new dev.fastwire.EncodeException({null});",
            "ffields0(w, v);")
        out.close()
        out("")
    out.open(f"public static {n} fget0(dev.fastwire.Reader r, int depth, {n} reuse) {{")
    out("if (depth < 1) throw dev.fastwire.Reader.fail(\"too_deep\");",
        f"{n} v = {fresh};")
    if read:
        out(f"if (depth >= {layout.depth}) {{ int p = (int) fgetFast0(r, r.buf, r.pos, r.end, v); "
            "if (p >= 0) { r.pos = p; return v; } }")
    out("fread0(r, depth - 1, v);",
        "return v;")
    out.close()
    out("")
    out.open("public static void fcheck0(dev.fastwire.Reader r, int depth) {")
    if fast:
        out(f"if (depth >= {layout.depth}) {{ int p = (int) ffast0(r.buf, r.pos, r.end); "
            "if (p >= 0) { r.pos = p; return; } }")
    out("if (depth < 1) throw dev.fastwire.Reader.fail(\"too_deep\");",
        "fverify0(r, depth - 1);")
    out.close()
    out("")


def scodec(g: "JavaGen", w: lower.WireType) -> str:
    """A struct's codec class (its static entry points)."""
    assert w.ref is not None
    return g.qualified(w.ref) + ".Codec"


def vget_stmt(g: "JavaGen", f: lower.FieldLayout, p: str, cur: str) -> str:
    """Assigns the field read from the versioned slot at p."""
    w = f.wire
    d = direct(w)
    e = w.element
    if d == "string":
        return f"{cur} = dev.fastwire.Direct.vgetString(r, {p}, body, {cur});"
    if d == "bytes":
        return f"{cur} = dev.fastwire.Direct.vgetBytes(r, {p}, body);"
    if d == "struct":
        return f"{cur} = {scodec(g, w)}.vget0(r, {p}, body, depth, {cur});"
    if d == "opt":
        assert e is not None
        inner = (f"dev.fastwire.Direct.vgetString(r, q, q, {cur})" if e.kind == "string"
                 else f"{scodec(g, e)}.vget0(r, q, q, depth, {cur})")
        return (f"{{ int q = dev.fastwire.Direct.vgetOptional(r, {p}, body, {e.slot}); "
                f"{cur} = q < 0 ? null : {inner}; }}")
    if d == "seq":
        assert e is not None
        u = g.unit
        return "\n".join([
            f"{{ java.util.List<{g.jtype(e, True)}> out = dev.fastwire.Direct.list({cur});",
            f"{u}int at = dev.fastwire.Direct.vgetSequence(r, {p}, body, {e.slot});",
            f"{u}int n = at < 0 ? 0 : r.len, old = out.size();",
            f"{u}for (int i = 0; i < n; i++) dev.fastwire.Direct.set(out, i, old, "
            f"{scodec(g, e)}.vget0(r, at + {e.slot} * i, body, depth, i < old ? out.get(i) : null));",
            f"{u}dev.fastwire.Direct.trim(out, n);",
            f"{u}{cur} = out; }}"])
    if is_value(w):
        return f"{cur} = {value_read(g, w, p)};"
    return f"{cur} = {fcodec_of(g, f)}.vget(r, {p}, body, depth, {cur});"


def fcodec_of(g: "JavaGen", f: lower.FieldLayout) -> str:
    """The codec expression for a field in generated code (struct fields: their CODEC)."""
    if f.wire.kind == "struct":
        return g.codec(f.wire)
    return fcodec(f)


def value_read(g: "JavaGen", w: lower.WireType, p: str) -> str:
    if w.kind in ("enum", "flags"):
        assert w.ref is not None and w.scalar is not None
        return f"{g.qualified(w.ref)}.of({READ_RAW[w.scalar].format(p=p)})"
    sc = g.scalar_of(w)
    assert sc is not None
    return READ[sc].format(p=p)


def vcheck_stmt(g: "JavaGen", f: lower.FieldLayout, p: str) -> Optional[str]:
    w = f.wire
    if w.kind == "decimal":
        return f"dev.fastwire.Reader.checkScale(r.u8({p} + 14));"
    if is_value(w):
        return None
    d = direct(w)
    e = w.element
    if d in ("string", "bytes"):
        return f"dev.fastwire.Direct.vcheckText(r, {p}, body);"
    if d == "struct":
        return f"{scodec(g, w)}.vcheck0(r, {p}, body, depth);"
    if d == "opt":
        assert e is not None
        inner = ("dev.fastwire.Direct.vcheckText(r, q, q)" if e.kind == "string"
                 else f"{scodec(g, e)}.vcheck0(r, q, q, depth)")
        return (f"{{ int q = dev.fastwire.Direct.vgetOptional(r, {p}, body, {e.slot}); "
                f"if (q >= 0) {inner}; }}")
    if d == "seq":
        assert e is not None
        return (f"{{ int at = dev.fastwire.Direct.vgetSequence(r, {p}, body, {e.slot}); "
                f"for (int i = 0, n = at < 0 ? 0 : r.len; i < n; i++) "
                f"{scodec(g, e)}.vcheck0(r, at + {e.slot} * i, body, depth); }}")
    if w.kind == "array" and w.element is not None and w.element.kind in (
            "scalar", "timestamp", "uuid", "enum", "flags"):
        return None
    return f"{fcodec_of(g, f)}.vcheck(r, {p}, body, depth);"


def raw_value(g: "JavaGen", w: lower.WireType, v: str) -> str:
    """A value kind's raw bits for writing (enums: their value)."""
    if w.kind in ("enum", "flags"):
        return f"{v}.value"
    return v


def vput_stmt(g: "JavaGen", f: lower.FieldLayout, p: str, base: str, v: str) -> str:
    w = f.wire
    if w.kind in ("scalar", "timestamp", "enum", "flags"):
        sc = w.scalar if w.kind != "timestamp" else "uint64"
        assert sc is not None
        if sc == "bool":
            return f"w.buf[{p}] = (byte) ({v} ? 1 : 0);"
        if sc == "float":
            return f"w.f32({p}, {v});"
        if sc == "double":
            return f"w.f64({p}, {v});"
        size = ir.PRIMITIVE_SIZES[sc] or 8
        return f"w.{SIZE_PUT[size]}({p}, {SIZE_CAST[size]}{raw_value(g, w, v)});"
    if w.kind == "decimal":
        return f"dev.fastwire.Decimals.write(w.buf, {p}, {v});"
    if w.kind == "uuid":
        return f"dev.fastwire.Uuids.write(w.buf, {p}, {v});"
    d = direct(w)
    e = w.element
    if d == "string":
        return f"dev.fastwire.Direct.vputString(w, {p}, {base}, {v});"
    if d == "bytes":
        return f"dev.fastwire.Direct.vputBytes(w, {p}, {base}, {v});"
    if d == "struct":
        return f"{scodec(g, w)}.vput0(w, {p}, {base}, {v});"
    if d == "opt":
        assert e is not None
        inner = ("dev.fastwire.Direct.vputString(w, q, q, x)" if e.kind == "string"
                 else f"{scodec(g, e)}.vput0(w, q, q, x)")
        return (f"{{ {g.jtype(e, True)} x = {v}; "
                f"int q = dev.fastwire.Direct.vputOptional(w, {p}, {base}, x != null, {e.slot}); "
                f"if (q >= 0) {inner}; }}")
    if d == "seq":
        assert e is not None
        return (f"{{ java.util.List<{g.jtype(e, True)}> x = {v}; int n = x.size(); "
                f"int at = dev.fastwire.Direct.vputSequence(w, {p}, {base}, n, {e.slot}); "
                f"for (int i = 0; i < n; i++) {scodec(g, e)}.vput0(w, at + {e.slot} * i, {base}, x.get(i)); }}")
    return f"{fcodec_of(g, f)}.vput(w, {p}, {base}, {v});"


def fput_stmt(g: "JavaGen", f: lower.FieldLayout, v: str) -> str:
    w = f.wire
    if w.kind in ("scalar", "timestamp", "enum", "flags"):
        sc = w.scalar if w.kind != "timestamp" else "uint64"
        assert sc is not None
        if sc == "bool":
            return f"w.addU8({v} ? 1 : 0);"
        if sc == "float":
            return f"w.addF32({v});"
        if sc == "double":
            return f"w.addF64({v});"
        size = ir.PRIMITIVE_SIZES[sc] or 8
        return f"w.{SIZE_ADD[size]}({SIZE_CAST[size]}{raw_value(g, w, v)});"
    if w.kind == "decimal":
        return f"dev.fastwire.Decimals.write(w.buf, w.allocRaw(16), {v});"
    if w.kind == "uuid":
        return f"dev.fastwire.Uuids.write(w.buf, w.allocRaw(16), {v});"
    d = direct(w)
    e = w.element
    if d == "string":
        return f"dev.fastwire.Direct.fputString(w, {v});"
    if d == "bytes":
        return f"dev.fastwire.Direct.fputBytes(w, {v});"
    if d == "struct":
        return f"{scodec(g, w)}.fput0(w, {v});"
    if d == "opt":
        assert e is not None
        inner = ("dev.fastwire.Direct.fputString(w, x)" if e.kind == "string"
                 else f"{scodec(g, e)}.fput0(w, x)")
        return (f"{{ {g.jtype(e, True)} x = {v}; w.addU8(x != null ? 1 : 0); "
                f"if (x != null) {inner}; }}")
    if d == "seq":
        assert e is not None
        return (f"{{ java.util.List<{g.jtype(e, True)}> x = {v}; int n = x.size(); w.addI32(n); "
                f"for (int i = 0; i < n; i++) {scodec(g, e)}.fput0(w, x.get(i)); }}")
    return f"{fcodec_of(g, f)}.fput(w, {v});"


def fget_stmt(g: "JavaGen", f: lower.FieldLayout, cur: str) -> str:
    """Assigns the field read at the final-format cursor."""
    w = f.wire
    d = direct(w)
    e = w.element
    if d == "string":
        return f"{cur} = dev.fastwire.Direct.fgetString(r, {cur});"
    if d == "bytes":
        return f"{cur} = dev.fastwire.Direct.fgetBytes(r);"
    if d == "struct":
        return f"{cur} = {scodec(g, w)}.fget0(r, depth, {cur});"
    if d == "opt":
        assert e is not None
        inner = (f"dev.fastwire.Direct.fgetString(r, {cur})" if e.kind == "string"
                 else f"{scodec(g, e)}.fget0(r, depth, {cur})")
        return f"{cur} = dev.fastwire.Direct.fpresent(r) ? {inner} : null;"
    if d == "seq":
        assert e is not None
        u = g.unit
        return "\n".join([
            f"{{ java.util.List<{g.jtype(e, True)}> out = dev.fastwire.Direct.list({cur});",
            f"{u}int n = r.count({e.final_min}), old = out.size();",
            f"{u}for (int i = 0; i < n; i++) dev.fastwire.Direct.set(out, i, old, "
            f"{scodec(g, e)}.fget0(r, depth, i < old ? out.get(i) : null));",
            f"{u}dev.fastwire.Direct.trim(out, n);",
            f"{u}{cur} = out; }}"])
    return f"{cur} = {fcodec_of(g, f)}.fget(r, depth, {cur});"


def fcheck_stmt(g: "JavaGen", f: lower.FieldLayout) -> str:
    w = f.wire
    d = direct(w)
    e = w.element
    if d in ("string", "bytes"):
        return "dev.fastwire.Direct.fcheckText(r);"
    if d == "struct":
        return f"{scodec(g, w)}.fcheck0(r, depth);"
    if d == "opt":
        assert e is not None
        inner = ("dev.fastwire.Direct.fcheckText(r)" if e.kind == "string"
                 else f"{scodec(g, e)}.fcheck0(r, depth)")
        return f"if (dev.fastwire.Direct.fpresent(r)) {inner};"
    if d == "seq":
        assert e is not None
        return (f"for (int i = 0, n = r.count({e.final_min}); i < n; i++) "
                f"{scodec(g, e)}.fcheck0(r, depth);")
    return f"{fcodec_of(g, f)}.fcheck(r, depth);"


def jput_stmt(g: "JavaGen", f: lower.FieldLayout, v: str) -> str:
    w = f.wire
    sc = w.scalar if w.kind == "scalar" else ("uint64" if w.kind == "timestamp" else None)
    if sc is None:
        return f"{fcodec_of(g, f)}.jput(w, {v});"
    if sc == "bool":
        return f"w.bool({v});"
    if sc in ("float", "double"):
        return f"w.number({v});"
    if sc in ("byte", "char", "uint8"):
        return f"w.integer({v} & 0xFF);"
    if sc == "uint16":
        return f"w.integer({v} & 0xFFFF);"
    if sc in ("wchar", "uint32"):
        return f"w.integer({v} & 0xFFFFFFFFL);"
    if sc == "uint64":
        return f"w.unsigned({v});"
    return f"w.integer({v});"
