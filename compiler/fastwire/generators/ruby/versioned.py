"""The versioned format's fast paths: straight-line vput, vget, vverify, vok and vroot per
struct, set on its codec object (the runtime's table-driven walk stays the slow path:
older versions, errors)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional

from ... import ir, lower
from ...layouts import DECIMAL, OFFSET, OPTIONAL
from .final import emit_final_paths
from .names import Scope, attr_name, class_name, field_const
from .types import (
    check,
    convert,
    directive,
    is_text,
    kind,
    plain_codec,
    read_directive,
    shape,
    split_directives,
    struct_optional,
    struct_vector,
    wrong_class,
    wrong_field,
)


def emit_fast_paths(g: Scope, s: ir.StructType) -> None:
    layout = g.model.struct(s.qualified_name)
    fields = list(zip(s.all_fields, layout.fields))
    cls = class_name(s.name)
    codec = f"S_{s.name}"
    body, tn = layout.body_size, s.type_number
    vfmt = "VV" + "".join(directive(fl.wire) for fl in layout.fields)
    # read: size and type as one u64 (see vok_struct)
    gfmt = "Q<" + "".join(read_directive(fl.wire) for fl in layout.fields)
    raw_index = []
    i = 1
    for fl in layout.fields:
        raw_index.append(i)
        i += len(split_directives(directive(fl.wire)))
    g.p.blank()
    g.p.value(f"# {cls}: straight-line paths ({body}-byte body, type {tn}).")
    g.p.value(f"class << {codec}")
    g.p.indent()
    # -- versioned write (root: the model's [size][8] header written with the body)
    g.p.value("def vput(buf, base, v, root = false)")
    g.p.indent()
    g.p.value(wrong_class(cls, "v", cls))
    g.p.blank()
    if all(kind(fl.wire) not in ("struct", "other") for fl in layout.fields):
        emit_flat_vput(g, s, layout, fields)
        return emit_fast_reads(g, s, layout, fields, vfmt, gfmt, raw_index)
    g.p.value("if root")
    g.p.value(f"  buf << Z_{s.name}_ROOT")
    g.p.value("  pos = buf.bytesize - " + str(body))
    g.p.value(f"  vals = [0, 8, {body}, {tn}]")
    g.p.value("else")
    g.p.value("  pos = buf.bytesize")
    g.p.value(f"  buf << Z_{s.name}")
    g.p.value(f"  vals = [{body}, {tn}]")
    g.p.value("end")
    # Strings and flat structs are appended by one pack (pend), their offsets from the
    # sizes of what comes before them in it.
    pend: List[str] = []
    pend_fmt = ""
    pend_size: List[str] = []

    def here() -> str:
        return " + ".join(["buf.bytesize - pos"] + pend_size)

    def flush() -> None:
        nonlocal pend_fmt
        if pend:
            g.p.value(f'[{", ".join(pend)}].pack("{pend_fmt}", buffer: buf)')
        pend.clear()
        pend_size.clear()
        pend_fmt = ""

    for n, (f, fl) in enumerate(fields):
        a = attr_name(f.name)
        k = kind(fl.wire)
        inline = g.inlinable(f.type.value, []) if k == "struct" else None
        if k in ("string", "bytes"):
            g.p.value(f"s{n} = v.{a}")
            g.p.value(wrong_field(f"{s.name}.{f.name}", k, f"s{n}", "String"))
            g.p.blank()
            g.p.value(f"n{n} = s{n}.bytesize")
            g.p.value(f"vals << ({here()})")
            pend += [f"n{n}", f"s{n}"]
            pend_fmt += "Va*"
            pend_size.append(f"4 + n{n}")
            continue
        if inline is not None and flat(g, inline):
            icls = g.qualify(inline.package, class_name(inline.name))
            g.p.value(f"y{n} = v.{a}")
            g.p.value(wrong_class(inline.name, f"y{n}", icls))
            g.p.blank()
            lines, ivals, ifmt, isize = flat_parts(g, inline, f"y{n}", f"_{n}_")
            for line in lines:
                g.p.value(line)
            g.p.value(f"vals << ({here()})")
            pend += ivals
            pend_fmt += ifmt
            pend_size.append(f"({isize})" if "+" in isize else isize)
            continue
        if k in ("struct", "other"):
            flush()
        if k == "struct":
            g.p.value(f"vals << {plain_codec(g, f.type.value)}.vput(buf, pos, v.{a})")
        elif k == "other" and struct_optional(fl.wire) and \
                (opt := g.inlinable(f.type.value, [])) is not None and flat(g, opt):
            # T? of a flat struct: its block is the struct's offset (4: the body
            # follows), then the struct: one pack
            icls = g.qualify(opt.package, class_name(opt.name))
            g.p.value(f"x = v.{a}")
            g.p.value("if x.nil?")
            g.p.value("  vals << 0 << 0")
            g.p.value("else")
            g.p.indent()
            g.p.value(wrong_class(opt.name, "x", icls))
            g.p.blank()
            lines, ivals, ifmt, _ = flat_parts(g, opt, "x", f"_{n}_")
            for line in lines:
                g.p.value(line)
            g.p.value("vals << 1 << (buf.bytesize - pos)")
            g.p.value(f'[4, {", ".join(ivals)}].pack("V{ifmt}", buffer: buf)')
            g.p.outdent()
            g.p.value("end")
        elif k == "other" and struct_optional(fl.wire):
            # T? of a struct: its block is the struct's offset (4: the body follows)
            inner = plain_codec(g, f.type.value)
            g.p.value(f"x = v.{a}")
            g.p.value("if x.nil?")
            g.p.value("  vals << 0 << 0")
            g.p.value("else")
            g.p.value("  at = buf.bytesize")
            g.p.value('  buf << "\\x04\\0\\0\\0"')
            g.p.value(f"  {inner}.vput(buf, at, x)")
            g.p.value("  vals << 1 << (at - pos)")
            g.p.value("end")
        elif k == "other" and struct_vector(fl.wire):
            # T[] / T() of a struct: [count][offsets], then the bodies
            inner = plain_codec(g, f.type.value)
            g.p.value(f"x = v.{a}")
            g.p.value(wrong_field(f"{s.name}.{f.name}", "Array", "x", "Array"))
            g.p.blank()
            g.p.value("at = buf.bytesize")
            g.p.value("vals << (at - pos)")
            g.p.value("n = x.size")
            elem = g.inlinable(f.type.value, [])
            if elem is not None and flat(g, elem):
                # flat elements: count, offsets and every element (body, then its
                # blocks) in one pack, the offsets from the sizes
                emit_flat_vector_vput(g, elem, f"VF_{s.name}_{f.name}")
                continue
            g.p.value("if n.zero?")
            g.p.value('  buf << "\\0\\0\\0\\0"')
            g.p.value("else")
            g.p.indent()
            g.p.value('buf << ("\\0" * (4 + (4 * n)))')
            g.p.value("offs = [n]")
            g.p.value("j = 0")
            g.p.value("while j < n")
            g.p.value(f"  offs << {inner}.vput(buf, pos, x[j])")
            g.p.value("  j += 1")
            g.p.value("end")
            g.p.value('buf[at, 4 + (4 * n)] = offs.pack("V*")')
            g.p.outdent()
            g.p.value("end")
        elif k == "other":
            g.p.value(f"{field_const(s, f)}.vwrite(vals, buf, pos, v.{a})")
        else:
            g.p.value(f"x = v.{a}")
            for line in check(g, "x", fl.wire, f"{s.name}.{f.name}"):
                g.p.value(line)
            g.p.value("vals << x")
    flush()
    g.p.value("if root")
    g.p.value("  vals[0] = buf.bytesize - pos + 8")
    g.p.value(f'  buf[pos - 8, {body + 8}] = vals.pack("VV{vfmt}")')
    g.p.value("  8")
    g.p.value("else")
    g.p.value(f'  buf[pos, {body}] = vals.pack("{vfmt}")')
    g.p.value("  pos - base")
    g.p.value("end")
    g.p.outdent()
    g.p.value("end")
    emit_fast_reads(g, s, layout, fields, vfmt, gfmt, raw_index)


def flat(g: Scope, s: ir.StructType) -> bool:
    """A struct of values and strings only (its blocks follow its body in order)."""
    layout = g.model.struct(s.qualified_name)
    return all(kind(fl.wire) not in ("struct", "other") for fl in layout.fields)


def flat_parts(g: Scope, s: ir.StructType, var: str, sfx: str) -> tuple:
    """Lines that read and check a flat struct's fields from `var`, then its values in
    pack order (header, slots, blocks), their format and its size (an expression)."""
    layout = g.model.struct(s.qualified_name)
    body, tn = layout.body_size, s.type_number
    lines: List[str] = []
    vals = [str(body), str(tn)]
    tail: List[str] = []
    fmt = "VV"
    at = str(body)
    for n, (f, fl) in enumerate(zip(s.all_fields, layout.fields)):
        a = attr_name(f.name)
        k = kind(fl.wire)
        fmt += directive(fl.wire)
        if k in ("string", "bytes"):
            sv, nv = f"s{sfx}{n}", f"n{sfx}{n}"
            lines.append(f"{sv} = {var}.{a}")
            lines.append(wrong_field(f"{s.name}.{f.name}", k, sv, "String"))
            lines.append(f"{nv} = {sv}.bytesize")
            vals.append(at)
            at = f"{at} + 4 + {nv}"
            tail += [nv, sv]
        else:
            xv = f"x{sfx}{n}"
            lines.append(f"{xv} = {var}.{a}")
            lines += check(g, xv, fl.wire, f"{s.name}.{f.name}")
            vals.append(xv)
    fmt += "Va*" * (len(tail) // 2)
    return lines, vals + tail, fmt, at


def emit_flat_vector_vput(g: Scope, e: ir.StructType, formats: str) -> None:
    cls = g.qualify(e.package, class_name(e.name))
    lines, vals, fmt, size = flat_parts(g, e, "y", "_")
    g.p.value("if n.zero?")
    g.p.value('  buf << "\\0\\0\\0\\0"')
    g.p.value("else")
    g.p.indent()
    g.p.value("o = at + 4 + (4 * n) - pos")
    g.p.value("head = [n]")
    g.p.value("items = []")
    g.p.value("j = 0")
    g.p.value("while j < n")
    g.p.indent()
    g.p.value("y = x[j]")
    g.p.value(wrong_class(e.name, "y", cls))
    g.p.blank()
    for line in lines:
        g.p.value(line)
    g.p.value("head << o")
    g.p.value(f"items.push({', '.join(vals)})")
    g.p.value(f"o += {size}")
    g.p.value("j += 1")
    g.p.outdent()
    g.p.value("end")
    g.p.value(f"head.concat(items).pack({formats}[n], buffer: buf)")
    g.p.outdent()
    g.p.value("end")


def emit_flat_vput(g: Scope, s: ir.StructType, layout: lower.StructLayout, fields: list) -> None:
    """A struct of values and strings: its blocks follow the body in field order, so
    every offset is known before writing; body and blocks are one pack (a root's
    header too)."""
    lines, vals, fmt, at = flat_parts(g, s, "v", "")
    for line in lines:
        g.p.value(line)
    g.p.value("pos = buf.bytesize")
    g.p.value("if root")
    g.p.value(f'  [{at} + 8, 8, {", ".join(vals)}].pack("VV{fmt}", buffer: buf)')
    g.p.value("  8")
    g.p.value("else")
    g.p.value(f'  [{", ".join(vals)}].pack("{fmt}", buffer: buf)')
    g.p.value("  pos - base")
    g.p.value("end")
    g.p.outdent()
    g.p.value("end")


# shape (types.shape) -> a slot's read in vget, its check in vverify
VGET = {
    "string": "Fastwire.vget_str(r, pos, raw[{ri}], {slot_end})",
    "bytes": "Fastwire.vget_bytes(r, pos, raw[{ri}], {slot_end})",
    "struct": "{inner}.vget(r, pos, raw[{ri}], {slot_end}, d)",
    "opt_struct": "(raw[{ri}].zero? ? nil : Fastwire.vget_opt_struct(r, pos, raw[{ri1}], {slot_end}, {inner}, d))",
    "vec_struct": "Fastwire.vget_structs(r, pos, raw[{ri}], {slot_end}, {inner}, d)",
    "array": "{c}.vget_slot(r, pos + {off}, pos, d)",
    "other": "{c}.vread(r, raw, {ri}, pos + {off}, pos, d)",
}
VVERIFY = {
    "string": "Fastwire.vcheck_str(r, pos, raw[{ri}], {slot_end})",
    "bytes": "Fastwire.vcheck_str(r, pos, raw[{ri}], {slot_end})",
    "struct": "{inner}.vverify(r, pos, raw[{ri}], {slot_end}, d)",
    "decimal": 'Fastwire.fail!("bad_value", "decimal scale") if raw[{ri}] > {max_scale}',
    "opt_struct": "Fastwire.vcheck_opt_struct(r, pos, raw[{ri1}], {slot_end}, {inner}, d) unless raw[{ri}].zero?",
    "vec_struct": "Fastwire.vcheck_structs(r, pos, raw[{ri}], {slot_end}, {inner}, d)",
    "array": "{c}.vcheck_slot(r, pos + {off}, pos, d)",
    "other": "{c}.vcheck(r, raw, {ri}, pos + {off}, pos, d)",
}
CHECK_READS = {"string", "bytes", "struct", "opt_struct", "vec_struct", "other"}  # their slots


def slot_call(g: Scope, form: str, s: ir.StructType, f: ir.Field, fl: lower.FieldLayout,
              ri: int) -> str:
    return form.format(ri=ri, ri1=ri + 1, slot_end=f"pos + {fl.offset + fl.wire.slot}",
                       inner=plain_codec(g, f.type.value), c=field_const(s, f), off=fl.offset,
                       max_scale=DECIMAL.max_scale)


def emit_fast_reads(g: Scope, s: ir.StructType, layout: lower.StructLayout, fields: list,
                    vfmt: str, gfmt: str, raw_index: List[int]) -> None:
    cls = class_name(s.name)
    body, tn = layout.body_size, s.type_number
    # Verify reads only what it checks: offsets, optional flags, decimal scale bytes.
    check_fmt, check_index = "VV", []
    at, skip = 2, 0
    for fl in layout.fields:
        k = shape(fl.wire)
        if k in CHECK_READS:
            part = directive(fl.wire)
            n = len(split_directives(part))
        elif k == "decimal":
            skip += DECIMAL.scale_at
            part, n = "C", 1
        else:
            skip += fl.wire.slot
            check_index.append(-1)
            continue
        check_fmt += (f"x{skip}" if skip else "") + part
        skip = 1 if k == "decimal" else 0
        check_index.append(at)
        at += n
    # -- versioned read and verify
    for method in ("vget", "vverify"):
        g.p.blank()
        g.p.value(f"def {method}(r, base, off, slot_end, d)")
        g.p.indent()
        g.p.value("pos = base + off")
        # A struct of values and strings: its first string is read with the body (the
        # length after it, where writers put the block), when it is there.
        first = None
        if method == "vget" and not any(kind(fl.wire) in ("struct", "other")
                                        for fl in layout.fields):
            first = next((n for n, fl in enumerate(layout.fields)
                          if kind(fl.wire) in ("string", "bytes")), None)
        need = body + (4 if first is not None else 0)
        g.p.value(f"if off != 0 && pos >= slot_end && pos <= r.end_ - {need} && d > 0")
        g.p.indent()
        fmt = gfmt if method == "vget" else check_fmt
        if first is not None:
            fmt += "V"
        g.p.value(f'raw = r.buf.unpack("{fmt}", offset: pos)')
        if method == "vget":
            g.p.value(f"stored = (st = raw[0]) == {body | tn << 32} ? {body} : "
                     f"((st >> 32) == {tn} ? st & 0xFFFFFFFF : 0)")
            g.p.value(f"if stored >= {body} && stored <= r.end_ - pos && (budget = r.budget - stored) >= 0")
        else:
            g.p.value("stored = raw[0]")
            g.p.value(f"if stored >= {body} && raw[1] == {tn} && stored <= r.end_ - pos && "
                     "(budget = r.budget - stored) >= 0")
        g.p.indent()
        g.p.value("r.budget = budget")
        if any(kind(fl.wire) in ("struct", "other") for fl in layout.fields):
            g.p.value("d -= 1")
        if method == "vget":
            args = []
            if first is not None:
                fl = layout.fields[first]
                ri = raw_index[first]
                last = len(split_directives(fmt)) - 1
                utf8 = ".force_encoding(Encoding::UTF_8)" if kind(fl.wire) == "string" else ""
                reader = "vget_str" if kind(fl.wire) == "string" else "vget_bytes"
                g.p.value(f"if raw[{ri}] == {body} && (n = raw[{last}]) <= r.end_ - pos - "
                         f"{body + 4} && (budget = r.budget - 4 - n) >= 0")
                g.p.value("  r.budget = budget")
                g.p.value(f"  s{first} = r.buf.byteslice(pos + {body + 4}, n){utf8}")
                g.p.value("else")
                g.p.value(f"  s{first} = Fastwire.{reader}(r, pos, raw[{ri}], pos + {fl.offset + 4})")
                g.p.value("end")
            for n_field, ((f, fl), ri) in enumerate(zip(fields, raw_index)):
                form = VGET.get(shape(fl.wire))
                if n_field == first:
                    args.append(f"s{first}")
                elif form is None:
                    args.append(convert(f"raw[{ri}]", fl.wire))
                else:
                    args.append(slot_call(g, form, s, f, fl, ri))
            if args:
                g.p.value(f"return {cls}.allocate._fw_set(")
                g.p.indent()
                for n, arg in enumerate(args):
                    g.p.value(arg + ("," if n + 1 < len(args) else ""))
                g.p.outdent()
                g.p.value(")")
            else:
                g.p.value(f"return {cls}.allocate._fw_set")
        else:
            for (f, fl), ri in zip(fields, check_index):
                form = VVERIFY.get(shape(fl.wire))
                if form is not None:
                    g.p.value(slot_call(g, form, s, f, fl, ri))
            g.p.value("return")
        g.p.outdent()
        g.p.value("end")
        g.p.outdent()
        g.p.value("end")
        g.p.value("super # an older version, or an error: the checked walk says which")
        g.p.outdent()
        g.p.value("end")
    emit_vok(g, s, layout, fields)
    if g.options.final:
        emit_final_paths(g, s, layout, fields)
    g.p.outdent()
    g.p.value("end")


def emit_vok(g: Scope, s: ir.StructType, layout: lower.StructLayout, fields: list) -> None:
    """verify()'s fast walk of a versioned body: locals instead of the Reader, one
    unpack for every slot it checks (and the length of the first string, where writers
    put its block: right after the body), no call per field, the structs it holds
    inlined (up to a few levels, recursion through a call). Returns the budget left,
    or nil when it cannot decide (an older or unusual layout, or an error): the checked
    walk (vverify) then says which."""
    g.p.blank()
    g.p.value("def vok(buf, e, b, base, off, slot_end, d)")
    g.p.indent()
    g.start_walk(0)
    vok_struct(g, s, "base", "off", "slot_end", "d", [s.qualified_name])
    g.p.value("b")
    g.p.outdent()
    g.p.value("end")
    # the same for a root model: its header read with the body (the usual root offset 8)
    g.p.blank()
    g.p.value("def vroot(buf, e, d)")
    g.p.indent()
    g.start_walk(0)
    g.p.value("b = e - 8")
    vok_struct(g, s, "0", "8", "8", "d", [s.qualified_name], root=True)
    g.p.value("b")
    g.p.outdent()
    g.p.value("end")


# shape -> what vok unpacks of a slot: directives, at the decimal's scale byte, locals
VOK_READS = {
    "string": ("V", False, "o"), "bytes": ("V", False, "o"), "struct": ("V", False, "o"),
    "vec_struct": ("V", False, "o"), "opt_struct": ("CV", False, "fo"), "decimal": ("C", True, "c"),
}
READ_SIZES = {"V": OFFSET, "CV": OPTIONAL.slot, "C": 1}


def vok_call_or_inline(g: Scope, ref: ir.TypeRef, base: str, off: str, slot_end: str, d: str,
                       chain: List[str], d_checked: bool = False, root: bool = False) -> None:
    t = g.inlinable(ref, chain)
    if t is None:
        inner = plain_codec(g, ref)
        g.p.value(f"return nil unless (b = {inner}.vok(buf, e, b, {base}, {off}, {slot_end}, {d}))")
        g.p.blank()
    else:
        vok_struct(g, t, base, off, slot_end, d, chain + [t.qualified_name], d_checked)


def vok_struct(g: Scope, s: ir.StructType, base: str, off: str, slot_end: str, d: str,
               chain: List[str], d_checked: bool = False, root: bool = False) -> None:
    layout = g.model.struct(s.qualified_name)
    fields = list(zip(s.all_fields, layout.fields))
    t = "" if g.tags == 0 else str(g.tags)
    g.tags += 1
    body, tn = layout.body_size, s.type_number
    # size and type as one u64 (one value fewer to unpack): st == size | type << 32 for
    # a body of this version; else split
    fmt, names = "Q<", [f"st{t}"]
    at = 8
    first_text = None
    for n, fl in enumerate(layout.fields):
        read = VOK_READS.get(shape(fl.wire))
        if read is None:
            continue
        part, at_scale, locals_ = read
        want = fl.offset + (DECIMAL.scale_at if at_scale else 0)
        if is_text(fl.wire) and first_text is None:
            first_text = n
        fmt += (f"x{want - at}" if want > at else "") + part
        names += [f"{v}{t}_{n}" for v in locals_]
        at = want + READ_SIZES[part]
    need = body
    if first_text is not None:
        fmt += (f"x{body - at}" if body > at else "") + "V"
        names.append(f"ns{t}")
        need = body + 4
    nested = any(kind(fl.wire) in ("struct", "other") for fl in layout.fields)
    pos = f"pos{t}"
    if root:
        g.p.value(f"return nil unless e >= {need + 8} && {d} > 0")
        g.p.blank()
        g.p.value(f'hd, {", ".join(names)} = buf.unpack("Q<{fmt}")')
        g.p.value(f"return nil unless hd == e + {8 << 32}")  # [size][8]
        g.p.blank()
        g.p.value(f"{pos} = 8")
    else:
        if not off.isidentifier():
            g.p.value(f"off{t} = {off}")
            off = f"off{t}"
        g.p.value(f"{pos} = {base} + {off}")
        # off 0 fails pos >= slot_end: every slot ends after its base
        g.p.value(f"return nil unless {pos} >= {slot_end} && {pos} <= e - {need}"
                 + ("" if d_checked else f" && {d} > 0"))
        g.p.blank()
        if len(names) == 1:
            g.p.value(f'{names[0]} = buf.unpack1("{fmt}", offset: {pos})')
        else:
            g.p.value(f'{", ".join(names)} = buf.unpack("{fmt}", offset: {pos})')
    g.p.value(f"stored{t} = st{t} == {body | tn << 32} ? {body} : "
             f"((st{t} >> 32) == {tn} ? st{t} & 0xFFFFFFFF : 0)")
    g.p.value(f"return nil unless stored{t} >= {body} && stored{t} <= e - {pos} && (b -= stored{t}) >= 0")
    g.p.blank()
    dc = f"d{t}_"
    if nested:
        g.p.value(f"{dc} = {d} - 1")
    for n, (f, fl) in enumerate(fields):
        walk = VOK.get(shape(fl.wire))
        if walk is not None:
            walk(g, VokSlot(s, f, fl, n, t, pos, dc, chain, body, first_text))


@dataclass
class VokSlot:
    """One slot vok walks: its struct and field, the struct's locals (tag t, pos, depth dc)."""

    s: ir.StructType
    f: ir.Field
    fl: lower.FieldLayout
    n: int
    t: str
    pos: str
    dc: str
    chain: List[str]
    body: int
    first_text: Optional[int]

    @property
    def o(self) -> str:
        return f"o{self.t}_{self.n}"

    @property
    def slot_end(self) -> str:
        return f"{self.pos} + {self.fl.offset + self.fl.wire.slot}"


