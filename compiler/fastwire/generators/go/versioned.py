"""The versioned format: MarshalFBE, UnmarshalFBE, Verify<T> and the FwPutV, FwGetV and
FwVerifyV<T> they call, from plan.versioned. Where the Go compiler would not inline a
runtime call (w.Alloc, r.Enter, r.Text, r.Block, r.Optional), its usual case is spelled
out and the call kept for the rest."""

from __future__ import annotations

import re
from typing import List, Tuple

from ... import lower
from ...layouts import DECIMAL, OPTIONAL
from .names import Scope, exported
from .types import (
    CHECKED,
    checked,
    compare_fn,
    deref,
    entries,
    gotype,
    insert,
    load,
    orelse,
    pair_map,
    sorted_set,
    store,
    table,
)

ROOT_API = """
    // MarshalFBE appends s to buf as a versioned root model (reusing buf's capacity).
    func (s *$N$) MarshalFBE(buf []byte) []byte {
        w := fw.Writer{Buf: buf}
        start := w.Alloc(8)
        s.FwPutV(&w, start+4, start)
        fw.PutU32(w.Buf, start, uint32(len(w.Buf)-start))
        return w.Buf
    }

    // UnmarshalFBE reads a versioned root model into s, reusing its memory; malformed data
    // is an error (then s is valid but unspecified).
    func (s *$N$) UnmarshalFBE(data []byte) error {
        return s.UnmarshalFBELimits(data, &fw.DefaultLimits)
    }

    // UnmarshalFBELimits is UnmarshalFBE under other limits.
    func (s *$N$) UnmarshalFBELimits(data []byte, lim *fw.Limits) error {
        full, err := fw.Root(data, lim)
        if err != nil {
            return err
        }
        var r fw.VReader
        r.Start(data, full, lim)
        s.FwGetV(&r, 4, 0)
        return r.Result()
    }

    // Verify$N$ checks a versioned root model of $N$ without reading it.
    func Verify$N$(data []byte) error {
        return Verify$N$Limits(data, &fw.DefaultLimits)
    }

    // Verify$N$Limits is Verify$N$ under other limits.
    func Verify$N$Limits(data []byte, lim *fw.Limits) error {
        full, err := fw.Root(data, lim)
        if err != nil {
            return err
        }"""
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
ROOT_END = """
        var r fw.VReader
        r.Start(data, full, lim)
        $V$(&r, 4, 0)
        return r.Result()
    }

    // FwPutV writes s's body and heap blocks and its offset into the slot (generated code).
    func (s *$N$) FwPutV(w *fw.Writer, slot, base int) {"""
FAST_FN = """
    // FwVerifyV$N$ verifies the $N$ body the slot leads to (generated code): the
    // usual message by fwFastV$N$, anything else by fwVerifyV$N$Full.
    func FwVerifyV$N$(r *fw.VReader, slot, base int) {
        if r.Depth >= $D$ {
            if left, ok := fwFastV$N$(r.Data, slot, base, r.Left); ok {
                r.Left = left
                return
            }
        }
        fwVerifyV$N$Full(r, slot, base)
    }

    // fwFastV$N$ walks the $N$ body the slot leads to in d (a root model) when
    // it is the usual one, and returns the budget left (charged from left); false when
    // anything is unusual, with nothing recorded (the full walk then starts over). The
    // caller has checked that the depth limit allows $D$ more levels.
    func fwFastV$N$(d []byte, slot, base int, left int64) (int64, bool) {
        size := len(d)
        pos := base + int(fw.U32(d, slot))
        if pos < slot+4 || pos > size-$B$ {
            return 0, false
        }"""
# A body's header at pos, read when it is inside d (r.Enter's usual case).
HEAD = """
    pos := base + int(fw.U32(d, slot))
    stored, typ := 0, uint32(0)
    if pos >= slot+4 && pos <= size-8 {
        h := d[pos : pos+8 : pos+8]
        stored, typ = int(fw.U32(h, 0)), fw.U32(h, 4)
    }
    if stored >= 8 && stored <= size-pos && typ == $T$ && r.Depth > 0 {"""
