"""The final format's fast paths: fput, fget, fcheck and fok per struct."""

from __future__ import annotations

import re
from typing import List

from ... import ir, lower
from ...layouts import DECIMAL
from .names import Scope, attr_name, class_name, field_const
from .types import (
    check,
    convert,
    directive,
    kind,
    plain_codec,
    read_directive,
    struct_optional,
    struct_vector,
    wrong_class,
    wrong_field,
)

# kind -> fcheck's check of a field outside the fixed runs (else the field's runtime codec)
FCHECK = {"string": "Fastwire.fcheck_str(r)", "bytes": "Fastwire.fcheck_str(r)",
          "struct": "{inner}.fcheck(r, d)"}


def emit_final_paths(g: Scope, s: ir.StructType, layout: lower.StructLayout,
                     fields: list) -> None:
    cls = class_name(s.name)
    runs = {r.first: r for r in layout.final_runs}
    nested = any(kind(fl.wire) in ("struct", "other") for fl in layout.fields)
    # -- write
    g.p.blank()
    g.p.value("def fput(buf, v)")
    g.p.indent()
    g.p.value(wrong_class(cls, "v", cls))
    if fields and not nested:  # values and strings: one pack
        vals, fmt = [], ""
        for n, (f, fl) in enumerate(fields):
            a = attr_name(f.name)
            if kind(fl.wire) in ("string", "bytes"):
                g.p.value(f"s{n} = v.{a}")
                g.p.value(wrong_field(f"{s.name}.{f.name}", "string", f"s{n}", "String"))
                vals += [f"s{n}.bytesize", f"s{n}"]
                fmt += "Va*"
            else:
                g.p.value(f"x{n} = v.{a}")
                for line in check(g, f"x{n}", fl.wire, f"{s.name}.{f.name}"):
                    g.p.value(line)
                vals.append(f"x{n}")
                fmt += directive(fl.wire)
        g.p.value(f'[{", ".join(vals)}].pack("{fmt}", buffer: buf)')
    else:
        # nested: one pack of every value (format built as it goes), the structs it
        # holds inlined; a field the runtime's codec writes flushes the pack first
        g.p.blank()
        g.p.value("vals = []")
        g.p.value("fmt = +\"\"")
        g.start_walk(1)
        g.fp_vals = []
        g.fp_fmt = ""
        fput_fields(g, s, "v", [s.qualified_name])
        fput_flush(g, pack=True)
    g.p.outdent()
    g.p.value("end")
    # -- read and check
    emit_fget(g, s)
    g.p.blank()
    g.p.value("def fcheck(r, d)")
    g.p.indent()
    g.p.value("Fastwire.too_deep! if d < 1")
    if nested:
        g.p.value("d -= 1")
    if runs and any(kind(fl.wire) == "decimal" for fl in layout.fields):
        g.p.value("buf = r.buf")
    i = 0
    while i < len(fields):
        f, fl = fields[i]
        if i in runs:
            run = runs[i]
            g.p.value("p = r.pos")
            g.p.value(f'Fastwire.fail!("truncated") if p + {run.size} > r.end_')
            for j, o in zip(run.indexes, run.offsets):
                if kind(fields[j][1].wire) == "decimal":
                    g.p.value(f'Fastwire.fail!("bad_value", "decimal scale") '
                              f"if buf.getbyte(p + {o + DECIMAL.scale_at}) > {DECIMAL.max_scale}")
            g.p.value(f"r.pos = p + {run.size}")
            i += run.count
            continue
        g.p.value(FCHECK.get(kind(fl.wire), "{c}.fcheck(r, d)").format(
            inner=plain_codec(g, f.type.value), c=field_const(s, f)))
        i += 1
    g.p.value("nil")
    g.p.outdent()
    g.p.value("end")
    emit_fok(g, s, layout, fields)


def fput_flush(g: Scope, pack: bool = False) -> None:
    if g.fp_vals:
        g.p.value(f"vals.push({', '.join(g.fp_vals)})")
    if g.fp_fmt:
        g.p.value(f'fmt << "{g.fp_fmt}"')
    g.fp_vals, g.fp_fmt = [], ""
    if pack:  # (pack with an empty format would make buf US-ASCII)
        g.p.value("vals.pack(fmt, buffer: buf) unless fmt.empty?")


