"""The versioned format's methods of a struct codec (VPutAt, VGetAt, VCheckAt, VFast),
from the plan's versioned steps. Fixed-size values are read and written in place; strings,
nested structs, optional structs and vectors of structs go through non-generic calls; every
other field through its runtime codec F<index>."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from ...layouts import DECIMAL, OPTIONAL
from ...lower import StructLayout, WireType
from ...plan import PlanField
from .names import RT, Scope
from .types import cs_type, inlined, leaf, read_value, trivial, uses_b, write_value

Lines = List[str]
_TEXT = {"string": "String", "bytes": "Bytes"}
_OPT = f"r.Optional(pos, r.U32({{slot}} + {OPTIONAL.offset_at}), {{slot}} + {OPTIONAL.slot}, 4)"


def fields(layout: StructLayout) -> List[PlanField]:
    """A struct's fields in order, as its versioned steps hold them (`at`: the slot's offset)."""
    return [f for step in layout.plan.versioned.steps for f in step.fields]


def _end(f: PlanField) -> int:
    """The end of a field's slot: a body at least this long holds it."""
    return (f.at or 0) + f.wire.slot


def _block(lines: Lines) -> Lines:
    return lines if len(lines) == 1 else ["{"] + ["    " + x for x in lines] + ["}"]


# ---- writing: (scope, field, slot, value) -> statements -------------------------------------

def _put_optstruct(sc: Scope, f: PlanField, slot: str, v: str) -> Lines:
    c = sc.codec_name(leaf(f.wire) or "")
    return [f"if ({v} != null)", "{", "    int blk = w.Append(4);", f"    w.Data[{slot}] = 1;",
            f"    w.PutU32({slot} + {OPTIONAL.offset_at}, (uint)(blk - pos));",
            f"    {c}.VPutAt(w, blk, blk, {v});", "}"]


def _put_structs(sc: Scope, f: PlanField, slot: str, v: str) -> Lines:
    c = sc.codec_name(leaf(f.wire) or "")
    return ["{", f"    var list = {v};", "    int n = list.Count;",
            "    int blk = w.Append(4 + 4 * n);", "    w.PutU32(blk, (uint)n);",
            f"    for (int i = 0; i < n; i++) {c}.VPutAt(w, blk + 4 + 4 * i, pos, list[i]);",
            f"    w.PutU32({slot}, (uint)(blk - pos));", "}"]


_PUT: Dict[str, Callable[[Scope, PlanField, str, str], Lines]] = {
    "text": lambda sc, f, slot, v: [f"{RT}.Wire.VPut{_TEXT[f.helper]}(w, {slot}, pos, {v});"],
    "struct": lambda sc, f, slot, v: [f"{sc.codec_name(leaf(f.wire) or '')}.VPutAt(w, {slot}, pos, {v});"],
    "optstruct": _put_optstruct, "structs": _put_structs,
    "codec": lambda sc, f, slot, v: [f"F{f.index}.VPut(w, {slot}, pos, {v});"],
}


# ---- reading ------------------------------------------------------------------------------

def _get_optstruct(sc: Scope, f: PlanField, slot: str, target: str) -> Lines:
    c = sc.codec_name(leaf(f.wire) or "")
    return [f"if (r.U8({slot}) == 0) {target} = null;", "else", "{",
            f"    int q = {_OPT.format(slot=slot)};", f"    {target} = {c}.VGetAt(r, q, q, d);", "}"]


def _get_structs(sc: Scope, f: PlanField, slot: str, target: str) -> Lines:
    c = sc.codec_name(leaf(f.wire) or "")
    t = cs_type(sc, f.wire)
    return ["{", f"    uint off = r.U32({slot});", f"    {t} list;",
            f"    if (off == 0) list = new {t}();", "    else", "    {",
            f"        int q = r.Count(pos, off, {slot} + 4, 4);", "        int n = r.Stored;",
            f"        list = new {t}(n);",
            f"        for (int i = 0; i < n; i++) list.Add({c}.VGetAt(r, q + 4 * i, pos, d));",
            "    }", f"    {target} = list;", "}"]


