"""The versioned format's methods of a struct codec (VPutAt, VGetAt, VCheckAt, VFast),
from the plan's versioned steps. Fixed-size values are read and written in place; strings,
nested structs, optional structs and vectors of structs through non-generic calls; other
fields through their runtime codec F<index>. Templates by handling (types.inlined): $slot$
is the field's slot, the rest types.field_vars."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ...layouts import DECIMAL, OPTIONAL
from ...lower import StructLayout
from ...plan import PlanField
from .names import RT, Scope, lines
from .types import field_vars, inlined, leaf, read_value, spelled, trivial, uses_b, write_value

Lines = List[str]
_OPTIONAL = f"r.Optional(pos, r.U32($slot$ + {OPTIONAL.offset_at}), $slot$ + {OPTIONAL.slot}, 4)"
PUT = {
    "text": "$rt$.Wire.VPut$fn$(w, $slot$, pos, $v$);",
    "struct": "$c$.VPutAt(w, $slot$, pos, $v$);",
    "optstruct": f"""
        if ($v$ != null)
        {{
            int blk = w.Append(4);
            w.Data[$slot$] = 1;
            w.PutU32($slot$ + {OPTIONAL.offset_at}, (uint)(blk - pos));
            $c$.VPutAt(w, blk, blk, $v$);
        }}""",
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
    "optstruct": f"""
        if (r.U8($slot$) == 0) $v$ = null;
        else
        {{
            int q = {_OPTIONAL};
            $v$ = $c$.VGetAt(r, q, q, d);
        }}""",
    "structs": """
        {
            uint off = r.U32($slot$);
            $t$ list;
            if (off == 0) list = new $t$();
            else
            {
                int q = r.Count(pos, off, $slot$ + 4, 4);
                int n = r.Stored;
                list = new $t$(n);
                for (int i = 0; i < n; i++) list.Add($c$.VGetAt(r, q + 4 * i, pos, d));
            }
            $v$ = list;
        }""",
    "codec": "$v$ = F$i$.VGet(r, $slot$, pos, d);",
}
CHECK = {
    "value": "$rt$.Decimals.Check(b, $slot$);",  # the one value not trivial
    "text": "$rt$.Wire.VCheckText(r, $slot$, pos);",
    "struct": "$c$.VCheckAt(r, $slot$, pos, d);",
    "optstruct": f"""
        if (r.U8($slot$) != 0)
        {{
            int q = {_OPTIONAL};
            $c$.VCheckAt(r, q, q, d);
        }}""",
    "structs": """
        {
            uint off = r.U32($slot$);
            if (off != 0)
            {
                int q = r.Count(pos, off, $slot$ + 4, 4);
                int n = r.Stored;
                for (int i = 0; i < n; i++) $c$.VCheckAt(r, q + 4 * i, pos, d);
            }
        }""",
    "codec": "F$i$.VCheck(r, $slot$, pos, d);",
}


def fields(layout: StructLayout) -> List[PlanField]:
    """A struct's fields in order, as its versioned steps hold them (`at`: the slot's offset)."""
    return [f for step in layout.plan.versioned.steps for f in step.fields]


def _field(sc: Scope, table: Dict[str, str], f: PlanField, v: str = "") -> Lines:
    slot = f"pos + {f.at}"
    read = read_value(sc, f.wire, slot) if f.wire.is_value else ""
    return lines(table[inlined(f.wire)], slot=slot, read=read,
                 **field_vars(sc, f.wire, f.index, v))


def check(sc: Scope, f: PlanField) -> Lines:
    return [] if trivial(f.wire) else _field(sc, CHECK, f)


def _if_stored(f: PlanField, body: Lines, indent_one: bool) -> Lines:
    """`body` when the stored body holds the field's slot (always, in the header's 8 bytes)."""
    end = (f.at or 0) + f.wire.slot
    cond = [f"if (stored >= {end})"] if end > 8 or indent_one else []
    if len(body) == 1:
        return cond + [("    " if indent_one else "") + body[0]]
    return cond + ["{"] + ["    " + x for x in body] + ["}"]


def emit(sc: Scope, layout: StructLayout, t: str, attr: Dict[int, str]) -> None:
    """VPutAt, VGetAt, VCheckAt and (roots) VFast of the struct of type t; attr: each
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
            puts += _field(sc, PUT, s.field, attr[s.field.index])
    puts.append("w.PutU32(slot, (uint)(pos - bas));")
    sc.method(f"public static void VPutAt({RT}.WriteBuffer w, int slot, int bas, {t} v)", puts)

    enter = f"r.Enter(bas, r.U32(slot), slot + 4, {number}U, d);"
    head = [f"int pos = {enter}", "int stored = r.Stored;"]
    full: Lines = []
    older: Lines = []  # a body of an older version: the fields it holds
    for f in fields(layout):
        got = _field(sc, GET, f, attr[f.index])
        full += got
        older += _if_stored(f, got, True)
    gets = [enter, f"return new {t}();"]
    if full:
        gets = head + (["byte[] b = r.B;"] if any("b[" in x or "(b," in x for x in full) else []) + \
            ["d -= 1;", f"{t} v;", f"if (stored >= {body})", "{", f"    v = new {t}({RT}.Bare.Value);"] + \
            ["    " + x for x in full] + ["}", "else", "{", f"    v = new {t}();"] + \
            ["    " + x for x in older] + ["}", "return v;"]
    sc.method(f"public static {t} VGetAt({RT}.Reader r, int slot, int bas, int d)", gets)

    checks: Lines = []
    for f in fields(layout):
        got = check(sc, f)
        if got:
            checks += _if_stored(f, got, False)
    if checks:
        checks = head + (["byte[] b = r.B;"] if any("b[" in x or "(b," in x for x in checks) else []) + \
            ["d -= 1;"] + checks
    sc.method(f"public static void VCheckAt({RT}.Reader r, int slot, int bas, int d)", checks or [enter],
              inline=inline_check(sc, layout.name) is not None)
    fast = fast_root(sc, layout)
    if fast:
        sc.method(f"public override bool VFast({RT}.Reader r, int d)", fast)


