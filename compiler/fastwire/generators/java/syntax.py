"""Java's spelling of the shared walks (jvm/codec.py, fast.py, fastput.py): the
statements of each route (jvm's CALLS in WRAP), the fast paths' declarations and blocks."""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from ... import lower, plan
from ...layouts import SCALAR_WIDTHS
from ..jvm import names
from ..jvm.fast import needs_check
from ..jvm.syntax import Field, Syntax, joined, table
from .types import codec, default, fcodec, field, jstring, jtype

D = "dev.fastwire.Direct"
F = "dev.fastwire.Fast"
# How a value is read at {p} (reader r), by helper; an enum's or flags' base as a long.
READ = {
    "bool": "r.buf[{p}] != 0", "byte": "r.buf[{p}]", "int8": "r.buf[{p}]",
    "char": "(char) r.u8({p})", "uint8": "(short) r.u8({p})", "int16": "r.i16({p})",
    "uint16": "r.i16({p}) & 0xFFFF", "int32": "r.i32({p})", "wchar": "r.i32({p})",
    "uint32": "r.u32({p})", "int64": "r.i64({p})", "uint64": "r.i64({p})",
    "timestamp": "r.i64({p})", "float": "r.f32({p})", "double": "r.f64({p})",
    "decimal": "dev.fastwire.Decimals.read(r, {p})", "uuid": "dev.fastwire.Uuids.get(r.buf, {p})",
}
READ_RAW = {
    "byte": "r.u8({p})", "char": "r.u8({p})", "uint8": "r.u8({p})", "int8": "r.i8({p})",
    "int16": "r.i16({p})", "uint16": "r.i16({p}) & 0xFFFF", "int32": "r.i32({p})",
    "uint32": "r.u32({p})", "wchar": "r.u32({p})", "int64": "r.i64({p})", "uint64": "r.i64({p})",
}
# How a value is stored at {p} (writer w), by helper (an integer by its width).
_BY_WIDTH = {1: "w.u8({p}, (int) {v});", 2: "w.i16({p}, (short) {v});", 4: "w.i32({p}, (int) {v});",
             8: "w.i64({p}, {v});"}
WRITE = {**{s: _BY_WIDTH[n] for s, n in SCALAR_WIDTHS.items()},
         "bool": "w.buf[{p}] = (byte) ({v} ? 1 : 0);", "float": "w.f32({p}, {v});",
         "double": "w.f64({p}, {v});", "timestamp": "w.i64({p}, {v});",
         "decimal": "dev.fastwire.Decimals.write(w.buf, {p}, {v});",
         "uuid": "dev.fastwire.Uuids.write(w.buf, {p}, {v});"}
WRAP = {"vput": "{call};", "vget": "{cur} = {call};", "vcheck": "{call};", "fput": "{call};",
        "fget": "{cur} = {call};", "fcheck": "{call};"}
# fastput.py: an optional struct (opt) or a list of structs (seq) written in line, by format.
PUT_DIRECT = {
    ("opt", False): (
        "{{ {et} x = {v};",
        "    if (x == null) {{ b[{slot}] = 0; {F}.w32(b, {slot} + 1, 0); }}",
        "    else {{ int q = p; if (p + {es} > b.length) b = w.room(p, {es}); p += {es}; b[{slot}] = 1; "
        "{F}.w32(b, {slot} + 1, q - body); p = {c}.vw0(w, b, p, q, q, x); b = w.buf; }} }}"),
    ("seq", False): (
        "{{ java.util.List<{et}> x = {v}; int n = x.size(); long z = 4 + (long) n * {es};",
        "    if (z > Integer.MAX_VALUE) throw new dev.fastwire.EncodeException(\"collection too large\");",
        "    if (p + z > b.length) b = w.room(p, z);",
        "    {F}.w32(b, p, n); {F}.w32(b, {slot}, p - body); int at = p + 4; p += (int) z;",
        "    for (int i = 0; i < n; i++) {{ p = {c}.vw0(w, b, p, at + {es} * i, body, x.get(i)); b = w.buf; }} }}"),
    ("opt", True): (
        "{{ {et} x = {v}; if (p + 1 > b.length) b = w.room(p, 1); b[p++] = (byte) (x != null ? 1 : 0);",
        "    if (x != null) {{ p = {c}.fw0(w, b, p, x); b = w.buf; }} }}"),
    ("seq", True): (
        "{{ java.util.List<{et}> x = {v}; int n = x.size(); if (p + 4 > b.length) b = w.room(p, 4); "
        "{F}.w32(b, p, n); p += 4;",
        "    for (int i = 0; i < n; i++) {{ p = {c}.fw0(w, b, p, x.get(i)); b = w.buf; }} }}"),
}
R = "dev.fastwire.Reader"