_GET: Dict[str, Callable[[Scope, PlanField, str, str], Lines]] = {
    "value": lambda sc, f, slot, t: [f"{t} = {read_value(sc, f.wire, slot)};"],
    "text": lambda sc, f, slot, t: [f"{t} = {RT}.Wire.VGet{_TEXT[f.helper]}(r, {slot}, pos);"],
    "struct": lambda sc, f, slot, t: [f"{t} = {sc.codec_name(leaf(f.wire) or '')}.VGetAt(r, {slot}, pos, d);"],
    "optstruct": _get_optstruct, "structs": _get_structs,
    "codec": lambda sc, f, slot, t: [f"{t} = F{f.index}.VGet(r, {slot}, pos, d);"],
}


# ---- verifying ----------------------------------------------------------------------------

def _check_optstruct(sc: Scope, f: PlanField, slot: str) -> Lines:
    c = sc.codec_name(leaf(f.wire) or "")
    return [f"if (r.U8({slot}) != 0)", "{", f"    int q = {_OPT.format(slot=slot)};",
            f"    {c}.VCheckAt(r, q, q, d);", "}"]


def _check_structs(sc: Scope, f: PlanField, slot: str) -> Lines:
    c = sc.codec_name(leaf(f.wire) or "")
    return ["{", f"    uint off = r.U32({slot});", "    if (off != 0)", "    {",
            f"        int q = r.Count(pos, off, {slot} + 4, 4);", "        int n = r.Stored;",
            f"        for (int i = 0; i < n; i++) {c}.VCheckAt(r, q + 4 * i, pos, d);",
            "    }", "}"]


_CHECK: Dict[str, Callable[[Scope, PlanField, str], Lines]] = {
    "value": lambda sc, f, slot: [f"{RT}.Decimals.Check(b, {slot});"],  # the non-trivial value
    "text": lambda sc, f, slot: [f"{RT}.Wire.VCheckText(r, {slot}, pos);"],
    "struct": lambda sc, f, slot: [f"{sc.codec_name(leaf(f.wire) or '')}.VCheckAt(r, {slot}, pos, d);"],
    "optstruct": _check_optstruct, "structs": _check_structs,
    "codec": lambda sc, f, slot: [f"F{f.index}.VCheck(r, {slot}, pos, d);"],
}


def check(sc: Scope, f: PlanField) -> Lines:
    return [] if trivial(f.wire) else _CHECK[inlined(f.wire)](sc, f, f"pos + {f.at}")


# ---- the methods --------------------------------------------------------------------------

def emit(sc: Scope, layout: StructLayout, t: str, attr: Dict[int, str]) -> None:
    """VPutAt, VGetAt, VCheckAt and (for root models) VFast of the struct of type t; attr: each
    field's member, by index."""
    steps = layout.plan.versioned.steps
    body, number = layout.plan.versioned.body_size, layout.type_number
    puts = [f"if (v == null) throw new {RT}.FastwireException({RT}.ErrorCode.WrongType, "
            f'"{layout.name} is null");',
            f"int pos = w.Append({body});", "byte[] b = w.Data;",
            f"w.PutU32(pos, {body}U);", f"w.PutU32(pos + 4, {number}U);"]
    puts += [write_value(f.wire, f"pos + {f.at}", attr[f.index])
             for s in steps if s.op == "values" for f in s.fields]
    if not uses_b(puts):  # every store through w
        puts.remove("byte[] b = w.Data;")
    for s in steps:
        if s.op != "values":
            puts += _PUT[inlined(s.field.wire)](sc, s.field, f"pos + {s.at}", attr[s.field.index])
    puts.append("w.PutU32(slot, (uint)(pos - bas));")
    sc.method(f"public static void VPutAt({RT}.WriteBuffer w, int slot, int bas, {t} v)", puts)

    enter = f"r.Enter(bas, r.U32(slot), slot + 4, {number}U, d);"
    full: Lines = []
    older: Lines = []
    for f in fields(layout):
        lines = _GET[inlined(f.wire)](sc, f, f"pos + {f.at}", attr[f.index])
        full += lines
        older += [f"if (stored >= {_end(f)})"] + (
            ["    " + lines[0]] if len(lines) == 1 else _block(lines))
    if full:
        gets = [f"int pos = {enter}", "int stored = r.Stored;"] + \
            (["byte[] b = r.B;"] if any("b[" in x or "(b," in x for x in full) else []) + \
            ["d -= 1;", f"{t} v;", f"if (stored >= {body})", "{", f"    v = new {t}({RT}.Bare.Value);"] + \
            ["    " + x for x in full] + ["}", "else", "{", f"    v = new {t}();"] + \
            ["    " + x for x in older] + ["}", "return v;"]
    else:
        gets = [enter, f"return new {t}();"]
    sc.method(f"public static {t} VGetAt({RT}.Reader r, int slot, int bas, int d)", gets)

    body_checks: Lines = []
    for f in fields(layout):
        lines = check(sc, f)
        if lines:
            end = _end(f)
            body_checks += ([] if end <= 8 else [f"if (stored >= {end})"]) + _block(lines)
    checks = [enter]
    if body_checks:
        checks = [f"int pos = {enter}", "int stored = r.Stored;"] + \
            (["byte[] b = r.B;"] if any("b[" in x or "(b," in x for x in body_checks) else []) + \
            ["d -= 1;"] + body_checks
    sc.method(f"public static void VCheckAt({RT}.Reader r, int slot, int bas, int d)", checks,
              inline=inline_check(sc, layout.name) is not None)
    fast = fast_root(sc, layout)
    if fast:
        sc.method(f"public override bool VFast({RT}.Reader r, int d)", fast)


