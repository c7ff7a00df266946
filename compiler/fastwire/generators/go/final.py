"""The final format: MarshalFinal, UnmarshalFinal, Verify<T>Final and the FwPutF, FwGetF and
FwVerifyF<T> they call, from plan.final (the fewest bytes of the fields after each bound where
it may end). The handlers in the tables take (g, w, value, end) or (g, w, end)."""

from __future__ import annotations

import re
from typing import List

from ... import lower, plan
from ...layouts import DECIMAL, UUID
from .names import Scope, field
from .types import (
    APPEND,
    BYTE_SCALARS,
    W,
    allocated,
    entries,
    fast_walk,
    gotype,
    guard,
    insert,
    limited,
    load,
    nullable,
    pair_map,
    says,
    sort_read,
    sorted_set,
    table,
    unless,
    vkey,
)

MARSHAL = """
// MarshalFinal appends s to buf as a final-format root model.
func (s *$N$) MarshalFinal(buf []byte) []byte {
    start := len(buf)
    buf = fw.AppendU32(fw.AppendU32(buf, 0), $T$)
    buf = s.FwPutF(buf)
    fw.PutU32(buf, start, uint32(len(buf)-start))
    return buf
}

"""
ROOT = """
full, err := fw.FRoot(data, lim, $T$, $M$)
if err != nil {
    return err
}"""
START = "\nvar r fw.FReader\nr.Start(data, full, lim)\nreturn r.Finish($C$(&r, 8, full), full)"
# The fast walk (fwFastF<Name>) straight from Verify<T>FinalLimits; when it fails, the full
# walk runs and says why.
ROOT_FAST = """
if lim.MaxDepth >= $D$ {
    if p := fwFastF$N$(data[:full], 8, full); p >= 0 {
        if p != full {
            return fw.ErrBadSize
        }
        return nil
    }
}"""
FAST_FN = """
// fwFastF$N$ is FwVerifyF$N$ for the usual root model ($D$ levels allowed): the
// position after the fields, or -1 with nothing recorded.
func fwFastF$N$(d []byte, p, end int) int {"""
WALKS = ("""
// FwGetF reads s's fields at p, within [p, end); returns the position after them or -1.
func (s *$N$) FwGetF(r *fw.FReader, p, end int) int {""", """
// FwVerifyF$N$ verifies $N$'s fields at p, within [p, end) (generated code).
func FwVerifyF$N$(r *fw.FReader, p, end int) int {""")
ENTER = """
if !r.Enter() {
    return -1
}
d := r.Data
_ = d"""
FAIL = "return -1"
NOT_IN_RUNS = ("decimal", "uuid")  # read by a call or a copy, not a load


def rooms(fields: List[plan.PlanField], end: str = "end") -> List[str]:
    """Where each field must end: room left for the fewest bytes of the fields after it."""
    after = [0] * len(fields)  # a suffix sum: the sum anew per field was quadratic
    total = 0
    for i in range(len(fields) - 1, -1, -1):
        after[i] = total
        total += fields[i].wire.final_min
    return [f"{end}-{a}" if a else end for a in after]


def emit_final(g: Scope, name: str, layout: lower.StructLayout) -> None:
    p, t, fast = g.p, layout.type_number, fast_walk(g, layout, False)
    fields = [f for step in layout.plan.final.steps for f in step.fields]
    p.print(MARSHAL, N=name, T=t)
    limited(p, "// UnmarshalFinal reads a final-format root model into s, reusing its memory.",
            "UnmarshalFinal", name, ROOT + START, T=t, M=layout.final_min, C="s.FwGetF")
    limited(p, f"// Verify{name}Final checks a final-format root model of {name}.", f"Verify{name}Final", "",
            ROOT + (ROOT_FAST if fast else "") + START, T=t, M=layout.final_min, N=name, D=layout.depth,
            C=f"FwVerifyF{name}")
    if fast:
        p.print(FAST_FN, N=name, D=layout.depth)
        p.indent()
        g.ffast = True
        for f, room in zip(fields, rooms(fields)):
            fcheck(g, f.wire, room)
        g.ffast = False
        p.print("return p")
        p.outdent()
        p.print("}\n\n")
    p.print("// FwPutF appends s's fields in the final format (generated code).")
    with p.block(f"func (s *{name}) FwPutF(b []byte) []byte {{", "}\n\n"):
        for f in fields:
            fput(g, f.wire, f"s.{field(f.name)}")
        p.print("return b")
    for template in WALKS:
        p.print(template, N=name)
        p.indent()
        p.print(ENTER)
        run: List[plan.PlanField] = []  # consecutive fixed values: one bounds check for all
        for f, room in zip(fields, rooms(fields)):
            if template is WALKS[1]:
                fcheck(g, f.wire, room)
            elif f.wire.is_value and f.helper not in NOT_IN_RUNS:
                run.append(f)
            else:
                flush_run(g, run)
                fget(g, f.wire, f"s.{field(f.name)}", room)
        flush_run(g, run)
        p.print("r.Leave()\nreturn p")
        p.outdent()
        p.print("}\n\n")