class JavaSyntax(Syntax):
    codec_head = joined("""
        /** $n$'s codec: the versioned format, the final format and JSON. */
        public static final class Codec extends dev.fastwire.StructCodec<$n$> {
            Codec() {
                super($n$.class, $qn$, $t$, $bs$, $fm$);
            }

            @Override public $n$ create() { return new $n$(); }

            /** Appends v's body (and its heap blocks) and writes its offset from base at pos. */
        """)
    fast_overrides = joined("""
        @Override public long vfast(byte[] d, int slot, int base, int size, long left, int depth)
        + { return depth >= $depth$ ? vfast0(d, slot, base, size, left) : -1; }
        @Override public int ffast(byte[] d, int p, int end, int depth)
        + { return depth >= $depth$ ? (int) ffast0(d, p, end) : -1; }""")
    entry = table("""
        vput0_fast { w.size = vw0(w, w.buf, w.size, pos, base, v); }
        fput0_fast { w.size = fw0(w, w.buf, w.size, v); }
        vput if (v == null) throw new dev.fastwire.EncodeException($null$);
        vput int body = w.allocRaw($bs$);
        vput w.i32(body, $bs$);
        vput w.i32(body + 4, $t$);
        vput vfields0(w, body, v);
        vput w.i32(pos, body - base);
        fresh $n$ v = reuse != null && reuse.getClass() == $n$.class ? reuse : new $n$();
        vget_fast if (depth >= $depth$) { long left = vgetFast0(r, r.buf, pos, base, r.end, r.budget, v);
        + if (left >= 0) { r.budget = left; return v; } }
        enter int body = r.enter(base, r.u32(pos), pos + 4, $t$, depth);
        vread vread0(r, body, r.len, depth - 1, v);
        vread return v;
        vcheck_fast if (depth >= $depth$) { long left = vfast0(r.buf, pos, base, r.end, r.budget);
        + if (left >= 0) { r.budget = left; return; } }
        vverify vverify0(r, body, r.len, depth - 1);
        fput if (v == null) throw new dev.fastwire.EncodeException($null$);
        fput ffields0(w, v);
        deep if (depth < 1) throw dev.fastwire.Reader.fail("too_deep");
        fget_fast if (depth >= $depth$) { int p = (int) fgetFast0(r, r.buf, r.pos, r.end, v);
        + if (p >= 0) { r.pos = p; return v; } }
        fread fread0(r, depth - 1, v);
        fread return v;
        fcheck_fast if (depth >= $depth$) { int p = (int) ffast0(r.buf, r.pos, r.end);
        + if (p >= 0) { r.pos = p; return; } }
        fverify fverify0(r, depth - 1);""")
    sigs = ("{prefix}void {name}({args})", "{prefix}{n} {name}({args})")
    param = "{t} {p}"
    prefixes = {"body": "static ", "entry": "public static ", "vfields": "@Override protected ",
                "vput": "@Override public "}
    override = "{sig} {{ {ret}{call}; }}"
    json = joined("""
        @Override
        protected void jfields(dev.fastwire.JsonWriter w, $n$ v) {
            $puts$
        }

        @Override
        protected boolean jfield(dev.fastwire.JsonReader r, $n$ v) {
            switch (r.key) {
                $cases$
                default: return false;
            }
        }
        """)
    # A primitive written as its JSON form, by helper (unsigned ones from their bits).
    json_put = {"bool": "w.bool({v})", "float": "w.number({v})", "double": "w.number({v})",
                **{h: "w.integer({v} & 0xFF)" for h in ("byte", "char", "uint8")},
                "uint16": "w.integer({v} & 0xFFFF)", "wchar": "w.integer({v} & 0xFFFFFFFFL)",
                "uint32": "w.integer({v} & 0xFFFFFFFFL)", "uint64": "w.unsigned({v})",
                "timestamp": "w.unsigned({v})",
                **{h: "w.integer({v})" for h in ("int8", "int16", "int32", "int64")}}
    json_case = "case {key}: {v} = {fc}.jget(r); return true;"
    end = ";"
    wrap = WRAP
    heads = {
        "vfast0": ("public static long vfast0(byte[] d, long slot, long base, long size, long left)", ()),
        "ffast0": ("public static long ffast0(byte[] d, long p, long end)", ()),
        "vgetFast0": (f"public static long vgetFast0({R} r, byte[] d, long slot, long base, "
                      "long size, long left, {name} v)", ()),
        "fgetFast0": (f"public static long fgetFast0({R} r, byte[] d, long p, long end, {{name}} v)", ()),
    }
    ensure = {n: ("{t} {x} = {target};", "if ({x} == null || {x}.getClass() != {t}.class)", "{x} = new {t}()")
              for n in (False, True)}
    fill_list = ("java.util.List<{t}> {out} = {D}.list({target});", "int {old} = {out}.size();",
                 "for (int {i} = 0; {i} < {n}; {i}++)", "{t} {x} = {i} < {old} ? {out}.get({i}) : null;",
                 "if ({x} == null || {x}.getClass() != {t}.class)", "{x} = new {t}();")
    size = "b.length"
    wb = "w, b, p"

    def quote(self, text: str) -> str:
        return jstring(text)

    def field(self, f: Field) -> str:
        return field(f)

    def fcodec(self, f: Field) -> str:
        return fcodec(f)

    def boxed(self, w: lower.WireType) -> str:
        return jtype(self.schema, w, True)

    def struct_codec(self, w: lower.WireType) -> str:
        return codec(self.schema, w)

    def decl(self, name: str, expr: str, mutable: bool = False, kind: str = "long") -> str:
        return f"{kind} {name} = {expr};"

    def as_int(self, expr: str) -> str:
        return f"(int) ({expr})" if " " in expr else f"(int) {expr}"

    def value_read(self, w: lower.WireType, at: str) -> str:
        if w.ref is not None:  # an enum or flags value over its base
            return f"{names.qualified(self.schema, w.ref)}.of({READ_RAW[w.scalar or ''].format(p=at)})"
        return READ[w.helper].format(p=at)

    def value_write(self, w: lower.WireType, at: str, base: str, v: str) -> str:
        if w.ref is not None:
            return WRITE[w.scalar or ""].format(p=at, v=v + ".value")
        return WRITE[w.helper].format(p=at, v=v)

    def vcheck(self, f: plan.PlanField, p: str) -> Optional[str]:
        if f.helper == "array" and not needs_check(f.wire):
            return None  # an array of values that have nothing to check
        return super().vcheck(f, p)

    def vread(self, f: plan.PlanField, p: str, end: int, target: str,
              lit: Optional[lower.Literal]) -> List[str]:
        dflt = default(self.schema, f.wire, lit, fcodec(f))
        return [f"if (size >= {end}) " + self.vget(f, p, target), f"else {target} = {dflt};"]

    def run_open(self, size: int) -> str:
        return f"{{ int p = w.allocRaw({size});"

    def take(self, size: int, declared: bool) -> str:
        return f"{'' if declared else 'int '}p = r.take({size});"

    def put_head(self, fn: str, name: str, null: str) -> Tuple[Sequence[str], Sequence[str]]:
        doc = ["/** serialize's straight-line path (see fastput.py): returns the new end. */"]
        params = ", int pos, int base" if fn == "vw0" else ""
        return ((doc if fn == "vw0" else []) +
                [f"public static int {fn}(dev.fastwire.Writer w, byte[] b, int p{params}, {name} v) {{"],
                [f"if (v == null) throw new dev.fastwire.EncodeException({null});"])

    def room(self, n: object) -> str:
        return f"if (p + {n} > b.length) b = w.room(p, {n});"

    def general(self, stmt: str) -> Sequence[str]:
        return ["w.size = p;", stmt, "p = w.size; b = w.buf;"]

    def put_string(self, k: int, v: str, slot: str, base: str, final: bool) -> Sequence[str]:
        call = f"{F}.fputString(w, b, p, {v})" if final else f"{F}.vputString(w, b, p, {slot}, {base}, {v})"
        return [f"p = {call}; b = w.buf;"]

    def put_run(self, i: int, size: int, stores: Callable[[str], List[str]]) -> Sequence[str]:
        return ["w.size = p;", f"{{ int q = w.allocRaw({size});", *("    " + s for s in stores("q")),
                "}", "p = w.size; b = w.buf;"]

    def put_direct(self, way: str, final: bool, k: int, v: str, slot: str,
                   e: lower.WireType, codec: str) -> Sequence[str]:
        return [line.format(et=self.boxed(e), v=v, slot=slot, es=e.slot, c=codec, F=F)
                for line in PUT_DIRECT[way, final]]
