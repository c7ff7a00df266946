"""A struct's Codec (a dev.fastwire.StructCodec), Java's and Kotlin's: the static entry
points other generated structs call (no virtual call), the general bodies vfields0, vread0
and vverify0 (the versioned format), ffields0, fread0 and fverify0 (the final format), each
a walk over the struct's codec plan (layout.plan) with each field's statement spelled by
the language's Syntax for its route (syntax.py), the fast paths when the struct has them
(fast.py, fastput.py), the framework's overrides and JSON."""

from __future__ import annotations

from ... import ir, lower
from ..printer import Printer
from .fast import FastWalk, eligible, readable
from .fastput import FastPut
from .syntax import METHODS, Syntax, block, emit

VERSIONED = ("vfields", "vread", "vverify")
FINAL = ("ffields", "fread", "fverify")


def codec_class(p: Printer, model: lower.WireModel, s: ir.StructType, layout: lower.StructLayout,
                syn: Syntax) -> None:
    n = s.name
    q = syn.quote
    v = dict(n=n, t=str(layout.type_number), bs=str(layout.body_size), fm=str(layout.final_min),
             depth=str(layout.depth), qn=q(s.qualified_name), null=q(s.qualified_name + " is null (not an optional)"))
    fast, read = eligible(model, layout), readable(model, layout)
    p.print(syn.codec_head, **v)
    for _ in range(syn.levels):
        p.indent()
    fast_put = lambda: FastPut(p, syn).emit(n, v["null"], layout)  # noqa: E731
    entries(p, syn, v, fast, read, fast_put if syn.levels > 1 else None)
    for part in VERSIONED + FINAL:
        with block(p, syn.sig(syn.prefixes["body"], part + "0", n)):
            if part in VERSIONED:
                versioned(p, syn, layout, part)
            elif part == "ffields":
                final_fields(p, syn, layout)
            else:
                final_read(p, syn, layout, part == "fverify")
        p.value("")
    if fast:
        if syn.levels == 1:
            fast_put()
        walk = FastWalk(p, syn)
        p.value("/** verify's fast path for the usual message (see fast.py); -1: take the general walk. */")
        walk.versioned(layout)
        p.value("")
        walk.final(layout)
        p.value("")
        if syn.levels == 1:
            p.print(syn.fast_overrides + "\n\n", **v)
    if read:
        walk = FastWalk(p, syn)
        p.value("/** deserialize's fast path for the usual message (see fast.py); -1: take the general read. */")
        walk.versioned(layout, n)
        p.value("")
        walk.final(layout, n)
        p.value("")
    if syn.levels > 1:  # Kotlin's companion object closes
        p.outdent()
        p.value("}")
        p.value("")
        if fast:
            p.print(syn.fast_overrides, **v)
    for name, (params, _, result) in METHODS.items():
        args = ", ".join(a.split(" ")[0] for a in params.split(", "))
        prefix = syn.prefixes["vfields" if name in VERSIONED + FINAL else "vput"]
        p.value(syn.override.format(sig=syn.sig(prefix, name, n), call=f"{name}0({args})",
                                    ret="return " if result else ""))
    p.value("")
    json(p, syn, layout, n)
    p.outdent()
    p.value("}")


def entries(p: Printer, syn: Syntax, v: dict, fast: bool, read: bool, after_put) -> None:
    """The static entries, each of the language's lines (syn.entry) its parts need."""
    def entry(name: str, *parts: str) -> None:
        with block(p, syn.sig(syn.prefixes["entry"], name, v["n"])):
            for part in parts:
                p.print(syn.entry[part], **v)
        p.value("")
    if fast:
        for name in ("vput0", "fput0"):
            p.value(syn.sig(syn.prefixes["entry"], name, v["n"]) + " " + syn.entry[name + "_fast"])
            p.value("")
        if after_put is not None:
            after_put()
    else:
        entry("vput0", "vput")
    entry("vget0", *(("fresh", "vget_fast", "enter") if read else ("enter", "fresh")), "vread")
    entry("vcheck0", *(("vcheck_fast",) if fast else ()), "enter", "vverify")
    if not fast:
        entry("fput0", "fput")
    entry("fget0", "deep", "fresh", *(("fget_fast",) if read else ()), "fread")
    entry("fcheck0", *(("fcheck_fast",) if fast else ()), "deep", "fverify")