def fput_struct(g: Scope, ref: ir.TypeRef, var: str, chain: List[str]) -> None:
    """The struct in `var` (checked), inlined, or through its codec."""
    t = g.inlinable(ref, chain)
    if t is None:
        fput_flush(g, pack=True)
        g.p.value("vals.clear")
        g.p.value("fmt.clear")
        g.p.value(f"{plain_codec(g, ref)}.fput(buf, {var})")
        return
    cls = g.qualify(t.package, class_name(t.name))
    g.p.value(wrong_class(t.name, var, cls))
    g.p.blank()
    fput_fields(g, t, var, chain + [t.qualified_name])


def fput_fields(g: Scope, s: ir.StructType, var: str, chain: List[str]) -> None:
    layout = g.model.struct(s.qualified_name)
    for f, fl in zip(s.all_fields, layout.fields):
        t = g.tags
        g.tags += 1
        w = fl.wire
        k = kind(w)
        a = attr_name(f.name)
        if k in ("string", "bytes"):
            g.p.value(f"s{t} = {var}.{a}")
            g.p.value(wrong_field(f"{s.name}.{f.name}", k, f"s{t}", "String"))
            g.p.blank()
            g.fp_vals += [f"s{t}.bytesize", f"s{t}"]
            g.fp_fmt += "Va*"
        elif k == "struct":
            g.p.value(f"y{t} = {var}.{a}")
            fput_struct(g, f.type.value, f"y{t}", chain)
        elif struct_optional(w):
            g.p.value(f"y{t} = {var}.{a}")
            fput_flush(g)
            g.p.value(f"if y{t}.nil?")
            g.p.value('  vals << 0')
            g.p.value('  fmt << "C"')
            g.p.value("else")
            g.p.indent()
            g.fp_vals, g.fp_fmt = ["1"], "C"
            fput_struct(g, f.type.value, f"y{t}", chain)
            fput_flush(g)
            g.p.outdent()
            g.p.value("end")
        elif struct_vector(w):
            g.p.value(f"y{t} = {var}.{a}")
            g.p.value(wrong_field(f"{s.name}.{f.name}", "Array", f"y{t}", "Array"))
            g.p.blank()
            g.fp_vals.append(f"y{t}.size")
            g.fp_fmt += "V"
            fput_flush(g)
            g.p.value(f"j{t} = 0")
            g.p.value(f"while j{t} < y{t}.size")
            g.p.indent()
            g.p.value(f"z{t} = y{t}[j{t}]")
            fput_struct(g, f.type.value, f"z{t}", chain)
            fput_flush(g)
            g.p.value(f"j{t} += 1")
            g.p.outdent()
            g.p.value("end")
        elif k == "other":
            fput_flush(g, pack=True)
            g.p.value("vals.clear")
            g.p.value("fmt.clear")
            g.p.value(f"{g.qualify(s.package, field_const(s, f))}.fput(buf, {var}.{a})")
        else:
            g.p.value(f"x{t} = {var}.{a}")
            for line in check(g, f"x{t}", w, f"{s.name}.{f.name}"):
                g.p.value(line)
            g.fp_vals.append(f"x{t}")
            g.fp_fmt += directive(w)


def emit_fget(g: Scope, s: ir.StructType) -> None:
    """The final read: the position in a local, each fixed run read with the length of
    the string after it (one unpack), the structs it holds inlined (up to a few
    levels), r.pos written back once."""
    g.p.blank()
    g.p.value("def fget(r, d)")
    g.p.indent()
    start = len(g.p.lines)
    g.p.value("p = r.pos")
    g.start_walk(0)
    fget_struct(g, s, "d", [s.qualified_name], "value")
    body = "\n".join(g.p.lines[start:])
    head = (["buf = r.buf"] if re.search(r"\bbuf\b", body) else []) + \
        (["e = r.end_"] if re.search(r"\be\b", body) else [])
    g.p.lines[start:start] = [g.p.unit * g.p.level + line for line in head]
    g.p.value("r.pos = p")
    g.p.value("value")
    g.p.outdent()
    g.p.value("end")


