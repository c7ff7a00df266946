"""Kotlin's spelling of the shared walks (jvm/codec.py, fast.py, fastput.py): the
statements of each route (jvm's CALLS in WRAP), the fast paths' declarations and blocks."""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from ... import ir, lower, plan
from ...layouts import SCALAR_WIDTHS
from ..jvm import names
from ..jvm.syntax import Field, Syntax, joined, table
from .types import codec, default, fcodec, field, kstring, ktype

D = "dev.fastwire.Direct"
F = "dev.fastwire.Fast"
R = "dev.fastwire.Reader"
# How a value is read at {p} (reader r), by helper; an enum's or flags' base as a long.
READ = {
    "bool": "(r.buf[{p}].toInt() != 0)", "byte": "r.u8({p}).toUByte()", "int8": "r.i8({p})",
    "char": "Char(r.u8({p}))", "uint8": "r.u8({p}).toUByte()", "int16": "r.i16({p})",
    "uint16": "r.i16({p}).toUShort()", "int32": "r.i32({p})", "wchar": "r.i32({p}).toUInt()",
    "uint32": "r.i32({p}).toUInt()", "int64": "r.i64({p})", "uint64": "r.i64({p}).toULong()",
    "timestamp": "r.i64({p})", "float": "r.f32({p})", "double": "r.f64({p})",
    "decimal": "dev.fastwire.Decimals.read(r, {p})", "uuid": "dev.fastwire.Uuids.get(r.buf, {p})",
}
READ_RAW = {
    "byte": "r.u8({p}).toLong()", "char": "r.u8({p}).toLong()", "uint8": "r.u8({p}).toLong()",
    "int8": "r.i8({p}).toLong()", "int16": "r.i16({p}).toLong()",
    "uint16": "(r.i16({p}).toLong() and 0xFFFFL)", "int32": "r.i32({p}).toLong()",
    "uint32": "r.u32({p})", "wchar": "r.u32({p})", "int64": "r.i64({p})", "uint64": "r.i64({p})",
}
# How a value is stored at {p} (writer w), by helper; an enum's or flags' base by its width.
WRITE = {
    "bool": "w.u8({p}, if ({v}) 1 else 0)", "byte": "w.u8({p}, {v}.toInt())",
    "uint8": "w.u8({p}, {v}.toInt())", "int8": "w.u8({p}, {v}.toInt())", "char": "w.u8({p}, {v}.code)",
    "int16": "w.i16({p}, {v})", "uint16": "w.i16({p}, {v}.toShort())", "int32": "w.i32({p}, {v})",
    "uint32": "w.i32({p}, {v}.toInt())", "wchar": "w.i32({p}, {v}.toInt())", "int64": "w.i64({p}, {v})",
    "uint64": "w.i64({p}, {v}.toLong())", "timestamp": "w.i64({p}, {v})", "float": "w.f32({p}, {v})",
    "double": "w.f64({p}, {v})", "decimal": "dev.fastwire.Decimals.write(w.buf, {p}, {v})",
    "uuid": "dev.fastwire.Uuids.write(w.buf, {p}, {v})",
}
RAW_WRITE = {1: "w.u8({p}, {v}.toInt())", 2: "w.i16({p}, {v}.toShort())", 4: "w.i32({p}, {v}.toInt())",
             8: "w.i64({p}, {v})"}
WRAP = {"vput": "{call}", "vget": "{call}", "vcheck": "{call}", "fput": "{call}", "fget": "{cur} = {call}",
        "fcheck": "{call}"}