def _vok_text(g: Scope, x: VokSlot) -> None:
    t, o, pos, body = x.t, x.o, x.pos, x.body
    if x.n == x.first_text:
        g.p.value(f"if {o} == {body}")
        g.p.value(f"  return nil if ns{t} > e - {pos} - {body + 4} || (b -= 4 + ns{t}) < 0")
        g.p.value(f"elsif {o} != 0")
    else:
        g.p.value(f"if {o} != 0")
    g.p.indent()
    g.p.value(f"p = {pos} + {o}")
    g.p.value(f'return nil unless p >= {x.slot_end} && p <= e - 4 && '
              f'(n = buf.unpack1("V", offset: p)) <= e - p - 4 && (b -= 4 + n) >= 0')
    g.p.outdent()
    g.p.value("end")


def _vok_struct(g: Scope, x: VokSlot) -> None:
    vok_call_or_inline(g, x.f.type.value, x.pos, x.o, x.slot_end, x.dc, x.chain)


def _vok_opt_struct(g: Scope, x: VokSlot) -> None:
    q = f"q{x.t}_{x.n}"
    g.p.value(f"if f{x.t}_{x.n} != 0")
    g.p.indent()
    g.p.value(f"{q} = {x.pos} + {x.o}")
    g.p.value(f"return nil unless {q} >= {x.slot_end} && {q} <= e - 4 && (b -= 4) >= 0")
    g.p.blank()
    vok_call_or_inline(g, x.f.type.value, q, f'buf.unpack1("V", offset: {q})', f"{q} + 4", x.dc,
                       x.chain)
    g.p.outdent()
    g.p.value("end")