INLINE_LINES = 64


def inline_check(sc: Scope, name: str, seen: Tuple[str, ...] = ()) -> Optional[int]:
    """The lines of struct `name`'s versioned verify with the checks of the structs it enters
    inlined, when at most INLINE_LINES (nested ones included), else None (or recursive):
    then its VCheckAt is marked AggressiveInlining. Mono inlines it into its parent, saving a
    call, its register saves and a safepoint per struct (the seed account's versioned verify:
    100 -> 79 ns)."""
    if name in seen:
        return None
    size = 0
    for f in fields(sc.model.struct(name)):
        size += len(check(sc, f))
        ref = leaf(f.wire)
        sub = inline_check(sc, ref, seen + (name,)) if ref is not None else 0
        if sub is None:
            return None
        size += sub
    return size if size <= INLINE_LINES else None


# ---- VFast: the fast path of versioned verify (root models) ---------------------------------
# For a struct whose checks can be spelled out (values, decimals, strings, bytes, structs of
# these, optional structs, vectors/lists of structs; nothing recursive): the usual message
# checked in one method, the budget and the message's end in locals (Mono keeps the reader's
# fields in memory, and Enter/Count/... store to them at every step). Model.Validate calls it
# first; it returns true only when the general walk (VCheck) accepts the message, and false,
# nothing recorded, on anything unusual (a body older than this version's, the depth limit
# below the schema's nesting, any failed check): the general walk then runs from the same
# state and reports the error, so results are identical on every input. It charges what the
# general walk charges and tests the budget at the end and in each loop pass (charges are
# never negative). Every load is at a position its checks have proven inside the message.
FAST_LINES = 400
FAST_BODY = """
    uint $u$ = (uint)($bas$) + r.U32($slot$);
    if ($u$ < (uint)($end$) || (ulong)$u$ + 8 > size) return false;
    int $pos$ = (int)$u$;
    uint $n$ = r.U32($pos$);
    if ($n$ < $size$ || $n$ > size - $u$ || r.U32($pos$ + 4) != $number$U) return false;
    left -= $n$;"""
FAST = {
    "value": f"if (r.U8($at$ + {DECIMAL.scale_at}) > {DECIMAL.max_scale}) return false;",
    "text": """
        uint $o$ = r.U32($at$);
        if ($o$ != 0)
        {
            uint $q$ = (uint)$pos$ + $o$;
            if ($q$ < (uint)($at$ + 4) || (ulong)$q$ + 4 > size) return false;
            uint $n$ = r.U32((int)$q$);
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
    "structs": """
        uint $o$ = r.U32($at$);
        if ($o$ != 0)
        {
            uint $q$ = (uint)$pos$ + $o$;
            if ($q$ < (uint)($at$ + 4) || (ulong)$q$ + 4 > size) return false;
            uint $n$ = r.U32((int)$q$);
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
# The locals each handling declares, in order, and where the struct it enters starts:
# (its slot, the base of its offset).
FAST_VARS = {"text": "oqn", "optstruct": "q", "structs": "oqnei"}
FAST_INNER = {"struct": ("at", "pos"), "optstruct": ("q", "q"), "structs": ("e", "pos")}


def fast_root(sc: Scope, layout: StructLayout) -> Lines:
    ws = [f.wire for f in fields(layout)]
    if layout.depth <= 0 or not all(spelled(sc, w, (), False) for w in ws) or all(map(trivial, ws)):
        return []
    sc.fast_n = 0
    out = [f"if (d < {layout.depth}) return false;", "uint size = (uint)r.End;",
           "long left = r.Budget;"] + _fast_body(sc, layout, "4", "0") + \
        ["if (left < 0) return false;", "r.Budget = left;", "return true;"]
    return out if len(out) <= FAST_LINES else []


def _fast_body(sc: Scope, layout: StructLayout, slot: str, bas: str) -> Lines:
    """The struct body the offset at `slot` (relative to `bas`) leads to: header, charge, fields."""
    names = {x: sc.fast_var(x) for x in ("u", "pos", "n")}
    out = lines(FAST_BODY, bas=bas, slot=slot, end=f"{slot} + 4", size=layout.body_size,
                number=layout.type_number, **names)
    pos = names["pos"]
    for f in fields(layout):
        if trivial(f.wire):
            continue
        k = inlined(f.wire)
        var: Dict[str, object] = {x: sc.fast_var(x) for x in FAST_VARS.get(k, "")}
        var.update(at=f"{pos} + {f.at}", pos=pos)
        if k in FAST_INNER:
            at, base = (str(var[x]) for x in FAST_INNER[k])
            var["inner"] = "\n".join(_fast_body(sc, sc.model.struct(leaf(f.wire) or ""), at, base))
        out += lines(FAST[k], **var)
    return out
