"""With --final, the final format's hot paths per struct, rendered from its codec plan
(plan.final.steps): `fput` and `fget` (each run of values at once), `fskip` (the cursor in
a local, one bounds check per run of values and per length or count) and `fcheck`."""

from __future__ import annotations

from typing import Callable, Dict, List, Tuple

from ... import ir, layouts, plan
from ..printer import Printer
from .names import Scope
from .types import codec, dv_read, dv_write, in_line, type_of
from .versioned import Codec, codec_of

DECIMAL = layouts.DECIMAL


def _element(g: Scope, step: plan.Step) -> str:
    w = step.field.wire
    assert w.element is not None
    return codec(g, w.element)


def _target(g: Scope, k: Codec, step: plan.Step) -> str:
    f = step.field
    return codec(g, f.wire) if step.op == "struct" else f"{k.F}[{f.index}]{k.bang}"


# ---- fget: a field's value into v ---------------------------------------------------
def get_string(g: Scope, p: Printer, k: Codec, step: plan.Step) -> None:
    p.value(f"v.{g.prop(step.field.name)} = rt.fgetString(r);")


def get_struct_sequence(g: Scope, p: Printer, k: Codec, step: plan.Step) -> None:
    w = step.field.wire
    assert w.element is not None
    ec = codec(g, w.element)
    p.value("{")
    p.indent()
    p.value(f"const n = rt.fcount(r, {w.element.final_min});")
    p.value(f"const out{k.t(': ' + type_of(g, w))} = [];")
    p.value("for (let i = 0; i < n; i++) {")
    p.indent()
    p.value(f"out.push({ec}.fget(r, d - 1));")
    p.outdent()
    p.value("}")
    p.value(f"v.{g.prop(step.field.name)} = out;")
    p.outdent()
    p.value("}")


def get_struct_optional(g: Scope, p: Printer, k: Codec, step: plan.Step) -> None:
    p.value(f"v.{g.prop(step.field.name)} = r.buf[rt.needFinal(r, 1)] !== 0 ? "
            f"{_element(g, step)}.fget(r, d - 1) : null;")


def get_other(g: Scope, p: Printer, k: Codec, step: plan.Step) -> None:
    p.value(f"v.{g.prop(step.field.name)} = {_target(g, k, step)}.fget(r, d - 1);")


GETS: Dict[str, Callable[[Scope, Printer, Codec, plan.Step], None]] = {
    "string": get_string, "struct_sequence": get_struct_sequence,
    "struct_optional": get_struct_optional,
    "struct": get_other, "bytes": get_other, "table": get_other,
}


# ---- fskip: a field skipped, checked, the cursor in p --------------------------------
def _counted(body: List[str]) -> None:
    body.append('    if (4 > end - p) rt.fail("truncated");')
    body.append("    const n = dv.getUint32(p, true);")
    body.append("    p += 4;")


def skip_text(g: Scope, body: List[str], k: Codec, step: plan.Step) -> None:
    body.append("{")
    _counted(body)
    body.append('    if (n > end - p) rt.fail("truncated");')
    body.append("    p += n;")
    body.append("}")


def skip_struct(g: Scope, body: List[str], k: Codec, step: plan.Step) -> None:
    body.append(f"p = {codec(g, step.field.wire)}.fskip(r, p, d - 1);")


def skip_struct_optional(g: Scope, body: List[str], k: Codec, step: plan.Step) -> None:
    body.append('if (1 > end - p) rt.fail("truncated");')
    body.append(f"if (r.buf[p++] !== 0) p = {_element(g, step)}.fskip(r, p, d - 1);")


def skip_struct_sequence(g: Scope, body: List[str], k: Codec, step: plan.Step) -> None:
    w = step.field.wire
    assert w.element is not None
    emin = w.element.final_min
    body.append("{")
    _counted(body)
    if emin > 0:
        body.append(f'    if (n * {emin} > end - p) rt.fail("truncated");')
    else:
        body.append("    rt.zeroSized(r, n);")
    body.append("    for (let i = 0; i < n; i++) {")
    body.append(f"        p = {_element(g, step)}.fskip(r, p, d - 1);")
    body.append("    }")
    body.append("}")


