"""The general codec bodies of a struct, Java's and Kotlin's: vfields0, vread0 and vverify0
(the versioned format), ffields0, fread0 and fverify0 (the final format), each a walk over
the struct's codec plan (layout.plan), each field's statement spelled by the language's
Syntax for its route (syntax.py)."""

from __future__ import annotations

from ... import lower
from ..printer import Printer
from .syntax import Syntax


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
