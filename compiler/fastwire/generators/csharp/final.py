"""A codec's final methods (FPutAt, FGetAt, FCheckAt, FFast) from the plan's final steps:
a run of values with one bounds check, the other fields by handling in templates."""

from __future__ import annotations

from typing import Dict, List, Tuple

from ...layouts import DECIMAL
from ...lower import StructLayout
from ...plan import Step
from .names import RT, Scope, lines
from .types import field_vars, inlined, leaf, local_b, read_value, spelled, write_value

Lines = List[str]
PUT = {
    "text": "$rt$.Wire.FPut$fn$(w, $v$);",
    "struct": "$c$.FPutAt(w, $v$);",
    "optstruct": "if (w.FOptional($v$ != null)) $c$.FPutAt(w, $v$);",
    "structs": """
        {
            var list = $v$;
            w.FCount(list.Count);
            for (int i = 0; i < list.Count; i++) $c$.FPutAt(w, list[i]);
        }""",
    "codec": "F$i$.FPut(w, $v$);",
}
GET = {
    "text": """
        $v$ = $rt$.Wire.FGet$fn$At(r, p);
        p = r.Pos;""",
    "struct": """
        $v$ = $c$.FGetAt(r, p, d);
        p = r.Pos;""",
    "optstruct": """
        if (!r.FOptional(p++)) $v$ = null;
        else { $v$ = $c$.FGetAt(r, p, d); p = r.Pos; }""",
    "structs": """
        {
            int n = r.FinalCount(p, $fmin$);
            p += 4;
            var list = new $t$($capacity$);
            for (int i = 0; i < n; i++) { list.Add($c$.FGetAt(r, p, d)); p = r.Pos; }
            $v$ = list;
        }""",
    "codec": "$v$ = F$i$.FGet(r, ref p, d);",
}
CHECK = {
    "text": "p = $rt$.Wire.FSkipText(r, p);",
    "struct": "p = $c$.FCheckAt(r, p, d);",
    "optstruct": "if (r.FOptional(p++)) p = $c$.FCheckAt(r, p, d);",
    "structs": """
        {
            int n = r.FinalCount(p, $fmin$);
            p += 4;
            for (int i = 0; i < n; i++) p = $c$.FCheckAt(r, p, d);
        }""",
    "codec": "F$i$.FCheck(r, ref p, d);",
}


def _run(step: Step, attr: Dict[int, str], sc: Scope) -> Tuple[Lines, Lines, Lines]:
    """A run of fixed-size values: (put, get, check) statements."""
    size = step.size
    writes = [write_value(f.wire, f"at + {f.at}", attr[f.index]) for f in step.fields]
    reads = [f"{attr[f.index]} = {read_value(sc, f.wire, f'p + {f.at}')};" for f in step.fields]
    puts = [f"int at = w.Reserve({size});", local_b(writes, "w.Data")] + writes
    gets = [f"r.Need(p, {size});", local_b(reads, "r.B")] + reads + [f"p += {size};"]
    checks = [f"r.Need(p, {size});"] + [f"{RT}.Decimals.Check(r.B, p + {f.at});"
                                        for f in step.fields if f.helper == "decimal"]
    return _block(puts), _block(gets), checks + [f"p += {size};"]


def _block(body: Lines) -> Lines:
    return ["{"] + ["    " + x for x in body if x] + ["}"]