GIVE_UP = "return 0, false"


def emit_versioned(g: Scope, name: str, layout: lower.StructLayout) -> None:
    p, fast = g.p, vfast_struct(g, layout)
    fields = [f for step in layout.plan.versioned.steps for f in step.fields]
    p.print(ROOT_API, N=name)
    p.indent()
    if fast:
        p.print(ROOT_FAST, N=name, D=layout.depth)
    p.outdent()
    verify = f"fwVerifyV{name}Full" if fast else f"FwVerifyV{name}"
    p.print(ROOT_END, N=name, V=verify)
    p.indent()
    vput_body(g, layout)
    p.outdent()
    p.print("}\n\n// FwGetV reads s from the body the slot leads to (generated code).")
    with p.block(f"func (s *{name}) FwGetV(r *fw.VReader, slot, base int) {{", "}"):
        emit_enter(g, layout.type_number)
        if not fields:
            p.print("_, _ = pos, stored")
        else:
            body = layout.body_size
            with p.block(f"if stored >= {body} {{", "}"):
                plain = [f for f in fields if not checked(f.wire)]
                if plain:
                    p.print(f"body := d[pos : pos+{body} : pos+{body}]")
                for f in plain:
                    p.print(f"s.{exported(f.name)} = {load(g, f.wire, 'body', str(f.at))}")
                for f in fields:
                    if checked(f.wire):
                        vget(g, f.wire, f"s.{exported(f.name)}", f"pos+{f.at}", "pos")
                orelse(p)
                p.print(f"d := New{name}()")
                for f in fields:
                    n = exported(f.name)
                    with p.block(f"if {(f.at or 0) + f.wire.slot} <= stored {{", "} else {"):
                        vget(g, f.wire, f"s.{n}", f"pos+{f.at}", "pos")
                    p.print(f"\ts.{n} = d.{n}\n}}")
        p.print("r.Leave()")
    p.print()
    if fast:
        p.print(FAST_FN, N=name, D=layout.depth, B=layout.body_size)
        p.indent()
        g.vconst = [0]
        vfast_body(g, layout, "pos")
        vcharge(g)
        p.print("return left, true")
        p.outdent()
        p.print("}")
        p.print()
        p.print(f"// {verify} is FwVerifyV{name} for every input: it records why a message "
                "fails.")
    else:
        p.print(f"// {verify} verifies the {name} body the slot leads to (generated code).")
    with p.block(f"func {verify}(r *fw.VReader, slot, base int) {{", "}"):
        emit_enter(g, layout.type_number)
        # The budget is kept in a local (left) while checking, written back around each
        # call: a chain of updates through memory would be the walk's critical path.
        if any(vneeds_check(fl.wire) for fl in layout.fields):
            p.print("left := r.Left")
            emit_vchecks(g, layout)
            p.print("r.Left = left")
        else:
            p.print("_, _ = pos, stored")
        p.print("r.Leave()")
    p.print()


def emit_enter(g: Scope, t: int) -> None:
    """r.Enter's usual case spelled out. size is len(d), which is r.Size, in a register."""
    g.p.print("d := r.Data\nsize := len(d)")
    g.p.print(HEAD + """
        r.Depth--
        r.Left -= int64(stored)
    } else {
        r.Enter(slot, base, $T$) // records why
        return
    }""", T=t)


# ---- put ---------------------------------------------------------------------------------