# how each field coded in line is skipped (the others by their codec's fcheck, in r.p)
SKIPS: Dict[str, Callable[[Scope, List[str], Codec, plan.Step], None]] = {
    "string": skip_text, "bytes": skip_text, "struct": skip_struct,
    "struct_optional": skip_struct_optional, "struct_sequence": skip_struct_sequence,
}


def emit_final(g: Scope, p: Printer, s: ir.StructType, mode: str) -> None:
    k = codec_of(g, s, mode)
    c, name = k.c, k.name
    steps = k.lay.plan.final.steps
    t = k.t

    # write: runs of values at once
    if not steps:
        p.value(f"{c}.fput = (w{t(': rt.Writer')}, v{t(f': {name}')}){t(': void')} => {{}};")
    else:
        p.value(f"{c}.fput = (w{t(': rt.Writer')}, v{t(f': {name}')}){t(': void')} => {{")
    p.indent()
    for step in steps:
        if step.op == "values":
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
        else:
            p.value(f"{_target(g, k, step)}.fput(w, v.{g.prop(step.field.name)});")
    p.outdent()
    if steps:
        p.value("};")
    # read
    p.value(f"{c}.fget = (r{t(': rt.Reader')}, d{t(': number')}){t(f': {name}')} => {{")
    p.indent()
    p.value('if (d < 1) rt.fail("too_deep");')
    p.value(f"const v = {k.raw};")
    for step in steps:
        if step.op == "values":
            p.value("{")
            p.indent()
            p.value(f"const p = rt.needFinal(r, {step.size});")
            p.value("const dv = r.view;")
            for f in step.fields:
                p.value(f"v.{g.prop(f.name)} = {dv_read(f.wire, f'p + {f.at}')};")
            p.outdent()
            p.value("}")
        else:
            GETS[in_line(step.field.wire)](g, p, k, step)
    p.value("return v;")
    p.outdent()
    p.value("};")
    emit_fskip(g, p, k, steps)


def emit_fskip(g: Scope, p: Printer, k: Codec, steps: Tuple[plan.Step, ...]) -> None:
    c = k.c
    t = k.t

    p.value(f"{c}.fskip = (r{t(': rt.Reader')}, p{t(': number')}, d{t(': number')}){t(': number')} => {{")
    p.indent()
    p.value('if (d < 1) rt.fail("too_deep");')
    body: List[str] = []
    in_reader = False  # the cursor is in r.p (after a generic codec's fcheck), not in p
    for step in steps:
        how = "values" if step.op == "values" else in_line(step.field.wire)
        if how in SKIPS or how == "values":
            if in_reader:
                body.append("p = r.p;")
                in_reader = False
        if how == "values":
            body.append(f'if ({step.size} > end - p) rt.fail("truncated");')
            for f in step.fields:
                if f.helper in VALUE_CHECKS:
                    VALUE_CHECKS[f.helper](body, k, f"p + {f.at}")
            body.append(f"p += {step.size};")
        elif how in SKIPS:
            SKIPS[how](g, body, k, step)
        else:
            if not in_reader:
                body.append("r.p = p;")
                in_reader = True
            body.append(f"{k.F}[{step.field.index}]{k.bang}.fcheck(r, d - 1);")
    text = "\n".join(body)
    if "end" in text:
        p.value("const end = r.end;")
    if "dv." in text:
        p.value("const dv = r.view;")
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


def _skip_decimal(body: List[str], k: Codec, pos: str) -> None:
    body.append(f"if (r.buf[{pos} + {DECIMAL.scale_at}]{k.bang} > {DECIMAL.max_scale}) "
                f"rt.DECIMAL.vcheck(r, {pos}, 0, d);")


# value helpers checked beyond their size (the others hold any bytes)
VALUE_CHECKS = {"decimal": _skip_decimal}
