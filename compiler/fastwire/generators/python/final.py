"""The final (compact) format's codec of a struct: _fput_, _fget_, _fcheck_, packing the
model's runs of fixed-size fields together with the length of a string that follows."""

from __future__ import annotations

from typing import List, Tuple

from ... import ir
from .tables import pyname
from .values import Values


class Final(Values):
    def final_groups(self, s: ir.StructType) -> List[Tuple[str, List[ir.Field]]]:
        """Fields in order: the model's runs of fixed-size values, each with the length
        of a string or bytes field if one follows (its bytes come right after the run), a
        string or bytes field on its own as a run of its length, and the other fields one
        by one. Sets self.run_layouts: (model run or None, bytes packed) of each run."""
        layout = self.layout(s)
        runs = {r.first: r for r in layout.final_runs}
        fields = s.all_fields
        groups: List[Tuple[str, List[ir.Field]]] = []
        self.run_layouts = []
        i = 0
        while i < len(fields):
            if i in runs:
                r = runs[i]
                fs, size, i = list(fields[i:i + r.count]), r.size, i + r.count
                if i < len(fields) and self.is_text(fields[i]):
                    fs.append(fields[i])
                    size += layout.fields[i].wire.final_min  # its length
                    i += 1
                groups.append(("run", fs))
                self.run_layouts.append((r, size))
            elif self.is_text(fields[i]):
                groups.append(("run", [fields[i]]))
                self.run_layouts.append((None, layout.fields[i].wire.final_min))
                i += 1
            else:
                groups.append((self.kind(fields[i]), [fields[i]]))
                i += 1
        return groups

    def emit_final(self, s: ir.StructType) -> None:
        p = self.p
        n = s.name
        groups = self.final_groups(s)
        runs: List[Tuple[str, int]] = []  # (layout name, size) of each run, in order
        if any(kind == "run" for kind, _ in groups):
            self.gap()
        for kind, fs in groups:
            if kind == "run":
                fmt = "".join(self.slot(f)[0] for f in fs)
                runs.append((f"_FL_{n}_{len(runs)}", self.run_layouts[len(runs)][1]))
                note = f"  # and {fs[-1].name}'s length" if self.is_text(fs[-1]) else ""
                p.value(f'{runs[-1][0]} = _rt.layout("{fmt}"){note}')
        nested = any(k in ("struct", "optional", "array", "collection") for k, _ in groups)
        guard = "if d < 1:\n    _rt.fail_deep()" + ("\nd -= 1" if nested else "")

        # serialize
        puts: List[str] = []
        run = 0
        for kind, fs in groups:
            if kind == "run":
                args = [self.vput_expr(s, f) for f in fs]
                if self.is_text(fs[-1]):
                    puts.append(self.encode_stmt(fs[-1]))
                    args[-1] = f"len({self.field_attr(fs[-1])}_)"
                puts.append(self.wrap(f"buf += {runs[run][0]}.pack(", args, ")"))
                if self.is_text(fs[-1]):
                    puts.append(f"buf += {self.field_attr(fs[-1])}_")
                run += 1
                continue
            f = fs[0]
            v = f"v.{self.field_attr(f)}"
            if kind == "struct":
                puts.append(f"{self.struct_fn(f.type.value, 'fput')}(buf, {v})")
            else:
                puts.append(f"{self.field_codec(s, f)}.fput(buf, {v})")
        self.gap()
        p.print("""
            def _fput_$n$(buf, v):
                $puts$
        """, n=n, puts="\n".join(puts) or "pass")

        # deserialize and verify; the sizes of runs are added to p lazily (`pending`).
        gets: List[str] = []
        checks: List[str] = []
        values: List[str] = []
        pending = 0
        run = 0

        def at() -> str:
            return f"p + {pending}" if pending else "p"

        for kind, fs in groups:
            if kind == "run":
                text = fs[-1] if self.is_text(fs[-1]) else None
                fixed = fs[:-1] if text else fs
                names = [f"v.{self.field_attr(f)}" if self.kind(f) == "number"
                         else f"{self.field_attr(f)}_" for f in fixed]
                gets.append(self.unpack(names + (["n"] if text else []),
                                        f"{runs[run][0]}.unpack_from(buf, {at()})"))
                values.extend(f"v.{self.field_attr(f)} = {self.vget_expr(s, f, 0, 0)}"
                              for f in fixed if self.kind(f) != "number")
                model_run, packed = self.run_layouts[run]
                for j, f in enumerate(fixed):
                    if self.kind(f) == "decimal":
                        assert model_run is not None
                        checks.append(f"_rt.DECIMAL.fcheck(r, p + {pending + model_run.offsets[j]}, d)")
                fixed_size = model_run.size if model_run is not None else 0
                pending += fixed_size
                if text:
                    gets.append(f"p += {pending + packed - fixed_size} + n\n"
                                "if p > r.end:\n    _rt.fail_truncated()\n"
                                + self.read_text(text, "buf[p - n:p]"))
                    checks.append(f"p = _rt.fcheck_str(r, {at()})")
                    pending = 0
                run += 1
                continue
            f = fs[0]
            if kind == "struct":
                get = f"{self.struct_fn(f.type.value, 'fget')}(r, {at()}, d)"
                check = f"{self.struct_fn(f.type.value, 'fcheck')}(r, {at()}, d)"
            else:
                get = f"{self.field_codec(s, f)}.fget(r, {at()}, d)"
                check = f"{self.field_codec(s, f)}.fcheck(r, {at()}, d)"
            gets.append(f"v.{self.field_attr(f)}, p = {get}")
            checks.append(f"p = {check}")
            pending = 0
        gets += values  # conversions of enums, uuids and decimals
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