def vput_body(g: Scope, layout: lower.StructLayout) -> None:
    """FwPutV's body: s (a pointer to the struct), w, slot and base in scope. The body is
    reserved (its offset into the slot), its fixed slots written through one slice of it
    (no bounds checks), then the heap blocks in field order: those of the strings and bytes
    before the first other heap field come right after the body, allocated with it."""
    p, body, steps = g.p, layout.body_size, layout.plan.versioned.steps
    values = [f for step in steps if step.op == "values" for f in step.fields]
    heap = [step.field for step in steps if step.op != "values"]
    lead = 0
    while lead < len(heap) and heap[lead].helper in ("string", "bytes"):
        lead += 1
    size = " + ".join([str(body)] + [f"4 + len(s.{exported(f.name)})" for f in heap[:lead]])
    # Resliced in place: only the length is stored (no pointer, no write barrier).
    p.print(f"""
        n := {size}
        pos := len(w.Buf)
        if pos+n > cap(w.Buf) {{
            w.Grow(n)
        }}
        w.Buf = w.Buf[:pos+n]
        buf := w.Buf
        fw.PutU32(buf, slot, uint32(pos-base))
        b := buf[pos : pos+{body} : pos+{body}]
        fw.PutU32(b, 0, {body})
        fw.PutU32(b, 4, {layout.type_number})""")
    for f in values:
        p.print(store(f.wire, f"s.{exported(f.name)}", "b", str(f.at)))
    if lead:
        p.print(f"q := pos + {body}")
    for i, f in enumerate(heap[:lead]):
        v = f"s.{exported(f.name)}"
        p.print(f"fw.PutU32(b, {f.at}, {str(body) if i == 0 else 'uint32(q-pos)'})\n"
                f"fw.PutU32(buf, q, uint32(len({v})))\ncopy(buf[q+4:], {v})")
        if i + 1 < lead:
            p.print(f"q += 4 + len({v})")
    for f in heap[lead:]:
        vput(g, f.wire, f"s.{exported(f.name)}", f"pos+{f.at}", "pos")


def emit_alloc(g: Scope, n: str) -> str:
    """w.Alloc(n) spelled out: the position's name."""
    b = g.var("blk")
    g.p.print(f"{b} := len(w.Buf)\nif {b}+{n} > cap(w.Buf) {{\n    w.Grow({n.replace('+', ' + ')})"
              f"\n}}\nw.Buf = w.Buf[:{b}+{n}]")
    return b


def emit_vblock(g: Scope, slot: str, base: str, count: str, elem: int) -> str:
    """w.VBlock spelled out: the position of the first element slot."""
    c = g.var("c")
    g.p.print(f"{c} := {count}")
    blk = emit_alloc(g, f"4+{c}*{elem}")
    q = g.var("p")
    g.p.print(f"fw.PutU32(w.Buf, {slot}, uint32({blk}-{base}))\n"
              f"fw.PutU32(w.Buf, {blk}, uint32({c}))\n{q} := {blk} + 4")
    return q


def vput(g: Scope, w: lower.WireType, v: str, slot: str, base: str) -> None:
    VPUT[w.helper](g, w, v, slot, base)


def _put_string(g: Scope, w: lower.WireType, v: str, slot: str, base: str) -> None:
    blk = emit_alloc(g, f"4+len({v})")
    g.p.print(f"fw.PutU32(w.Buf, {slot}, uint32({blk}-{base}))\n"
              f"fw.PutU32(w.Buf, {blk}, uint32(len({v})))\ncopy(w.Buf[{blk}+4:], {v})")


def _put_struct(g: Scope, w: lower.WireType, v: str, slot: str, base: str) -> None:
    assert w.ref is not None
    leaf = g.layout(w.ref)
    if leaf.depth != 1 or w.ref.rpartition(".")[0] != g.pkg.name:
        g.p.print(f"{v}.FwPutV(w, {slot}, {base})")
        return
    with g.p.block("{", "}"):  # a leaf struct in line (no call): its FwPutV body
        g.p.print(f"s, slot, base := &{v}, {slot}, {base}")
        if not leaf.fields:
            g.p.print("_ = s")
        vput_body(g, leaf)


