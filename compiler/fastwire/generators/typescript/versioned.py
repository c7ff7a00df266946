"""The versioned format's hot paths per struct from its codec plan: `put`, `getAt` (this
version or a newer one in line), `vget`, `vcheck` and `checkAt`; a field that is not a
value is coded in line as types.in_line says, else by the field table (`_F_<Struct>`)."""

from __future__ import annotations

from typing import Any, Dict, NamedTuple

from ... import ir, layouts, lower, plan
from ..printer import Printer
from .names import Scope, emit, typed
from .types import codec, dv, in_line, type_of

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


def terms(g: Scope, k: Codec, step: plan.Step) -> Dict[str, Any]:
    """The terms of GETS and CHECKS (and final's tables) for a one-field step."""
    f = step.field
    w, e = f.wire, f.wire.element
    how = in_line(w)
    return {"how": how, "prop": g.prop(f.name), "at": step.at, "end": (step.at or 0) + (step.size or 0),
            "codec": codec(g, w) if how == "struct" else "", "ec": codec(g, e) if e and how != "table" else "",
            "min": e.final_min if e else 0, "field": f"{k.F}[{f.index}]{k.bang}",
            "out": k.t(": " + type_of(g, w)) if how == "struct_sequence" else ""}


_SEQUENCE = """
    {
        const so = r.view.getUint32(at + $at$, true);
        $out$
        if (so !== 0) {
            let p = rt.vcount(r, at, so, at + $end$, 4);
            const n = r.p;
            for (let i = 0; i < n; i++, p += 4) {
                $call$
            }
        }
        $set$
    }
"""
# getAt: a field's value into v, by how it is coded in line
GETS = {
    "struct": "v.$prop$ = $codec$.getAt(r, at, r.view.getUint32(at + $at$, true), at + $end$, d - 1);",
    "string": "v.$prop$ = rt.vgetString(r, at + $at$, at);",
    "bytes": "v.$prop$ = $field$.vget(r, at + $at$, at, d - 1);",
    "struct_optional": """
        if (r.buf[at + $at$] === 0) v.$prop$ = null;
        else {
            const b = rt.voptional(r, at, at + $at$, 4);
            v.$prop$ = $ec$.getAt(r, b, r.view.getUint32(b, true), b + 4, d - 1);
        }
    """,
    "struct_sequence": _SEQUENCE.replace("$out$", "const out$out$ = [];").replace(
        "$call$", "out.push($ec$.getAt(r, at, r.view.getUint32(p, true), p + 4, d - 1));").replace(
        "$set$", "v.$prop$ = out;"),
}
GETS["table"] = GETS["bytes"]
# checkAt: a field checked (a string's or bytes' block here)
CHECKS = {
    "struct": "$codec$.checkAt(r, at, dv.getUint32(at + $at$, true), at + $end$, d - 1);",
    "string": """
        {
            const o = dv.getUint32(at + $at$, true);
            if (o !== 0) {
                const q = at + o;
                if (q < at + $end$ || q + 4 > end) rt.vblock(r, at, o, at + $end$);
                const n = dv.getUint32(q, true) + 4;
                if (n > end - q || n > r.budget) rt.vblock(r, at, o, at + $end$);
                r.budget -= n;
            }
        }
    """,
    "table": "$field$.vcheck(r, at + $at$, at, d - 1);",
    "struct_optional": """
        if (r.buf[at + $at$] !== 0) {
            const b = rt.voptional(r, at, at + $at$, 4);
            $ec$.checkAt(r, b, r.view.getUint32(b, true), b + 4, d - 1);
        }
    """,
    "struct_sequence": _SEQUENCE.replace("$out$", "").replace("$set$", "").replace(
        "$call$", "$ec$.checkAt(r, at, r.view.getUint32(p, true), p + 4, d - 1);"),
}
CHECKS["bytes"] = CHECKS["string"]


def check_decimal(k: Codec, scale: str, pos: str, base: str) -> str:
    """A decimal's scale byte (at `scale`) tested in line; the runtime throws when it is too large."""
    return (f"if (r.buf[{scale}]{k.bang} > {DECIMAL.max_scale}) "
            f"rt.DECIMAL.vcheck(r, {pos}, {base}, d);")


