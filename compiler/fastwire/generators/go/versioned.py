"""The versioned format: MarshalFBE, UnmarshalFBE, Verify<T> and the FwPutV, FwGetV and
FwVerifyV<T> they call, from plan.versioned. On the hot paths (writing, reading, the fast
walk of verify) the usual case of a runtime call the Go compiler would not inline (w.Alloc,
r.Enter) is spelled out; the full walk of verify calls the runtime.
The handlers in the tables take (g, w, value, slot, base)."""

from __future__ import annotations

import re

from ... import lower
from ...layouts import DECIMAL, OPTIONAL
from .names import Scope, field
from .types import (
    W,
    allocated,
    entries,
    fast_walk,
    gotype,
    guard,
    insert,
    limited,
    load,
    orelse,
    pair_map,
    says,
    sort_read,
    sorted_set,
    store,
    table,
    unless,
)

MARSHAL = """
// MarshalFBE appends s to buf as a versioned root model (reusing buf's capacity).
func (s *$N$) MarshalFBE(buf []byte) []byte {
    w := fw.Writer{Buf: buf}
    start := w.Alloc(8)
    s.FwPutV(&w, start+4, start)
    fw.PutU32(w.Buf, start, uint32(len(w.Buf)-start))
    return w.Buf
}

"""
ROOT = "full, err := fw.Root(data, lim)\nif err != nil {\n    return err\n}"
START = "\nvar r fw.VReader\nr.Start(data, full, lim)\n$C$(&r, 4, 0)\nreturn r.Result()"
# The fast walk straight from Verify<T>Limits (no VReader to set up); the depth limit as
# VReader.Start would take it (MaxDepth clamped to 0..MaxDepthCap).
ROOT_FAST = """
if lim.MaxDepth >= $D$ {
    if left, ok := fwFastV$N$(data[:full], 4, 0, int64(full)-8); ok {
        if left < 0 {
            return fw.ErrOverBudget
        }
        return nil
    }
}"""
FAST_FN = """
// FwVerifyV$N$ verifies the $N$ body the slot leads to (generated code).
func FwVerifyV$N$(r *fw.VReader, slot, base int) {
    if r.Depth >= $D$ {
        if left, ok := fwFastV$N$(r.Data, slot, base, r.Left); ok {
            r.Left = left
            return
        }
    }
    fwVerifyV$N$Full(r, slot, base)
}

// fwFastV$N$ walks the usual $N$ body (d a root model, $D$ levels allowed): the
// budget left, or false with nothing recorded (fwVerifyV$N$Full then says why).
func fwFastV$N$(d []byte, slot, base int, left int64) (int64, bool) {
    size := len(d)
    pos := base + int(fw.U32(d, slot))
    if pos < slot+4 || pos > size-$B$ {
        return 0, false
    }"""
# r.Enter's usual case: a body's header at pos, read when it is inside d.
ENTER = """\
d := r.Data
size := len(d)
pos := base + int(fw.U32(d, slot))
stored, typ := 0, uint32(0)
if pos >= slot+4 && pos <= size-8 {
    h := d[pos : pos+8 : pos+8]
    stored, typ = int(fw.U32(h, 0)), fw.U32(h, 4)
}
if stored >= 8 && stored <= size-pos && typ == $T$ && r.Depth > 0 {
    r.Depth--
    r.Left -= int64(stored)
} else {
    r.Enter(slot, base, $T$) // records why
    return
}"""
GIVE_UP = "return 0, false"
BREAK = "if !r.OK() {\n    break\n}"
UNUSED = "_, _ = pos, stored"