def _put_optional(g: Scope, w: lower.WireType, v: str, slot: str, base: str) -> None:
    assert w.element is not None
    p = g.p
    with p.block(f"if {v} == nil {{", "}"):
        p.print(f"fw.VNull(w, {slot})")
        orelse(p)
        b = emit_alloc(g, str(w.element.slot))
        p.print(f"w.Buf[{slot}] = 1\nfw.PutU32(w.Buf, {slot}+1, uint32({b}-{base}))")
        vput(g, w.element, f"(*{v})", b, b)


def _put_array(g: Scope, w: lower.WireType, v: str, slot: str, base: str) -> None:
    assert w.element is not None
    i = g.var("i")
    with g.p.block(f"for {i} := range {v} {{", "}"):
        vput(g, w.element, f"{v}[{i}]", f"{slot}+{i}*{w.element.slot}", base)


def _put_sequence(g: Scope, w: lower.WireType, v: str, slot: str, base: str) -> None:
    e = w.element
    assert e is not None
    src = sorted_set(g, w, v)
    q = emit_vblock(g, slot, base, f"len({src})", e.slot)
    i = g.var("i")
    with g.p.block(f"for {i} := range {src} {{", "}"):
        vput(g, e, f"{src}[{i}]", f"{q}+{i}*{e.slot}", base)


def _put_map(g: Scope, w: lower.WireType, v: str, slot: str, base: str) -> None:
    assert w.element is not None and w.key is not None
    ks, es = w.key.slot, w.element.slot
    q = emit_vblock(g, slot, base, f"len({v})", ks + es)
    with entries(g, w, v) as (key, val, _):
        vput(g, w.key, key, q, base)
        vput(g, w.element, val, f"{q}+{ks}", base)
        g.p.print(f"{q} += {ks + es}")


VPUT = table(lambda g, w, v, slot, base: g.p.print(store(w, v, "w.Buf", slot)),
             string=_put_string,
             bytes=lambda g, w, v, slot, base: g.p.print(f"w.VBytes({slot}, {base}, {v})"),
             struct=_put_struct, optional=_put_optional, array=_put_array,
             sequence=_put_sequence, map=_put_map)


# ---- get ---------------------------------------------------------------------------------

def vget(g: Scope, w: lower.WireType, dst: str, slot: str, base: str) -> None:
    VGET[w.helper](g, w, dst, slot, base)


def _get_optional(g: Scope, w: lower.WireType, dst: str, slot: str, base: str) -> None:
    e = w.element
    assert e is not None
    q, st, ok = g.var("p"), g.var("set"), g.var("ok")
    g.p.print(f"{q}, {st}, {ok} := r.Optional({slot}, {base}, {e.slot})\n"
              f"if !{st} {{\n    {dst} = nil")
    with g.p.block(f"}} else if {ok} {{", "}"):
        g.p.print(f"if {dst} == nil {{\n    {dst} = new({gotype(g, e)})\n}}")
        vget(g, e, deref(e, dst), q, q)


def _get_array(g: Scope, w: lower.WireType, dst: str, slot: str, base: str) -> None:
    e = w.element
    assert e is not None
    i = g.var("i")
    with g.p.block(f"for {i} := range {dst} {{", "}"):
        if not e.is_value:
            g.p.print("if !r.OK() {\n    break\n}")
        vget(g, e, f"{dst}[{i}]", f"{slot}+{i}*{e.slot}", base)


def _get_sequence(g: Scope, w: lower.WireType, dst: str, slot: str, base: str) -> None:
    e = w.element
    assert e is not None
    q, n, ok, i = g.var("p"), g.var("n"), g.var("ok"), g.var("i")
    g.p.print(f"{q}, {n}, {ok} := r.Block({slot}, {base}, {e.slot})")
    with g.p.block(f"if {ok} {{", "}"):
        g.p.print(f"{dst} = fw.Resize({dst}, {n})")
        with g.p.block(f"for {i} := range {dst} {{", "}"):
            vget(g, e, f"{dst}[{i}]", f"{q}+{i}*{e.slot}", base)
            if checked(e):
                g.p.print("if !r.OK() {\n    break\n}")
        if w.collection == "set":
            g.p.print(f"{dst} = fw.SortSet({dst}, {compare_fn(g, e)})")