def flush_run(g: Scope, run: List[plan.PlanField]) -> None:
    """Reads the fixed fields of `run` through one slice (one bounds check)."""
    if run:
        size, at, q = sum(f.wire.final_size or 0 for f in run), 0, g.var("q")
        g.p.print(f"{q} := d[p : p+{size} : p+{size}]")
        for f in run:
            g.p.print(f"s.{field(f.name)} = {load(g, f.wire, q, str(at))}")
            at += f.wire.final_size or 0
        g.p.print(f"p += {size}")
        run.clear()


def elements(g: Scope, head: str, total: str, e: W, end: str, each) -> None:
    """A loop (head) over values of e: each(end) prints one, which must end by `end` (room
    left for the fewest bytes of the values after it when their size varies)."""
    rest = "" if e.fixed else g.var("rest")
    if rest:
        g.p.print(f"{rest} := {total}")
    with g.p.block(head, "}"):
        if rest:
            g.p.print(f"{rest} -= {e.final_min}")
        each(f"{end}-{rest}" if rest else end)


def ffail(g: Scope, err: str) -> str:
    """The statement failing the final walk with err (the fast walk: just -1)."""
    return FAIL if g.ffast else f"return r.Fail({err})"


def fcount(g: Scope, n: str, ok: str, end: str, size: int) -> None:
    """r.Count at p: n values of at least size bytes (spelled out in the fast walk, which only
    has values of nonzero size; multiplied rather than divided, which can only fail more: when
    fewer than 4 bytes are left, even for count 0)."""
    if g.ffast:
        g.p.print(f"{n} := int(fw.U32(d, p))")
        guard(g.p, f"{n}*{size} > {end}-p-4", FAIL, "p += 4")
    else:
        g.p.print(f"{n}, {ok} := r.Count(p, {end}, {size})")
        guard(g.p, f"!{ok}", FAIL, "p += 4")


# ---- put ---------------------------------------------------------------------------------

def fput(g: Scope, w: W, v: str) -> None:
    FPUT[w.helper](g, w, v)


def _put_array(g, w, v):
    i = g.var("i")
    with g.p.block(f"for {i} := range {v} {{", "}"):
        fput(g, w.element, f"{v}[{i}]")


def _put_sequence(g, w, v):
    src = sorted_set(g, w, v)
    g.p.print(f"b = fw.AppendU32(b, uint32(len({src})))")
    if w.element.helper in BYTE_SCALARS:
        return g.p.print(f"b = append(b, {src}...)")
    _put_array(g, w, src)


def _put_map(g, w, v):
    g.p.print(f"b = fw.AppendU32(b, uint32(len({v})))")
    with entries(g, w, v) as (key, val, _):
        fput(g, w.key, key)
        fput(g, w.element, val)


FPUT = table(lambda g, w, v: g.p.print("b = " + APPEND[vkey(w)].format(v=v)),
             string=says("v")("b = fw.AppendString(b, {v})"), bytes=says("v")("b = fw.AppendBytes(b, {v})"),
             struct=says("v")("b = {v}.FwPutF(b)"),
             optional=lambda g, w, v: nullable(g, w, v, fput, "b = append(b, 0)", "b = append(b, 1)"),
             array=_put_array, sequence=_put_sequence, map=_put_map)


# ---- get and verify: one walk, reading into dst or (dst "") verifying -----------------------

def fget(g: Scope, w: W, dst: str, end: str) -> None:
    if not dst and not w.checks:
        g.p.print(f"p += {w.final_size}")
    else:
        FGET[w.helper](g, w, dst, end)


def fcheck(g: Scope, w: W, end: str) -> None:
    fget(g, w, "", end)


def _optional(g, w, dst, end):
    e = w.element
    with unless(g.p, "d[p] == 0", f"{dst} = nil\np++" if dst else "p++"):
        g.p.print("p++")
        if e.final_min:
            guard(g.p, f"{e.final_min} > {end}-p", ffail(g, "fw.ErrTruncated"))
        fget(g, e, dst and allocated(g, e, dst), end)


