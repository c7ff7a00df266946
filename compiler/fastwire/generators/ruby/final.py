"""The final format's fast paths: fput, fget and fok per struct (fcheck, the checked walk
verify falls back to, is the runtime's)."""

from __future__ import annotations

import re
from typing import List

from ... import ir, lower
from ...layouts import DECIMAL
from .names import Ref, Scope, attr_name, class_name, field_const
from .types import check, convert, directive, is_text, kind, nested, plain_codec, shape, wrong_class, wrong_field


def emit_final_paths(g: Scope, s: ir.StructType, layout: lower.StructLayout) -> None:
    cls, deep = class_name(s.name), nested(layout)
    fields = list(zip(s.all_fields, layout.fields))
    g.out("", "def fput(buf, v)", "  " + wrong_class(cls, "v", cls))
    g.p.indent()
    # values and strings: one pack; else one pack of every value (format built as it
    # goes), the structs it holds inlined, a field the runtime's codec writes flushing it
    flat = bool(fields) and not deep
    if not flat:
        g.out("vals = []", 'fmt = +""')
    g.start_walk(0 if flat else 1)
    g.fp_vals, g.fp_fmt = [], ""
    fput_fields(g, s, "v", [s.qualified_name], flat)
    if flat:
        g.out(f'[{", ".join(g.fp_vals)}].pack("{g.fp_fmt}", buffer: buf)')
    else:
        fput_flush(g, pack=True)
    g.p.outdent()
    g.out("end")
    emit_fget(g, s)
    emit_fok(g, s, layout)


def fput_flush(g: Scope, pack: bool = False) -> None:
    """The pending values and format pushed (then packed: a struct written by its codec,
    or the end of the write, follows)."""
    g.out(*([f"vals.push({', '.join(g.fp_vals)})"] if g.fp_vals else []),
          *([f'fmt << "{g.fp_fmt}"'] if g.fp_fmt else []))
    g.fp_vals, g.fp_fmt = [], ""
    if pack:  # (pack with an empty format would make buf US-ASCII)
        g.out("vals.pack(fmt, buffer: buf) unless fmt.empty?")


def fput_call(g: Scope, codec: str, value: str) -> None:
    fput_flush(g, pack=True)
    g.out("vals.clear", "fmt.clear", f"{codec}.fput(buf, {value})")


def fput_struct(g: Scope, ref: ir.TypeRef, var: str, chain: List[str]) -> None:
    """The struct in `var` (checked), inlined, or through its codec."""
    t = g.inlinable(ref, chain)
    if t is None:
        return fput_call(g, plain_codec(g, ref), var)
    g.out(wrong_class(t.name, var, g.type_name(t)), "")
    fput_fields(g, t, var, chain + [t.qualified_name])


def fput_fields(g: Scope, s: ir.StructType, var: str, chain: List[str], flat: bool = False) -> None:
    layout = g.model.struct(s.qualified_name)
    for f, fl in zip(s.all_fields, layout.fields):
        t = g.tags
        g.tags += 1
        w, a, where = fl.wire, attr_name(f.name), f"{s.name}.{f.name}"
        k, sh = kind(w), shape(w)
        if is_text(w):
            g.out(f"s{t} = {var}.{a}", wrong_field(where, "string" if flat else k, f"s{t}"), "")
            g.fp_vals += [f"s{t}.bytesize", f"s{t}"]
            g.fp_fmt += "Va*"
        elif k == "struct":
            g.out(f"y{t} = {var}.{a}")
            fput_struct(g, f.type.value, f"y{t}", chain)
        elif sh == "opt_struct":
            g.out(f"y{t} = {var}.{a}")
            fput_flush(g)
            g.out(f"if y{t}.nil?", "  vals << 0", '  fmt << "C"', "else")
            with g.block():
                g.fp_vals, g.fp_fmt = ["1"], "C"
                fput_struct(g, f.type.value, f"y{t}", chain)
                fput_flush(g)
        elif sh == "vec_struct":
            g.out(f"y{t} = {var}.{a}", wrong_field(where, "Array", f"y{t}", "Array"), "")
            g.fp_vals.append(f"y{t}.size")
            g.fp_fmt += "V"
            fput_flush(g)
            with g.block(f"j{t} = 0", f"while j{t} < y{t}.size"):
                g.out(f"z{t} = y{t}[j{t}]")
                fput_struct(g, f.type.value, f"z{t}", chain)
                fput_flush(g)
                g.out(f"j{t} += 1")
        elif k == "other":
            fput_call(g, field_const(s, f), f"{var}.{a}")
        else:
            g.out(f"x{t} = {var}.{a}", check(f"x{t}", w, where))
            g.fp_vals.append(f"x{t}")
            g.fp_fmt += directive(w)