def _get_map(g: Scope, w: lower.WireType, dst: str, slot: str, base: str) -> None:
    assert w.element is not None and w.key is not None
    ks, es = w.key.slot, w.element.slot
    q, n, ok, i = g.var("p"), g.var("n"), g.var("ok"), g.var("i")
    key, val = g.var("k"), g.var("v")
    g.p.print(f"{q}, {n}, {ok} := r.Block({slot}, {base}, {ks + es})")
    with g.p.block(f"if {ok} {{", "}"):
        g.p.print(f"{dst} = {dst}[:0]" if pair_map(w) else f"{dst} = fw.ClearMap({dst}, {n})")
        with g.p.block(f"for {i} := 0; {i} < {n}; {i}++ {{", "}"):
            g.p.print(f"var {key} {gotype(g, w.key)}\nvar {val} {gotype(g, w.element)}")
            vget(g, w.key, key, q, base)
            vget(g, w.element, val, f"{q}+{ks}", base)
            g.p.print("if !r.OK() {\n    break\n}")
            insert(g, w, dst, key, val)
            g.p.print(f"{q} += {ks + es}")
        if pair_map(w):
            g.p.print(f"{dst} = fw.SortPairs({dst}, {compare_fn(g, w.key)})")


VGET = table(
    lambda g, w, dst, slot, base: g.p.print(f"{dst} = {load(g, w, 'r.Data', slot)}"),
    decimal=lambda g, w, dst, slot, base: g.p.print(f"{dst} = fw.VDecimal(r, {slot})"),
    string=lambda g, w, dst, slot, base: g.p.print(f"r.String({slot}, {base}, &{dst})"),
    bytes=lambda g, w, dst, slot, base: g.p.print(f"r.Bytes({slot}, {base}, &{dst})"),
    struct=lambda g, w, dst, slot, base: g.p.print(f"{dst}.FwGetV(r, {slot}, {base})"),
    optional=_get_optional, array=_get_array, sequence=_get_sequence, map=_get_map)


# ---- verify ------------------------------------------------------------------------------

def vneeds_check(w: lower.WireType) -> bool:
    if w.is_value:
        return w.helper in CHECKED
    if w.element is not None and w.collection == "array":
        return vneeds_check(w.element)
    return True


def sync(g: Scope, stmt: str) -> None:
    """A runtime call from verify's checks, with the local budget written back."""
    g.p.print(f"r.Left = left\n{stmt}\nleft = r.Left")


def emit_vchecks(g: Scope, layout: lower.StructLayout) -> None:
    """The checks of a versioned body at pos (stored bytes)."""
    p = g.p
    fields = [fl for fl in layout.fields if vneeds_check(fl.wire)]
    if not fields:
        return
    with p.block(f"if stored >= {layout.body_size} {{", "}"):
        for fl in fields:
            vcheck(g, fl.wire, f"pos+{fl.offset}", "pos")
        orelse(p)
        for fl in fields:
            with p.block(f"if {fl.offset + fl.slot} <= stored {{", "}"):
                vcheck(g, fl.wire, f"pos+{fl.offset}", "pos")


def vcheck(g: Scope, w: lower.WireType, slot: str, base: str) -> None:
    VCHECK[w.helper](g, w, slot, base)


def _check_text(g: Scope, w: lower.WireType, slot: str, base: str) -> None:
    """r.Text's usual case spelled out."""
    p, blk, n = g.p, g.var("blk"), g.var("n")
    p.print(f"{blk} := {base} + int(fw.U32(d, {slot}))")
    with p.block(f"if {blk} >= {slot}+4 && {blk} <= size-4 {{", "}"):
        with p.block(f"if {n} := int(fw.U32(d, {blk})); {n} <= size-{blk}-4 {{", "}"):
            p.print(f"left -= int64(4 + {n})")
            orelse(p)
            sync(g, f"r.Text({slot}, {base})")
        orelse(p)
        sync(g, f"r.Text({slot}, {base})")