def emit(sc: Scope, layout: StructLayout, t: str, attr: Dict[int, str]) -> None:
    too_deep = f"if (d < 1) throw new {RT}.FastwireException({RT}.ErrorCode.TooDeep);"
    puts = [f"if (v == null) throw new {RT}.FastwireException({RT}.ErrorCode.WrongType, "
            f'"{layout.name} is null");']
    gets = [too_deep, "d -= 1;", f"var v = new {t}({RT}.Bare.Value);"]
    checks = [too_deep, "d -= 1;"]
    for step in layout.plan.final.steps:
        if step.op == "values":
            put, get, chk = _run(step, attr, sc)
        else:
            f = step.field
            var = field_vars(sc, f.wire, f.index, attr[f.index])
            var["capacity"] = "n" if var["fmin"] else "global::System.Math.Min(n, 1024)"
            put, get, chk = (lines(x[inlined(f.wire)], **var) for x in (PUT, GET, CHECK))
        puts += put
        gets += get
        checks += chk
    gets += ["r.Pos = p;", "return v;"]
    checks.append("return p;")
    sc.method(f"public static void FPutAt({RT}.WriteBuffer w, {t} v)", puts)
    # The position by value, back in r.Pos or returned: Mono keeps a `ref int` in memory.
    sc.method(f"public static {t} FGetAt({RT}.Reader r, int p, int d)", gets)
    # Not inlined: the seed account's final verify took 57 ns with its leaves' FCheckAt
    # inlined, 50 without (the position went through the stack).
    sc.method(f"public static int FCheckAt({RT}.Reader r, int p, int d)", checks)
    fast = fast_root(sc, layout)
    if fast:
        sc.method(f"public override int FFast({RT}.Reader r, int d)", fast)


# ---- FFast: as VFast, a root's final verify in one method ---------------------------------
# It returns where it stopped, or -1 (nothing recorded), and FCheck runs from the start.
FAST_LINES = 400


def fast_root(sc: Scope, layout: StructLayout) -> Lines:
    if layout.depth <= 0 or not all(spelled(sc, f.wire, True) for f in layout.fields):
        return []
    sc.fast_n = 0
    body = _fast_body(sc, layout)
    if not body:  # no fields: nothing to gain
        return []
    lines = [f"if (d < {layout.depth}) return -1;", "int end = r.End;", "int p = 8;"] + body + \
        ["return p;"]
    return lines if len(lines) <= FAST_LINES else []


FAST = {
    "text": """
        if (p > end - $p4$) return -1;
        uint $n$ = r.U32($at$);
        if ($n$ > (uint)(end - p - $p4$)) return -1;
        p += $p4$ + (int)$n$;""",
    "optstruct": """
        if (p > end - $p1$) return -1;
        bool $has$ = r.U8($at$) != 0;
        p += $p1$;
        if ($has$)
        {
            $inner$
        }""",
    "structs": """
        if (p > end - $p4$) return -1;
        uint $n$ = r.U32($at$);
        if ($n$ > (uint)(end - p - $p4$) / $fmin$U) return -1;
        p += $p4$;
        for (uint $i$ = 0; $i$ < $n$; $i$++)
        {
            $inner$
        }""",
}
FAST_VARS = {"text": "n", "optstruct": ("has",), "structs": "ni"}  # declared, in order


def _at(n: int) -> str:
    return "p" if n == 0 else f"p + {n}"


def _fast_body(sc: Scope, layout: StructLayout) -> Lines:
    """A body's fields at p; a run's `pend` bytes are checked with what follows (a run and a
    string's length in one test) and added to p before any branch or loop."""
    out: Lines = []
    pend, unchecked = 0, False  # unchecked: pending bytes no test has covered yet

    def flush() -> Lines:
        return ([f"if (p > end - {pend}) return -1;"] if unchecked else []) + \
            ([f"p += {pend};"] if pend else [])

    for step in layout.plan.final.steps:
        if step.op == "values":
            decimals = [f.at or 0 for f in step.fields if f.helper == "decimal"]
            if decimals:  # loaded at once: the run's bytes tested first
                out.append(f"if (p > end - {pend + (step.size or 0)}) return -1;")
                out += [f"if (r.U8({_at(pend + off + DECIMAL.scale_at)}) > {DECIMAL.max_scale}) "
                        "return -1;" for off in decimals]
            unchecked = not decimals
            pend += step.size or 0
            continue
        w = step.field.wire
        k = inlined(w)
        ref = leaf(w)
        inner = _fast_body(sc, sc.model.struct(ref)) if ref is not None else []
        if k == "struct":
            out += flush() + inner
        else:
            var = {x: sc.fast_var(x) for x in FAST_VARS[k]}
            out += lines(FAST[k], at=_at(pend), p1=pend + 1, p4=pend + 4, inner="\n".join(inner),
                         fmin=w.element.final_min if w.element else 0, **var)
        pend, unchecked = 0, False
    return out + flush()