def emit_fget(g: Scope, s: ir.StructType) -> None:
    """The final read: the position in a local, each fixed run read with the length of
    the string after it (one unpack), the structs it holds inlined (up to a few
    levels), r.pos written back once."""
    g.out("", "def fget(r, d)")
    g.p.indent()
    start = len(g.p.lines)
    g.out("p = r.pos")
    g.start_walk(0)
    fget_struct(g, s, "d", [], "value")
    body = "\n".join(g.p.lines[start:])
    head = (["buf = r.buf"] if re.search(r"\bbuf\b", body) else []) + \
        (["e = r.end_"] if re.search(r"\be\b", body) else [])
    g.p.lines[start:start] = [g.p.unit * g.p.level + line for line in head]
    g.out("r.pos = p", "value")
    g.p.outdent()
    g.out("end")


def fget_struct(g: Scope, ref: Ref, d: str, chain: List[str], var: str) -> None:
    """The struct read into `var`: inlined (the walk's own, or one it may inline), else
    through its codec."""
    s = g.inlinable(ref, chain)
    if s is None:
        g.out("r.pos = p", f"{var} = {plain_codec(g, ref)}.fget(r, {d})", "p = r.pos")
        return
    chain = chain + [s.qualified_name]
    layout = g.model.struct(s.qualified_name)
    fields = list(zip(s.all_fields, layout.fields))
    t = g.tag()
    dc = f"d{t}_"
    g.out(f"Fastwire.too_deep! if {d} < 1", "", *([f"{dc} = {d} - 1"] if nested(layout) else []))
    args: List[str] = []
    steps = layout.plan.final.steps
    for n, step in enumerate(steps):
        i = step.fields[0].index
        f, fl = fields[i]
        w, k, a = fl.wire, kind(fl.wire), f"a{t}_{i}"
        if n and is_text(w) and steps[n - 1].op == "values":
            continue  # read with the run before it
        if step.op == "values":
            fmt = "".join(directive(x.wire, True) for x in step.fields)
            nxt = steps[n + 1].field if n + 1 < len(steps) else None
            text = nxt is not None and is_text(nxt.wire)
            size = (step.size or 0) + 4 * text
            g.out(f'Fastwire.fail!("truncated") if p + {size} > e', "")
            if len(step.fields) == 1 and not text:
                g.out(f'{a} = buf.unpack1("{fmt}", offset: p)')
                args.append(convert(a, w))
            else:
                g.out(f'{a} = buf.unpack("{fmt}{"V" * text}", offset: p)')
                args += [convert(f"{a}[{j}]", x.wire) for j, x in enumerate(step.fields)]
            g.out(f"p += {size}")
            if nxt is not None and text:
                fget_text(g, f"{a}[{len(step.fields)}]", f"a{t}_{nxt.index}", nxt.wire)
                args.append(f"a{t}_{nxt.index}")
            continue
        sh = shape(w)
        if is_text(w):
            g.out('Fastwire.fail!("truncated") if p + 4 > e', "", 'n = buf.unpack1("V", offset: p)',
                  "p += 4")
            fget_text(g, "n", a, w)
        elif k == "struct":
            fget_struct(g, f.type.value, dc, chain, a)
        elif sh == "opt_struct":
            g.out('Fastwire.fail!("truncated") if p >= e', "", "if buf.getbyte(p) == 0", "  p += 1",
                  f"  {a} = nil", "else")
            with g.block("  p += 1"):
                fget_struct(g, f.type.value, dc, chain, a)
        elif sh == "vec_struct" and w.element is not None and w.element.final_min > 0:
            cnt, jv = f"n{t}_{i}", f"j{t}_{i}"
            g.out('Fastwire.fail!("truncated") if p + 4 > e', "", f'{cnt} = buf.unpack1("V", offset: p)',
                  "p += 4", f'Fastwire.fail!("truncated") if {cnt} > (e - p) / {w.element.final_min}',
                  "", f"{a} = []", f"{jv} = 0")
            with g.block(f"while {jv} < {cnt}"):
                fget_struct(g, f.type.value, dc, chain, f"y{t}_{i}")
                g.out(f"{a} << y{t}_{i}", f"{jv} += 1")
        else:
            g.out("r.pos = p", f"{a} = {field_const(s, f)}.fget(r, {dc})",
                  "p = r.pos")
        args.append(a)
    cls = g.type_name(s)
    g.out(f"{var} = {cls}.allocate._fw_set" + (f"({', '.join(args)})" if args else ""))