def _counted(g, w, dst, end):
    """An array (length known) or a vector, list or set (a count first)."""
    e, n, ok = w.element, str(w.length), ""
    if w.length is None:
        n, ok = g.var("n"), g.var("ok")
    i = g.var("i")
    if w.length is None:
        fcount(g, n, ok, end, e.final_min)
        if dst and e.helper in BYTE_SCALARS:
            return g.p.print(f"{dst} = append({dst}[:0], d[p:p+{n}]...)\np += {n}")
        if not dst and not e.checks:
            return g.p.print(f"p += {n} * {e.final_size}")
        if dst:
            g.p.print(f"{dst} = fw.Resize({dst}, {n})")
    elements(g, f"for {i} := range {dst} {{" if dst else f"for {i} := 0; {i} < {n}; {i}++ {{",
             str(w.length * e.final_min) if w.length is not None else f"{n} * {e.final_min}", e, end,
             lambda room: fget(g, e, dst and f"{dst}[{i}]", room))
    if dst:
        sort_read(g, w, dst)


def _map(g, w, dst, end):
    pair = w.key.final_min + w.element.final_min
    n, ok, i, rest = g.var("n"), g.var("ok"), g.var("i"), g.var("rest")
    key, val = (g.var("k"), g.var("v")) if dst else ("", "")
    fcount(g, n, ok, end, pair)
    if not dst and not w.key.checks and not w.element.checks:
        return g.p.print(f"p += {n} * {pair}")
    if dst:
        g.p.print(f"{dst} = {dst}[:0]" if pair_map(w) else f"{dst} = fw.ClearMap({dst}, {n})")
    g.p.print(f"{rest} := {n} * {pair}")
    with g.p.block(f"for {i} := 0; {i} < {n}; {i}++ {{", "}"):
        g.p.print(f"{rest} -= {pair}")
        if dst:
            g.p.print(f"var {key} {gotype(g, w.key)}\nvar {val} {gotype(g, w.element)}")
        fget(g, w.key, key, f"{end}-{rest}-{w.element.final_min}")
        fget(g, w.element, val, f"{end}-{rest}")
        if dst:
            insert(g, w, dst, key, val)
    if dst:
        sort_read(g, w, dst)


def _text(g, w, dst, end):
    """Read by the runtime; verified by r.Text spelled out (without the payload's slice)."""
    if dst:
        return guard(g.p, f"p = r.{'String' if w.helper == 'string' else 'Bytes'}(p, {end}, &{dst}); p < 0", FAIL)
    n = g.var("n")
    g.p.print(f"{n} := int(fw.U32(d, p))")
    guard(g.p, f"{n} > {end}-p-4", ffail(g, "fw.ErrTruncated"), f"p += 4 + {n}")


def _struct(g, w, dst, end):
    leaf, p = g.layout(w.ref), g.p
    if dst or leaf.depth != 1:
        call = f"{dst}.FwGetF(r" if dst else g.qual(w.ref, "FwVerifyF{name}") + "(r"
        return guard(p, f"p = {call}, p, {end}); p < 0", FAIL)
    # A struct holding no struct (a leaf) verified in line: no call; it enters no deeper, so
    # only the depth limit is checked.
    with p.block("{", "}"):
        at = len(p.lines)
        p.print(f"end := {end.replace('-', ' - ')}")
        if not g.ffast:
            guard(p, "r.Depth == 0", "return r.Fail(fw.ErrTooDeep)")
        fields = [fl for step in leaf.plan.final.steps for fl in step.fields]
        for fl, room in zip(fields, rooms(fields)):
            fcheck(g, fl.wire, room)
        if not any(re.search(r"\bend\b", line) for line in p.lines[at + 1:]):
            del p.lines[at]  # no check needs it


def _decimal(g, w, dst, end):
    check = f"!r.Decimal(p, &{dst})" if dst else "!fw.DecimalValid(d, p)" if g.ffast else "!r.CheckDecimal(p)"
    guard(g.p, check, FAIL, f"p += {DECIMAL.size}")


FGET = table(lambda g, w, dst, end: g.p.print(f"{dst} = {load(g, w, 'd', 'p')}\np += {w.final_size}"),
             decimal=_decimal,
             uuid=lambda g, w, dst, end: g.p.print(f"copy({dst}[:], d[p:p+{UUID.size}])\np += {UUID.size}"),
             string=_text, bytes=_text, struct=_struct, optional=_optional, array=_counted,
             sequence=_counted, map=_map)


# The fast path of final verify (types.fast_walk): a root struct first walked by
# fwFastF<Name>(d, p, end), the same checks without the FReader: depth checked once by the
# caller against the schema's nesting, any failure -1 with nothing recorded. The walk stops at
# the first failure, so the full walk that then runs finds it and says why.
