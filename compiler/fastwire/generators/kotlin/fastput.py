"""The straight-line serialize of a non-recursive struct, for the Kotlin generator: the
same design as the Java one (see generators/java/fastput.py): the buffer and the end in
locals (`b`, `p`), room made once per fixed block, stores through the little-endian
byte-array views, short ASCII strings in line, anything else through the general
statement on the writer with `w.size` set before and `p`, `b` read back after."""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from ... import ir, lower
from ..java.fastput import F, local
from ..java.generator import Lines
from .struct import direct, fname, fput_stmt, scodec, value_write, vput_stmt

if TYPE_CHECKING:
    from .generator import KotlinGen


def general(stmt: str) -> List[str]:
    return ["w.size = p", stmt, "p = w.size; b = w.buf"]


def string(k: int, v: str, slot: str, base: str, final: bool) -> List[str]:
    s, n, x = f"s{k}", f"n{k}", f"x{k}"
    store = "" if final else f"{F}.w32(b, {slot}, p - {base}); "
    slow = f"{'dev.fastwire.Direct.fputString(w, ' + s}" if final else \
        f"dev.fastwire.Direct.vputString(w, {slot}, {base}, {s}"
    return [f"val {s} = {v}; val {n} = {s}.length",
            f"val {x} = if ({n} <= 8 && p + 12 <= b.size) {F}.pack8({s}, {n}) else -1L",
            f"if ({x} != -1L) {{ {F}.w64(b, p + 4, {x}); {F}.w32(b, p, {n}); {store}p += 4 + {n} }}",
            f"else {{ w.size = p; {slow}); p = w.size; b = w.buf }}"]


def emit(g: "KotlinGen", out: Lines, s: ir.StructType, null: str, layout: lower.StructLayout) -> None:
    n = s.name
    W = "dev.fastwire.Writer"
    bs, t = layout.body_size, layout.type_number
    out("/** serialize's straight-line path (see fastput.py): returns the new end. */")
    out.open(f"fun vw0(w: {W}, b0: ByteArray, p0: Int, pos: Int, base: Int, v: {n}?): Int {{")
    out(f"if (v == null) throw dev.fastwire.EncodeException({null})",
        "var b = b0",
        "var p = p0",
        "val body = p",
        f"if (p + {bs} > b.size) b = w.room(p, {bs}L)",
        f"p += {bs}",
        f"{F}.w32(b, body, {bs})",
        f"{F}.w32(b, body + 4, {t})",
        f"{F}.w32(b, pos, body - base)")
    for k, f in enumerate(layout.fields):
        slot = f"body + {f.offset}"
        v = "v." + fname(g, f)
        w = f.wire
        e = w.element
        d = direct(w)
        st = local(vput_stmt(g, s, f, slot, "body", v))
        if st:
            out(st)
        elif d == "string":
            out(*string(k, v, slot, "body", False))
        elif d == "struct":
            out(f"p = {scodec(g, w)}.vw0(w, b, p, {slot}, body, {v}); b = w.buf")
        elif d == "opt" and e is not None and e.kind == "struct":
            c = scodec(g, e)
            out(f"val x{k} = {v}",
                f"if (x{k} == null) {{ {F}.w8(b, {slot}, 0); {F}.w32(b, {slot} + 1, 0) }}",
                f"else {{ val q = p; if (p + {e.slot} > b.size) b = w.room(p, {e.slot}L); p += {e.slot}; "
                f"{F}.w8(b, {slot}, 1); {F}.w32(b, {slot} + 1, q - body); p = {c}.vw0(w, b, p, q, q, x{k}); "
                "b = w.buf }")
        elif d == "seq" and e is not None:
            c = scodec(g, e)
            out(f"val x{k} = {v}; val n{k} = x{k}.size; val z{k} = 4 + n{k}.toLong() * {e.slot}",
                f"if (z{k} > Int.MAX_VALUE) throw dev.fastwire.EncodeException(\"collection too large\")",
                f"if (p + z{k} > b.size) b = w.room(p, z{k})",
                f"{F}.w32(b, p, n{k}); {F}.w32(b, {slot}, p - body); val at{k} = p + 4; p += z{k}.toInt()",
                f"for (i in 0 until n{k}) {{ p = {c}.vw0(w, b, p, at{k} + {e.slot} * i, body, x{k}[i]); "
                "b = w.buf }")
        else:
            out(*general(vput_stmt(g, s, f, slot, "body", v)))
    out("return p")
    out.close()
    out("")

    runs = {r.first: r for r in layout.final_runs}
    fields = layout.fields
    out.open(f"fun fw0(w: {W}, b0: ByteArray, p0: Int, v: {n}?): Int {{")
    out(f"if (v == null) throw dev.fastwire.EncodeException({null})", "var b = b0", "var p = p0")
    i = 0
    while i < len(fields):
        if i in runs:
            run = runs[i]
            stores = []
            for k, j in enumerate(run.indexes):
                f = fields[j]
                at = f"p + {run.offsets[k]}" if run.offsets[k] else "p"
                stores.append(local(value_write(g, f.wire, at, "v." + fname(g, f))))
            if all(stores):
                out(f"if (p + {run.size} > b.size) b = w.room(p, {run.size}L)", *stores, f"p += {run.size}")
            else:
                out("w.size = p", f"val q{i} = w.allocRaw({run.size})")
                for k, j in enumerate(run.indexes):
                    f = fields[j]
                    at = f"q{i} + {run.offsets[k]}" if run.offsets[k] else f"q{i}"
                    out(value_write(g, f.wire, at, "v." + fname(g, f)))
                out("p = w.size; b = w.buf")
            i += run.count
            continue
        f = fields[i]
        v = "v." + fname(g, f)
        w = f.wire
        e = w.element
        d = direct(w)
        if d == "string":
            out(*string(i, v, "", "", True))
        elif d == "struct":
            out(f"p = {scodec(g, w)}.fw0(w, b, p, {v}); b = w.buf")
        elif d == "opt" and e is not None and e.kind == "struct":
            out(f"val x{i} = {v}; if (p + 1 > b.size) b = w.room(p, 1L); "
                f"{F}.w8(b, p, if (x{i} != null) 1 else 0); p += 1",
                f"if (x{i} != null) {{ p = {scodec(g, e)}.fw0(w, b, p, x{i}); b = w.buf }}")
        elif d == "seq" and e is not None:
            out(f"val x{i} = {v}; val n{i} = x{i}.size; if (p + 4 > b.size) b = w.room(p, 4L); "
                f"{F}.w32(b, p, n{i}); p += 4",
                f"for (k in 0 until n{i}) {{ p = {scodec(g, e)}.fw0(w, b, p, x{i}[k]); b = w.buf }}")
        else:
            out(*general(fput_stmt(g, s, f, v)))
        i += 1
    out("return p")
    out.close()
    out("")