def _check_struct(g: Scope, w: lower.WireType, slot: str, base: str) -> None:
    assert w.ref is not None
    leaf, p = g.layout(w.ref), g.p
    if leaf.depth != 1:
        sync(g, f"{g.qual(w.ref, 'FwVerifyV{name}')}(r, {slot}, {base})")
        return
    # A struct holding no struct (a leaf) in line: no call; it enters no deeper, so only
    # the depth limit is checked.
    with p.block("{", "}"):
        p.print(f"slot, base := {slot}, {base}")
        p.print(HEAD, T=leaf.type_number)
        p.indent()
        p.print("left -= int64(stored)")
        emit_vchecks(g, leaf)
        orelse(p)
        sync(g, f"r.Enter(slot, base, {leaf.type_number}) // records why")
        p.outdent()
        p.print("}")


def _check_optional(g: Scope, w: lower.WireType, slot: str, base: str) -> None:
    """r.Optional's usual case spelled out."""
    assert w.element is not None
    p, q, size = g.p, g.var("p"), w.element.slot
    with p.block(f"if d[{slot}] != 0 {{", "}"):
        p.print(f"{q} := {base} + int(fw.U32(d, {slot}+{OPTIONAL.offset_at}))")
        with p.block(f"if {q} >= {slot}+{OPTIONAL.slot} && {q} <= size-{size} {{", "}"):
            p.print(f"left -= {size}")
            if vneeds_check(w.element):
                vcheck(g, w.element, q, q)
            orelse(p)
            sync(g, f"r.Optional({slot}, {base}, {size}) // records why")


def _check_array(g: Scope, w: lower.WireType, slot: str, base: str) -> None:
    assert w.element is not None
    i = g.var("i")
    with g.p.block(f"for {i} := 0; {i} < {w.length} && left >= 0; {i}++ {{", "}"):
        vcheck(g, w.element, f"{slot}+{i}*{w.element.slot}", base)


def emit_block(g: Scope, slot: str, base: str, elem: int) -> Tuple[str, str, str]:
    """r.Block's usual case spelled out: the names of its (pos, count, ok)."""
    p = g.p
    q, n, ok, blk = g.var("p"), g.var("n"), g.var("ok"), g.var("blk")
    p.print(f"{q}, {n}, {ok} := 0, 0, false\n{blk} := {base} + int(fw.U32(d, {slot}))")
    with p.block(f"if {blk} >= {slot}+4 && {blk} <= size-4 && "
                 f"int(fw.U32(d, {blk}))*{elem} <= size-{blk}-4 {{", "}"):
        p.print(f"{n} = int(fw.U32(d, {blk}))\n{q} = {blk} + 4\n"
                f"left -= int64(4 + {n}*{elem})\n{ok} = left >= 0")
        orelse(p)
        sync(g, f"{q}, {n}, {ok} = r.Block({slot}, {base}, {elem})")
    return q, n, ok


def _check_collection(g: Scope, w: lower.WireType, slot: str, base: str) -> None:
    """A vector, list or set (elements), or a map or hash (key, value pairs)."""
    assert w.element is not None
    parts = [e for e in (w.key, w.element) if e is not None]
    size = sum(e.slot for e in parts)
    if not any(vneeds_check(e) for e in parts):
        sync(g, f"r.Block({slot}, {base}, {size})")
        return
    p = g.p
    q, n, ok = emit_block(g, slot, base, size)
    i = g.var("i")
    with p.block(f"if {ok} {{", "}"):
        with p.block(f"for {i} := 0; {i} < {n} && left >= 0; {i}++ {{", "}"):
            at = f"{q}+{i}*{size}"
            if w.key is None:
                vcheck(g, w.element, at, base)
                return
            vcheck(g, w.key, at, base)
            if vneeds_check(w.element):
                if vneeds_check(w.key):
                    with p.block("if left >= 0 {", "}"):
                        vcheck(g, w.element, f"{at}+{w.key.slot}", base)
                else:
                    vcheck(g, w.element, f"{at}+{w.key.slot}", base)


