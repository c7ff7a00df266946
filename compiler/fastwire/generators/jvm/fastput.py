"""The straight-line serialize of a non-recursive struct, for Java and Kotlin alike (one
walk over the codec plan, spelled by the language's Syntax, as fast.py is for verify and
deserialize).

vw0 (versioned) and fw0 (final) keep the writer's buffer and end in locals
(docs/performance/java.md); anything else falls back to the general statement on the
writer (`w.size = p; ...; p = w.size; b = w.buf;`), byte for byte the general path's.
"""

from __future__ import annotations

from typing import List, Sequence

from ... import lower, plan
from ..printer import Printer
from .syntax import Syntax, route

F = "dev.fastwire.Fast"
_MAP = [("w.buf[", "b["), ("w.u8(", F + ".w8(b, "), ("w.i16(", F + ".w16(b, "),
        ("w.i32(", F + ".w32(b, "), ("w.i64(", F + ".w64(b, "), ("w.f32(", F + ".wf32(b, "),
        ("w.f64(", F + ".wf64(b, "), ("(w.buf, ", "(b, ")]


def local(stmt: str) -> str:
    """A slot store on the writer as a store into b; '' when it is not one."""
    for a, c in _MAP:
        stmt = stmt.replace(a, c)
    return "" if "w." in stmt or "(w," in stmt else stmt


class FastPut:
    def __init__(self, p: Printer, syntax: Syntax) -> None:
        self.p, self.syn, self.codec, self.field = p, syntax, syntax.scodec, syntax.field

    def out(self, *lines: str) -> None:
        for line in lines:
            self.p.value(line)

    def st(self, s: str) -> str:
        return s + self.syn.end

    def emit(self, name: str, null: str, layout: lower.StructLayout) -> None:
        self.versioned(name, null, layout)
        self.final(name, null, layout)

    def nested(self, f: plan.PlanField, final: bool, v: str, slot: str) -> bool:
        """A string, struct, optional struct or list of structs written in line, if it is one."""
        way = route(f.wire)
        e = f.wire.element
        if way == "string":
            self.out(*self.syn.put_string(f.index, v, slot, "body", final))
        elif way == "struct":
            call = f"fw0(w, b, p, {v})" if final else f"vw0({self.syn.wb}, {slot}, body, {v})"
            self.out(self.st(f"p = {self.codec(f.wire.ref or '')}.{call}; b = w.buf"))
        elif way in ("opt", "seq") and e is not None and e.helper == "struct":
            self.out(*self.syn.put_direct(way, final, f.index, v, slot, e, self.codec(e.ref or "")))
        else:
            return False
        return True

    def versioned(self, name: str, null: str, layout: lower.StructLayout) -> None:
        bs, t, syn = layout.body_size, layout.type_number, self.syn
        outer, inner = syn.put_head("vw0", name, null)
        self.out(*outer)
        self.p.indent()
        self.out(*inner)
        # the body's size and type in one store: u32 size, then u32 type (a signed literal)
        head = ((t & 0xFFFFFFFF) << 32) | bs
        head = head - (1 << 64) if head >= 1 << 63 else head
        self.out(syn.decl("body", "p", kind="int"), syn.room(bs), self.st(f"p += {bs}"),
                 self.st(f"{F}.w64(b, body, {head}L)"), self.st(f"{F}.w32(b, pos, body - base)"))
        for step in layout.plan.versioned.steps:
            for f in step.fields:
                slot = f"body + {f.at}"
                v = "v." + self.field(f)
                stmt = syn.vput(f, slot, "body", v)
                if local(stmt):
                    self.out(local(stmt))
                elif not self.nested(f, False, v, slot):
                    self.out(*syn.general(stmt))
        self.out(self.st("return p"))
        self.p.outdent()
        self.out("}", "")

    def final(self, name: str, null: str, layout: lower.StructLayout) -> None:
        syn = self.syn
        outer, inner = syn.put_head("fw0", name, null)
        self.out(*outer)
        self.p.indent()
        self.out(*inner)
        for step in layout.plan.final.steps:
            if step.op == "values":
                def stores(q: str, fields: Sequence[plan.PlanField] = step.fields) -> List[str]:
                    return [syn.value_write(f.wire, f"{q} + {f.at}" if f.at else q, q, "v." + self.field(f))
                            for f in fields]
                local_stores = [local(s) for s in stores("p")]
                if all(local_stores):
                    self.out(syn.room(step.size), *local_stores, self.st(f"p += {step.size}"))
                else:  # a store local() takes for a writer's call (`v.new.value`: a name ending in w)
                    self.out(*syn.put_run(step.fields[0].index, step.size or 0, stores))
                continue
            f = step.field
            v = "v." + self.field(f)
            if not self.nested(f, True, v, ""):
                self.out(*syn.general(syn.fput(f, v)))
        self.out(self.st("return p"))
        self.p.outdent()
        self.out("}", "")
