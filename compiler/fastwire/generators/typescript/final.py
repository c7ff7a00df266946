"""With --final, the final format's hot paths per struct, rendered from its codec plan
(plan.final.steps): `fput` and `fget` (each run of values at once), `fskip` (the cursor in
a local, one bounds check per run of values, the runtime's for a length or count) and
`fcheck`."""

from __future__ import annotations

from typing import Callable, Dict, List

from ... import ir, layouts, plan
from ..printer import Printer
from .names import Scope
from .types import codec, dv_read, dv_write, in_line, type_of
from .versioned import Codec, codec_of, element

DECIMAL = layouts.DECIMAL


def _target(g: Scope, k: Codec, step: plan.Step) -> str:
    f = step.field
    return codec(g, f.wire) if step.op == "struct" else f"{k.F}[{f.index}]{k.bang}"


def get_struct_sequence(g: Scope, p: Printer, k: Codec, step: plan.Step) -> None:
    w = step.field.wire
    assert w.element is not None
    for line in ("{", f"    const n = rt.fcount(r, {w.element.final_min});",
                 f"    const out{k.t(': ' + type_of(g, w))} = [];", "    for (let i = 0; i < n; i++) {",
                 f"        out.push({element(g, w)}.fget(r, d - 1));", "    }",
                 f"    v.{g.prop(step.field.name)} = out;", "}"):
        p.value(line)


# how fget reads a field coded in line (the others by their codec's fget): an expression
GETS: Dict[str, Callable[[Scope, Codec, plan.Step], str]] = {
    "string": lambda g, k, step: "rt.fgetString(r)",
    "struct_optional": lambda g, k, step: (f"r.buf[rt.needFinal(r, 1)] !== 0 ? "
                                           f"{element(g, step.field.wire)}.fget(r, d - 1) : null"),
}


def skip_struct_sequence(g: Scope, body: List[str], step: plan.Step) -> None:
    w = step.field.wire
    assert w.element is not None
    body.extend(["{", f"    const n = rt.fcountAt(r, p, {w.element.final_min});", "    p += 4;",
                 "    for (let i = 0; i < n; i++) {", f"        p = {element(g, w)}.fskip(r, p, d - 1);",
                 "    }", "}"])


# how fskip skips a field coded in line (the others by their codec's fcheck, in r.p)
SKIPS: Dict[str, Callable[[Scope, List[str], plan.Step], None]] = {
    "string": lambda g, body, step: body.append("p = rt.fskipText(r, p);"),
    "struct": lambda g, body, step: body.append(f"p = {codec(g, step.field.wire)}.fskip(r, p, d - 1);"),
    "struct_optional": lambda g, body, step: body.extend([
        'if (1 > end - p) rt.fail("truncated");',
        f"if (r.buf[p++] !== 0) p = {element(g, step.field.wire)}.fskip(r, p, d - 1);"]),
    "struct_sequence": skip_struct_sequence,
}
SKIPS["bytes"] = SKIPS["string"]


def emit_final(g: Scope, p: Printer, s: ir.StructType, mode: str) -> None:
    k = codec_of(g, s, mode)
    c, name, t = k.c, k.name, k.t
    steps = k.lay.plan.final.steps

    # write: runs of values at once
    head = f"{c}.fput = (w{t(': rt.Writer')}, v{t(f': {name}')}){t(': void')} => {{"
    if not steps:
        p.value(head + "};")
    else:
        p.value(head)
        p.indent()
        for step in steps:
            if step.op != "values":
                p.value(f"{_target(g, k, step)}.fput(w, v.{g.prop(step.field.name)});")
                continue
            p.value(f"w.ensure({step.size});")
            p.value("{")
            p.indent()
            p.value("const dv = w.view;")
            p.value("const p = w.len;")
            for f in step.fields:
                p.value(dv_write(f.wire, f"p + {f.at}", f"v.{g.prop(f.name)}"))
            p.value(f"w.len = p + {step.size};")
            p.outdent()
            p.value("}")
        p.outdent()
        p.value("};")
    # read
    p.value(f"{c}.fget = (r{t(': rt.Reader')}, d{t(': number')}){t(f': {name}')} => {{")
    p.indent()
    p.value('if (d < 1) rt.fail("too_deep");')
    p.value(f"const v = {k.raw};")
    for step in steps:
        how = "values" if step.op == "values" else in_line(step.field.wire)
        if how == "values":
            p.value("{")
            p.indent()
            p.value(f"const p = rt.needFinal(r, {step.size});")
            p.value("const dv = r.view;")
            for f in step.fields:
                p.value(f"v.{g.prop(f.name)} = {dv_read(f.wire, f'p + {f.at}')};")
            p.outdent()
            p.value("}")
        elif how == "struct_sequence":
            get_struct_sequence(g, p, k, step)
        else:
            get = GETS[how](g, k, step) if how in GETS else f"{_target(g, k, step)}.fget(r, d - 1)"
            p.value(f"v.{g.prop(step.field.name)} = {get};")
    p.value("return v;")
    p.outdent()
    p.value("};")
    emit_fskip(g, p, k, steps)


def emit_fskip(g: Scope, p: Printer, k: Codec, steps: tuple) -> None:
    c, t = k.c, k.t
    p.value(f"{c}.fskip = (r{t(': rt.Reader')}, p{t(': number')}, d{t(': number')}){t(': number')} => {{")
    p.indent()
    p.value('if (d < 1) rt.fail("too_deep");')
    body: List[str] = []
    in_reader = False  # the cursor is in r.p (after a generic codec's fcheck), not in p
    for step in steps:
        how = "values" if step.op == "values" else in_line(step.field.wire)
        if how not in SKIPS and how != "values":
            if not in_reader:
                body.append("r.p = p;")
                in_reader = True
            body.append(f"{k.F}[{step.field.index}]{k.bang}.fcheck(r, d - 1);")
            continue
        if in_reader:
            body.append("p = r.p;")
            in_reader = False
        if how in SKIPS:
            SKIPS[how](g, body, step)
            continue
        body.append(f'if ({step.size} > end - p) rt.fail("truncated");')
        for f in step.fields:
            if f.helper == "decimal":  # (the other values hold any bytes)
                body.append(f"if (r.buf[p + {f.at} + {DECIMAL.scale_at}]{k.bang} > {DECIMAL.max_scale}) "
                            f"rt.DECIMAL.vcheck(r, p + {f.at}, 0, d);")
        body.append(f"p += {step.size};")
    if any("end - p" in line for line in body):
        p.value("const end = r.end;")
    for line in body:
        p.value(line)
    p.value("return r.p;" if in_reader else "return p;")
    p.outdent()
    p.value("};")
    p.value(f"{c}.fcheck = (r{t(': rt.Reader')}, d{t(': number')}){t(': void')} => {{")
    p.indent()
    p.value(f"r.p = {c}.fskip(r, r.p, d);")
    p.outdent()
    p.value("};")