def emit_versioned(g: Scope, name: str, layout: lower.StructLayout) -> None:
    p, fast, t, body = g.p, fast_walk(g, layout, True), layout.type_number, layout.body_size
    fields = [f for step in layout.plan.versioned.steps for f in step.fields]
    verify = f"fwVerifyV{name}Full" if fast else f"FwVerifyV{name}"
    p.print(MARSHAL, N=name)
    limited(p, "// UnmarshalFBE reads a versioned root model into s, reusing its memory; malformed data\n"
            "// is an error (then s is valid but unspecified).", "UnmarshalFBE", name, ROOT + START, C="s.FwGetV")
    limited(p, f"// Verify{name} checks a versioned root model of {name} without reading it.", f"Verify{name}", "",
            ROOT + (ROOT_FAST if fast else "") + START, N=name, D=layout.depth, C=verify)
    p.print(f"\n// FwPutV writes s's body and heap blocks and its offset into the slot (generated code).\n"
            f"func (s *{name}) FwPutV(w *fw.Writer, slot, base int) {{")
    p.indent()
    vput_body(g, layout)
    p.outdent()
    p.print("}\n\n// FwGetV reads s from the body the slot leads to (generated code).")
    with p.block(f"func (s *{name}) FwGetV(r *fw.VReader, slot, base int) {{", "}"):
        p.print(ENTER, T=t)
        if not fields:
            p.print(UNUSED)
        else:
            with p.block(f"if stored >= {body} {{", "}"):
                plain = [f for f in fields if not f.wire.fallible]
                if plain:
                    p.print(f"body := d[pos : pos+{body} : pos+{body}]")
                for f in plain:
                    p.print(f"s.{field(f.name)} = {load(g, f.wire, 'body', str(f.at))}")
                for f in fields:
                    if f.wire.fallible:
                        vget(g, f.wire, f"s.{field(f.name)}", f"pos+{f.at}", "pos")
                orelse(p)  # an older version's body: the fields it has, the rest defaults
                p.print(f"*s = New{name}()")
                for f in fields:
                    with p.block(f"if {(f.at or 0) + f.wire.slot} <= stored {{", "}"):
                        vget(g, f.wire, f"s.{field(f.name)}", f"pos+{f.at}", "pos")
        p.print("r.Leave()")
    p.print()
    if fast:
        p.print(FAST_FN, N=name, D=layout.depth, B=body)
        p.indent()
        g.vconst = [0]
        vfast_body(g, layout, "pos")
        vcharge(g)
        p.print("return left, true")
        p.outdent()
        p.print(f"}}\n\n// {verify} is FwVerifyV{name} for every input: it records why a message fails.")
    else:
        p.print(f"// {verify} verifies the {name} body the slot leads to (generated code).")
    with p.block(f"func {verify}(r *fw.VReader, slot, base int) {{", "}\n\n"):
        p.print(f"pos, stored, ok := r.Enter(slot, base, {t})\nif !ok {{\n    return\n}}")
        checks = [fl for fl in layout.fields if fl.wire.checks]
        if not checks:
            p.print(UNUSED)
        for fl in checks:
            with p.block(f"if {fl.offset + fl.slot} <= stored {{", "}"):
                vcheck(g, fl.wire, f"pos+{fl.offset}", "pos")
        p.print("r.Leave()")


# ---- put ---------------------------------------------------------------------------------

def vput_body(g: Scope, layout: lower.StructLayout) -> None:
    """FwPutV's body: s (a pointer to the struct), w, slot and base in scope. The body is
    reserved (its offset into the slot), its fixed slots written through one slice of it (no
    bounds checks), then the heap blocks in field order: those of the strings and bytes before
    the first other heap field come right after the body, allocated with it."""
    p, body, steps = g.p, layout.body_size, layout.plan.versioned.steps
    heap = [step.field for step in steps if step.op != "values"]
    lead = 0
    while lead < len(heap) and heap[lead].helper in ("string", "bytes"):
        lead += 1
    size = " + ".join([str(body)] + [f"4 + len(s.{field(f.name)})" for f in heap[:lead]])
    # Resliced in place: only the length is stored (no pointer, no write barrier).
    p.print(f"n := {size}\npos := len(w.Buf)\nif pos+n > cap(w.Buf) {{\n    w.Grow(n)\n}}\n"
            f"w.Buf = w.Buf[:pos+n]\nbuf := w.Buf\nfw.PutU32(buf, slot, uint32(pos-base))\n"
            f"b := buf[pos : pos+{body} : pos+{body}]\nfw.PutU32(b, 0, {body})\n"
            f"fw.PutU32(b, 4, {layout.type_number})")
    for step in steps:
        for f in step.fields if step.op == "values" else ():
            p.print(store(f.wire, f"s.{field(f.name)}", "b", str(f.at)))
    if lead:
        p.print(f"q := pos + {body}")
    for i, f in enumerate(heap[:lead]):
        v = f"s.{field(f.name)}"
        p.print(f"fw.PutU32(b, {f.at}, {str(body) if i == 0 else 'uint32(q-pos)'})\n"
                f"fw.PutU32(buf, q, uint32(len({v})))\ncopy(buf[q+4:], {v})" +
                (f"\nq += 4 + len({v})" if i + 1 < lead else ""))
    for f in heap[lead:]:
        vput(g, f.wire, f"s.{field(f.name)}", f"pos+{f.at}", "pos")


def alloc(g: Scope, n: str, stem: str = "blk") -> str:
    """w.Alloc(n) spelled out: the position's name."""
    b = g.var(stem)
    g.p.print(f"{b} := len(w.Buf)\nif {b}+{n} > cap(w.Buf) {{\n    w.Grow({n.replace('+', ' + ')})\n}}\n"
              f"w.Buf = w.Buf[:{b}+{n}]")
    return b