def json(p: Printer, syn: Syntax, layout: lower.StructLayout, n: str) -> None:
    """jfields writes each field of the JSON plan under its key (a primitive by its helper,
    the rest by the field's codec), jfield reads one by its key."""
    puts, cases = [], []
    for i, jf in enumerate(layout.plan.json.fields):
        f = layout.fields[jf.index]
        w, x = f.wire, "v." + syn.field(f)
        fc = syn.struct_codec(w) if w.helper == "struct" else syn.fcodec(f)
        key = ("," if i else "") + '"' + jf.name + '":'
        puts.append(f"w.key({syn.quote(key)}){syn.end}")
        puts.append(syn.json_put.get(w.helper, "{fc}.jput(w, {v})").format(v=x, fc=fc) + syn.end)
        cases.append(syn.json_case.format(key=syn.quote(jf.name), v=x, fc=fc))
    emit(p, syn.json, n=n, puts="\n".join(puts), cases="\n".join(cases))


def statement(p: Printer, text: str) -> None:
    """A statement of several lines: the lines after the first one level in."""
    first, *rest = text.split("\n")
    p.value(first)
    if rest:
        p.indent()
        for line in rest:
            p.value(line)
        p.outdent()


def at(base: str, offset: int) -> str:
    return f"{base} + {offset}" if offset else base


def versioned(p: Printer, syn: Syntax, layout: lower.StructLayout, part: str) -> None:
    """The body of vfields0, vread0 or vverify0 (`part`)."""
    for step in layout.plan.versioned.steps:
        for f in step.fields:
            slot = f"body + {f.at}"
            end = (f.at or 0) + f.wire.slot
            if part == "vfields":
                statement(p, syn.vput(f, slot, "body", "v." + syn.field(f)))
            elif part == "vread":
                for text in syn.vread(f, slot, end, "v." + syn.field(f), layout.defaults[f.index]):
                    statement(p, text)
            else:
                check = syn.vcheck(f, slot)
                if check:
                    statement(p, f"if (size >= {end}) {check}")


def final_fields(p: Printer, syn: Syntax, layout: lower.StructLayout) -> None:
    """The body of ffields0: a run of values in one block allocated at once."""
    for step in layout.plan.final.steps:
        if step.op == "values":
            p.value(syn.run_open(step.size or 0))
            p.indent()
            for f in step.fields:
                p.value(syn.value_write(f.wire, at("p", f.at or 0), "p", "v." + syn.field(f)))
            p.outdent()
            p.value("}")
        else:
            statement(p, syn.fput(step.field, "v." + syn.field(step.field)))


def final_read(p: Printer, syn: Syntax, layout: lower.StructLayout, verify: bool) -> None:
    """The body of fread0 or (verify) fverify0: a run of values taken at once."""
    declared = False
    for step in layout.plan.final.steps:
        if step.op != "values":
            f = step.field
            statement(p, syn.fcheck(f) if verify else syn.fget(f, "v." + syn.field(f)))
            continue
        decimals = [f for f in step.fields if f.helper == "decimal"]
        if not verify or decimals:
            p.value(syn.take(step.size or 0, declared))
            declared = True
        else:
            p.value(f"r.take({step.size}){syn.end}")
        for f in (decimals if verify else step.fields):
            pos = at("p", f.at or 0)
            p.value(syn.vcheck(f, pos) or "" if verify else
                    f"v.{syn.field(f)} = {syn.value_read(f.wire, pos)}{syn.end}")