# fastput.py: an optional struct (opt) or a list of structs (seq) written in line, by format;
# {k} the field's index.
PUT_DIRECT = {
    ("opt", False): (
        "val x{k} = {v}",
        "if (x{k} == null) {{ {F}.w8(b, {slot}, 0); {F}.w32(b, {slot} + 1, 0) }}",
        "else {{ val q = p; if (p + {es} > b.size) b = w.room(p, {es}L); p += {es}; {F}.w8(b, {slot}, 1); "
        "{F}.w32(b, {slot} + 1, q - body); p = {c}.vw0(w, p, q, q, x{k}); b = w.buf }}"),
    ("seq", False): (
        "val x{k} = {v}; val n{k} = x{k}.size; val z{k} = 4 + n{k}.toLong() * {es}",
        "if (z{k} > Int.MAX_VALUE) throw dev.fastwire.EncodeException(\"collection too large\")",
        "if (p + z{k} > b.size) b = w.room(p, z{k})",
        "{F}.w32(b, p, n{k}); {F}.w32(b, {slot}, p - body); val at{k} = p + 4; p += z{k}.toInt()",
        "for (i in 0 until n{k}) {{ p = {c}.vw0(w, p, at{k} + {es} * i, body, x{k}[i]); b = w.buf }}"),
    ("opt", True): (
        "val x{k} = {v}; if (p + 1 > b.size) b = w.room(p, 1L); {F}.w8(b, p, if (x{k} != null) 1 else 0); p += 1",
        "if (x{k} != null) {{ p = {c}.fw0(w, b, p, x{k}); b = w.buf }}"),
    ("seq", True): (
        "val x{k} = {v}; val n{k} = x{k}.size; if (p + 4 > b.size) b = w.room(p, 4L); {F}.w32(b, p, n{k}); p += 4",
        "for (k in 0 until n{k}) {{ p = {c}.fw0(w, b, p, x{k}[k]); b = w.buf }}"),
}