def vblock(g: Scope, slot: str, base: str, count: str, elem: int) -> str:
    """w.VBlock spelled out: the position of the first element slot."""
    c = g.var("c")
    g.p.print(f"{c} := {count}")
    blk = alloc(g, f"4+{c}*{elem}")
    q = g.var("p")
    g.p.print(f"fw.PutU32(w.Buf, {slot}, uint32({blk}-{base}))\nfw.PutU32(w.Buf, {blk}, uint32({c}))\n"
              f"{q} := {blk} + 4")
    return q


def vput(g: Scope, w: W, v: str, slot: str, base: str) -> None:
    VPUT[w.helper](g, w, v, slot, base)


def _put_string(g, w, v, slot, base):
    blk = alloc(g, f"4+len({v})")
    g.p.print(f"fw.PutU32(w.Buf, {slot}, uint32({blk}-{base}))\nfw.PutU32(w.Buf, {blk}, uint32(len({v})))\n"
              f"copy(w.Buf[{blk}+4:], {v})")


def _put_struct(g, w, v, slot, base):
    leaf = g.layout(w.ref)
    if leaf.depth != 1 or w.ref.rpartition(".")[0] != g.pkg.name:
        return g.p.print(f"{v}.FwPutV(w, {slot}, {base})")
    with g.p.block("{", "}"):  # a leaf struct in line (no call): its FwPutV body
        g.p.print(f"s, slot, base := &{v}, {slot}, {base}" + ("" if leaf.fields else "\n_ = s"))
        vput_body(g, leaf)


def _put_optional(g, w, v, slot, base):
    with unless(g.p, f"{v} == nil", f"fw.VNull(w, {slot})"):
        b = alloc(g, str(w.element.slot))
        g.p.print(f"w.Buf[{slot}] = 1\nfw.PutU32(w.Buf, {slot}+1, uint32({b}-{base}))")
        vput(g, w.element, f"(*{v})", b, b)


def _put_array(g, w, v, slot, base):
    e, i = w.element, g.var("i")
    with g.p.block(f"for {i} := range {v} {{", "}"):
        vput(g, e, f"{v}[{i}]", f"{slot}+{i}*{e.slot}", base)


def _put_sequence(g, w, v, slot, base):
    src = sorted_set(g, w, v)
    _put_array(g, w, src, vblock(g, slot, base, f"len({src})", w.element.slot), base)


def _put_map(g, w, v, slot, base):
    ks, es = w.key.slot, w.element.slot
    q = vblock(g, slot, base, f"len({v})", ks + es)
    with entries(g, w, v) as (key, val, _):
        vput(g, w.key, key, q, base)
        vput(g, w.element, val, f"{q}+{ks}", base)
        g.p.print(f"{q} += {ks + es}")


VPUT = table(lambda g, w, v, slot, base: g.p.print(store(w, v, "w.Buf", slot)), string=_put_string,
             bytes=says("v", "slot", "base")("w.VBytes({slot}, {base}, {v})"),
             struct=_put_struct, optional=_put_optional, array=_put_array, sequence=_put_sequence,
             map=_put_map)


# ---- get ---------------------------------------------------------------------------------

def vget(g: Scope, w: W, dst: str, slot: str, base: str) -> None:
    VGET[w.helper](g, w, dst, slot, base)


def _get_optional(g, w, dst, slot, base):
    e, q, st, ok = w.element, g.var("p"), g.var("set"), g.var("ok")
    g.p.print(f"{q}, {st}, {ok} := r.Optional({slot}, {base}, {e.slot})\nif !{st} {{\n    {dst} = nil")
    with g.p.block(f"}} else if {ok} {{", "}"):
        vget(g, e, allocated(g, e, dst), q, q)


def _get_array(g, w, dst, slot, base):
    e, i = w.element, g.var("i")
    with g.p.block(f"for {i} := range {dst} {{", "}"):
        if not e.is_value:
            g.p.print(BREAK)
        vget(g, e, f"{dst}[{i}]", f"{slot}+{i}*{e.slot}", base)


