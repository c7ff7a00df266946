"""The straight-line serialize of a non-recursive struct, for the Java generator.

vw0 (versioned) and fw0 (final) take the writer's buffer and end as locals (`b`, `p`),
make room once for each fixed block (a body, a final run, a collection's slots) and store
through the little-endian byte-array views; short ASCII strings are written in line. They
return the new end, which the entry point stores in the writer once. Anything else falls
back to the general statement on the writer: `w.size = p; ...; p = w.size; b = w.buf;`.
The invariant is `b == w.buf` (Writer.room returns the grown buffer), so the general
statements and the nested structs' calls see the same bytes. The bytes written are the
general path's, byte for byte.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from ... import lower
from .generator import Lines
from .struct import direct, fname, fput_stmt, scodec, vput_stmt

if TYPE_CHECKING:
    from .generator import JavaGen

F = "dev.fastwire.Fast"
_MAP = [("w.buf[", "b["), ("w.u8(", F + ".w8(b, "), ("w.i16(", F + ".w16(b, "),
        ("w.i32(", F + ".w32(b, "), ("w.i64(", F + ".w64(b, "), ("w.f32(", F + ".wf32(b, "),
        ("w.f64(", F + ".wf64(b, "), ("(w.buf, ", "(b, ")]


def local(stmt: str) -> str:
    """A slot store on the writer as a store into b; '' when it is not one."""
    for a, c in _MAP:
        stmt = stmt.replace(a, c)
    return "" if "w." in stmt or "(w," in stmt else stmt


def general(stmt: str) -> List[str]:
    return ["w.size = p;", stmt, "p = w.size; b = w.buf;"]


def vstring(v: str, slot: str, base: str) -> List[str]:
    return [f"{{ String s = {v}; int n = s.length(); long x;",
            f"    if (n <= 8 && p + 12 <= b.length && (x = {F}.pack8(s, n)) != -1L) "
            f"{{ {F}.w64(b, p + 4, x); {F}.w32(b, p, n); {F}.w32(b, {slot}, p - {base}); p += 4 + n; }}",
            f"    else {{ w.size = p; dev.fastwire.Direct.vputString(w, {slot}, {base}, s); "
            "p = w.size; b = w.buf; } }"]


def fstring(v: str) -> List[str]:
    return [f"{{ String s = {v}; int n = s.length(); long x;",
            f"    if (n <= 8 && p + 12 <= b.length && (x = {F}.pack8(s, n)) != -1L) "
            f"{{ {F}.w64(b, p + 4, x); {F}.w32(b, p, n); p += 4 + n; }}",
            "    else { w.size = p; dev.fastwire.Direct.fputString(w, s); p = w.size; b = w.buf; } }"]


def emit(g: "JavaGen", out: Lines, name: str, null: str,
         layout: lower.StructLayout) -> None:
    bs, t = layout.body_size, layout.type_number
    out("/** serialize's straight-line path (see fastput.py): returns the new end. */")
    out.open(f"public static int vw0(dev.fastwire.Writer w, byte[] b, int p, int pos, int base, {name} v) {{")
    out(f"if (v == null) throw new dev.fastwire.EncodeException({null});",
        "int body = p;",
        f"if (p + {bs} > b.length) b = w.room(p, {bs});",
        f"p += {bs};",
        f"{F}.w32(b, body, {bs});",
        f"{F}.w32(b, body + 4, {t});",
        f"{F}.w32(b, pos, body - base);")
    for f in layout.fields:
        slot = f"body + {f.offset}"
        v = "v." + fname(g, f)
        w = f.wire
        e = w.element
        d = direct(w)
        st = local(vput_stmt(g, f, slot, "body", v))
        if st:
            out(st)
        elif d == "string":
            out(*vstring(v, slot, "body"))
        elif d == "struct":
            out(f"p = {scodec(g, w)}.vw0(w, b, p, {slot}, body, {v}); b = w.buf;")
        elif d == "opt" and e is not None and e.kind == "struct":
            c = scodec(g, e)
            out(f"{{ {g.jtype(e, True)} x = {v};",
                f"    if (x == null) {{ b[{slot}] = 0; {F}.w32(b, {slot} + 1, 0); }}",
                f"    else {{ int q = p; if (p + {e.slot} > b.length) b = w.room(p, {e.slot}); p += {e.slot}; "
                f"b[{slot}] = 1; {F}.w32(b, {slot} + 1, q - body); p = {c}.vw0(w, b, p, q, q, x); b = w.buf; }} }}")
        elif d == "seq" and e is not None:
            c = scodec(g, e)
            out(f"{{ java.util.List<{g.jtype(e, True)}> x = {v}; int n = x.size(); long z = 4 + (long) n * {e.slot};",
                "    if (z > Integer.MAX_VALUE) throw new dev.fastwire.EncodeException(\"collection too large\");",
                "    if (p + z > b.length) b = w.room(p, z);",
                f"    {F}.w32(b, p, n); {F}.w32(b, {slot}, p - body); int at = p + 4; p += (int) z;",
                f"    for (int i = 0; i < n; i++) {{ p = {c}.vw0(w, b, p, at + {e.slot} * i, body, x.get(i)); "
                "b = w.buf; } }")
        else:
            out(*general(vput_stmt(g, f, slot, "body", v)))
    out("return p;")
    out.close()
    out("")

    runs = {r.first: r for r in layout.final_runs}
    fields = layout.fields
    out.open(f"public static int fw0(dev.fastwire.Writer w, byte[] b, int p, {name} v) {{")
    out(f"if (v == null) throw new dev.fastwire.EncodeException({null});")
    i = 0
    while i < len(fields):
        if i in runs:
            run = runs[i]
            stores = []
            for k, j in enumerate(run.indexes):
                f = fields[j]
                at = f"p + {run.offsets[k]}" if run.offsets[k] else "p"
                stores.append(local(vput_stmt(g, f, at, "p", "v." + fname(g, f))))
            if all(stores):
                out(f"if (p + {run.size} > b.length) b = w.room(p, {run.size});", *stores,
                    f"p += {run.size};")
            else:
                out("w.size = p;", f"{{ int q = w.allocRaw({run.size});")
                for k, j in enumerate(run.indexes):
                    f = fields[j]
                    at = f"q + {run.offsets[k]}" if run.offsets[k] else "q"
                    out("    " + vput_stmt(g, f, at, "q", "v." + fname(g, f)))
                out("}", "p = w.size; b = w.buf;")
            i += run.count
            continue
        f = fields[i]
        v = "v." + fname(g, f)
        w = f.wire
        e = w.element
        d = direct(w)
        if d == "string":
            out(*fstring(v))
        elif d == "struct":
            out(f"p = {scodec(g, w)}.fw0(w, b, p, {v}); b = w.buf;")
        elif d == "opt" and e is not None and e.kind == "struct":
            out(f"{{ {g.jtype(e, True)} x = {v}; if (p + 1 > b.length) b = w.room(p, 1); "
                "b[p++] = (byte) (x != null ? 1 : 0);",
                f"    if (x != null) {{ p = {scodec(g, e)}.fw0(w, b, p, x); b = w.buf; }} }}")
        elif d == "seq" and e is not None:
            out(f"{{ java.util.List<{g.jtype(e, True)}> x = {v}; int n = x.size(); "
                f"if (p + 4 > b.length) b = w.room(p, 4); {F}.w32(b, p, n); p += 4;",
                f"    for (int i = 0; i < n; i++) {{ p = {scodec(g, e)}.fw0(w, b, p, x.get(i)); b = w.buf; }} }}")
        else:
            out(*general(fput_stmt(g, f, v)))
        i += 1
    out("return p;")
    out.close()
    out("")