INLINE_LINES = 64


def inline_check(sc: Scope, name: str, seen: Tuple[str, ...] = ()) -> Optional[int]:
    """The size (lines) of struct `name`'s versioned verify with the checks of the structs it
    enters inlined, when that is small enough to mark its VCheckAt AggressiveInlining; None
    when too big or recursive. Mono inlines such a method into its parent (saving a call,
    its register saves and a safepoint per struct: the seed account's versioned verify went
    from 100 to 79 ns); every inlined body, nested ones included, stays under INLINE_LINES."""
    if name in seen:
        return None
    size = 0
    for f in fields(sc.model.struct(name)):
        size += len(check(sc, f))
        ref = leaf(f.wire)
        if ref is not None:
            sub = inline_check(sc, ref, seen + (name,))
            if sub is None:
                return None
            size += sub
    return size if size <= INLINE_LINES else None


# ---- the fast path of versioned verify (root models) ----------------------------------------
# A struct whose checks the generator can spell out (values, decimals, strings, bytes,
# structs of these, optional structs and vectors/lists of structs, nothing recursive) gets
# VFast: the whole usual message checked in one straight method with the budget and the
# message's end in locals (Mono keeps the reader's fields in memory, and Enter/Count/...
# store to them at every step). Model.Validate calls it first; it returns true only when
# the general walk (VCheck) accepts the message, and false, with nothing recorded, on
# anything unusual: a body older (smaller) than this version's, the depth limit below the
# schema's nesting, any failed check. The general walk then runs from the same state and
# reports the precise error, so results are identical on every input. It charges what the
# general walk charges and looks at the budget at the end (charges are never negative, so
# a total within the budget is within it at every step), and in each loop pass. Every
# load is at a position its checks have proven inside the message.
FAST_LINES = 400


def fast_ok(sc: Scope, w: WireType, seen: Tuple[str, ...] = ()) -> bool:
    if trivial(w) or inlined(w) in ("value", "text"):
        return True
    ref = leaf(w)
    if ref is None or ref in seen:
        return False
    inner = sc.model.struct(ref)
    return inner.depth > 0 and all(fast_ok(sc, f.wire, seen + (ref,)) for f in fields(inner))


def fast_root(sc: Scope, layout: StructLayout) -> Lines:
    ws = [f.wire for f in fields(layout)]
    if layout.depth <= 0 or not all(fast_ok(sc, w) for w in ws) or all(trivial(w) for w in ws):
        return []
    sc.fast_n = 0
    lines = [f"if (d < {layout.depth}) return false;", "uint size = (uint)r.End;",
             "long left = r.Budget;"]
    lines += _fast_body(sc, layout, "4", "0", "4 + 4")
    lines += ["if (left < 0) return false;", "r.Budget = left;", "return true;"]
    return lines if len(lines) <= FAST_LINES else []