def _get_collection(g, w, dst, slot, base):
    """A vector, list or set (elements), or a map or hash (key, value pairs)."""
    e, k, p = w.element, w.key, g.p
    size = e.slot + (k.slot if k else 0)
    q, n, ok, i = g.var("p"), g.var("n"), g.var("ok"), g.var("i")
    key, val = (g.var("k"), g.var("v")) if k else ("", "")
    p.print(f"{q}, {n}, {ok} := r.Block({slot}, {base}, {size})")
    with p.block(f"if {ok} {{", "}"):
        if not k:
            p.print(f"{dst} = fw.Resize({dst}, {n})")
            with p.block(f"for {i} := range {dst} {{", "}"):
                vget(g, e, f"{dst}[{i}]", f"{q}+{i}*{e.slot}", base)
                if e.fallible:
                    p.print(BREAK)
        else:
            p.print(f"{dst} = {dst}[:0]" if pair_map(w) else f"{dst} = fw.ClearMap({dst}, {n})")
            with p.block(f"for {i} := 0; {i} < {n}; {i}++ {{", "}"):
                p.print(f"var {key} {gotype(g, k)}\nvar {val} {gotype(g, e)}")
                vget(g, k, key, q, base)
                vget(g, e, val, f"{q}+{k.slot}", base)
                p.print(BREAK)
                insert(g, w, dst, key, val)
                p.print(f"{q} += {size}")
        sort_read(g, w, dst)


get = says("dst", "slot", "base")
VGET = table(lambda g, w, dst, slot, base: g.p.print(f"{dst} = {load(g, w, 'r.Data', slot)}"),
             decimal=get("{dst} = fw.VDecimal(r, {slot})"), string=get("r.String({slot}, {base}, &{dst})"),
             bytes=get("r.Bytes({slot}, {base}, &{dst})"), struct=get("{dst}.FwGetV(r, {slot}, {base})"),
             optional=_get_optional, array=_get_array, sequence=_get_collection, map=_get_collection)


# ---- verify ------------------------------------------------------------------------------
# The full walk (every message; the fast walk below takes the usual one first where it can):
# one runtime call per check, each recording why it fails.

def vcheck(g: Scope, w: W, slot: str, base: str) -> None:
    VCHECK[w.helper](g, w, slot, base)


def _check_optional(g, w, slot, base):
    call, q = f"r.Optional({slot}, {base}, {w.element.slot})", g.var("p")
    if not w.element.checks:
        return g.p.print(call)
    with g.p.block(f"if {q}, set, ok := {call}; set && ok {{", "}"):
        vcheck(g, w.element, q, q)


def _check_array(g, w, slot, base):
    i = g.var("i")
    with g.p.block(f"for {i} := 0; {i} < {w.length} && r.OK(); {i}++ {{", "}"):
        vcheck(g, w.element, f"{slot}+{i}*{w.element.slot}", base)


def _check_collection(g, w, slot, base):
    """A vector, list or set (elements), or a map or hash (key, value pairs)."""
    size = sum(e.slot for e in w.parts)
    call = f"r.Block({slot}, {base}, {size})"
    if not any(e.checks for e in w.parts):
        return g.p.print(call)
    q, n, i = g.var("p"), g.var("n"), g.var("i")
    with g.p.block(f"if {q}, {n}, ok := {call}; ok {{", "}"), \
            g.p.block(f"for {i} := 0; {i} < {n} && r.OK(); {i}++ {{", "}"):
        at = f"{q}+{i}*{size}"
        for e in w.parts:
            if e.checks:
                vcheck(g, e, at, base)
            at += f"+{e.slot}"


check = says("slot", "base")
VCHECK = table(lambda g, w, slot, base: None, decimal=check("fw.VCheckDecimal(r, {slot})"),
               string=check("r.Text({slot}, {base})"), bytes=check("r.Text({slot}, {base})"),
               struct=lambda g, w, slot, base: g.p.print(f"{g.qual(w.ref, 'FwVerifyV{name}')}(r, {slot}, {base})"),
               optional=_check_optional, array=_check_array, sequence=_check_collection, map=_check_collection)


# ---- the fast walk of verify ------------------------------------------------------------
# A struct of types.fast_walk verifies the usual message in one straight walk,
# fwFastV<Name>(d, slot, base, left): each check passes or returns false having recorded
# nothing, and the caller then runs the full walk (fwVerifyV<Name>Full) from the same state,
# which says why. It accepts only what the full walk accepts and charges the same blocks
# (bodies at least this version's size, nonzero offsets, the depth limit not reached); it
# looks at the budget once, at the end, and its work is bounded by the bytes it charges.

def vcharge(g: Scope) -> None:
    """Charges of a known size (the length or count words, optional blocks) are summed and
    taken once, after the checks of a straight run (a walk body, one loop pass)."""
    c = g.vconst.pop()
    if c:
        g.p.print(f"left -= {c}")