def fget_call_or_inline(g: Scope, ref: ir.TypeRef, d: str, chain: List[str], var: str) -> None:
    t = g.inlinable(ref, chain)
    if t is None:
        g.p.value("r.pos = p")
        g.p.value(f"{var} = {plain_codec(g, ref)}.fget(r, {d})")
        g.p.value("p = r.pos")
    else:
        fget_struct(g, t, d, chain + [t.qualified_name], var)


def fget_struct(g: Scope, s: ir.StructType, d: str, chain: List[str], var: str) -> None:
    layout = g.model.struct(s.qualified_name)
    fields = list(zip(s.all_fields, layout.fields))
    t = "" if g.tags == 0 else str(g.tags)
    g.tags += 1
    runs = {r.first: r for r in layout.final_runs}
    nested = any(kind(fl.wire) in ("struct", "other") for fl in layout.fields)
    g.p.value(f"Fastwire.too_deep! if {d} < 1")
    g.p.blank()
    dc = f"d{t}_"
    if nested:
        g.p.value(f"{dc} = {d} - 1")
    args: List[str] = []
    i = 0
    while i < len(fields):
        f, fl = fields[i]
        w = fl.wire
        k = kind(w)
        a = f"a{t}_{i}"
        if i in runs:
            run = runs[i]
            fmt = "".join(read_directive(fields[j][1].wire) for j in run.indexes)
            nxt = i + run.count
            text = nxt < len(fields) and kind(fields[nxt][1].wire) in ("string", "bytes")
            if text:
                fmt += "V"
            size = run.size + (4 if text else 0)
            g.p.value(f'Fastwire.fail!("truncated") if p + {size} > e')
            g.p.blank()
            if run.count == 1 and not text:
                g.p.value(f'{a} = buf.unpack1("{fmt}", offset: p)')
                args.append(convert(a, w))
            else:
                g.p.value(f'{a} = buf.unpack("{fmt}", offset: p)')
                for n, j in enumerate(run.indexes):
                    args.append(convert(f"{a}[{n}]", fields[j][1].wire))
            g.p.value(f"p += {size}")
            if text:
                emit_fget_text(g, f"{a}[{run.count}]", f"a{t}_{nxt}", fields[nxt][1].wire)
                args.append(f"a{t}_{nxt}")
                i = nxt + 1
            else:
                i = nxt
            continue
        if k in ("string", "bytes"):
            g.p.value('Fastwire.fail!("truncated") if p + 4 > e')
            g.p.blank()
            g.p.value('n = buf.unpack1("V", offset: p)')
            g.p.value("p += 4")
            emit_fget_text(g, "n", a, w)
        elif k == "struct":
            fget_call_or_inline(g, f.type.value, dc, chain, a)
        elif struct_optional(w):
            g.p.value('Fastwire.fail!("truncated") if p >= e')
            g.p.blank()
            g.p.value("if buf.getbyte(p) == 0")
            g.p.value("  p += 1")
            g.p.value(f"  {a} = nil")
            g.p.value("else")
            g.p.indent()
            g.p.value("p += 1")
            fget_call_or_inline(g, f.type.value, dc, chain, a)
            g.p.outdent()
            g.p.value("end")
        elif struct_vector(w) and w.element is not None and w.element.final_min > 0:
            cnt, jv = f"n{t}_{i}", f"j{t}_{i}"
            g.p.value('Fastwire.fail!("truncated") if p + 4 > e')
            g.p.blank()
            g.p.value(f'{cnt} = buf.unpack1("V", offset: p)')
            g.p.value("p += 4")
            g.p.value(f'Fastwire.fail!("truncated") if {cnt} > (e - p) / {w.element.final_min}')
            g.p.blank()
            g.p.value(f"{a} = []")
            g.p.value(f"{jv} = 0")
            g.p.value(f"while {jv} < {cnt}")
            g.p.indent()
            fget_call_or_inline(g, f.type.value, dc, chain, f"y{t}_{i}")
            g.p.value(f"{a} << y{t}_{i}")
            g.p.value(f"{jv} += 1")
            g.p.outdent()
            g.p.value("end")
        else:
            g.p.value("r.pos = p")
            g.p.value(f"{a} = {g.qualify(s.package, field_const(s, f))}.fget(r, {dc})")
            g.p.value("p = r.pos")
        args.append(a)
        i += 1
    cls = g.qualify(s.package, class_name(s.name))
    g.p.value(f"{var} = {cls}.allocate._fw_set({', '.join(args)})" if args
             else f"{var} = {cls}.allocate._fw_set")


