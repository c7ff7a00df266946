"""The versioned format's fast paths: straight-line vput, vget and vok per struct, set on
its codec object (the runtime's table-driven walk stays the slow path: older versions,
errors, vverify; its vroot reads the header and calls vok)."""

from __future__ import annotations

from typing import List, Optional

from ... import ir, lower
from ...layouts import DECIMAL
from .final import emit_final_paths
from .names import Ref, Scope, attr_name, class_name, field_const
from .types import (
    check,
    convert,
    count_directives,
    directive,
    is_text,
    kind,
    nested,
    plain_codec,
    shape,
    wrong_class,
    wrong_field,
)


def flat_inline(g: Scope, ref: ir.TypeRef) -> Optional[ir.StructType]:
    """The struct of this package a write inlines, if `ref` is one of values and strings
    only (its blocks follow its body in order)."""
    t = g.inlinable(ref, [])
    return t if t is not None and not nested(g.model.struct(t.qualified_name)) else None


def flat_parts(g: Scope, s: ir.StructType, var: str, sfx: str, name: str = "") -> tuple:
    """Lines that check the flat struct in `var` and read its fields, then its values in
    pack order (header, slots, blocks), their format and its size (an expression)."""
    layout = g.model.struct(s.qualified_name)
    lines = [wrong_class(name or s.name, var, g.type_name(s))]
    vals, tail = [str(layout.body_size), str(s.type_number)], []
    fmt, at = "VV", str(layout.body_size)
    for n, (f, fl) in enumerate(zip(s.all_fields, layout.fields)):
        a, where = attr_name(f.name), f"{s.name}.{f.name}"
        fmt += directive(fl.wire)
        if is_text(fl.wire):
            sv, nv = f"s{sfx}{n}", f"n{sfx}{n}"
            lines += [f"{sv} = {var}.{a}", wrong_field(where, kind(fl.wire), sv), f"{nv} = {sv}.bytesize"]
            vals.append(at)
            at = f"{at} + 4 + {nv}"
            tail += [nv, sv]
        else:
            lines += [f"x{sfx}{n} = {var}.{a}", check(f"x{sfx}{n}", fl.wire, where)]
            vals.append(f"x{sfx}{n}")
    return lines, vals + tail, fmt + "Va*" * (len(tail) // 2), at


def by_root(g: Scope, root: List[str], plain: List[str]) -> None:
    g.out("if root", *("  " + x for x in root), "  8", "else", *("  " + x for x in plain),
          "  pos - base", "end")


def emit_fast_paths(g: Scope, s: ir.StructType) -> None:
    layout = g.model.struct(s.qualified_name)
    cls, body, tn = class_name(s.name), layout.body_size, s.type_number
    g.out("", f"# {cls}: straight-line paths ({body}-byte body, type {tn}).")
    with g.block(f"class << S_{s.name}"):
        with g.block("def vput(buf, base, v, root = false)"):  # root: the model's [size][8] header too
            if nested(layout):
                emit_vput(g, s, layout)
            else:  # blocks follow the body in field order: body and blocks in one pack
                lines, vals, fmt, at = flat_parts(g, s, "v", "", cls)
                g.out(*lines, "pos = buf.bytesize")
                by_root(g, [f'[{at} + 8, 8, {", ".join(vals)}].pack("VV{fmt}", buffer: buf)'],
                        [f'[{", ".join(vals)}].pack("{fmt}", buffer: buf)'])
        emit_vget(g, s, layout)
        emit_vok(g, s)
        if g.options.final:
            emit_final_paths(g, s, layout)


def emit_vput(g: Scope, s: ir.StructType, layout: lower.StructLayout) -> None:
    """A struct holding structs: the body's values collected in `vals`, the blocks
    appended as they come; strings and flat structs by one pack (pend), their offsets
    from the sizes of what comes before them in it."""
    body, tn, cls = layout.body_size, s.type_number, class_name(s.name)
    vfmt = "VV" + "".join(directive(fl.wire) for fl in layout.fields)
    g.out(wrong_class(cls, "v", cls), "if root", "  buf << @zero_root",
          f"  pos = buf.bytesize - {body}", f"  vals = [0, 8, {body}, {tn}]", "else",
          "  pos = buf.bytesize", "  buf << @zero", f"  vals = [{body}, {tn}]", "end")
    pend: List[str] = []
    fmts: List[str] = []
    sizes: List[str] = []
    for n, (f, fl) in enumerate(zip(s.all_fields, layout.fields)):
        a, k, sh, where = attr_name(f.name), kind(fl.wire), shape(fl.wire), f"{s.name}.{f.name}"
        t = flat_inline(g, f.type.value) if sh in ("struct", "opt_struct", "vec_struct") else None
        if sh in ("opt_struct", "vec_struct") and t is None:
            k = sh = "other"  # the runtime's codec writes it
        if is_text(fl.wire) or (t and sh == "struct"):
            if t:
                lines, vals, fmt, size = flat_parts(g, t, f"y{n}", f"_{n}_")
                lines = [f"y{n} = v.{a}", *lines]
                size = f"({size})" if "+" in size else size
            else:
                lines = [f"s{n} = v.{a}", wrong_field(where, k, f"s{n}"), f"n{n} = s{n}.bytesize"]
                vals, fmt, size = [f"n{n}", f"s{n}"], "Va*", f"4 + n{n}"
            g.out(*lines, f"vals << ({' + '.join(['buf.bytesize - pos'] + sizes)})")
            pend += vals
            fmts.append(fmt)
            sizes.append(size)
            continue
        if k in ("struct", "other") and pend:
            g.out(f'[{", ".join(pend)}].pack("{"".join(fmts)}", buffer: buf)')
            del pend[:], fmts[:], sizes[:]
        if k == "struct":
            g.out(f"vals << {plain_codec(g, f.type.value)}.vput(buf, pos, v.{a})")
        elif t and sh == "opt_struct":
            # T? of a flat struct: its block is the struct's offset (4: the body follows),
            # then the struct, in one pack
            g.out(f"x = v.{a}", "if x.nil?", "  vals << 0 << 0", "else")
            lines, vals, fmt, _ = flat_parts(g, t, "x", f"_{n}_")
            g.out(*("  " + x for x in lines), "  vals << 1 << (buf.bytesize - pos)",
                  f'  [4, {", ".join(vals)}].pack("V{fmt}", buffer: buf)', "end")
        elif t and sh == "vec_struct":
            # T[] / T() of a flat struct: count, offsets and every element (body, then
            # its blocks) in one pack
            g.out(f"x = v.{a}", wrong_field(where, "Array", "x", "Array"), "at = buf.bytesize",
                  "vals << (at - pos)", "n = x.size", "if n.zero?", '  buf << "\\0\\0\\0\\0"', "else")
            lines, vals, _, size = flat_parts(g, t, "y", "_")
            g.out("  o = at + 4 + (4 * n) - pos", "  head = [n]", "  items = []", "  j = 0",
                  "  while j < n", "    y = x[j]", *("    " + x for x in lines), "    head << o",
                  f"    items.push({', '.join(vals)})", f"    o += {size}", "    j += 1", "  end",
                  f"  head.concat(items).pack(VF_{s.name}_{f.name}[n], buffer: buf)", "end")
        elif k == "other":
            g.out(f"{field_const(s, f)}.vwrite(vals, buf, pos, v.{a})")
        else:
            g.out(f"x = v.{a}", check("x", fl.wire, where), "vals << x")
    if pend:
        g.out(f'[{", ".join(pend)}].pack("{"".join(fmts)}", buffer: buf)')
    by_root(g, ["vals[0] = buf.bytesize - pos + 8", f'buf[pos - 8, {body + 8}] = vals.pack("VV{vfmt}")'],
            [f'buf[pos, {body}] = vals.pack("{vfmt}")'])


# shape (types.shape) -> a slot's read in vget
VGET = {
    "string": "Fastwire.vget_str(r, pos, raw[{ri}], {slot_end})",
    "bytes": "Fastwire.vget_bytes(r, pos, raw[{ri}], {slot_end})",
    "struct": "{inner}.vget(r, pos, raw[{ri}], {slot_end}, d)",
    "opt_struct": "(raw[{ri}].zero? ? nil : Fastwire.vget_opt_struct(r, pos, raw[{ri1}], {slot_end}, {inner}, d))",
    "vec_struct": "Fastwire.vget_structs(r, pos, raw[{ri}], {slot_end}, {inner}, d)",
    "array": "{c}.vget_slot(r, pos + {off}, pos, d)",
    "other": "{c}.vread(r, raw, {ri}, pos + {off}, pos, d)",
}
# the slots vok reads (a decimal: its scale byte)
VOK_READS = {"string", "bytes", "struct", "opt_struct", "vec_struct", "decimal"}
LOCALS = {"V": "o", "CV": "fo", "C": "c"}  # vok's locals of what it reads: offset, flag


def slot_reads(layout: lower.StructLayout, shapes: set) -> tuple:
    """An unpack format of the slots of these shapes after the 8-byte header, the fields
    it reads with their directives, and where it ends."""
    fmt, at, read = "", 8, []
    for n, fl in enumerate(layout.fields):
        sh = shape(fl.wire)
        if sh in shapes:
            part = "C" if sh == "decimal" else directive(fl.wire)
            want = fl.offset + (DECIMAL.scale_at if sh == "decimal" else 0)
            fmt += (f"x{want - at}" if want > at else "") + part
            at = want + (1 if sh == "decimal" else fl.wire.slot)
            read.append((n, part))
    return fmt, read, at


def emit_vget(g: Scope, s: ir.StructType, layout: lower.StructLayout) -> None:
    """vget: the body's slots in one unpack when it is this version (the runtime's
    table walk, `super`, reads older versions and says what is wrong). A struct of
    values and strings reads its first string's length with the body (after the body,
    where writers put the block)."""
    cls, body, tn, deep = class_name(s.name), layout.body_size, s.type_number, nested(layout)
    fmt = "Q<" + "".join(directive(fl.wire, True) for fl in layout.fields)  # size, type: a u64
    index, i = [], 1
    for fl in layout.fields:
        index.append(i)
        i += count_directives(directive(fl.wire))
    first = None if deep else next((n for n, fl in enumerate(layout.fields) if is_text(fl.wire)), None)
    text = first is not None
    g.out("", "def vget(r, base, off, slot_end, d)", "  pos = base + off",
          f"  if off != 0 && pos >= slot_end && pos <= r.end_ - {body + 4 * text} && d > 0",
          f'    raw = r.buf.unpack("{fmt + "V" * text}", offset: pos)')
    g.p.indent()
    g.p.indent()
    g.out(f"stored = (st = raw[0]) == {body | tn << 32} ? {body} : ((st >> 32) == {tn} ? st & 0xFFFFFFFF : 0)",
          f"if stored >= {body} && stored <= r.end_ - pos && (budget = r.budget - stored) >= 0",
          "  r.budget = budget", *(["  d -= 1"] if deep else []))
    if first is not None:
        fl, ri = layout.fields[first], index[first]
        utf8, reader = ((".force_encoding(Encoding::UTF_8)", "vget_str") if kind(fl.wire) == "string"
                        else ("", "vget_bytes"))
        g.out(f"  if raw[{ri}] == {body} && (n = raw[{count_directives(fmt)}]) <= r.end_ - pos - "
              f"{body + 4} && (budget = r.budget - 4 - n) >= 0", "    r.budget = budget",
              f"    s{first} = r.buf.byteslice(pos + {body + 4}, n){utf8}", "  else",
              f"    s{first} = Fastwire.{reader}(r, pos, raw[{ri}], pos + {fl.offset + 4})", "  end")
    args = []
    for n, (f, fl, ri) in enumerate(zip(s.all_fields, layout.fields, index)):
        form = VGET.get(shape(fl.wire))
        if n == first:
            args.append(f"s{first}")
        elif form is not None:
            args.append(form.format(ri=ri, ri1=ri + 1, slot_end=f"pos + {fl.offset + fl.wire.slot}",
                                    inner=plain_codec(g, f.type.value), c=field_const(s, f), off=fl.offset))
        else:
            args.append(convert(f"raw[{ri}]", fl.wire))
    if args:
        g.out(f"  return {cls}.allocate._fw_set(", *(f"    {x}," for x in args[:-1]), f"    {args[-1]}", "  )")
    else:
        g.out(f"  return {cls}.allocate._fw_set")
    g.out("end")
    g.p.outdent()
    g.out("end", "super # an older version, or an error: the checked walk says which")
    g.p.outdent()
    g.out("end")


def emit_vok(g: Scope, s: ir.StructType) -> None:
    """verify()'s fast walk of a versioned body: locals instead of the Reader, one
    unpack for every slot it checks (and the length of the first string, where writers
    put its block), the structs it holds inlined (up to a few levels, recursion through
    a call). Returns the budget left, or nil when it cannot decide (an older or unusual
    layout, or an error): the runtime's checked walk (vverify) then says which."""
    g.out("", "def vok(buf, e, b, base, off, slot_end, d)")
    g.p.indent()
    g.start_walk(0)
    vok_struct(g, s, "base", "off", "slot_end", "d", [])
    g.p.outdent()
    g.out("  b", "end")


def vok_struct(g: Scope, ref: Ref, base: str, off: str, slot_end: str, d: str, chain: List[str],
               d_checked: bool = False) -> None:
    """The struct at `off` from `base` checked: inlined (the walk's own, or one it may
    inline), else by its codec's vok."""
    s = g.inlinable(ref, chain)
    if s is None:
        g.out(f"return nil unless (b = {plain_codec(g, ref)}.vok(buf, e, b, {base}, {off}, "
              f"{slot_end}, {d}))", "")
        return
    chain = chain + [s.qualified_name]
    layout = g.model.struct(s.qualified_name)
    t = g.tag()
    body, tn = layout.body_size, s.type_number
    # size and type as one u64 (one value fewer to unpack): st == size | type << 32 for
    # a body of this version; else split
    fmt, read, at = slot_reads(layout, VOK_READS)
    fmt, names = "Q<" + fmt, [f"st{t}"] + [f"{v}{t}_{n}" for n, part in read for v in LOCALS[part]]
    first_text = next((n for n, _ in read if is_text(layout.fields[n].wire)), None)
    need = body
    if first_text is not None:
        fmt += (f"x{body - at}" if body > at else "") + "V"
        names.append(f"ns{t}")
        need = body + 4
    pos = f"pos{t}"
    if not off.isidentifier():
        g.out(f"off{t} = {off}")
        off = f"off{t}"
    # off 0 fails pos >= slot_end: every slot ends after its base
    g.out(f"{pos} = {base} + {off}", f"return nil unless {pos} >= {slot_end} && {pos} <= e - {need}"
          + ("" if d_checked else f" && {d} > 0"),
          f'{names[0]} = buf.unpack1("{fmt}", offset: {pos})' if len(names) == 1 else
          f'{", ".join(names)} = buf.unpack("{fmt}", offset: {pos})')
    g.out(f"stored{t} = st{t} == {body | tn << 32} ? {body} : "
          f"((st{t} >> 32) == {tn} ? st{t} & 0xFFFFFFFF : 0)",
          f"return nil unless stored{t} >= {body} && stored{t} <= e - {pos} && (b -= stored{t}) >= 0",
          "")
    dc = f"d{t}_"
    if nested(layout):
        g.out(f"{dc} = {d} - 1")
    for n, (f, fl) in enumerate(zip(s.all_fields, layout.fields)):
        k, o, ref = shape(fl.wire), f"o{t}_{n}", f.type.value
        q, slot_end = f"q{t}_{n}", f"{pos} + {fl.offset + fl.wire.slot}"
        if is_text(fl.wire):
            if n == first_text:
                g.out(f"if {o} == {body}",
                      f"  return nil if ns{t} > e - {pos} - {body + 4} || (b -= 4 + ns{t}) < 0",
                      f"elsif {o} != 0")
            else:
                g.out(f"if {o} != 0")
            g.out(f"  p = {pos} + {o}", f'  return nil unless p >= {slot_end} && p <= e - 4 && '
                  f'(n = buf.unpack1("V", offset: p)) <= e - p - 4 && (b -= 4 + n) >= 0', "end")
        elif k == "struct":
            vok_struct(g, ref, pos, o, slot_end, dc, chain)
        elif k == "opt_struct":
            with g.block(f"if f{t}_{n} != 0"):
                g.out(f"{q} = {pos} + {o}",
                      f"return nil unless {q} >= {slot_end} && {q} <= e - 4 && (b -= 4) >= 0")
                vok_struct(g, ref, q, f'buf.unpack1("V", offset: {q})', f"{q} + 4", dc, chain)
        elif k == "vec_struct":
            cnt, offs, j = f"n{t}_{n}", f"offs{t}_{n}", f"j{t}_{n}"
            with g.block(f"if {o} != 0"):
                g.out(f"{q} = {pos} + {o}", f'return nil unless {q} >= {slot_end} && {q} <= e - 4 && '
                      f'({cnt} = buf.unpack1("V", offset: {q})) <= (e - {q} - 4) / 4 && '
                      f"(b -= 4 + (4 * {cnt})) >= 0")
                with g.block(f"if {cnt} > 0", f"  return nil if {dc} < 1",
                             f'  {offs} = buf.unpack("V#{{{cnt}}}", offset: {q} + 4)', f"  {j} = 0"):
                    with g.block(f"while {j} < {cnt}"):
                        vok_struct(g, ref, pos, f"{offs}[{j}]", f"{q} + 8 + (4 * {j})", dc,
                                           chain, d_checked=True)
                        g.out(f"{j} += 1")
        elif k == "decimal":
            g.out(f"return nil if c{t}_{n} > {DECIMAL.max_scale}", "")
        elif k in ("array", "other"):
            # the runtime's codec, on a Reader (it raises DecodeError when malformed)
            g.out("rd = Fastwire::Reader.new(buf, b, 0)",
                  f"{field_const(s, f)}.vcheck_slot(rd, {pos} + {fl.offset}, "
                  f"{pos}, {dc})", "b = rd.budget")

