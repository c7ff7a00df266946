"""The fast paths of verify and deserialize, for Java and Kotlin alike (one walk over the
codec plan, spelled by the language's Syntax); java/README.md tells their design and costs.

A non-recursive struct gets straight-line walks beside its general code: vfast0 and ffast0
verify, vgetFast0 and fgetFast0 deserialize (the versioned and the final format). Each reads
through locals only, checks what the general walk checks and gives up (-1) on anything
unusual (an older body, an offset of 0, a bad value, the budget run out): the general walk
then starts that struct over, so results and exceptions are always the general walk's.
Loads go through dev.fastwire.Unchecked, each after the walk proved it inside the limit
(docs/performance/java.md says why the walks are shaped so).
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ... import lower, plan
from ...layouts import BLOCK, COLLECTION, DECIMAL, OPTIONAL, STRUCT
from ..printer import Printer
from . import names
from .syntax import Syntax, route

U = "dev.fastwire.Unchecked"
D = "dev.fastwire.Direct"
# The header a field of the final format checks first (its length, count or flag).
AHEAD = {"string": BLOCK.length_size, "bytes": BLOCK.length_size, "optional": OPTIONAL.flag_size,
         **{c: COLLECTION.count_size for c in ("vector", "list", "set", "map", "hash")}}
_READER_LOAD = re.compile(r"\br\.(u8|i8|i16|i32|u32|i64|f32|f64)\(([^()]*)\)")
_READER_BYTE = re.compile(r"\br\.buf\[([^\]]*)\]")


def load(kind: str, at: str, limit: str) -> str:
    """A load at `at` the walk has proved in bounds: at + width <= limit <= d.length."""
    return f"{U}.{kind}(d, {at}, {limit})"


def unchecked(expr: Callable[[str], str], at: str, limit: str, to_int: Callable[[str], str]) -> str:
    """A value's read expression (expr(position)) at the long `at`, the reader's loads as
    loads from d the walk proved inside [0, limit); other uses take the position as an int."""
    mark = "\0"
    e = expr(mark)
    e = _READER_LOAD.sub(lambda m: load(m.group(1), m.group(2).replace(mark, at), limit), e)
    e = _READER_BYTE.sub(lambda m: load("i8", m.group(1).replace(mark, at), limit), e)
    return e.replace(mark, to_int(at))


def parts(w: lower.WireType) -> List[lower.WireType]:
    """A collection's entry: its key (of a map) and its element."""
    return [x for x in (w.key, w.element) if x is not None]


def counted(w: lower.WireType) -> bool:
    """A vector, list, set, map or hash: a count, then its entries."""
    return w.collection not in (None, "array")


def eligible(model: lower.WireModel, layout: lower.StructLayout) -> bool:
    """Whether a struct gets the fast walks: not recursive, no collection of elements of
    no final size (they count against an allowance)."""
    return lower.derive(model, "jvm.eligible", layout, _eligible, lambda t: t.depth > 0)


def _eligible(layout: lower.StructLayout, known: Dict[str, bool]) -> bool:
    return layout.depth > 0 and all(_ok(known, fl.wire) for fl in layout.fields)


def _ok(known: Dict[str, bool], w: lower.WireType) -> bool:
    if w.helper == "struct":
        assert w.ref is not None
        return known[w.ref]
    if counted(w) and sum(x.final_min for x in parts(w)) == 0:
        return False
    return all(_ok(known, x) for x in parts(w))


def needs_check(w: lower.WireType) -> bool:
    """Whether a versioned slot of this type has anything to check."""
    if w.is_value:
        return w.helper == "decimal"
    return w.helper != "array" or any(needs_check(x) for x in parts(w))


def fneeds_check(w: lower.WireType) -> bool:
    """Whether a final-format value of this type has anything to check beyond its size."""
    if w.is_value:
        return w.helper == "decimal"
    return w.helper != "array" or any(x.final_size is None or fneeds_check(x) for x in parts(w))


def readable(model: lower.WireModel, layout: lower.StructLayout) -> bool:
    """Whether an eligible struct gets the reading walks: every field a value (no decimal:
    its read can fail), a string, a struct that has them, or one in line of those."""
    def rule(t: lower.StructLayout, known: Dict[str, bool]) -> bool:
        return eligible(model, t) and all(_readable(known, fl.wire) for fl in t.fields)
    return lower.derive(model, "jvm.readable", layout, rule, lambda t: eligible(model, t))