class KotlinSyntax(Syntax):
    codec_head = joined("""
        /** $n$'s codec: the versioned format, the final format and JSON. */
        class Codec internal constructor() : dev.fastwire.StructCodec<$n$>($n$::class.java,
        + $qn$, $t$, $bs$, $fm$) {
            override fun create(): $n$ = $n$()

            /** Static entry points that other generated structs call directly (no virtual call). */
            companion object {
        """)
    levels = 2
    fast_overrides = joined("""
        override fun vfast(d: ByteArray, slot: Int, base: Int, size: Int, left: Long, depth: Int): Long =
        + if (depth >= $depth$) vfast0(d, slot.toLong(), base.toLong(), size.toLong(), left) else -1
        override fun ffast(d: ByteArray, p: Int, end: Int, depth: Int): Int =
        + if (depth >= $depth$) ffast0(d, p.toLong(), end.toLong()).toInt() else -1""")
    entry = table("""
        vput0_fast { w.size = vw0(w, w.size, pos, base, v) }
        fput0_fast { w.size = fw0(w, w.buf, w.size, v) }
        vput if (v == null) throw dev.fastwire.EncodeException($null$)
        vput val body = w.allocRaw($bs$)
        vput w.i32(body, $bs$)
        vput w.i32(body + 4, $t$)
        vput vfields0(w, body, v)
        vput w.i32(pos, body - base)
        fresh val v = reuse ?: $n$()
        vget_fast if (depth >= $depth$) { val left = vgetFast0(r, r.buf, pos.toLong(), base.toLong(),
        + r.end.toLong(), r.budget, v); if (left >= 0) { r.budget = left; return v } }
        enter val body = r.enter(base, r.u32(pos), pos + 4, $t$, depth)
        vread vread0(r, body, r.len, depth - 1, v)
        vread return v
        vcheck_fast if (depth >= $depth$) { val left = vfast0(r.buf, pos.toLong(), base.toLong(),
        + r.end.toLong(), r.budget); if (left >= 0) { r.budget = left; return } }
        vverify vverify0(r, body, r.len, depth - 1)
        fput if (v == null) throw dev.fastwire.EncodeException($null$)
        fput ffields0(w, v)
        deep if (depth < 1) throw dev.fastwire.Reader.fail("too_deep")
        fget_fast if (depth >= $depth$) { val p = fgetFast0(r, r.buf, r.pos.toLong(), r.end.toLong(),
        + v).toInt(); if (p >= 0) { r.pos = p; return v } }
        fread fread0(r, depth - 1, v)
        fread return v
        fcheck_fast if (depth >= $depth$) { val p = ffast0(r.buf, r.pos.toLong(), r.end.toLong()).toInt();
        + if (p >= 0) { r.pos = p; return } }
        fverify fverify0(r, depth - 1)""")
    sigs = ("{prefix}fun {name}({args})", "{prefix}fun {name}({args}): {n}")
    param = "{p}: {t}"
    int_type = "Int"
    nullable = "?"
    prefixes = {"body": "", "entry": "", "vfields": "override ", "vput": "override "}
    override = "{sig} = {call}"
    json = joined("""
        override fun jfields(w: dev.fastwire.JsonWriter, v: $n$) {
            $puts$
        }

        override fun jfield(r: dev.fastwire.JsonReader, v: $n$): Boolean {
            when (r.key) {
                $cases$
                else -> return false
            }
            return true
        }
        """)
    # A primitive written as its JSON form, by helper.
    json_put = {"bool": "w.bool({v})", "char": "w.integer({v}.code.toLong() and 0xFF)",
                **{h: "w.integer({v}.toLong())" for h in ("byte", "uint8", "int8", "int16", "uint16", "int32",
                                                          "uint32", "wchar")},
                "int64": "w.integer({v})", "uint64": "w.unsigned({v}.toLong())", "timestamp": "w.unsigned({v})",
                "float": "w.number({v}.toDouble())", "double": "w.number({v})"}
    json_case = "{key} -> {v} = {fc}.jget(r)"
    end = ""
    wrap = WRAP
    heads = {
        "vfast0": ("fun vfast0(d: ByteArray, slot: Long, base: Long, size: Long, left0: Long): Long",
                   ("var left = left0",)),
        "ffast0": ("fun ffast0(d: ByteArray, p0: Long, end: Long): Long", ("var p = p0",)),
        "vgetFast0": (f"fun vgetFast0(r: {R}, d: ByteArray, slot: Long, base: Long, size: Long, "
                      "left0: Long, v: {name}): Long", ("var left = left0",)),
        "fgetFast0": (f"fun fgetFast0(r: {R}, d: ByteArray, p0: Long, end: Long, v: {{name}}): Long",
                      ("var p = p0",)),
    }
    # a struct held in a non-null property is never null: a data class (final), filled in place
    ensure = {False: ("val {x} = {target}", None, None),
              True: ("var {x} = {target}", "if ({x} == null)", "{x} = {t}()")}
    fill_list = ("val {out} = {D}.list({target})", "val {old} = {out}.size", "for ({i} in 0 until {n})",
                 "var {x} = if ({i} < {old}) {out}[{i}] else null", "if ({x} == null)", "{x} = {t}()")
    size = "b.size"
    wb = "w, p"

    def __init__(self, schema: ir.Schema, pkg: ir.Package, s: ir.StructType) -> None:
        super().__init__(schema)
        self.pkg, self.s = pkg, s

    def quote(self, text: str) -> str:
        return kstring(text)

    def field(self, f: Field) -> str:
        return field(f)

    def fcodec(self, f: Field) -> str:
        return fcodec(self.s, f)

    def boxed(self, w: lower.WireType) -> str:
        return ktype(self.schema, w)

    def struct_codec(self, w: lower.WireType) -> str:
        return codec(self.schema, self.pkg, w)

    def decl(self, name: str, expr: str, mutable: bool = False, kind: str = "long") -> str:
        return f"{'var' if mutable else 'val'} {name} = {expr}"

    def as_int(self, expr: str) -> str:
        return f"({expr}).toInt()" if " " in expr else f"{expr}.toInt()"

    def value_read(self, w: lower.WireType, at: str) -> str:
        if w.ref is not None:  # an enum or flags value over its base
            return f"{names.qualified(self.schema, w.ref)}.of({READ_RAW[w.scalar or ''].format(p=at)})"
        return READ[w.helper].format(p=at)

    def value_write(self, w: lower.WireType, at: str, base: str, v: str) -> str:
        if w.ref is not None:
            return RAW_WRITE[SCALAR_WIDTHS[w.scalar or ""]].format(p=at, v=v + ".value")
        return WRITE[w.helper].format(p=at, v=v)

    def vread(self, f: plan.PlanField, p: str, end: int, target: str,
              lit: Optional[lower.Literal]) -> List[str]:
        dflt = default(self.schema, f.wire, lit, self.fcodec(f))
        return [f"{target} = if (size >= {end}) {self.vget(f, p, target)} else {dflt}"]

    def run_open(self, size: int) -> str:
        return f"run {{ val p = w.allocRaw({size})"

    def take(self, size: int, declared: bool) -> str:
        return f"{'' if declared else 'var '}p = r.take({size})"

    def put_head(self, fn: str, name: str, null: str) -> Tuple[Sequence[str], Sequence[str]]:
        # b starts as w.buf, of Java's platform type: assigning Writer.room's result or
        # w.buf to it needs no null check, which keeps the bytecode small enough for the
        # JIT to inline a nested struct's call (FreqInlineSize, 325 bytes). fw0 takes
        # the buffer from its caller, as Java's does (one load of w.buf less a nested
        # struct: ~3 ns on the seed's final format).
        check = f"if (v == null) throw dev.fastwire.EncodeException({null})"
        if fn == "fw0":
            return ([f"fun fw0(w: dev.fastwire.Writer, b0: ByteArray, p0: Int, v: {name}?): Int {{"],
                    [check, "var b = b0", "var p = p0"])
        return (["/** serialize's straight-line path (see fastput.py): returns the new end. */",
                 f"fun vw0(w: dev.fastwire.Writer, p0: Int, pos: Int, base: Int, v: {name}?): Int {{"],
                [check, "var b = w.buf", "var p = p0"])

    def room(self, n: object) -> str:
        lit = f"{n}L" if isinstance(n, int) else str(n)
        return f"if (p + {n} > b.size) b = w.room(p, {lit})"

    def general(self, stmt: str) -> Sequence[str]:
        return ["w.size = p", stmt, "p = w.size; b = w.buf"]

    def put_string(self, k: int, v: str, slot: str, base: str, final: bool) -> Sequence[str]:
        """Fast.vputString/fputString write text of at most 8 ASCII chars in line (inlined
        by the JIT) and anything else by the general path; they return the end. Kotlin's
        final format calls them (the in-line short case below cost its seed ~3 ns more than
        the call, which the JIT inlines all the same). The versioned format has the short
        case in line here (Fast.pack8), the rest by the same call: Kotlin's null checks make
        a struct's compiled code larger, and the helper's share would take a nested struct's
        (Order's) over InlineSmallCode (2,500 bytes), which keeps the JIT from inlining it
        once it is compiled on its own."""
        if final:
            return [f"p = {F}.fputString(w, b, p, {v}); b = w.buf"]
        s, n, x = f"s{k}", f"n{k}", f"x{k}"
        return [f"val {s} = {v}; val {n} = {s}.length",
                f"val {x} = if ({n} <= 8 && p + 12 <= b.size) {F}.pack8({s}, {n}) else -1L",
                f"if ({x} != -1L) {{ {F}.w64(b, p + 4, {x}); {F}.w32(b, p, {n}); {F}.w32(b, {slot}, p - {base}); "
                f"p += 4 + {n} }}",
                f"else {{ p = {F}.vputString(w, b, p, {slot}, {base}, {s}); b = w.buf }}"]

    def put_run(self, i: int, size: int, stores: Callable[[str], List[str]]) -> Sequence[str]:
        return ["w.size = p", f"val q{i} = w.allocRaw({size})", *stores(f"q{i}"), "p = w.size; b = w.buf"]

    def put_direct(self, way: str, final: bool, k: int, v: str, slot: str,
                   e: lower.WireType, codec: str) -> Sequence[str]:
        return [line.format(k=k, v=v, slot=slot, es=e.slot, c=codec, F=F) for line in PUT_DIRECT[way, final]]
