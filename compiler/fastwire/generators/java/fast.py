"""The fast path of verify, for the Java and the Kotlin generator alike (one emitter, two
spellings).

A struct that is not recursive (its layout's depth is bounded) gets two straight-line
walks beside its general checks: vfast0 (versioned) and ffast0 (final). Each reads the
message through local variables only (the byte array, the positions, the end, the
budget), checks what the general walk checks, and accepts only what the general walk
accepts: anything unusual (an older body, an offset of 0, a bad value, too little budget
left) makes it give up (-1) having changed nothing, and the general walk then starts that
struct over from the same state and throws the exception it always throws. So results
are identical on every input; the usual message is checked without touching the reader.

Loads go through dev.fastwire.Unchecked (Unsafe, without the JVM's bounds check, or the
VarHandle views when Unsafe is off), each after the walk's own checks have proved
0 <= position and position + width <= limit (`size` versioned, `end` final), the limit
itself inside the array (Model/FinalModel/Reader.reset check it); each load passes the
limit, which Unchecked asserts (tests run with -ea). A body's header is one 8-byte load
compared with [the size this schema writes][the type]: a body of another version takes the
general walk. In the final walks a fixed run's length check also covers the header (4 or 1
bytes) of the field after it.

The versioned walk charges the same blocks as the general one (a body its stored size, a
string or bytes 4 plus its length, a collection 4 plus its slots, an optional its slot),
from `left`, and gives up as soon as it is negative (after each struct, each collection
element): its work is bounded by the budget as the general walk's is. A struct's walk
calls its fields' struct walks (static, inlined by the JIT); the depth limit is checked
once, at the entry (the schema bounds the nesting: layout.depth). A walk given up costs
one more walk of that struct; nested entries can repeat a struct's walk at most its
nesting depth times.

Positions, lengths and counts are longs: an offset, a length or a count is its u32
zero-extended (one plain 32-bit load), so a position plus one cannot wrap, a length or a
count needs only its upper bound checked, and the JIT folds the constants added to a
position into the load's address (the final walks are a chain of dependent loads: this
keeps each link to a load and an add). An offset of 2^31 or more leads past the end and
is rejected there.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List

from ... import lower

U = "dev.fastwire.Unchecked"


def load(kind: str, at: str, limit: str) -> str:
    """A load at `at` the walk has proved in bounds: at + width <= limit <= d.length."""
    return f"{U}.{kind}(d, {at}, {limit})"


_READER_LOAD = re.compile(r"\br\.(u8|i8|i16|i32|u32|i64|f32|f64)\(([^()]*)\)")
_READER_BYTE = re.compile(r"\br\.buf\[([^\]]*)\]")


def unchecked(expr: Callable[[str], str], at: str, limit: str, to_int: Callable[[str], str]) -> str:
    """A value's read expression at the long position `at` (expr(position)): the reader's
    loads as loads from d without the JVM's bounds checks, for a value the walk has proved
    inside [0, limit); any other use of the position (a runtime call) takes it as an int."""
    mark = "\0"
    e = expr(mark)
    e = _READER_LOAD.sub(lambda m: load(m.group(1), m.group(2).replace(mark, at), limit), e)
    e = _READER_BYTE.sub(lambda m: load("i8", m.group(1).replace(mark, at), limit), e)
    return e.replace(mark, to_int(at))


def eligible(model: lower.WireModel, layout: lower.StructLayout) -> bool:
    """Whether a struct gets the fast walks: not recursive, and no collection of elements
    that take no bytes in the final format (those count against an allowance)."""
    return lower.derive(model, "java.eligible", layout, _eligible, lambda t: t.depth > 0)


def _eligible(layout: lower.StructLayout, known: Dict[str, bool]) -> bool:
    return layout.depth > 0 and all(_ok(known, fl.wire) for fl in layout.fields)


def _ok(known: Dict[str, bool], w: lower.WireType) -> bool:
    if w.kind == "struct":
        assert w.ref is not None
        return known[w.ref]
    if w.kind in ("sequence", "map"):
        parts = [w.element] + ([w.key] if w.kind == "map" else [])
        if sum(p.final_min for p in parts if p is not None) == 0:
            return False
    for part in (w.element, w.key):
        if part is not None and not _ok(known, part):
            return False
    return True


def needs_check(w: lower.WireType) -> bool:
    """Whether a versioned slot of this type has anything to check."""
    if w.kind == "decimal":
        return True
    if w.is_value:
        return False
    if w.kind == "array":
        assert w.element is not None
        return needs_check(w.element)
    return True


def fneeds_check(w: lower.WireType) -> bool:
    """Whether a final-format value of this type has anything to check beyond its size."""
    if w.kind == "decimal":
        return True
    if w.is_value:
        return False
    if w.kind == "array":
        assert w.element is not None
        return w.element.final_size is None or fneeds_check(w.element)
    return True


class FastWalk:
    def __init__(self, model: lower.WireModel, kotlin: bool, codec: Callable[[str], str],
                 unit: str) -> None:
        self.model = model
        self.unit = unit
        self.kotlin = kotlin
        self.codec = codec  # a struct's qualified name -> its codec class
        self.lines: List[str] = []
        self.lim = "size"  # the bound every load is proved against
        self.have = 0  # the final walks: bytes known to remain at p
        self.after = 0  # the final walks: bytes the field after a string checks first
        self.level = 0
        self.count = 0

    # ---- spelling --------------------------------------------------------------------

    def o(self, line: str) -> None:
        self.lines.append(self.unit * self.level + line)

    def st(self, s: str) -> None:
        if s.startswith("p "):
            self.have = 0  # the final walks' cursor moved: nothing known past it
        self.o(s if self.kotlin else s + ";")

    def room(self, n: int) -> None:
        """The final walks: fail unless n bytes remain at p (known already after a run
        checked together with the header that follows it)."""
        if self.have < n:
            self.fail(f"end - p < {n}" if n > 1 else "p >= end")

    def need(self, layout: lower.StructLayout, i: int) -> int:
        """The bytes the final walk checks first from the field at index i on: a fixed
        run's size and the header after it, or the field's header."""
        run = next((r for r in layout.final_runs if r.first == i), None)
        return run.size + self.ahead(layout, i + run.count) if run else self.ahead(layout, i)

    def ahead(self, layout: lower.StructLayout, i: int) -> int:
        """The bytes the field at index i checks first in the final format (its header)."""
        if i >= len(layout.fields):
            return 0
        k = layout.fields[i].wire.kind
        return 4 if k in ("string", "bytes", "sequence", "map") else 1 if k == "optional" else 0

    def decl(self, name: str, expr: str, mutable: bool = False, kind: str = "long") -> None:
        """A local: a position, length or count is a long (`kind` int: a loop index)."""
        if self.kotlin:
            self.o(f"{'var' if mutable else 'val'} {name} = {expr}")
        else:
            self.o(f"{kind} {name} = {expr};")

    def as_int(self, expr: str) -> str:
        """A long position or length as the int the reader's calls take (it fits: it is
        inside the array)."""
        return f"({expr}).toInt()" if self.kotlin and " " in expr else (
            f"{expr}.toInt()" if self.kotlin else f"(int) {self.par(expr)}")

    def fail(self, cond: str) -> None:
        line = f"if ({cond}) return -1"
        if self.lines and self.lines[-1].strip() in (line, line + ";"):
            return  # the same check just made (a struct's walk ending a loop pass)
        self.st(line)

    @staticmethod
    def par(e: str) -> str:
        return f"({e})" if " " in e else e

    def outside(self, x: str, lo: str, width: str) -> str:
        """The block of `width` bytes at x starts before lo or ends past the limit: two
        compares (as cheap as any one-compare form, measured); the end as x + width, a long
        that cannot wrap, so no value derived from the limit stays live across the walk."""
        return f"{x} < {lo} || {x} + {width} > {self.lim}"

    def past(self, at: str, n: str) -> str:
        """n (a u32 length, or a count times its element size) bytes from `at` end past the
        limit; the same sum `at` moves by next, which the JIT computes once."""
        return f"{at} + {n} > {self.lim}"

    def open(self, head: str) -> None:
        self.o(head + " {")
        self.level += 1

    def close(self) -> None:
        self.level -= 1
        self.o("}")

    def var(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    @staticmethod
    def plus(expr: str, n: int) -> str:
        """expr + n, folding a trailing constant."""
        m = re.fullmatch(r"(.*) \+ (\d+)", expr)
        if m:
            return f"{m.group(1)} + {int(m.group(2)) + n}"
        return expr if n == 0 else f"{expr} + {n}"

    # ---- versioned -------------------------------------------------------------------

    def versioned(self, layout: lower.StructLayout) -> List[str]:
        """vfast0(d, slot, base, size, left): the budget left after the struct the slot
        leads to, or -1 (or any negative) to take the general walk."""
        self.lines, self.level, self.count, self.lim = [], 0, 0, "size"
        if self.kotlin:
            self.open("fun vfast0(d: ByteArray, slot: Long, base: Long, size: Long, left0: Long): Long")
            self.o("var left = left0")
        else:
            self.open("public static long vfast0(byte[] d, long slot, long base, long size, long left)")
        b = layout.body_size
        self.decl("pos", f"base + {U}.u32(d, slot, {self.lim})")
        self.fail(self.outside("pos", "slot + 4", str(b)))
        self.header(layout)
        for fl in layout.fields:
            self.vfield(fl.wire, self.plus("pos", fl.offset), "pos")
        self.st("return left")
        self.close()
        return self.lines

    def header(self, layout: lower.StructLayout) -> None:
        """The body's [u32 size][u32 type] as one 8-byte load and compare: the size this
        schema writes (a body of another version, larger, takes the general walk), the type;
        its bytes charged to the budget."""
        key = ((layout.type_number & 0xFFFFFFFF) << 32) | layout.body_size
        if key >= 1 << 63:
            key -= 1 << 64
        lit = f"({key}L)" if key < 0 else f"0x{key:016X}L"
        self.fail(f"{U}.i64(d, pos, {self.lim}) != {lit}")
        self.st(f"left -= {layout.body_size}")

    def vfield(self, w: lower.WireType, at: str, base: str) -> None:
        """The checks of the slot at `at`, whose offsets are relative to `base`."""
        k = w.kind
        if k == "decimal":
            self.fail(f"{U}.u8(d, {self.plus(at, 14)}, {self.lim}) > 28")
        elif w.is_value:
            return
        elif k in ("string", "bytes"):
            q, n = self.var("q"), self.var("n")
            self.decl(q, f"{base} + {U}.u32(d, {at}, {self.lim})")
            self.fail(self.outside(q, self.plus(at, 4), "4"))
            self.decl(n, f"{U}.u32(d, {q}, {self.lim})")
            self.fail(self.past(q, f"4 + {n}"))
            self.st(f"left -= 4 + {n}")
        elif k == "struct":
            assert w.ref is not None
            self.st(f"left = {self.codec(w.ref)}.vfast0(d, {at}, {base}, size, left)")
            self.fail("left < 0")
        elif k == "optional":
            assert w.element is not None
            e = w.element
            self.open(f"if ({U}.u8(d, {at}, {self.lim}) != 0)")
            q = self.var("o")
            self.decl(q, f"{base} + {U}.u32(d, {self.plus(at, 1)}, {self.lim})")
            self.fail(self.outside(q, self.plus(at, 5), str(e.slot)))
            self.st(f"left -= {e.slot}")
            self.vfield(e, q, q)
            self.close()
        elif k == "array":
            assert w.element is not None and w.length is not None
            e = w.element
            if needs_check(e):
                a, end = self.var("a"), self.var("end")
                self.decl(a, at, mutable=True)
                self.decl(end, self.plus(at, w.length * e.slot))
                self.open(f"while ({a} < {end})")
                self.vfield(e, a, base)
                self.st(f"{a} += {e.slot}")
                self.close()
        elif k in ("sequence", "map"):
            assert w.element is not None
            parts = [w.element] if k == "sequence" else [w.key, w.element]
            es = sum(p.slot for p in parts if p is not None)
            off, q, c = self.var("off"), self.var("q"), self.var("c")
            self.decl(off, f"{U}.u32(d, {at}, {self.lim})")
            self.open(f"if ({off} != 0L)")
            self.decl(q, f"{base} + {off}")
            self.fail(self.outside(q, self.plus(at, 4), "4"))
            self.decl(c, f"{U}.u32(d, {q}, {self.lim})")
            self.fail(self.past(q, f"4 + {c} * {es}"))
            self.st(f"left -= 4 + {c} * {es}")
            if any(p is not None and needs_check(p) for p in parts):
                a, end = self.var("a"), self.var("end")
                self.decl(end, f"{q} + 4 + {c} * {es}")
                self.decl(a, f"{q} + 4", mutable=True)
                self.open(f"while ({a} < {end})")
                o = 0
                for p in parts:
                    assert p is not None
                    self.vfield(p, self.plus(a, o), base)
                    o += p.slot
                self.fail("left < 0")
                self.st(f"{a} += {es}")
                self.close()
            self.close()
        else:
            raise AssertionError(k)

    # ---- final -----------------------------------------------------------------------

    def final(self, layout: lower.StructLayout) -> List[str]:
        """ffast0(d, p, end): the position after the struct at p, or -1 to take the
        general walk."""
        self.lines, self.level, self.count, self.lim = [], 0, 0, "end"
        if self.kotlin:
            self.open("fun ffast0(d: ByteArray, p0: Long, end: Long): Long")
            self.o("var p = p0")
        else:
            self.open("public static long ffast0(byte[] d, long p, long end)")
        runs = {r.first: r for r in layout.final_runs}
        fields = layout.fields
        i = 0
        while i < len(fields):
            if i in runs:
                run = runs[i]
                la = self.ahead(layout, i + run.count)
                if self.have < run.size + la:
                    self.fail(f"end - p < {run.size + la}")
                for k, j in enumerate(run.indexes):
                    if fields[j].wire.kind == "decimal":
                        self.fail(f"{U}.u8(d, {self.plus('p', run.offsets[k] + 14)}, {self.lim}) > 28")
                self.st(f"p += {run.size}")
                self.have = la
                i += run.count
                continue
            if fields[i].wire.kind in ("string", "bytes"):
                self.after = self.need(layout, i + 1)
            self.ffield(fields[i].wire)
            self.after = 0
            i += 1
        self.st("return p")
        self.close()
        return self.lines

    def ffield(self, w: lower.WireType) -> None:
        """Checks the value at p and moves p past it."""
        k = w.kind
        if w.is_value:
            assert w.final_size is not None
            self.fail(f"end - p < {w.final_size}")
            if k == "decimal":
                self.fail(f"{U}.u8(d, p + 14, {self.lim}) > 28")
            self.st(f"p += {w.final_size}")
        elif k in ("string", "bytes"):
            n = self.var("n")
            self.room(4)
            self.decl(n, f"{U}.u32(d, p, {self.lim})")
            self.string_tail(n)
        elif k == "struct":
            assert w.ref is not None
            self.st(f"p = {self.codec(w.ref)}.ffast0(d, p, end)")
            self.fail("p < 0")
        elif k == "optional":
            assert w.element is not None
            self.room(1)
            self.st("p += 1")
            self.open(f"if ({U}.u8(d, p - 1, {self.lim}) != 0)")
            self.ffield(w.element)
            self.close()
        elif k == "array":
            assert w.element is not None and w.length is not None
            e = w.element
            if not fneeds_check(e):
                assert e.final_size is not None
                self.ffield_fixed(e.final_size * w.length)
            else:
                i = self.var("i")
                self.decl(i, "0", mutable=True, kind="int")
                self.open(f"while ({i} < {w.length})")
                self.ffield(e)
                self.st(f"{i} += 1")
                self.close()
        elif k in ("sequence", "map"):
            assert w.element is not None
            parts = [w.element] if k == "sequence" else [w.key, w.element]
            least = sum(p.final_min for p in parts if p is not None)
            c = self.var("c")
            self.room(4)
            self.decl(c, f"{U}.u32(d, p, {self.lim})")
            self.st("p += 4")
            self.fail(self.past("p", f"{c} * {least}"))
            if all(p is not None and not fneeds_check(p) and p.final_size is not None for p in parts):
                # Fixed elements: the count check above covers them.
                self.st(f"p += {c} * {least}")
            else:
                i = self.var("i")
                self.decl(i, "0", mutable=True, kind="int")
                self.open(f"while ({i} < {c})")
                for p in parts:
                    assert p is not None
                    self.ffield(p)
                self.st(f"{i} += 1")
                self.close()
        else:
            raise AssertionError(k)

    def string_tail(self, n: str, use: str = "") -> None:
        """A final string's length n (at p) checked, with room for what the walk checks
        next (self.after: the next field's run and header), which is then known."""
        after, self.after = self.after, 0
        self.fail(self.past("p", f"{4 + after} + {n}"))
        if use:
            self.st(use)
        self.st(f"p += 4 + {n}")
        self.have = after

    def ffield_fixed(self, size: int) -> None:
        if size:
            self.fail(f"end - p < {size}")
            self.st(f"p += {size}")


# ---- the fast path of deserialize ----------------------------------------------------
#
# The same walks, reading as they check, into the object being filled (its nested
# objects and list elements reused as the general read reuses them). A struct gets them
# when every field is a value (not a decimal: its read can fail), a string, a struct that
# has them, an optional of such a struct or of a string, or a vector or list of such
# structs. Given up (-1), they leave the object partly filled and the general read starts
# that struct over from the same reader state: it sets every field again, so the result,
# or the exception, is the general read's.

def readable(model: lower.WireModel, layout: lower.StructLayout) -> bool:
    if not eligible(model, layout):
        return False
    return lower.derive(model, "java.readable", layout,
                        lambda t, known: eligible(model, t) and all(_readable(known, fl.wire)
                                                                    for fl in t.fields),
                        lambda t: eligible(model, t))


def _readable(known: Dict[str, bool], w: lower.WireType) -> bool:
    if w.is_value:
        return w.kind != "decimal"
    if w.kind == "string":
        return True
    if w.kind == "struct":
        assert w.ref is not None
        return known[w.ref]
    e = w.element
    if w.kind == "optional" and e is not None:
        return e.kind == "string" or (e.kind == "struct" and _readable(known, e))
    if w.kind == "sequence" and w.collection in ("vector", "list") and e is not None:
        return e.kind == "struct" and _readable(known, e)
    return False


class FastRead(FastWalk):
    def __init__(self, model: lower.WireModel, kotlin: bool, codec: Callable[[str], str],
                 unit: str, qualified: Callable[[str], str],
                 value: Callable[[lower.WireType, str], str],
                 field: Callable[[lower.FieldLayout], str]) -> None:
        super().__init__(model, kotlin, codec, unit)
        self.qualified = qualified  # a struct's qualified name -> its class
        # (a value's wire type, its position) -> the read expression, loading from d
        self.value = lambda w, at: unchecked(lambda p: value(w, p), at, self.lim, self.as_int)
        self.field = field  # a field -> its name in the class

    def ensure(self, ref: str, x: str, target: str, nullable: bool) -> None:
        """x: the struct to fill, `target`'s when it is one, else a new one put there."""
        t = self.qualified(ref)
        if self.kotlin and not nullable:
            self.o(f"val {x} = {target}")  # a data class (final), never null
            return
        if self.kotlin:
            self.o(f"var {x} = {target}")
            self.open(f"if ({x} == null)")
        else:
            self.o(f"{t} {x} = {target};")
            self.open(f"if ({x} == null || {x}.getClass() != {t}.class)")
        self.st(f"{x} = {'' if self.kotlin else 'new '}{t}()")
        self.st(f"{target} = {x}")
        self.close()

    def vread(self, name: str, layout: lower.StructLayout) -> List[str]:
        """vgetFast0(r, d, slot, base, size, left, v): reads v from the body the slot leads
        to; the budget left, or -1 (or any negative) to take the general read."""
        self.lines, self.level, self.count, self.lim = [], 0, 0, "size"
        R = "dev.fastwire.Reader"
        if self.kotlin:
            self.open(f"fun vgetFast0(r: {R}, d: ByteArray, slot: Long, base: Long, size: Long, "
                      f"left0: Long, v: {name}): Long")
            self.o("var left = left0")
        else:
            self.open(f"public static long vgetFast0({R} r, byte[] d, long slot, long base, "
                      f"long size, long left, {name} v)")
        b = layout.body_size
        self.decl("pos", f"base + {U}.u32(d, slot, {self.lim})")
        self.fail(self.outside("pos", "slot + 4", str(b)))
        self.header(layout)
        for fl in layout.fields:
            self.vrfield(fl.wire, self.plus("pos", fl.offset), "pos", "v." + self.field(fl))
        self.st("return left")
        self.close()
        return self.lines

    def vrstring(self, at: str, base: str, target: str) -> None:
        q, n = self.var("q"), self.var("n")
        self.decl(q, f"{base} + {U}.u32(d, {at}, {self.lim})")
        self.fail(self.outside(q, self.plus(at, 4), "4"))
        self.decl(n, f"{U}.u32(d, {q}, {self.lim})")
        self.fail(self.past(q, f"4 + {n}"))
        self.st(f"left -= 4 + {n}")
        self.st(f"{target} = r.text({self.as_int(q + ' + 4')}, {self.as_int(n)}, {target})")

    def vrfield(self, w: lower.WireType, at: str, base: str, target: str,
                nullable: bool = False) -> None:
        k = w.kind
        if w.is_value:
            self.st(f"{target} = {self.value(w, at)}")
        elif k == "string":
            self.vrstring(at, base, target)
        elif k == "struct":
            assert w.ref is not None
            x = self.var("x")
            self.ensure(w.ref, x, target, nullable)
            self.st(f"left = {self.codec(w.ref)}.vgetFast0(r, d, {at}, {base}, size, left, {x})")
            self.fail("left < 0")
        elif k == "optional":
            assert w.element is not None
            e = w.element
            self.open(f"if ({U}.u8(d, {at}, {self.lim}) != 0)")
            o = self.var("o")
            self.decl(o, f"{base} + {U}.u32(d, {self.plus(at, 1)}, {self.lim})")
            self.fail(self.outside(o, self.plus(at, 5), str(e.slot)))
            self.st(f"left -= {e.slot}")
            if e.kind == "string":
                self.vrstring(o, o, target)
            else:
                self.vrfield(e, o, o, target, True)
            self.level -= 1
            self.o("} else {")
            self.level += 1
            self.st(f"{target} = null")
            self.close()
        elif k == "sequence":
            el = w.element
            assert el is not None and el.ref is not None
            q, c = self.var("q"), self.var("c")
            self.decl(q, f"{base} + {U}.u32(d, {at}, {self.lim})")
            self.fail(self.outside(q, self.plus(at, 4), "4"))
            self.decl(c, f"{U}.u32(d, {q}, {self.lim})")
            self.fail(self.past(q, f"4 + {c} * {el.slot}"))
            self.st(f"left -= 4 + {c} * {el.slot}")
            self.read_list(el.ref, target, c,
                           lambda x, i: f"vgetFast0(r, d, {q} + 4 + {el.slot} * {i}, {base}, size, left, {x})",
                           "left")
        else:
            raise AssertionError(k)

    def read_list(self, ref: str, target: str, c: str, call: Callable[[str, str], str],
                  acc: str) -> None:
        """Fills the list at target with c elements, each read by call(x, i) into acc."""
        t = self.qualified(ref)
        out, old, i, x = self.var("out"), self.var("old"), self.var("i"), self.var("x")
        D = "dev.fastwire.Direct"
        if self.kotlin:
            self.o(f"val {out} = {D}.list({target})")
            self.o(f"val {old} = {out}.size")
            self.open(f"for ({i} in 0 until {self.as_int(c)})")
            self.o(f"var {x} = if ({i} < {old}) {out}[{i}] else null")
            self.open(f"if ({x} == null)")
            self.o(f"{x} = {t}()")
        else:
            self.o(f"java.util.List<{t}> {out} = {D}.list({target});")
            self.o(f"int {old} = {out}.size();")
            self.open(f"for (int {i} = 0; {i} < {self.as_int(c)}; {i}++)")
            self.o(f"{t} {x} = {i} < {old} ? {out}.get({i}) : null;")
            self.open(f"if ({x} == null || {x}.getClass() != {t}.class)")
            self.o(f"{x} = new {t}();")
        self.st(f"{D}.set({out}, {i}, {old}, {x})")
        self.close()
        self.st(f"{acc} = {self.codec(ref)}.{call(x, i)}")
        self.fail(f"{acc} < 0")
        self.close()
        self.st(f"{D}.trim({out}, {self.as_int(c)})")
        self.st(f"{target} = {out}")

    def fread(self, name: str, layout: lower.StructLayout) -> List[str]:
        """fgetFast0(r, d, p, end, v): reads v at p; the position after it, or -1 to take
        the general read."""
        self.lines, self.level, self.count, self.lim = [], 0, 0, "end"
        R = "dev.fastwire.Reader"
        if self.kotlin:
            self.open(f"fun fgetFast0(r: {R}, d: ByteArray, p0: Long, end: Long, v: {name}): Long")
            self.o("var p = p0")
        else:
            self.open(f"public static long fgetFast0({R} r, byte[] d, long p, long end, {name} v)")
        runs = {r.first: r for r in layout.final_runs}
        fields = layout.fields
        i = 0
        while i < len(fields):
            if i in runs:
                run = runs[i]
                la = self.ahead(layout, i + run.count)
                if self.have < run.size + la:
                    self.fail(f"end - p < {run.size + la}")
                for k, j in enumerate(run.indexes):
                    fl = fields[j]
                    self.st(f"v.{self.field(fl)} = {self.value(fl.wire, self.plus('p', run.offsets[k]))}")
                self.st(f"p += {run.size}")
                self.have = la
                i += run.count
                continue
            if fields[i].wire.kind in ("string", "bytes"):
                self.after = self.need(layout, i + 1)
            self.frfield(fields[i].wire, "v." + self.field(fields[i]))
            self.after = 0
            i += 1
        self.st("return p")
        self.close()
        return self.lines

    def frfield(self, w: lower.WireType, target: str, nullable: bool = False) -> None:
        k = w.kind
        if w.is_value:
            assert w.final_size is not None
            self.fail(f"end - p < {w.final_size}")
            self.st(f"{target} = {self.value(w, 'p')}")
            self.st(f"p += {w.final_size}")
        elif k == "string":
            n = self.var("n")
            self.room(4)
            self.decl(n, f"{U}.u32(d, p, {self.lim})")
            self.string_tail(n, f"{target} = r.text({self.as_int('p + 4')}, {self.as_int(n)}, {target})")
        elif k == "struct":
            assert w.ref is not None
            x = self.var("x")
            self.ensure(w.ref, x, target, nullable)
            self.st(f"p = {self.codec(w.ref)}.fgetFast0(r, d, p, end, {x})")
            self.fail("p < 0")
        elif k == "optional":
            assert w.element is not None
            self.room(1)
            self.st("p += 1")
            self.open(f"if ({U}.u8(d, p - 1, {self.lim}) != 0)")
            self.frfield(w.element, target, True)
            self.level -= 1
            self.o("} else {")
            self.level += 1
            self.st(f"{target} = null")
            self.close()
        elif k == "sequence":
            el = w.element
            assert el is not None and el.ref is not None
            c = self.var("c")
            self.room(4)
            self.decl(c, f"{U}.u32(d, p, {self.lim})")
            self.st("p += 4")
            self.fail(self.past("p", f"{c} * {el.final_min}"))
            self.read_list(el.ref, target, c, lambda x, i: f"fgetFast0(r, d, p, end, {x})", "p")
        else:
            raise AssertionError(k)
