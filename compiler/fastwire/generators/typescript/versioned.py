"""The versioned format's hot paths per struct, rendered from its codec plan
(plan.versioned.steps): `put`, `getAt` (this version or a newer one in line) and
`checkAt` (the runtime's vget and vcheck call these). A field the plan codes by a helper
is coded in line when types.in_line says so, else by the struct's field table (`_F_<Struct>`)."""

from __future__ import annotations

from typing import Callable, Dict, NamedTuple, Union

from ... import ir, layouts, lower, plan
from ..printer import Printer
from .names import Scope, typed
from .types import codec, dv_read, dv_write, in_line, type_of

DECIMAL = layouts.DECIMAL
STRUCT = layouts.STRUCT


class Codec(NamedTuple):
    """What a struct's hot paths are written with."""

    name: str  # the class
    lay: lower.StructLayout
    c: str  # the codec
    F: str  # its field table's codecs
    bang: str  # "!" in TypeScript
    raw: str  # a new instance without defaults
    mode: str

    def t(self, text: str) -> str:
        return typed(self.mode, text)


def codec_of(g: Scope, s: ir.StructType, mode: str) -> Codec:
    name = g.local(s.name)
    raw = f"new {name}(rt.RAW{typed(mode, f' as Partial<{name}>')})"
    return Codec(name, g.model.struct(s.qualified_name), f"{name}Codec", f"_F_{name}",
                 "!" if mode == "ts" else "", raw, mode)


def at_of(x: Union[plan.Step, plan.PlanField]) -> int:
    """A versioned step's or field's offset from the body's start (always known)."""
    assert x.at is not None
    return x.at


def slot_end(step: plan.Step) -> int:
    assert step.size is not None
    return at_of(step) + step.size


def element(g: Scope, w: lower.WireType) -> str:
    """The runtime codec of a container's element."""
    assert w.element is not None
    return codec(g, w.element)


def struct_optional(g: Scope, p: Printer, k: Codec, step: plan.Step, check: bool) -> None:
    """A struct optional: its value block found and its body read (or checked) in line."""
    ec, offset, prop = element(g, step.field.wire), step.at, g.prop(step.field.name)
    if check:
        p.value(f"if (r.buf[at + {offset}] !== 0) {{")
    else:
        p.value(f"if (r.buf[at + {offset}] === 0) v.{prop} = null;")
        p.value("else {")
    p.indent()
    p.value(f"const b = rt.voptional(r, at, at + {offset}, 4);")
    body = f"{ec}.{'checkAt' if check else 'getAt'}(r, b, r.view.getUint32(b, true), b + 4, d - 1);"
    p.value(body if check else f"v.{prop} = {body}")
    p.outdent()
    p.value("}")


def struct_sequence(g: Scope, p: Printer, k: Codec, step: plan.Step, check: bool) -> None:
    """A vector or list of structs: its slots walked, each body read (or checked) in line."""
    w, offset = step.field.wire, step.at
    p.value("{")
    p.indent()
    p.value(f"const so = r.view.getUint32(at + {offset}, true);")
    if not check:
        p.value(f"const out{k.t(': ' + type_of(g, w))} = [];")
    p.value("if (so !== 0) {")
    p.indent()
    p.value(f"let p = rt.vcount(r, at, so, at + {slot_end(step)}, 4);")
    p.value("const n = r.p;")
    p.value("for (let i = 0; i < n; i++, p += 4) {")
    p.indent()
    call = f"{element(g, w)}.{'checkAt' if check else 'getAt'}(r, at, r.view.getUint32(p, true), p + 4, d - 1)"
    p.value(f"{call};" if check else f"out.push({call});")
    p.outdent()
    p.value("}")
    p.outdent()
    p.value("}")
    if not check:
        p.value(f"v.{g.prop(step.field.name)} = out;")
    p.outdent()
    p.value("}")


def _struct(g: Scope, step: plan.Step, view: str, fn: str) -> str:
    return (f"{codec(g, step.field.wire)}.{fn}(r, at, {view}.getUint32(at + {step.at}, true), "
            f"at + {slot_end(step)}, d - 1)")


def _table(k: Codec, step: plan.Step, fn: str) -> str:
    return f"{k.F}[{step.field.index}]{k.bang}.{fn}(r, at + {step.at}, at, d - 1)"


Line = Callable[[Scope, Codec, plan.Step], str]
# how getAt reads (an expression) and checkAt checks (a call) a field coded in one line;
# a struct optional or a vector or list of structs by its own lines
GETS: Dict[str, Line] = {
    "struct": lambda g, k, step: _struct(g, step, "r.view", "getAt"),
    "string": lambda g, k, step: f"rt.vgetString(r, at + {step.at}, at)",
    "bytes": lambda g, k, step: _table(k, step, "vget"),
    "table": lambda g, k, step: _table(k, step, "vget"),
}
CHECKS: Dict[str, Line] = {
    "struct": lambda g, k, step: _struct(g, step, "dv", "checkAt"),
    "table": lambda g, k, step: _table(k, step, "vcheck"),
}
BY_LINES = {"struct_optional": struct_optional, "struct_sequence": struct_sequence}


