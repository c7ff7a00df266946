"""With --final, the final format's hot paths per struct from its codec plan: `fput` and
`fget` (a run of values at once), `fskip` (the cursor in a local, a bounds check per run
and per length or count) and `fcheck`."""

from __future__ import annotations

from ... import ir
from ..printer import Printer
from .names import Scope, emit
from .types import dv
from .versioned import DECIMAL, VALUE_CHECKS, codec_of, terms

# fget: a field's value into v, by how it is coded in line
GETS = {
    "string": "v.$prop$ = rt.fgetString(r);",
    "struct_sequence": """
        {
            const n = rt.fcount(r, $min$);
            const out$out$ = [];
            for (let i = 0; i < n; i++) {
                out.push($ec$.fget(r, d - 1));
            }
            v.$prop$ = out;
        }
    """,
    "struct_optional": "v.$prop$ = r.buf[rt.needFinal(r, 1)] !== 0 ? $ec$.fget(r, d - 1) : null;",
    "struct": "v.$prop$ = $codec$.fget(r, d - 1);",
}
_COUNT = """
    {
        if (4 > end - p) rt.fail("truncated");
        const n = dv.getUint32(p, true);
        p += 4;
        $more$
    }
"""
# fskip: a field coded in line skipped and checked, the cursor in p (the others by their
# codec's fcheck, the cursor in r.p)
SKIPS = {
    "string": _COUNT, "bytes": _COUNT, "struct_sequence": _COUNT,
    "struct": "p = $codec$.fskip(r, p, d - 1);",
    "struct_optional": """
        if (1 > end - p) rt.fail("truncated");
        if (r.buf[p++] !== 0) p = $ec$.fskip(r, p, d - 1);
    """,
}


# fput and fget: a run of values at once
VALUES = {True: """
    w.ensure($size$);
    {
        const dv = w.view;
        const p = w.len;
        $values$
        w.len = p + $size$;
    }
""", False: """
    {
        const p = rt.needFinal(r, $size$);
        const dv = r.view;
        $values$
    }
"""}


def emit_final(g: Scope, p: Printer, s: ir.StructType, mode: str) -> None:
    k = codec_of(g, s, mode)
    steps = k.lay.plan.final.steps
    t = k.t
    for put in (True, False):
        head = (f"{k.c}.fput = (w{t(': rt.Writer')}, v{t(f': {k.name}')}){t(': void')} => {{" if put else
                f"{k.c}.fget = (r{t(': rt.Reader')}, d{t(': number')}){t(f': {k.name}')} => {{")
        if put and not steps:
            p.value(head + "};")
            continue
        p.value(head)
        p.indent()
        if not put:
            p.value('if (d < 1) rt.fail("too_deep");')
            p.value(f"const v = {k.raw};")
        for step in steps:
            if step.op == "values":
                emit(p, VALUES[put], size=step.size, values="\n".join(dv(g, f, "p", put) for f in step.fields))
                continue
            fill = terms(g, k, step)
            if put:
                p.value(f"{fill['codec' if step.op == 'struct' else 'field']}.fput(w, v.{fill['prop']});")
            else:
                emit(p, GETS.get(fill["how"], "v.$prop$ = $field$.fget(r, d - 1);"), **fill)
        if not put:
            p.value("return v;")
        p.outdent()
        p.value("};")
    # fskip, rendered first to know the locals it needs
    body = Printer()
    in_reader = False  # the cursor is in r.p (after a generic codec's fcheck), not in p
    for step in steps:
        fill = terms(g, k, step) if step.op != "values" else {"how": "values"}
        how = fill["how"]
        if in_reader and (how in SKIPS or how == "values"):
            body.value("p = r.p;")
            in_reader = False
        if how == "values":
            body.value(f'if ({step.size} > end - p) rt.fail("truncated");')
            for f in step.fields:
                if f.helper in VALUE_CHECKS:
                    body.value(VALUE_CHECKS[f.helper](k, f"p + {f.at} + {DECIMAL.scale_at}", f"p + {f.at}", "0"))
            body.value(f"p += {step.size};")
        elif how in SKIPS:
            more = 'if (n > end - p) rt.fail("truncated");\np += n;'
            if how == "struct_sequence":
                more = (f'if (n * {fill["min"]} > end - p) rt.fail("truncated");' if fill["min"] > 0
                        else "rt.zeroSized(r, n);")
                more += f"\nfor (let i = 0; i < n; i++) {{\n    p = {fill['ec']}.fskip(r, p, d - 1);\n}}"
            emit(body, SKIPS[how], more=more, **fill)
        else:
            if not in_reader:
                body.value("r.p = p;")
                in_reader = True
            body.value(f"{fill['field']}.fcheck(r, d - 1);")
    text = "\n".join(body.lines)
    names = dict(c=k.c, reader=t(": rt.Reader"), number=t(": number"), void=t(": void"))
    emit(p, """
        $c$.fskip = (r$reader$, p$number$, d$number$)$number$ => {
            if (d < 1) rt.fail("too_deep");
            $end$
            $dv$
            $body$
            $ret$
        };
        $c$.fcheck = (r$reader$, d$number$)$void$ => {
            r.p = $c$.fskip(r, r.p, d);
        };
    """, end="const end = r.end;" if "end" in text else "", dv="const dv = r.view;" if "dv." in text else "",
         body=text, ret="return r.p;" if in_reader else "return p;", **names)