def _vok_vec_struct(g: Scope, x: VokSlot) -> None:
    t, n = x.t, x.n
    q, cnt, offs, j = f"q{t}_{n}", f"n{t}_{n}", f"offs{t}_{n}", f"j{t}_{n}"
    g.p.value(f"if {x.o} != 0")
    g.p.indent()
    g.p.value(f"{q} = {x.pos} + {x.o}")
    g.p.value(f'return nil unless {q} >= {x.slot_end} && {q} <= e - 4 && '
              f'({cnt} = buf.unpack1("V", offset: {q})) <= (e - {q} - 4) / 4 && '
              f"(b -= 4 + (4 * {cnt})) >= 0")
    g.p.blank()
    g.p.value(f"if {cnt} > 0")
    g.p.indent()
    g.p.value(f"return nil if {x.dc} < 1")
    g.p.blank()
    g.p.value(f'{offs} = buf.unpack("V#{{{cnt}}}", offset: {q} + 4)')
    g.p.value(f"{j} = 0")
    g.p.value(f"while {j} < {cnt}")
    g.p.indent()
    vok_call_or_inline(g, x.f.type.value, x.pos, f"{offs}[{j}]", f"{q} + 8 + (4 * {j})", x.dc,
                       x.chain, d_checked=True)
    g.p.value(f"{j} += 1")
    g.p.outdent()
    g.p.value("end")
    g.p.outdent()
    g.p.value("end")
    g.p.outdent()
    g.p.value("end")


def _vok_decimal(g: Scope, x: VokSlot) -> None:
    g.p.value(f"return nil if c{x.t}_{x.n} > {DECIMAL.max_scale}")
    g.p.blank()


def _vok_runtime(g: Scope, x: VokSlot) -> None:
    # the runtime's codec, on a Reader (it raises DecodeError when malformed)
    qualified = g.qualify(x.s.package, field_const(x.s, x.f))
    g.p.value("rd = Fastwire::Reader.new(buf, b, 0)")
    g.p.value(f"{qualified}.vcheck_slot(rd, {x.pos} + {x.fl.offset}, {x.pos}, {x.dc})")
    g.p.value("b = rd.budget")


# shape -> how vok walks the slot (values other than decimals: nothing to check)
VOK: Dict[str, Callable[[Scope, VokSlot], None]] = {
    "string": _vok_text, "bytes": _vok_text, "struct": _vok_struct,
    "opt_struct": _vok_opt_struct, "vec_struct": _vok_vec_struct, "decimal": _vok_decimal,
    "array": _vok_runtime, "other": _vok_runtime,
}