VCHECK = table(
    lambda g, w, slot, base: None,
    decimal=lambda g, w, slot, base: sync(g, f"fw.VCheckDecimal(r, {slot})"),
    string=_check_text, bytes=_check_text, struct=_check_struct, optional=_check_optional,
    array=_check_array, sequence=_check_collection, map=_check_collection)


# ---- the fast walk of verify ------------------------------------------------------------
# A struct whose checks need no call (its fields are values, strings, bytes, leaf structs,
# and optionals and collections of these) verifies the usual message in one straight walk,
# fwFastV<Name>(d, slot, base, left): each check passes or returns false, having recorded
# nothing (the budget is a parameter), and the caller runs the full walk
# (fwVerifyV<Name>Full, the general code), which starts that struct over from the same
# state and records why it fails. The fast walk accepts only what the full walk accepts
# and charges the same blocks: it wants every body at least as large as this version's
# (older bodies take the full walk), offsets that are not 0 (empty strings and collections
# too), and the depth limit not reached anywhere in the struct (the schema bounds its
# nesting: layout.depth). It looks at the budget once, at the end: what it found valid
# the full walk finds valid too, and a budget run out is over_budget in both. Its work is
# bounded by the bytes it charges (counts are checked against the bytes after them), and
# a fast walk given up costs one redo of that struct at most (it calls nothing, so redos
# do not nest).

def vfast_ok(g: Scope, w: lower.WireType) -> bool:
    if w.ref is not None and w.helper == "struct":
        leaf = g.layout(w.ref)
        return leaf.depth == 1 and all(vfast_ok(g, fl.wire) for fl in leaf.fields)
    return all(vfast_ok(g, e) for e in (w.key, w.element) if e is not None)


def vfast_struct(g: Scope, layout: lower.StructLayout) -> bool:
    return (layout.depth in (1, 2) and any(vneeds_check(fl.wire) for fl in layout.fields)
            and all(vfast_ok(g, fl.wire) for fl in layout.fields))


def vcharge(g: Scope) -> None:
    """Charges of a known size (the length or count words, optional blocks) are summed and
    taken once, after the checks of a straight run (a walk body, one loop pass)."""
    c = g.vconst.pop()
    if c:
        g.p.print(f"left -= {c}")


def plus(expr: str, n: int) -> str:
    """expr + n, folding a trailing constant."""
    m = re.fullmatch(r"(.*)\+(\d+)", expr)
    if m:
        return f"{m.group(1)}+{int(m.group(2)) + n}"
    return expr if n == 0 else f"{expr}+{n}"


def vfast_body(g: Scope, layout: lower.StructLayout, pos: str) -> None:
    """The body at pos (0 <= pos <= size-body checked): header, charge, fields."""
    b, body, stored = layout.body_size, g.var("b"), g.var("stored")
    g.p.print(f"{body} := d[{pos} : {pos}+{b} : {pos}+{b}]\n"
              f"{stored} := int(fw.U32({body}, 0))\n"
              f"if {stored} < {b} || {pos}+{stored} > size || fw.U32({body}, 4) != "
              f"{layout.type_number} {{\n    {GIVE_UP}\n}}\nleft -= int64({stored})")
    for fl in layout.fields:
        vfast(g, fl.wire, body, str(fl.offset), pos, f"{pos}+{fl.offset}")


def vfast_target(g: Scope, buf: str, idx: str, base: str, at: str, extent: int,
                 stem: str) -> str:
    """Loads the offset at buf[idx:] (relative to base; the slot is at `at` in d) and
    checks that it leads past the slot's 4 bytes to extent bytes inside d: the target's
    name. An offset below the slot's end (0 among them) takes the full walk. (The bounds
    are spelled on the target, so that the compiler knows 0 <= target <= size-extent and
    drops the bounds checks of the loads there.)"""
    t = g.var(stem)
    g.p.print(f"{t} := {base} + int(fw.U32({buf}, {idx}))\n"
              f"if {t} < {plus(at, 4)} || {t} > size-{extent} {{\n    {GIVE_UP}\n}}")
    return t