def plus(expr: str, n: int) -> str:
    """expr + n, folding a trailing constant."""
    m = re.fullmatch(r"(.*)\+(\d+)", expr)
    return f"{m.group(1)}+{int(m.group(2)) + n}" if m else expr if n == 0 else f"{expr}+{n}"


def vfast_body(g: Scope, layout: lower.StructLayout, pos: str) -> None:
    """The body at pos (0 <= pos <= size-body checked): header, charge, fields."""
    b, body, stored = layout.body_size, g.var("b"), g.var("stored")
    g.p.print(f"{body} := d[{pos} : {pos}+{b} : {pos}+{b}]\n{stored} := int(fw.U32({body}, 0))")
    guard(g.p, f"{stored} < {b} || {pos}+{stored} > size || fw.U32({body}, 4) != {layout.type_number}",
          GIVE_UP, f"left -= int64({stored})")
    for fl in layout.fields:
        vfast(g, fl.wire, body, str(fl.offset), pos, f"{pos}+{fl.offset}")


def vfast_target(g: Scope, buf: str, idx: str, base: str, at: str, extent: int, stem: str) -> str:
    """Loads the offset at buf[idx:] (relative to base; the slot is at `at` in d) and checks
    that it leads past the slot's 4 bytes to extent bytes inside d: the target's name. (The
    bounds are spelled on the target, so that the compiler knows 0 <= target <= size-extent
    and drops the bounds checks of the loads there.)"""
    t = g.var(stem)
    g.p.print(f"{t} := {base} + int(fw.U32({buf}, {idx}))")
    guard(g.p, f"{t} < {plus(at, 4)} || {t} > size-{extent}", GIVE_UP)
    return t


def vfast(g: Scope, w: W, buf: str, idx: str, base: str, at: str) -> None:
    """The fast checks of the slot at buf[idx:] (at `at` in d), its offsets from base."""
    VFAST[w.helper](g, w, buf, idx, base, at)


def _fast_counted(g, w, buf, idx, base, at):
    """[u32 length][bytes], or [u32 count][count slots of elements or key, value pairs]."""
    size = sum(e.slot for e in w.parts)
    p, q = g.p, vfast_target(g, buf, idx, base, at, 4, "q")
    n = g.var("n")
    p.print(f"{n} := int(fw.U32(d, {q}))" + (f" * {size}" if w.parts else ""))
    guard(p, f"{q}+4+{n} > size", GIVE_UP, f"left -= int64({n})")
    g.vconst[-1] += 4
    if any(e.checks for e in w.parts):
        # The element slots are read from d where the loop is; their offsets are relative
        # to the collection's base, not to q.
        end, slot = g.var("end"), g.var("at")
        p.print(f"{end} := {q} + 4 + {n}")
        with p.block(f"for {slot} := {q} + 4; {slot}+{size} <= {end}; {slot} += {size} {{", "}"):
            g.vconst.append(0)
            off = 0
            for e in w.parts:
                vfast(g, e, "d", plus(slot, off), base, plus(slot, off))
                off += e.slot
            vcharge(g)


def _fast_optional(g, w, buf, idx, base, at):
    e, off = w.element, OPTIONAL.offset_at  # the flag byte first, then the offset
    with g.p.block(f"if {buf}[{idx}] != 0 {{", "}"):
        g.vconst.append(e.slot)
        q = vfast_target(g, buf, plus(idx, off), base, plus(at, off), e.slot, "p")
        if e.checks:
            o = g.var("o")
            g.p.print(f"{o} := d[{q} : {q}+{e.slot} : {q}+{e.slot}]")
            vfast(g, e, o, "0", q, q)
        vcharge(g)


def _fast_array(g, w, buf, idx, base, at):
    e = w.element
    if e.checks:
        i = g.var("i")
        with g.p.block(f"for {i} := 0; {i} < {w.length}*{e.slot}; {i} += {e.slot} {{", "}"):
            g.vconst.append(0)
            vfast(g, e, buf, f"{idx}+{i}", base, f"{at}+{i}")
            vcharge(g)


def _fast_struct(g, w, buf, idx, base, at):
    leaf = g.layout(w.ref)
    vfast_body(g, leaf, vfast_target(g, buf, idx, base, at, leaf.body_size, "p"))


VFAST = table(lambda g, w, buf, idx, base, at: None,
              decimal=lambda g, w, buf, idx, base, at: guard(
                  g.p, f"{buf}[{idx}+{DECIMAL.scale_at}] > fw.MaxDecimalScale", GIVE_UP),
              string=_fast_counted, bytes=_fast_counted, optional=_fast_optional, array=_fast_array,
              struct=_fast_struct, sequence=_fast_counted, map=_fast_counted)
