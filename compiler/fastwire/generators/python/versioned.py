"""The versioned format's straight-line codec of a struct (_vput_, _vget_, _vcheck_) over
precompiled layouts; older versions and errors go to the runtime."""

from __future__ import annotations

from typing import Callable, List, Optional

from ... import ir, layouts, plan
from .structs import Structs
from .types import ROLES, Role, field_attr, fields_of, pyname, role

LENGTH = layouts.BLOCK.length_size  # of a string or bytes block
HEADER = layouts.STRUCT.header_size  # of a struct's body
# A string's or bytes' (bytes to write, field from `data`).
TEXT = {
    "string": ("try:\n    {a}_ = v.{a}.encode()\n"
               "except UnicodeEncodeError:  # surrogate escapes go back as they came\n"
               '    {a}_ = v.{a}.encode("utf-8", "surrogateescape")',
               "try:\n    v.{a} = {data}.decode()\n"
               "except UnicodeDecodeError:  # not UTF-8: kept byte for byte\n"
               '    v.{a} = {data}.decode("utf-8", "surrogateescape")'),
    "bytes": ("{a}_ = v.{a}", "v.{a} = {data}"),
}


def pads(parts: List[str]) -> str:
    """Format parts joined, pad bytes merged ("4x", "8x": "12x")."""
    out: List[str] = []
    for part in parts:
        if part.endswith("x") and out and out[-1].endswith("x"):
            out[-1] = f"{int(out[-1][:-1]) + int(part[:-1])}x"
        else:
            out.append(part)
    return "".join(out)