def emit_fget_text(g: Scope, n: str, var: str, w: lower.WireType) -> None:
    """A string's (or bytes') length n was read, p is at its bytes."""
    g.p.value(f'Fastwire.fail!("truncated") if {n} > e - p')
    g.p.blank()
    utf8 = ".force_encoding(Encoding::UTF_8)" if kind(w) == "string" else ""
    g.p.value(f"{var} = buf.byteslice(p, {n}){utf8}")
    g.p.value(f"p += {n}")


def emit_fok(g: Scope, s: ir.StructType, layout: lower.StructLayout, fields: list) -> None:
    """verify()'s fast walk of a final struct at p: the position after it, or nil when
    malformed (the checked walk, fcheck, then says why). Fixed-size runs are skipped
    by arithmetic; a bounds check stands before each read."""
    runs = {r.first: r for r in layout.final_runs}
    nested = any(kind(fl.wire) in ("struct", "other") for fl in layout.fields)
    g.p.blank()
    g.p.value("def fok(r, buf, p, e, d)")
    g.p.indent()
    g.p.value("return nil if d < 1")
    g.p.blank()
    if nested:
        g.p.value("d -= 1")
    acc = 0  # fixed bytes passed since p was last moved

    def at(extra: int) -> str:
        return f"p + {acc + extra}" if acc + extra else "p"

    i = 0
    while i < len(fields):
        f, fl = fields[i]
        w = fl.wire
        k = kind(w)
        if i in runs:
            run = runs[i]
            decs = [o for j, o in zip(run.indexes, run.offsets)
                    if kind(fields[j][1].wire) == "decimal"]
            if decs:
                g.p.value(f"return nil if {at(run.size)} > e")
                g.p.blank()
                for o in decs:
                    g.p.value(f"return nil if buf.getbyte({at(o + DECIMAL.scale_at)}) > {DECIMAL.max_scale}")
                    g.p.blank()
            acc += run.size
            i += run.count
            continue
        if k in ("string", "bytes"):
            g.p.value(f"return nil if {at(4)} > e")
            g.p.blank()
            g.p.value(f'p += {acc + 4} + buf.unpack1("V", offset: {at(0)})')
            acc = 0
        elif k == "struct":
            inner = plain_codec(g, f.type.value)
            g.p.value(f"return nil unless (p = {inner}.fok(r, buf, {at(0)}, e, d))")
            g.p.blank()
            acc = 0
        elif struct_optional(w):
            inner = plain_codec(g, f.type.value)
            g.p.value(f"return nil if {at(0)} >= e")
            g.p.blank()
            g.p.value(f"if buf.getbyte({at(0)}).zero?")
            g.p.value(f"  p += {acc + 1}")
            g.p.value(f"elsif !(p = {inner}.fok(r, buf, {at(1)}, e, d))")
            g.p.value("  return nil")
            g.p.value("end")
            acc = 0
        elif struct_vector(w) and w.element is not None and w.element.final_min > 0:
            inner = plain_codec(g, f.type.value)
            g.p.value(f"return nil if {at(4)} > e")
            g.p.blank()
            g.p.value(f'n = buf.unpack1("V", offset: {at(0)})')
            g.p.value(f"p += {acc + 4}")
            g.p.value(f"return nil if n > (e - p) / {w.element.final_min}")
            g.p.blank()
            g.p.value("while n.positive?")
            g.p.value(f"  return nil unless (p = {inner}.fok(r, buf, p, e, d))")
            g.p.blank()
            g.p.value("  n -= 1")
            g.p.value("end")
            acc = 0
        else:
            # the runtime's codec, on the Reader (it raises DecodeError when malformed)
            g.p.value(f"r.pos = {at(0)}")
            g.p.value(f"{field_const(s, f)}.fcheck(r, d)")
            g.p.value("p = r.pos")
            acc = 0
        i += 1
    g.p.value(f"{at(0)} <= e ? {at(0)} : nil" if acc else "p")
    g.p.outdent()
    g.p.value("end")
