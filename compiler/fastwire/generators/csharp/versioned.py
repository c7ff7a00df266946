"""A codec's versioned methods (VPutAt, VGetAt, VCheckAt, VFast) from the plan's versioned
steps: values in place, other fields by handling (types.inlined) in templates."""

from __future__ import annotations

from typing import Dict, List, Optional

from ...layouts import DECIMAL, OPTIONAL
from ...lower import StructLayout
from ...plan import PlanField
from .names import RT, Scope, lines
from .types import field_vars, inlined, leaf, local_b, read_value, spelled, trivial, write_value

Lines = List[str]
PUT = {
    "text": "$rt$.Wire.VPut$fn$(w, $slot$, pos, $v$);",
    "struct": "$c$.VPutAt(w, $slot$, pos, $v$);",
    # spelled here: through WriteBuffer helpers, serialize took 8-10% longer
    "optstruct": """
        if ($v$ != null)
        {
            int blk = w.Append(4);
            w.Data[$slot$] = 1;
            w.PutU32($slot$ + 1, (uint)(blk - pos));
            $c$.VPutAt(w, blk, blk, $v$);
        }""",
    "structs": """
        {
            var list = $v$;
            int n = list.Count;
            int blk = w.Append(4 + 4 * n);
            w.PutU32(blk, (uint)n);
            for (int i = 0; i < n; i++) $c$.VPutAt(w, blk + 4 + 4 * i, pos, list[i]);
            w.PutU32($slot$, (uint)(blk - pos));
        }""",
    "codec": "F$i$.VPut(w, $slot$, pos, $v$);",
}
GET = {
    "value": "$v$ = $read$;",
    "text": "$v$ = $rt$.Wire.VGet$fn$(r, $slot$, pos);",
    "struct": "$v$ = $c$.VGetAt(r, $slot$, pos, d);",
    "optstruct": """
        {
            int q = r.VOptional(pos, $slot$);
            $v$ = q < 0 ? null : $c$.VGetAt(r, q, q, d);
        }""",
    "structs": """
        {
            int q = r.VList(pos, $slot$);
            int n = r.Stored;
            var list = new $t$(n);
            for (int i = 0; i < n; i++) list.Add($c$.VGetAt(r, q + 4 * i, pos, d));
            $v$ = list;
        }""",
    "codec": "$v$ = F$i$.VGet(r, $slot$, pos, d);",
}
CHECK = {
    "value": "$rt$.Decimals.Check(b, $slot$);",  # the one value not trivial
    "text": "$rt$.Wire.VCheckText(r, $slot$, pos);",
    "struct": "$c$.VCheckAt(r, $slot$, pos, d);",
    "optstruct": """
        {
            int q = r.VOptional(pos, $slot$);
            if (q >= 0) $c$.VCheckAt(r, q, q, d);
        }""",
    "structs": """
        {
            int q = r.VList(pos, $slot$);
            for (int i = 0, n = r.Stored; i < n; i++) $c$.VCheckAt(r, q + 4 * i, pos, d);
        }""",
    "codec": "F$i$.VCheck(r, $slot$, pos, d);",
}
PUT_AT = """
    if (v == null) throw new $rt$.FastwireException($rt$.ErrorCode.WrongType, "$name$ is null");
    int pos = w.Append($body$);
    $b$
    w.PutU32(pos, $body$U);
    w.PutU32(pos + 4, $number$U);
    $values$
    $fields$
    w.PutU32(slot, (uint)(pos - bas));"""
GET_AT = """
    int pos = $enter$
    int stored = r.Stored;
    $b$
    d -= 1;
    $t$ v;
    if (stored >= $body$)
    {
        v = new $t$($rt$.Bare.Value);
        $full$
    }
    else
    {
        v = new $t$();
        $older$
    }
    return v;"""
CHECK_AT = """
    int pos = $enter$
    int stored = r.Stored;
    $b$
    d -= 1;
    $checks$"""