class Versioned(Structs):
    def emit_versioned(self, s: ir.StructType) -> None:
        p = self.p
        n = s.name
        versioned = self.layout(s).plan.versioned
        fields = fields_of(versioned.steps)
        body = versioned.body_size

        def fmt(unpacked: Callable[[Role], object]) -> str:
            """The slots' format, pad bytes for those not unpacked."""
            return pads([self.letters(f.wire) if unpacked(role(f)) else f"{f.wire.slot}x" for f in fields])

        write_fmt, read_fmt, check_fmt = fmt(bool), fmt(lambda r: r.slots), fmt(lambda r: r.checked)
        flat = bool(fields) and all(f.wire.is_value or role(f).text for f in fields)  # packed at once
        # A first heap field of string or bytes: its length goes with the body.
        heap = [f for f in fields if not f.wire.is_value]
        after = heap[0] if heap and role(heap[0]).text else None
        length, note = ("I", f", {after.name}'s length") if after else ("", "")
        if flat:
            p.value(f'_VP_{n} = _rt.layout("II{write_fmt}{length}")  # header, slots{note}')
        elif after:
            p.value(f'_VS_{n} = _rt.layout("II{body - HEADER}x{length}")  # header, zeros{note}')
        else:
            p.value(f"_VH_{n} = _rt.header({body}, {s.type_number})  # header, zeros")
        if fields and not flat:
            p.value(f'_VL_{n} = _rt.layout("{write_fmt}")  # slots')
        p.value(f"_VG_{n} = _VP_{n}  # reads the same" if flat and read_fmt == write_fmt else
                f'_VG_{n} = _rt.layout("II{read_fmt}{length}")  # reads: header, slots{note}')
        p.value(f'_VC_{n} = _rt.layout("II{check_fmt}{length}")  # verifies: what is checked')
        cls = pyname(n)

        def raw(f: plan.PlanField, direct: bool = False) -> List[str]:
            """What a slot unpacks to; `direct`: numbers into the value."""
            if direct and not role(f).vget:
                return [f"v.{field_attr(f.name)}"]
            return self.expr(role(f).slots, s, f).split(", ") if role(f).slots else []

        self.gap()
        texts = [f for f in fields if role(f).text]
        if flat:
            # Only strings and bytes after the body: their offsets are known once encoded.
            values: List[str] = []
            at, lens = body, ""  # where the next string goes
            for f in fields:
                if role(f).text:
                    values.append(f"{at}{lens}")
                    at += LENGTH
                    lens += f" + len({field_attr(f.name)}_)"
                else:
                    values.append(self.expr(role(f).vput, s, f))
            if texts:
                values.append(f"len({field_attr(texts[0].name)}_)")
            puts = [self.encode_stmt(f) for f in texts]
            puts.append(self.wrap(f"buf += _VP_{n}.pack(", [str(body), str(s.type_number)] + values,
                                  ")"))
            for i, f in enumerate(texts):
                if i:
                    puts.append(f"buf += _rt.u32(len({field_attr(f.name)}_))")
                puts.append(f"buf += {field_attr(f.name)}_")
        elif fields:
            # The header and zeros, then the heap blocks, then the slots.
            puts, values = [], []
            for f in fields:
                a = field_attr(f.name)
                if f is after:
                    puts.append(self.encode_stmt(f))
                    puts.append(f"buf += _VS_{n}.pack({body}, {s.type_number}, len({a}_))")
                    puts.append(f"buf += {a}_")
                    values.append(str(body))
                elif f.wire.is_value:
                    values.append(self.expr(role(f).vput, s, f))
                else:  # the call writes the heap and gives the slot's values
                    packs = self.expr(role(f).slots or "*{a}", s, f)
                    puts.append(f"{packs.lstrip('*')} = {self.expr(role(f).vput, s, f)}")
                    values += packs.split(", ")
            if not after:
                puts.insert(0, f"buf += _VH_{n}")
            puts.append(self.wrap(f"_VL_{n}.pack_into(", ["buf", f"pos + {HEADER}"] + values, ")"))
        else:
            puts = [f"buf += _VH_{n}"]
        p.print("""
            def _vput_$n$(buf, base, v):
                pos = len(buf)
                $puts$
                return pos - base
        """, n=n, puts="\n".join(puts))

        for get in (True, False):
            self.gap()
            p.print("def _$fn$_$n$(r, base, off, slot_end, d):", fn="vget" if get else "vcheck", n=n)
            p.indent()
            if get:
                if fields:
                    p.value(f"v = _new({cls})")
                names = [x for f in fields for x in raw(f, direct=True)]
                stmts = [(f, f"v.{field_attr(f.name)} = {self.expr(role(f).vget, s, f)}")
                         for f in fields if role(f).vget]
            else:
                names = [x for f in fields if role(f).checked for x in raw(f)]
                stmts = [(f, c) for f in fields if (c := self.vcheck_stmt(s, f))]
            self.emit_enter(s, "_VG" if get else "_VC", "vget_slow" if get else "vcheck_slow",
                            ["stored", "found"] + names + (["n"] if after else []), after)
            if any(role(f).nested for f, _ in stmts):
                p.print("d -= 1")
            for f, stmt in stmts:
                if f is not after:
                    p.value(stmt)
                    continue
                start = body + LENGTH
                self.emit("""
                    if ($a$_ == $body$ and $room$
                            and (rest := budget - $length$ - n) >= 0):
                        r.budget = rest  # where writers put it, right after the body
                        $read$
                    else:
                        r.budget = budget
                        $stmt$
                """, a=field_attr(f.name), body=body, length=LENGTH, stmt=stmt,
                    room=f"(q := pos + {start} + n) <= r.end" if get else f"n <= r.end - pos - {start}",
                    read=self.read_text(f, f"r.buf[pos + {start}:q]") if get else "")
            if get:
                p.print("return v" if fields else f"return {cls}()")
            p.outdent()

    def emit_enter(self, s: ir.StructType, layout: str, slow: str, names: List[str],
                   after: Optional[plan.PlanField]) -> None:
        """A versioned reader's start: one unpack and one condition for the usual case."""
        self.p.print("""
            pos = base + off
            try:
                $unpack$
            except _rt.StructError:  # $beyond$ would reach past the end
                stored = 0
            if not (off and slot_end <= pos and $body$ <= stored <= r.end - pos
                    and found == $type$ and d > 0 and (budget := r.budget - stored) >= 0):
                return _S_$n$.$slow$(r, base, off, slot_end, d)  # older version, or error
        """, unpack=self.unpack(names, f"{layout}_{s.name}.unpack_from(r.buf, pos)"),
            body=self.layout(s).body_size, type=s.type_number, n=s.name, slow=slow,
            beyond="the body (or the length after it)" if after else "the body")
        if not after:  # else charged with the string after the body
            self.p.print("r.budget = budget")

    def vcheck_stmt(self, s: ir.StructType, f: plan.PlanField) -> str:
        """verify's check of a field's slot ("": none, as for an array of numbers)."""
        if not role(f).slots:  # an array
            assert f.wire.element is not None
            if not ROLES[f.wire.element.helper].vcheck:
                return ""
        return self.expr(role(f).vcheck, s, f)

    def encode_stmt(self, f: plan.PlanField) -> str:
        """`a_ = ...`: a string or bytes field's bytes."""
        return self.fill(TEXT[f.helper][0], a=field_attr(f.name))

    def read_text(self, f: plan.PlanField, data: str) -> str:
        """`v.a = ...`: a string or bytes field from `data`."""
        return self.fill(TEXT[f.helper][1], a=field_attr(f.name), data=data)