def _readable(known: Dict[str, bool], w: lower.WireType) -> bool:
    if w.is_value:
        return w.helper != "decimal"
    x = w.element if route(w) in ("opt", "seq") and w.element is not None else w
    return x.helper == "string" or (x.helper == "struct" and known[x.ref or ""])


class FastWalk:
    """The verify and the deserialize walks."""

    def __init__(self, p: Printer, syntax: Syntax) -> None:
        self.p = p
        self.syn = syntax
        self.codec = syntax.scodec
        self.field = syntax.field
        self.lim = "size"  # the bound every load is proved against
        self.have = 0  # the final walks: bytes known to remain at p
        self.after = 0  # the final walks: bytes the field after a string checks first
        self.count = 0

    # ---- spelling --------------------------------------------------------------------

    def o(self, line: str) -> None:
        self.p.value(line)

    def st(self, s: str) -> None:
        if s.startswith("p "):
            self.have = 0  # the final walks' cursor moved: nothing known past it
        self.o(s + self.syn.end)

    def decl(self, name: str, expr: str, mutable: bool = False, kind: str = "long") -> None:
        self.o(self.syn.decl(name, expr, mutable, kind))

    def room(self, n: int) -> None:
        """Fail unless n bytes remain at p (known after a run checked with this header)."""
        if self.have < n:
            self.fail(f"end - p < {n}" if n > 1 else "p >= end")

    def fail(self, cond: str) -> None:
        line = f"if ({cond}) return -1"
        if self.p.lines and self.p.lines[-1].strip() in (line, line + ";"):
            return  # the same check just made (a struct's walk ending a loop pass)
        self.st(line)

    def outside(self, x: str, lo: str, width: str) -> str:
        """The block of `width` bytes at x starts before lo or ends past the limit."""
        return f"{x} < {lo} || {x} + {width} > {self.lim}"

    def past(self, at: str, n: str) -> str:
        """n bytes from `at` (the sum `at` moves by next) end past the limit."""
        return f"{at} + {n} > {self.lim}"

    def open(self, head: str) -> None:
        self.o(head + " {")
        self.p.indent()

    def close(self) -> None:
        self.p.outdent()
        self.o("}")

    def orelse(self) -> None:
        self.p.outdent()
        self.o("} else {")
        self.p.indent()

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

    def start(self, fn: str, name: str, lim: str) -> None:
        self.count, self.lim, self.have, self.after = 0, lim, 0, 0
        head, body = self.syn.heads[fn]
        self.open(head.format(name=name))
        for line in body:
            self.o(line)

    def scale(self, at: str) -> None:
        self.fail(f"{U}.u8(d, {self.plus(at, DECIMAL.scale_at)}, {self.lim}) > {DECIMAL.max_scale}")

    # ---- versioned -------------------------------------------------------------------
    # The reading walks (vgetFast0, fgetFast0) make the same checks and store each value at
    # its `target` (a struct filled in place: `nullable`, when its holder may be null).

    def body(self, layout: lower.StructLayout) -> None:
        """The body the slot leads to, its [u32 size][u32 type] compared at once, charged."""
        self.decl("pos", f"base + {U}.u32(d, slot, {self.lim})")
        self.fail(self.outside("pos", f"slot + {STRUCT.slot}", str(layout.body_size)))
        key = ((layout.type_number & 0xFFFFFFFF) << 32) | layout.body_size
        if key >= 1 << 63:
            key -= 1 << 64
        lit = f"({key}L)" if key < 0 else f"0x{key:016X}L"
        self.fail(f"{U}.i64(d, pos, {self.lim}) != {lit}")
        self.st(f"left -= {layout.body_size}")

    def versioned(self, layout: lower.StructLayout, name: str = "") -> None:
        """vfast0 (or, reading struct `name`, vgetFast0): the budget left after the struct
        the slot leads to, or -1 (any negative): take the general walk."""
        self.start("vgetFast0" if name else "vfast0", name, "size")
        self.body(layout)
        for step in layout.plan.versioned.steps:
            for f in step.fields:
                self.vfield(f.wire, self.plus("pos", f.at or 0), "pos", "v." + self.field(f) if name else None)
        self.st("return left")
        self.close()

    def vfield(self, w: lower.WireType, at: str, base: str, target: Optional[str] = None,
               nullable: bool = False) -> None:
        """The checks of the slot at `at`, whose offsets are relative to `base`."""
        if w.is_value:
            if target is not None:
                self.st(f"{target} = {self.value(w, at)}")
            elif w.helper == "decimal":
                self.scale(at)
            return
        _VERSIONED[w.helper](self, w, at, base, target, nullable)

    def block_at(self, at: str, base: str) -> Tuple[str, str]:
        """The offset at `at` followed to a block and its u32 length checked; the length."""
        q, n = self.var("q"), self.var("n")
        self.decl(q, f"{base} + {U}.u32(d, {at}, {self.lim})")
        self.fail(self.outside(q, self.plus(at, BLOCK.slot), str(BLOCK.length_size)))
        self.decl(n, f"{U}.u32(d, {q}, {self.lim})")
        self.fail(self.past(q, f"{BLOCK.length_size} + {n}"))
        self.st(f"left -= {BLOCK.length_size} + {n}")
        return q, n

    def v_block(self, w: lower.WireType, at: str, base: str, target: Optional[str], nullable: bool) -> None:
        q, n = self.block_at(at, base)
        if target is not None:
            self.st(f"{target} = r.text({self.syn.as_int(q + ' + 4')}, {self.syn.as_int(n)}, {target})")

    def v_struct(self, w: lower.WireType, at: str, base: str, target: Optional[str], nullable: bool) -> None:
        self.struct(w, target, nullable, "left", f"vfast0(d, {at}, {base}, size, left)",
                    f"vgetFast0(r, d, {at}, {base}, size, left, {{x}})")

    def struct(self, w: lower.WireType, target: Optional[str], nullable: bool, acc: str, check: str,
               read: str) -> None:
        """A struct's walk called (read: into x, the struct at target or a new one put there)."""
        call = check
        if target is not None:
            x = self.var("x")
            self.ensure(w.ref or "", x, target, nullable)
            call = read.format(x=x)
        self.st(f"{acc} = {self.codec(w.ref or '')}.{call}")
        self.fail(f"{acc} < 0")

    def optional_at(self, e: lower.WireType, at: str, base: str) -> str:
        """An optional's flag tested and its offset followed; the value's position."""
        self.open(f"if ({U}.u8(d, {at}, {self.lim}) != 0)")
        q = self.var("o")
        self.decl(q, f"{base} + {U}.u32(d, {self.plus(at, OPTIONAL.offset_at)}, {self.lim})")
        self.fail(self.outside(q, self.plus(at, OPTIONAL.slot), str(e.slot)))
        self.st(f"left -= {e.slot}")
        return q

    def v_optional(self, w: lower.WireType, at: str, base: str, target: Optional[str], nullable: bool) -> None:
        assert w.element is not None
        q = self.optional_at(w.element, at, base)
        self.vfield(w.element, q, q, target, True)
        self.otherwise(target)

    def otherwise(self, target: Optional[str]) -> None:
        """An optional's block closed (read: its target null when it holds none)."""
        if target is not None:
            self.orelse()
            self.st(f"{target} = null")
        self.close()

    def v_array(self, w: lower.WireType, at: str, base: str, target: Optional[str], nullable: bool) -> None:
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

    def v_collection(self, w: lower.WireType, at: str, base: str, target: Optional[str], nullable: bool) -> None:
        n = COLLECTION.count_size
        if target is not None:  # a vector or list of structs, read
            el = w.element
            assert el is not None and el.ref is not None
            q, c = self.var("q"), self.var("c")
            self.decl(q, f"{base} + {U}.u32(d, {at}, {self.lim})")
            self.entries_at(q, c, at, el.slot)
            self.read_list(el.ref, target, c,
                           lambda x, i: f"vgetFast0(r, d, {q} + {n} + {el.slot} * {i}, {base}, size, left, {x})",
                           "left")
            return
        es = sum(x.slot for x in parts(w))
        off, q, c = self.var("off"), self.var("q"), self.var("c")
        self.decl(off, f"{U}.u32(d, {at}, {self.lim})")
        self.open(f"if ({off} != 0L)")
        self.decl(q, f"{base} + {off}")
        self.entries_at(q, c, at, es)
        if any(needs_check(x) for x in parts(w)):
            a, end = self.var("a"), self.var("end")
            self.decl(end, f"{q} + {n} + {c} * {es}")
            self.decl(a, f"{q} + {n}", mutable=True)
            self.open(f"while ({a} < {end})")
            o = 0
            for x in parts(w):
                self.vfield(x, self.plus(a, o), base)
                o += x.slot
            self.fail("left < 0")
            self.st(f"{a} += {es}")
            self.close()
        self.close()

    def entries_at(self, q: str, c: str, at: str, es: int) -> None:
        """A collection's block at q (from the slot at `at`): its count c checked, charged."""
        n = COLLECTION.count_size
        self.fail(self.outside(q, self.plus(at, COLLECTION.slot), str(n)))
        self.decl(c, f"{U}.u32(d, {q}, {self.lim})")
        self.fail(self.past(q, f"{n} + {c} * {es}"))
        self.st(f"left -= {n} + {c} * {es}")

    # ---- final -----------------------------------------------------------------------

    def ahead(self, steps: Sequence[plan.Step], k: int) -> int:
        """The bytes the step at k checks first in the final format (its header)."""
        return AHEAD.get(steps[k].op, 0) if k < len(steps) else 0

    def need(self, steps: Sequence[plan.Step], k: int) -> int:
        """What the final walk checks first from the step at k on (a run: and the next header)."""
        if k < len(steps) and steps[k].op == "values":
            return (steps[k].size or 0) + self.ahead(steps, k + 1)
        return self.ahead(steps, k)

    def final(self, layout: lower.StructLayout, name: str = "") -> None:
        """ffast0(d, p, end) (or, reading struct `name`, fgetFast0(r, d, p, end, v)): the
        position after the struct at p, or -1 to take the general walk."""
        self.start("fgetFast0" if name else "ffast0", name, "end")
        steps = layout.plan.final.steps
        for k, step in enumerate(steps):
            if step.op == "values":
                la = self.ahead(steps, k + 1)
                size = step.size or 0
                if self.have < size + la:
                    self.fail(f"end - p < {size + la}")
                for f in step.fields:
                    if name:
                        self.st(f"v.{self.field(f)} = {self.value(f.wire, self.plus('p', f.at or 0))}")
                    elif f.helper == "decimal":
                        self.scale(self.plus("p", f.at or 0))
                self.st(f"p += {size}")
                self.have = la
                continue
            if step.op in ("string", "bytes"):
                self.after = self.need(steps, k + 1)
            self.ffield(step.field.wire, "v." + self.field(step.field) if name else None)
            self.after = 0
        self.st("return p")
        self.close()

    def ffield(self, w: lower.WireType, target: Optional[str] = None, nullable: bool = False) -> None:
        """Checks the value at p and moves p past it."""
        if w.is_value:
            self.fail(f"end - p < {w.final_size}")
            if target is not None:
                self.st(f"{target} = {self.value(w, 'p')}")
            elif w.helper == "decimal":
                self.scale("p")
            self.st(f"p += {w.final_size}")
            return
        _FINAL[w.helper](self, w, target, nullable)

    def f_block(self, w: lower.WireType, target: Optional[str], nullable: bool) -> None:
        n = self.var("n")
        self.room(BLOCK.length_size)
        self.decl(n, f"{U}.u32(d, p, {self.lim})")
        self.string_tail(n, "" if target is None else
                         f"{target} = r.text({self.syn.as_int('p + 4')}, {self.syn.as_int(n)}, {target})")

    def f_struct(self, w: lower.WireType, target: Optional[str], nullable: bool) -> None:
        self.struct(w, target, nullable, "p", "ffast0(d, p, end)", "fgetFast0(r, d, p, end, {x})")

    def f_optional(self, w: lower.WireType, target: Optional[str], nullable: bool) -> None:
        assert w.element is not None
        self.room(OPTIONAL.flag_size)
        self.st(f"p += {OPTIONAL.flag_size}")
        self.open(f"if ({U}.u8(d, p - {OPTIONAL.flag_size}, {self.lim}) != 0)")
        self.ffield(w.element, target, True)
        self.otherwise(target)

    def f_array(self, w: lower.WireType, target: Optional[str], nullable: bool) -> None:
        assert w.element is not None and w.length is not None
        e = w.element
        if not fneeds_check(e):
            size = (e.final_size or 0) * w.length
            if size:
                self.fail(f"end - p < {size}")
                self.st(f"p += {size}")
            return
        i = self.var("i")
        self.decl(i, "0", mutable=True, kind="int")
        self.open(f"while ({i} < {w.length})")
        self.ffield(e)
        self.st(f"{i} += 1")
        self.close()

    def count_at(self, least: int) -> str:
        """A count at p, checked to leave `least` bytes an entry; the count."""
        c = self.var("c")
        self.room(COLLECTION.count_size)
        self.decl(c, f"{U}.u32(d, p, {self.lim})")
        self.st(f"p += {COLLECTION.count_size}")
        self.fail(self.past("p", f"{c} * {least}"))
        return c

    def f_collection(self, w: lower.WireType, target: Optional[str], nullable: bool) -> None:
        least = sum(x.final_min for x in parts(w))
        c = self.count_at(least)
        if target is not None:  # a vector or list of structs, read
            assert w.element is not None
            self.read_list(w.element.ref or "", target, c, lambda x, i: f"fgetFast0(r, d, p, end, {x})", "p")
            return
        if all(not fneeds_check(x) and x.final_size is not None for x in parts(w)):
            self.st(f"p += {c} * {least}")  # fixed entries: the count check covers them
            return
        i = self.var("i")
        self.decl(i, "0", mutable=True, kind="int")
        self.open(f"while ({i} < {c})")
        for x in parts(w):
            self.ffield(x)
        self.st(f"{i} += 1")
        self.close()

    def string_tail(self, n: str, use: str = "") -> None:
        """A final string's length n at p checked with room for what follows (self.after)."""
        after, self.after = self.after, 0
        self.fail(self.past("p", f"{BLOCK.length_size + after} + {n}"))
        if use:
            self.st(use)
        self.st(f"p += {BLOCK.length_size} + {n}")
        self.have = after

    # ---- reading ---------------------------------------------------------------------

    def qualified(self, ref: str) -> str:
        return names.qualified(self.syn.schema, ref)

    def value(self, w: lower.WireType, at: str) -> str:
        return unchecked(lambda q: self.syn.value_read(w, q), at, self.lim, self.syn.as_int)

    def ensure(self, ref: str, x: str, target: str, nullable: bool) -> None:
        """x: the struct to fill, `target`'s when it is one, else a new one put there."""
        decl, test, new = self.syn.ensure[nullable]
        names = dict(t=self.qualified(ref), x=x, target=target)
        self.o(decl.format(**names))
        if test is not None and new is not None:
            self.open(test.format(**names))
            self.st(new.format(**names))
            self.st(f"{target} = {x}")
            self.close()

    def read_list(self, ref: str, target: str, c: str, call: Callable[[str, str], str],
                  acc: str) -> None:
        """Fills the list at target with c elements, each read by call(x, i) into acc."""
        out, old, i, x = self.var("out"), self.var("old"), self.var("i"), self.var("x")
        names = dict(t=self.qualified(ref), out=out, old=old, i=i, x=x, target=target,
                     n=self.syn.as_int(c), D=D)
        decl, size, loop, element, test, new = (t.format(**names) for t in self.syn.fill_list)
        self.o(decl)
        self.o(size)
        self.open(loop)
        self.o(element)
        self.open(test)
        self.o(new)
        self.st(f"{D}.set({out}, {i}, {old}, {x})")
        self.close()
        self.st(f"{acc} = {self.codec(ref)}.{call(x, i)}")
        self.fail(f"{acc} < 0")
        self.close()
        self.st(f"{D}.trim({out}, {self.syn.as_int(c)})")
        self.st(f"{target} = {out}")


Walk = Callable[..., None]
_COLLECTIONS = ("vector", "list", "set", "map", "hash")
_VERSIONED: Dict[str, Walk] = {
    "string": FastWalk.v_block, "bytes": FastWalk.v_block, "struct": FastWalk.v_struct,
    "optional": FastWalk.v_optional, "array": FastWalk.v_array,
    **{c: FastWalk.v_collection for c in _COLLECTIONS}}
_FINAL: Dict[str, Walk] = {
    "string": FastWalk.f_block, "bytes": FastWalk.f_block, "struct": FastWalk.f_struct,
    "optional": FastWalk.f_optional, "array": FastWalk.f_array,
    **{c: FastWalk.f_collection for c in _COLLECTIONS}}
