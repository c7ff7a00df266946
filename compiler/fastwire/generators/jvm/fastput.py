"""The straight-line serialize of a non-recursive struct, for the Java and the Kotlin
generator alike (one emitter, two spellings, as fast.py is for verify and deserialize).

vw0 (versioned) and fw0 (final) take the writer's buffer and end as locals (`b`, `p`),
make room once for each fixed block (a body, a final run, a collection's slots) and store
through the little-endian byte-array views (a body's size and type in one 8-byte store);
short ASCII strings are written in line (by Fast.vputString/fputString, which the JIT
inlines; Kotlin's versioned format: here, see string()). They return the new end, which
the entry point stores in the writer once. Anything else falls back to the general statement on the writer:
`w.size = p; ...; p = w.size; b = w.buf;`.
The invariant is `b == w.buf` (Writer.room returns the grown buffer), so the general
statements and the nested structs' calls see the same bytes. The bytes written are the
general path's, byte for byte.
"""

from __future__ import annotations

from typing import Callable, List

from ... import lower
from .names import Lines

F = "dev.fastwire.Fast"
_MAP = [("w.buf[", "b["), ("w.u8(", F + ".w8(b, "), ("w.i16(", F + ".w16(b, "),
        ("w.i32(", F + ".w32(b, "), ("w.i64(", F + ".w64(b, "), ("w.f32(", F + ".wf32(b, "),
        ("w.f64(", F + ".wf64(b, "), ("(w.buf, ", "(b, ")]


def local(stmt: str) -> str:
    """A slot store on the writer as a store into b; '' when it is not one."""
    for a, c in _MAP:
        stmt = stmt.replace(a, c)
    return "" if "w." in stmt or "(w," in stmt else stmt


def direct(w: lower.WireType) -> str:
    """How a field is written in line: 'string', 'bytes', 'struct', 'opt' (an optional of
    a struct or string), 'seq' (a vector or list of structs); '': through its codec."""
    if w.kind in ("string", "bytes", "struct"):
        return w.kind
    e = w.element
    if w.kind == "optional" and e is not None and e.kind in ("struct", "string"):
        return "opt"
    if w.kind == "sequence" and w.collection in ("vector", "list") and e is not None \
            and e.kind == "struct":
        return "seq"
    return ""