def fields(layout: StructLayout) -> List[PlanField]:
    """A struct's fields (`at`: the slot's offset)."""
    return [f for step in layout.plan.versioned.steps for f in step.fields]


def _field(sc: Scope, table: Dict[str, str], f: PlanField, v: str = "") -> Lines:
    slot = f"pos + {f.at}"
    read = read_value(sc, f.wire, slot) if f.wire.is_value else ""
    return lines(table[inlined(f.wire)], slot=slot, read=read, **field_vars(sc, f.wire, f.index, v))


def check(sc: Scope, f: PlanField) -> Lines:
    return [] if trivial(f.wire) else _field(sc, CHECK, f)


def _if_stored(f: PlanField, body: Lines, indent_one: bool) -> Lines:
    """`body` when the stored body holds the field's slot."""
    end = (f.at or 0) + f.wire.slot
    cond = [f"if (stored >= {end})"] if end > 8 or indent_one else []
    if len(body) == 1:
        return cond + [("    " if indent_one else "") + body[0]]
    return cond + ["{"] + ["    " + x for x in body] + ["}"]


def emit(sc: Scope, layout: StructLayout, t: str, attr: Dict[int, str]) -> None:
    """attr: each field's member, by index."""
    steps = layout.plan.versioned.steps
    enter = f"r.Enter(bas, r.U32(slot), slot + 4, {layout.type_number}U, d);"
    var = dict(rt=RT, name=layout.name, t=t, body=layout.plan.versioned.body_size,
               number=layout.type_number, enter=enter)
    values = [write_value(f.wire, f"pos + {f.at}", attr[f.index])
              for s in steps if s.op == "values" for f in s.fields]
    puts = [x for s in steps if s.op != "values" for x in _field(sc, PUT, s.field, attr[s.field.index])]
    sc.method(f"public static void VPutAt({RT}.WriteBuffer w, int slot, int bas, {t} v)",
              lines(PUT_AT, b=local_b(values, "w.Data"), values="\n".join(values),
                    fields="\n".join(puts), **var))
    full: Lines = []
    older: Lines = []  # a body of an older version: the fields it holds
    for f in fields(layout):
        got = _field(sc, GET, f, attr[f.index])
        full += got
        older += _if_stored(f, got, True)
    gets = lines(GET_AT, b=local_b(full, "r.B"), full="\n".join(full), older="\n".join(older),
                 **var) if full else [enter, f"return new {t}();"]
    sc.method(f"public static {t} VGetAt({RT}.Reader r, int slot, int bas, int d)", gets)
    checks = [x for f in fields(layout) if not trivial(f.wire) for x in _if_stored(f, check(sc, f), False)]
    sc.method(f"public static void VCheckAt({RT}.Reader r, int slot, int bas, int d)",
              lines(CHECK_AT, b=local_b(checks, "r.B"), checks="\n".join(checks), **var)
              if checks else [enter], inline=inline_check(sc, layout.name) is not None)
    fast = fast_root(sc, layout)
    if fast:
        sc.method(f"public override bool VFast({RT}.Reader r, int d)", fast)


INLINE_LINES = 64


def inline_check(sc: Scope, name: str) -> Optional[int]:
    """The lines of `name`'s VCheckAt with the structs it enters inlined, when at most
    INLINE_LINES and not recursive (met again in progress: None); it is then marked
    AggressiveInlining (Mono saves a call and a safepoint per struct: the seed account's
    versioned verify, 100 -> 79 ns)."""
    if name in sc.inline:
        return sc.inline[name]
    sc.inline[name] = None
    size = 0
    for f in fields(sc.model.struct(name)):
        ref = leaf(f.wire)
        sub = inline_check(sc, ref) if ref is not None else 0
        if sub is None:
            return None
        size += len(check(sc, f)) + sub
    sc.inline[name] = size if size <= INLINE_LINES else None
    return sc.inline[name]