def _fast_body(sc: Scope, layout: StructLayout, slot: str, bas: str, slot_end: str) -> Lines:
    """The struct body the offset at `slot` (relative to `bas`) leads to: header, charge, fields."""
    u, pos, n = sc.fast_var("u"), sc.fast_var("pos"), sc.fast_var("n")
    out = [f"uint {u} = (uint)({bas}) + r.U32({slot});",
           f"if ({u} < (uint)({slot_end}) || (ulong){u} + 8 > size) return false;",
           f"int {pos} = (int){u};", f"uint {n} = r.U32({pos});",
           f"if ({n} < {layout.body_size} || {n} > size - {u} || r.U32({pos} + 4) != "
           f"{layout.type_number}U) return false;", f"left -= {n};"]
    for f in fields(layout):
        if not trivial(f.wire):
            out += _FAST[inlined(f.wire)](sc, f.wire, f"{pos} + {f.at}", pos)
    return out


def _fast_text(sc: Scope, w: WireType, at: str, pos: str) -> Lines:
    o, q, n = sc.fast_var("o"), sc.fast_var("q"), sc.fast_var("n")
    return [f"uint {o} = r.U32({at});", f"if ({o} != 0)", "{", f"    uint {q} = (uint){pos} + {o};",
            f"    if ({q} < (uint)({at} + 4) || (ulong){q} + 4 > size) return false;",
            f"    uint {n} = r.U32((int){q});", f"    if ({n} > size - {q} - 4) return false;",
            f"    left -= 4 + (long){n};", "}"]


def _fast_optstruct(sc: Scope, w: WireType, at: str, pos: str) -> Lines:
    q = sc.fast_var("q")
    inner = _fast_body(sc, sc.model.struct(leaf(w) or ""), q, q, f"{q} + 4")
    return [f"if (r.U8({at}) != 0)", "{",
            f"    uint {q}u = (uint){pos} + r.U32({at} + {OPTIONAL.offset_at});",
            f"    if ({q}u < (uint)({at} + {OPTIONAL.slot}) || (ulong){q}u + 4 > size) return false;",
            f"    int {q} = (int){q}u;", "    left -= 4;"] + ["    " + x for x in inner] + ["}"]


def _fast_structs(sc: Scope, w: WireType, at: str, pos: str) -> Lines:
    """A vector or list of structs: [u32 count][count x 4-byte slots]."""
    o, q, n, e, i = (sc.fast_var(x) for x in ("o", "q", "n", "e", "i"))
    inner = _fast_body(sc, sc.model.struct(leaf(w) or ""), e, pos, f"{e} + 4")
    return [f"uint {o} = r.U32({at});", f"if ({o} != 0)", "{", f"    uint {q} = (uint){pos} + {o};",
            f"    if ({q} < (uint)({at} + 4) || (ulong){q} + 4 > size) return false;",
            f"    uint {n} = r.U32((int){q});",
            f"    if ((ulong){n} * 4 > size - {q} - 4) return false;",
            f"    left -= 4 + (long){n} * 4;", f"    int {e} = (int){q} + 4;",
            f"    for (uint {i} = 0; {i} < {n}; {i}++, {e} += 4)", "    {"] + \
        ["        " + x for x in inner] + ["        if (left < 0) return false;", "    }", "}"]


_FAST: Dict[str, Callable[[Scope, WireType, str, str], Lines]] = {
    "value": lambda sc, w, at, pos: [  # a decimal: its scale byte
        f"if (r.U8({at} + {DECIMAL.scale_at}) > {DECIMAL.max_scale}) return false;"],
    "text": _fast_text,
    "struct": lambda sc, w, at, pos: _fast_body(sc, sc.model.struct(leaf(w) or ""), at, pos, f"{at} + 4"),
    "optstruct": _fast_optstruct, "structs": _fast_structs,
}