def fget_text(g: Scope, n: str, var: str, w: lower.WireType) -> None:
    """A string's (or bytes') length n was read, p is at its bytes."""
    utf8 = ".force_encoding(Encoding::UTF_8)" if kind(w) == "string" else ""
    g.out(f'Fastwire.fail!("truncated") if {n} > e - p', "", f"{var} = buf.byteslice(p, {n}){utf8}",
          f"p += {n}")


def emit_fok(g: Scope, s: ir.StructType, layout: lower.StructLayout) -> None:
    """verify()'s fast walk of a final struct at p: the position after it, or nil when
    malformed (the checked walk, fcheck, then says why). Fixed-size runs are skipped
    by arithmetic; a bounds check stands before each read."""
    g.out("", "def fok(r, buf, p, e, d)", "  return nil if d < 1", "",
          *(["  d -= 1"] if nested(layout) else []))
    g.p.indent()
    acc = 0  # fixed bytes passed since p was last moved

    def at(extra: int) -> str:
        return f"p + {acc + extra}" if acc + extra else "p"

    for step in layout.plan.final.steps:
        if step.op == "values":
            decimals = [x.at for x in step.fields if x.helper == "decimal"]
            if decimals:
                g.out(f"return nil if {at(step.size or 0)} > e", "")
            for o in decimals:
                g.out(f"return nil if buf.getbyte({at((o or 0) + DECIMAL.scale_at)}) > {DECIMAL.max_scale}", "")
            acc += step.size or 0
            continue
        f, w = s.all_fields[step.field.index], step.field.wire
        k, sh, inner = kind(w), shape(w), plain_codec(g, f.type.value)
        if is_text(w):
            g.out(f"return nil if {at(4)} > e", f'p += {acc + 4} + buf.unpack1("V", offset: {at(0)})')
        elif k == "struct":
            g.out(f"return nil unless (p = {inner}.fok(r, buf, {at(0)}, e, d))", "")
        elif sh == "opt_struct":
            g.out(f"return nil if {at(0)} >= e", f"if buf.getbyte({at(0)}).zero?", f"  p += {acc + 1}",
                  f"elsif !(p = {inner}.fok(r, buf, {at(1)}, e, d))", "  return nil", "end")
        elif sh == "vec_struct" and w.element is not None and w.element.final_min > 0:
            g.out(f"return nil if {at(4)} > e", f'n = buf.unpack1("V", offset: {at(0)})',
                  f"p += {acc + 4}", f"return nil if n > (e - p) / {w.element.final_min}",
                  "while n.positive?", f"  return nil unless (p = {inner}.fok(r, buf, p, e, d))",
                  "  n -= 1", "end")
        else:
            # the runtime's codec, on the Reader (it raises DecodeError when malformed)
            g.out(f"r.pos = {at(0)}", f"{field_const(s, f)}.fcheck(r, d)", "p = r.pos")
        acc = 0
    g.out(f"{at(0)} <= e ? {at(0)} : nil" if acc else "p")
    g.p.outdent()
    g.out("end")