def vfast(g: Scope, w: lower.WireType, buf: str, idx: str, base: str, at: str) -> None:
    """The fast checks of the slot at buf[idx:] (at `at` in d), whose offsets are relative
    to base."""
    VFAST[w.helper](g, w, buf, idx, base, at)


def _fast_counted(g: Scope, w: lower.WireType, buf: str, idx: str, base: str, at: str) -> None:
    """A string or bytes ([u32 length][bytes]); a vector, list, set, map or hash ([u32
    count][count slots of its elements or key, value pairs])."""
    parts: List[lower.WireType] = [e for e in (w.key, w.element) if e is not None]
    size = sum(e.slot for e in parts)
    p, q = g.p, vfast_target(g, buf, idx, base, at, 4, "q")
    n = g.var("n")
    p.print(f"{n} := int(fw.U32(d, {q}))" + (f" * {size}" if parts else "") + "\n"
            f"if {q}+4+{n} > size {{\n    {GIVE_UP}\n}}\nleft -= int64({n})")
    g.vconst[-1] += 4
    if any(vneeds_check(e) for e in parts):
        # The element slots are read from d at their position, which the loop keeps;
        # their offsets are relative to the collection's base, not to q.
        end, slot = g.var("end"), g.var("at")
        p.print(f"{end} := {q} + 4 + {n}")
        with p.block(f"for {slot} := {q} + 4; {slot}+{size} <= {end}; {slot} += {size} {{",
                     "}"):
            g.vconst.append(0)
            off = 0
            for e in parts:
                vfast(g, e, "d", plus(slot, off), base, plus(slot, off))
                off += e.slot
            vcharge(g)


def _fast_struct(g: Scope, w: lower.WireType, buf: str, idx: str, base: str, at: str) -> None:
    assert w.ref is not None
    leaf = g.layout(w.ref)
    vfast_body(g, leaf, vfast_target(g, buf, idx, base, at, leaf.body_size, "p"))


def _fast_optional(g: Scope, w: lower.WireType, buf: str, idx: str, base: str,
                   at: str) -> None:
    e = w.element
    assert e is not None
    with g.p.block(f"if {buf}[{idx}] != 0 {{", "}"):
        g.vconst.append(e.slot)
        # The slot's flag byte first: the offset is 1 further, and its end 5.
        off = OPTIONAL.offset_at
        q = vfast_target(g, buf, plus(idx, off), base, plus(at, off), e.slot, "p")
        if vneeds_check(e):
            o = g.var("o")
            g.p.print(f"{o} := d[{q} : {q}+{e.slot} : {q}+{e.slot}]")
            vfast(g, e, o, "0", q, q)
        vcharge(g)


def _fast_array(g: Scope, w: lower.WireType, buf: str, idx: str, base: str, at: str) -> None:
    e = w.element
    assert e is not None
    if vneeds_check(e):
        i = g.var("i")
        with g.p.block(f"for {i} := 0; {i} < {w.length}*{e.slot}; {i} += {e.slot} {{", "}"):
            g.vconst.append(0)
            vfast(g, e, buf, f"{idx}+{i}", base, f"{at}+{i}")
            vcharge(g)


VFAST = table(
    lambda g, w, buf, idx, base, at: None,
    decimal=lambda g, w, buf, idx, base, at: g.p.print(
        f"if {buf}[{idx}+{DECIMAL.scale_at}] > fw.MaxDecimalScale {{\n    {GIVE_UP}\n}}"),
    string=_fast_counted, bytes=_fast_counted, struct=_fast_struct, optional=_fast_optional,
    array=_fast_array, sequence=_fast_counted, map=_fast_counted)
