"""The final format's codec of a struct (_fput_, _fget_, _fcheck_): the plan's runs of
fixed-size values packed together with the length of a string that follows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Union

from ... import ir, plan
from .types import ROLES, field_attr, pyname, role
from .versioned import Versioned


@dataclass
class Run:
    """A `values` step's fields (`size` bytes), then the length of a string or bytes field."""

    fields: List[plan.PlanField]
    size: int
    text: Optional[plan.PlanField] = None


class Final(Versioned):
    def final_groups(self, s: ir.StructType) -> List[Union[Run, plan.PlanField]]:
        """The final steps as runs, and other fields one by one."""
        groups: List[Union[Run, plan.PlanField]] = []
        for step in self.layout(s).plan.final.steps:
            last = groups[-1] if groups else None
            if step.op == "values":
                groups.append(Run(list(step.fields), step.size or 0))
            elif not ROLES[step.op].text:
                groups.append(step.field)
            elif isinstance(last, Run) and last.fields and last.text is None:
                last.text = step.field
            else:
                groups.append(Run([], 0, step.field))
        return groups

    def emit_final(self, s: ir.StructType) -> None:
        p = self.p
        n = s.name
        groups = self.final_groups(s)
        runs = {id(g): f"_FL_{n}_{i}" for i, g in enumerate(g for g in groups if isinstance(g, Run))}
        if runs:
            self.gap()
        for g in groups:
            if isinstance(g, Run):
                fmt = "".join(self.letters(f.wire) for f in g.fields + ([g.text] if g.text else []))
                note = f"  # and {g.text.name}'s length" if g.text else ""
                p.value(f'{runs[id(g)]} = _rt.layout("{fmt}"){note}')
        nested = any(not isinstance(g, Run) and role(g).nested for g in groups)
        guard = "if d < 1:\n    _rt.fail_deep()" + ("\nd -= 1" if nested else "")

        puts: List[str] = []
        for g in groups:
            if not isinstance(g, Run):
                puts.append(self.expr(role(g).fcall + "(buf, {v})", s, g, fn="put"))
                continue
            args = [self.expr(role(f).vput, s, f) for f in g.fields]
            if g.text:
                puts.append(self.encode_stmt(g.text))
                args.append(f"len({field_attr(g.text.name)}_)")
            puts.append(self.wrap(f"buf += {runs[id(g)]}.pack(", args, ")"))
            if g.text:
                puts.append(f"buf += {field_attr(g.text.name)}_")
        self.gap()
        p.print("""
            def _fput_$n$(buf, v):
                $puts$
        """, n=n, puts="\n".join(puts) or "pass")

        # read and verify: run sizes added to p lazily (`pending`)
        gets: List[str] = []
        checks: List[str] = []
        values: List[str] = []
        pending = 0

        def at() -> str:
            return f"p + {pending}" if pending else "p"

        for g in groups:
            if not isinstance(g, Run):
                get = self.expr(role(g).fcall + "(r, {at}, d)", s, g, fn="get", at=at())
                check = self.expr(role(g).fcall + "(r, {at}, d)", s, g, fn="check", at=at())
                gets.append(f"v.{field_attr(g.name)}, p = {get}")
                checks.append(f"p = {check}")
                pending = 0
                continue
            names = [self.expr("{a}" if role(f).vget else "{v}", s, f) for f in g.fields]
            gets.append(self.unpack(names + (["n"] if g.text else []),
                                    f"{runs[id(g)]}.unpack_from(buf, {at()})"))
            values.extend(f"v.{field_attr(f.name)} = {self.expr(role(f).vget, s, f)}"
                          for f in g.fields if role(f).vget)
            checks.extend(self.expr(role(f).run_check, s, f, at=pending + (f.at or 0))
                          for f in g.fields if role(f).run_check)
            pending += g.size
            if g.text:
                gets.append(f"p += {pending + g.text.wire.final_min} + n\n"
                            "if p > r.end:\n    _rt.fail_truncated()\n"
                            + self.read_text(g.text, "buf[p - n:p]"))
                checks.append(f"p = _rt.fcheck_str(r, {at()})")
                pending = 0
        gets += values  # enums, uuids, decimals
        gets.append(f"return v, {at()}")
        if runs:
            gets.insert(0, "buf = r.buf")
        self.gap()
        p.print("""
            def _fget_$n$(r, p, d):
                $guard$
                v = _new($cls$)
                $gets$
        """, n=n, guard=guard, cls=pyname(n), gets="\n".join(gets))
        self.gap()
        p.print("""
            def _fcheck_$n$(r, p, d):
                $guard$
                $checks$
                return $end$
        """, n=n, guard=guard, checks="\n".join(checks) or "# nothing of variable size",
                end=at())