# value helpers checked beyond their size (the others hold any bytes)
VALUE_CHECKS = {"decimal": check_decimal}


def emit_versioned(g: Scope, p: Printer, s: ir.StructType, mode: str) -> None:
    k = codec_of(g, s, mode)
    lay, t = k.lay, k.t
    steps = lay.plan.versioned.steps
    values = [f for step in steps if step.op == "values" for f in step.fields]
    others = [step for step in steps if step.op != "values"]
    puts = [dv(g, f, "at", True) for f in values]
    for step in others:
        f = step.field
        if step.op == "struct":  # (the body is put first: it may grow the buffer, and so replace w.view)
            puts += [f"const o{f.index} = {codec(g, f.wire)}.put(w, v.{g.prop(f.name)});",
                     f"w.view.setUint32(at + {step.at}, o{f.index} - at, true);"]
        else:
            puts.append(f"{k.F}[{f.index}]{k.bang}.vput(w, at + {step.at}, at, v.{g.prop(f.name)});")
    sig = (f"(r{t(': rt.Reader')}, base{t(': number')}, off{t(': number')}, "
           f"slotEnd{t(': number')}, d{t(': number')})")
    slot = f"(r{t(': rt.Reader')}, pos{t(': number')}, base{t(': number')}, d{t(': number')})"
    names = dict(c=k.c, body=lay.body_size, type=lay.type_number, sig=sig, slot=slot,
                 value=t(f": {k.name}"), void=t(": void"), header=STRUCT.header_size, type_at=STRUCT.type_at)
    # write: the header and the values at once, then each field's blocks in order;
    # read: this version or a newer one in line, an older one generically
    emit(p, """
        const $F$$any$ = $c$.fields.map((f) => f.codec);
        $unused$
        $c$.put = (w$writer$, v$value$)$number$ => {
            const at = w.reserve($body$);
            const dv = w.view;
            dv.setUint32(at, $body$, true);
            dv.setUint32(at + $type_at$, $type$, true);
            $puts$
            return at;
        };
        $c$.getAt = $sig$$value$ => {
            const at = $c$.enter(r, base, off, slotEnd, d);
            if (r.p < $body$) return $c$.getOlder(r, at, r.p, d);
            $dv$
            const v = $raw$;
    """, F=k.F, any=t(": readonly rt.AnyCodec[]"), unused="" if others else f"void {k.F};",
         writer=t(": rt.Writer"), number=t(": number"), puts="\n".join(puts), raw=k.raw,
         dv="const dv = r.view;" if values else "", **names)
    p.indent()
    for step in steps:
        if step.op == "values":
            for f in step.fields:
                p.value(dv(g, f, "at", False))
        else:
            fill = terms(g, k, step)
            emit(p, GETS[fill["how"]], **fill)
    # check: the header's checks as two conditions (enter() throws the precise error)
    p.outdent()
    emit(p, """
            return v;
        };
        $c$.vget = $slot$$value$ => $c$.getAt(r, base, r.view.getUint32(pos, true), pos + 4, d);
        $c$.vcheck = $slot$$void$ => $c$.checkAt(r, base, r.view.getUint32(pos, true), pos + 4, d);
        $c$.checkAt = $sig$$void$ => {
            const end = r.end;
            const at = base + off;
            if (off === 0 || at < slotEnd || at + $header$ > end) $c$.enter(r, base, off, slotEnd, d);
            const dv = r.view;
            const stored = dv.getUint32(at, true);
            if ($bad$) {
                $c$.enter(r, base, off, slotEnd, d);
            }
            r.budget -= stored;
            if (stored < $body$) return $c$.checkOlder(r, at, stored, d);
    """, bad=f"stored < {STRUCT.header_size} || stored > end - at || dv.getUint32(at + {STRUCT.type_at}, "
             f"true) !== {lay.type_number} || d < 1 || stored > r.budget", **names)
    p.indent()
    for step in steps:
        if step.op == "values":
            for f in step.fields:
                if f.helper in VALUE_CHECKS:
                    p.value(VALUE_CHECKS[f.helper](k, f"at + {(f.at or 0) + DECIMAL.scale_at}",
                                                   f"at + {f.at}", "at"))
        else:
            fill = terms(g, k, step)
            emit(p, CHECKS[fill["how"]], **fill)
    p.outdent()
    p.value("};")