# ---- VFast: a root's versioned verify in one method (types.spelled), budget and end in
# locals (Mono keeps the reader's fields in memory). True only when VCheck accepts; false,
# nothing recorded, on anything unusual (an older body, the depth, a failed check): VCheck then
# runs and reports. It charges what VCheck charges; every load is at a position proven inside.
FAST_BODY = """
    uint $u$ = (uint)($bas$) + r.U32($slot$);
    if ($u$ < (uint)($slot$ + 4) || (ulong)$u$ + 8 > size) return false;
    int $pos$ = (int)$u$;
    uint $n$ = r.U32($pos$);
    if ($n$ < $size$ || $n$ > size - $u$ || r.U32($pos$ + 4) != $number$U) return false;
    left -= $n$;"""
# a block the slot at $at$ leads to (offset $o$, position $q$) and its count or length $n$
_BLOCK = """
    uint $o$ = r.U32($at$);
    if ($o$ != 0)
    {
        uint $q$ = (uint)$pos$ + $o$;
        if ($q$ < (uint)($at$ + 4) || (ulong)$q$ + 4 > size) return false;
        uint $n$ = r.U32((int)$q$);"""
FAST = {
    "value": f"if (r.U8($at$ + {DECIMAL.scale_at}) > {DECIMAL.max_scale}) return false;",
    "text": _BLOCK + """
        if ($n$ > size - $q$ - 4) return false;
        left -= 4 + (long)$n$;
    }""",
    "struct": "$inner$",
    "optstruct": f"""
        if (r.U8($at$) != 0)
        {{
            uint $q$u = (uint)$pos$ + r.U32($at$ + {OPTIONAL.offset_at});
            if ($q$u < (uint)($at$ + {OPTIONAL.slot}) || (ulong)$q$u + 4 > size) return false;
            int $q$ = (int)$q$u;
            left -= 4;
            $inner$
        }}""",
    "structs": _BLOCK + """
        if ((ulong)$n$ * 4 > size - $q$ - 4) return false;
        left -= 4 + (long)$n$ * 4;
        int $e$ = (int)$q$ + 4;
        for (uint $i$ = 0; $i$ < $n$; $i$++, $e$ += 4)
        {
            $inner$
            if (left < 0) return false;
        }
    }""",
}
# The locals each handling declares, and the slot and base of the struct it enters.
FAST_VARS = {"value": "", "text": "oqn", "struct": "", "optstruct": "q", "structs": "oqnei"}
FAST_INNER = {"struct": ("at", "pos"), "optstruct": ("q", "q"), "structs": ("e", "pos")}


def fast_root(sc: Scope, layout: StructLayout) -> Lines:
    ws = [f.wire for f in fields(layout)]
    if layout.depth <= 0 or not all(spelled(sc, w, False) for w in ws) or all(map(trivial, ws)):
        return []
    sc.fast_n = 0
    out = [f"if (d < {layout.depth}) return false;", "uint size = (uint)r.End;",
           "long left = r.Budget;", *_fast_body(sc, layout, "4", "0"),
           "if (left < 0) return false;", "r.Budget = left;", "return true;"]
    return out if len(out) <= 400 else []


def _fast_body(sc: Scope, layout: StructLayout, slot: str, bas: str) -> Lines:
    """The body the offset at `slot` (from `bas`) leads to: header, charge, fields."""
    u, pos, n = (sc.fast_var(x) for x in ("u", "pos", "n"))
    out = lines(FAST_BODY, bas=bas, slot=slot, size=layout.body_size, number=layout.type_number,
                u=u, pos=pos, n=n)
    for f in fields(layout):
        if not trivial(f.wire):
            k = inlined(f.wire)
            var: Dict[str, object] = {x: sc.fast_var(x) for x in FAST_VARS[k]}
            var.update(at=f"{pos} + {f.at}", pos=pos)
            if k in FAST_INNER:
                at, base = (str(var[x]) for x in FAST_INNER[k])
                var["inner"] = "\n".join(_fast_body(sc, sc.model.struct(leaf(f.wire) or ""), at, base))
            out += lines(FAST[k], **var)
    return out