class FastPut:
    """The emitter. The language's own statements come in as callables: `vput(f, slot,
    base, v)` a versioned slot's general statement, `fput(f, v)` a final field's,
    `run(f, at, base, v)` a store of a field of a final run, `codec(w)` a struct's codec
    class, `fname(f)` the field's name, `jtype(w)` a boxed element type (Java only)."""

    def __init__(self, kotlin: bool, vput: Callable[[lower.FieldLayout, str, str, str], str],
                 fput: Callable[[lower.FieldLayout, str], str],
                 run: Callable[[lower.FieldLayout, str, str, str], str],
                 codec: Callable[[lower.WireType], str], fname: Callable[[lower.FieldLayout], str],
                 jtype: Callable[[lower.WireType], str]) -> None:
        self.kotlin = kotlin
        self.vput, self.fput, self.run = vput, fput, run
        self.codec, self.fname, self.jtype = codec, fname, jtype
        self.size = "b.size" if kotlin else "b.length"
        self.wb = "w, p" if kotlin else "w, b, p"  # a nested call's writer, buffer and end

    def st(self, s: str) -> str:
        return s if self.kotlin else s + ";"

    def room(self, n: object) -> str:
        """Makes room for n more bytes (n a constant or a long expression)."""
        lit = f"{n}L" if self.kotlin and isinstance(n, int) else str(n)
        return self.st(f"if (p + {n} > {self.size}) b = w.room(p, {lit})")

    def general(self, stmt: str) -> List[str]:
        if self.kotlin:
            return ["w.size = p", stmt, "p = w.size; b = w.buf"]
        return ["w.size = p;", stmt, "p = w.size; b = w.buf;"]

    def string(self, k: int, v: str, slot: str, base: str, final: bool) -> List[str]:
        """A string. Java: Fast.vputString/fputString write text of at most 8 ASCII chars in
        line (inlined by the JIT) and anything else by the general path; they return the
        end. Kotlin's final format likewise (the in-line short case below cost its seed ~3 ns
        more than the call, which the JIT inlines all the same). Kotlin's versioned format:
        the short case in line here (Fast.pack8), the rest by the same call: Kotlin's null
        checks make a struct's compiled code larger, and the helper's share would take a
        nested struct's (Order's) over InlineSmallCode (2,500 bytes), which keeps the JIT
        from inlining it once it is compiled on its own."""
        call = f"{F}.fputString(w, b, p, {{}})" if final else f"{F}.vputString(w, b, p, {slot}, {base}, {{}})"
        if not self.kotlin:
            return [f"p = {call.format(v)}; b = w.buf;"]
        if final:
            return [f"p = {call.format(v)}; b = w.buf"]
        s, n, x = f"s{k}", f"n{k}", f"x{k}"
        store = "" if final else f"{F}.w32(b, {slot}, p - {base}); "
        return [f"val {s} = {v}; val {n} = {s}.length",
                f"val {x} = if ({n} <= 8 && p + 12 <= b.size) {F}.pack8({s}, {n}) else -1L",
                f"if ({x} != -1L) {{ {F}.w64(b, p + 4, {x}); {F}.w32(b, p, {n}); {store}p += 4 + {n} }}",
                f"else {{ p = {call.format(s)}; b = w.buf }}"]

    def emit(self, out: Lines, name: str, null: str, layout: lower.StructLayout) -> None:
        self.versioned(out, name, null, layout)
        self.final(out, name, null, layout)

    def head(self, out: Lines, fn: str, params: str, name: str, null: str) -> None:
        if fn == "vw0":
            out("/** serialize's straight-line path (see fastput.py): returns the new end. */")
        if self.kotlin:
            # b starts as w.buf, of Java's platform type: assigning Writer.room's result or
            # w.buf to it needs no null check, which keeps the bytecode small enough for the
            # JIT to inline a nested struct's call (FreqInlineSize, 325 bytes). fw0 takes
            # the buffer from its caller, as Java's does (one load of w.buf less a nested
            # struct: ~3 ns on the seed's final format).
            ps = params.replace("int pos, int base", "pos: Int, base: Int")
            if fn == "fw0":
                out.open(f"fun {fn}(w: dev.fastwire.Writer, b0: ByteArray, p0: Int{ps}, v: {name}?): Int {{")
                out(f"if (v == null) throw dev.fastwire.EncodeException({null})", "var b = b0", "var p = p0")
            else:
                out.open(f"fun {fn}(w: dev.fastwire.Writer, p0: Int{ps}, v: {name}?): Int {{")
                out(f"if (v == null) throw dev.fastwire.EncodeException({null})", "var b = w.buf", "var p = p0")
        else:
            out.open(f"public static int {fn}(dev.fastwire.Writer w, byte[] b, int p{params}, {name} v) {{")
            out(f"if (v == null) throw new dev.fastwire.EncodeException({null});")

    def versioned(self, out: Lines, name: str, null: str, layout: lower.StructLayout) -> None:
        bs, t, kt, st = layout.body_size, layout.type_number, self.kotlin, self.st
        self.head(out, "vw0", ", int pos, int base", name, null)
        # the body's size and type in one store: u32 size, then u32 type (a signed literal)
        head = ((t & 0xFFFFFFFF) << 32) | bs
        head = head - (1 << 64) if head >= 1 << 63 else head
        out(st(("val" if kt else "int") + " body = p"), self.room(bs), st(f"p += {bs}"),
            st(f"{F}.w64(b, body, {head}L)"),
            st(f"{F}.w32(b, pos, body - base)"))
        for k, f in enumerate(layout.fields):
            slot = f"body + {f.offset}"
            v = "v." + self.fname(f)
            w = f.wire
            e = w.element
            d = direct(w)
            stmt = local(self.vput(f, slot, "body", v))
            if stmt:
                out(stmt)
            elif d == "string":
                out(*self.string(k, v, slot, "body", False))
            elif d == "struct":
                out(st(f"p = {self.codec(w)}.vw0({self.wb}, {slot}, body, {v}); b = w.buf"))
            elif d == "opt" and e is not None and e.kind == "struct":
                c = self.codec(e)
                if kt:
                    out(f"val x{k} = {v}",
                        f"if (x{k} == null) {{ {F}.w8(b, {slot}, 0); {F}.w32(b, {slot} + 1, 0) }}",
                        f"else {{ val q = p; if (p + {e.slot} > b.size) b = w.room(p, {e.slot}L); p += {e.slot}; "
                        f"{F}.w8(b, {slot}, 1); {F}.w32(b, {slot} + 1, q - body); "
                        f"p = {c}.vw0(w, p, q, q, x{k}); b = w.buf }}")
                else:
                    out(f"{{ {self.jtype(e)} x = {v};",
                        f"    if (x == null) {{ b[{slot}] = 0; {F}.w32(b, {slot} + 1, 0); }}",
                        f"    else {{ int q = p; if (p + {e.slot} > b.length) b = w.room(p, {e.slot}); "
                        f"p += {e.slot}; b[{slot}] = 1; {F}.w32(b, {slot} + 1, q - body); "
                        f"p = {c}.vw0(w, b, p, q, q, x); b = w.buf; }} }}")
            elif d == "seq" and e is not None:
                c = self.codec(e)
                if kt:
                    out(f"val x{k} = {v}; val n{k} = x{k}.size; val z{k} = 4 + n{k}.toLong() * {e.slot}",
                        f"if (z{k} > Int.MAX_VALUE) throw dev.fastwire.EncodeException(\"collection too large\")",
                        f"if (p + z{k} > b.size) b = w.room(p, z{k})",
                        f"{F}.w32(b, p, n{k}); {F}.w32(b, {slot}, p - body); val at{k} = p + 4; p += z{k}.toInt()",
                        f"for (i in 0 until n{k}) {{ p = {c}.vw0(w, p, at{k} + {e.slot} * i, body, x{k}[i]); "
                        "b = w.buf }")
                else:
                    out(f"{{ java.util.List<{self.jtype(e)}> x = {v}; int n = x.size(); "
                        f"long z = 4 + (long) n * {e.slot};",
                        "    if (z > Integer.MAX_VALUE) "
                        "throw new dev.fastwire.EncodeException(\"collection too large\");",
                        "    if (p + z > b.length) b = w.room(p, z);",
                        f"    {F}.w32(b, p, n); {F}.w32(b, {slot}, p - body); int at = p + 4; p += (int) z;",
                        f"    for (int i = 0; i < n; i++) {{ p = {c}.vw0(w, b, p, at + {e.slot} * i, body, x.get(i)); "
                        "b = w.buf; } }")
            else:
                out(*self.general(self.vput(f, slot, "body", v)))
        out(st("return p"))
        out.close()
        out("")

    def final(self, out: Lines, name: str, null: str, layout: lower.StructLayout) -> None:
        kt, st = self.kotlin, self.st
        runs = {r.first: r for r in layout.final_runs}
        fields = layout.fields
        self.head(out, "fw0", "", name, null)
        i = 0
        while i < len(fields):
            if i in runs:
                run = runs[i]
                stores = []
                for k, j in enumerate(run.indexes):
                    f = fields[j]
                    at = f"p + {run.offsets[k]}" if run.offsets[k] else "p"
                    stores.append(local(self.run(f, at, "p", "v." + self.fname(f))))
                if all(stores):
                    out(self.room(run.size), *stores, st(f"p += {run.size}"))
                else:
                    q = f"q{i}" if kt else "q"
                    out(st("w.size = p"),
                        f"val {q} = w.allocRaw({run.size})" if kt else f"{{ int q = w.allocRaw({run.size});")
                    for k, j in enumerate(run.indexes):
                        f = fields[j]
                        at = f"{q} + {run.offsets[k]}" if run.offsets[k] else q
                        out(("" if kt else "    ") + self.run(f, at, q, "v." + self.fname(f)))
                    out(*(["p = w.size; b = w.buf"] if kt else ["}", "p = w.size; b = w.buf;"]))
                i += run.count
                continue
            f = fields[i]
            v = "v." + self.fname(f)
            w = f.wire
            e = w.element
            d = direct(w)
            if d == "string":
                out(*self.string(i, v, "", "", True))
            elif d == "struct":
                out(st(f"p = {self.codec(w)}.fw0(w, b, p, {v}); b = w.buf"))
            elif d == "opt" and e is not None and e.kind == "struct":
                c = self.codec(e)
                if kt:
                    out(f"val x{i} = {v}; if (p + 1 > b.size) b = w.room(p, 1L); "
                        f"{F}.w8(b, p, if (x{i} != null) 1 else 0); p += 1",
                        f"if (x{i} != null) {{ p = {c}.fw0(w, b, p, x{i}); b = w.buf }}")
                else:
                    out(f"{{ {self.jtype(e)} x = {v}; if (p + 1 > b.length) b = w.room(p, 1); "
                        "b[p++] = (byte) (x != null ? 1 : 0);",
                        f"    if (x != null) {{ p = {c}.fw0(w, b, p, x); b = w.buf; }} }}")
            elif d == "seq" and e is not None:
                c = self.codec(e)
                if kt:
                    out(f"val x{i} = {v}; val n{i} = x{i}.size; if (p + 4 > b.size) b = w.room(p, 4L); "
                        f"{F}.w32(b, p, n{i}); p += 4",
                        f"for (k in 0 until n{i}) {{ p = {c}.fw0(w, b, p, x{i}[k]); b = w.buf }}")
                else:
                    out(f"{{ java.util.List<{self.jtype(e)}> x = {v}; int n = x.size(); "
                        f"if (p + 4 > b.length) b = w.room(p, 4); {F}.w32(b, p, n); p += 4;",
                        f"    for (int i = 0; i < n; i++) {{ p = {c}.fw0(w, b, p, x.get(i)); b = w.buf; }} }}")
            else:
                out(*self.general(self.fput(f, v)))
            i += 1
        out(st("return p"))
        out.close()
        out("")