def check_text(p: Printer, step: plan.Step) -> None:
    """A string's or bytes' block checked in line (faster in checkAt than rt.vcheckText)."""
    e = slot_end(step)
    for line in ("{", f"    const o = dv.getUint32(at + {step.at}, true);", "    if (o !== 0) {",
                 "        const q = at + o;",
                 f"        if (q < at + {e} || q + 4 > end) rt.vblock(r, at, o, at + {e});",
                 "        const n = dv.getUint32(q, true) + 4;",
                 f"        if (n > end - q || n > r.budget) rt.vblock(r, at, o, at + {e});",
                 "        r.budget -= n;", "    }", "}"):
        p.value(line)


def emit_field(g: Scope, p: Printer, k: Codec, step: plan.Step, check: bool) -> None:
    how = in_line(step.field.wire)
    if how in BY_LINES:
        BY_LINES[how](g, p, k, step, check)
    elif check and how in ("string", "bytes"):
        check_text(p, step)
    elif check:
        p.value(CHECKS[how](g, k, step) + ";")
    else:
        p.value(f"v.{g.prop(step.field.name)} = {GETS[how](g, k, step)};")


# ---- the struct's versioned functions ------------------------------------------------
def emit_versioned(g: Scope, p: Printer, s: ir.StructType, mode: str) -> None:
    k = codec_of(g, s, mode)
    lay, c, bang = k.lay, k.c, k.bang
    steps = lay.plan.versioned.steps
    values = [f for step in steps if step.op == "values" for f in step.fields]
    others = [step for step in steps if step.op != "values"]
    t = k.t

    p.value(f"const {k.F}{t(': readonly rt.AnyCodec[]')} = {c}.fields.map((f) => f.codec);")
    if not others:
        p.value(f"void {k.F};")
    # write: the header and the values at once, then each field's blocks in order
    p.value(f"{c}.put = (w{t(': rt.Writer')}, v{t(f': {k.name}')}){t(': number')} => {{")
    p.indent()
    p.value(f"const at = w.reserve({lay.body_size});")
    p.value("const dv = w.view;")
    p.value(f"dv.setUint32(at, {lay.body_size}, true);")
    p.value(f"dv.setUint32(at + {STRUCT.type_at}, {lay.type_number}, true);")
    for f in values:
        p.value(dv_write(f.wire, f"at + {f.at}", f"v.{g.prop(f.name)}"))
    for step in others:
        f = step.field
        if step.op == "struct":
            # (the body is put first: it may grow the buffer, and so replace w.view)
            p.value(f"const o{f.index} = {codec(g, f.wire)}.put(w, v.{g.prop(f.name)});")
            p.value(f"w.view.setUint32(at + {step.at}, o{f.index} - at, true);")
        else:
            p.value(f"{k.F}[{f.index}]{bang}.vput(w, at + {step.at}, at, v.{g.prop(f.name)});")
    p.value("return at;")
    p.outdent()
    p.value("};")
    # read: this version or a newer one in line; an older one generically
    sig = (f"(r{t(': rt.Reader')}, base{t(': number')}, off{t(': number')}, "
           f"slotEnd{t(': number')}, d{t(': number')})")
    p.value(f"{c}.getAt = {sig}{t(f': {k.name}')} => {{")
    p.indent()
    p.value(f"const at = {c}.enter(r, base, off, slotEnd, d);")
    p.value(f"if (r.p < {lay.body_size}) return {c}.getOlder(r, at, r.p, d);")
    if values:
        p.value("const dv = r.view;")
    p.value(f"const v = {k.raw};")
    for step in steps:
        if step.op == "values":
            for f in step.fields:
                p.value(f"v.{g.prop(f.name)} = {dv_read(f.wire, f'at + {f.at}')};")
        else:
            emit_field(g, p, k, step, False)
    p.value("return v;")
    p.outdent()
    p.value("};")
    # check: the header's checks as two conditions (when one fails, the generic enter()
    # runs to throw the precise error), the budget kept in a local (written back around
    # nested calls)
    p.value(f"{c}.checkAt = {sig}{t(': void')} => {{")
    p.indent()
    p.value("const end = r.end;")
    p.value("const at = base + off;")
    p.value(f"if (off === 0 || at < slotEnd || at + {STRUCT.header_size} > end) "
            f"{c}.enter(r, base, off, slotEnd, d);")
    p.value("const dv = r.view;")
    p.value("const stored = dv.getUint32(at, true);")
    p.value(f"if (stored < {STRUCT.header_size} || stored > end - at || "
            f"dv.getUint32(at + {STRUCT.type_at}, true) !== {lay.type_number} || "
            "d < 1 || stored > r.budget) {")
    p.indent()
    p.value(f"{c}.enter(r, base, off, slotEnd, d);")
    p.outdent()
    p.value("}")
    p.value("r.budget -= stored;")
    p.value(f"if (stored < {lay.body_size}) return {c}.checkOlder(r, at, stored, d);")
    for step in steps:
        if step.op == "values":
            for f in step.fields:
                if f.helper == "decimal":  # its scale byte tested (the other values hold any bytes)
                    p.value(f"if (r.buf[at + {at_of(f) + DECIMAL.scale_at}]{k.bang} > {DECIMAL.max_scale}) "
                            f"rt.DECIMAL.vcheck(r, at + {f.at}, at, d);")
        else:
            emit_field(g, p, k, step, True)
    p.outdent()
    p.value("};")
