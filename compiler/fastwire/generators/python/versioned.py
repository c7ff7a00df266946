"""The versioned format's straight-line codec of a struct: _vput_, _vget_, _vcheck_ over
precompiled struct layouts, with older versions and errors left to the runtime."""

from __future__ import annotations

from typing import List, Optional

from ... import ir
from .tables import FLAT, pads, pyname
from .values import Values


class Versioned(Values):
    def emit_versioned(self, s: ir.StructType) -> None:
        p = self.p
        n = s.name
        fields = s.all_fields
        body = self.body_size(s)
        write_fmt = "".join(self.slot(f)[0] for f in fields)
        # Reads unpack [size][type] and the slots at once; arrays are read by their codecs,
        # and verify unpacks only the slots it checks.
        read_fmt = pads([f"{self.slot(f)[1]}x" if self.kind(f) == "array" else self.slot(f)[0]
                          for f in fields])
        check_fmt = pads([self.slot(f)[0] if self.checked(f) else f"{self.slot(f)[1]}x"
                           for f in fields])
        flat = bool(fields) and all(self.kind(f) in FLAT for f in fields)
        # A string or bytes field whose block writers put right after the body (no other
        # field has a block before it): its length is written and read with the body.
        heap = [f for f in fields if self.kind(f) not in ("number", "enum", "uuid", "decimal")]
        after = heap[0] if heap and self.is_text(heap[0]) else None
        length, note = ("I", f", {after.name}'s length") if after else ("", "")
        if flat:  # written at once
            p.value(f'_VP_{n} = _rt.layout("II{write_fmt}{length}")  # header, slots{note}')
        elif after:  # the header and zeros first, then the heap, then the slots
            p.value(f'_VS_{n} = _rt.layout("II{body - 8}x{length}")  # header, zeros{note}')
        else:
            p.value(f"_VH_{n} = _rt.header({body}, {s.type_number})  # header, zeros")
        if fields and not flat:
            p.value(f'_VL_{n} = _rt.layout("{write_fmt}")  # slots')
        if flat and read_fmt == write_fmt:
            p.value(f"_VG_{n} = _VP_{n}  # reads the same")
        else:
            p.value(f'_VG_{n} = _rt.layout("II{read_fmt}{length}")  # reads: header, slots{note}')
        p.value(f'_VC_{n} = _rt.layout("II{check_fmt}{length}")  # verifies: what is checked')
        cls = pyname(n)
        offsets = [fl.offset for fl in self.layout(s).fields]  # of each slot in the body

        def raw(f: ir.Field, direct: bool = False) -> List[str]:
            """The targets a field's slot values unpack to (arrays: read by position);
            `direct`: plain numbers straight into the new value's attribute."""
            a = self.field_attr(f)
            k = self.kind(f)
            if k == "array":
                return []
            if k == "optional":
                return [f"{a}_", f"{a}_o"]
            return [f"v.{a}" if direct and k == "number" else f"{a}_"]

        # serialize
        self.gap()
        texts = [f for f in fields if self.is_text(f)]
        if flat:
            # Only strings and bytes go to the heap, right after the body: their offsets are
            # known once they are encoded, so the body is packed at once.
            values: List[str] = []
            at, lens = body, ""  # where the next string goes: at + the lengths before it
            for f in fields:
                if self.is_text(f):
                    values.append(f"{at}{lens}")
                    at += 4
                    lens += f" + len({self.field_attr(f)}_)"
                else:
                    values.append(self.vput_expr(s, f))
            if texts:
                values.append(f"len({self.field_attr(texts[0])}_)")
            puts = [self.encode_stmt(f) for f in texts]
            puts.append(self.wrap(f"buf += _VP_{n}.pack(", [str(body), str(s.type_number)] + values,
                                  ")"))
            for i, f in enumerate(texts):
                if i:
                    puts.append(f"buf += _rt.u32(len({self.field_attr(f)}_))")
                puts.append(f"buf += {self.field_attr(f)}_")
            p.print("""
                def _vput_$n$(buf, base, v):
                    pos = len(buf)
                    $puts$
                    return pos - base
            """, n=n, puts="\n".join(puts))
        elif fields:
            # The header and zeros for the slots first (with the length of a string that
            # starts the heap), then the heap blocks in field order, then the slots.
            puts, values = [], []
            for f in fields:
                a = self.field_attr(f)
                k = self.kind(f)
                if f is after:
                    puts.append(self.encode_stmt(f))
                    puts.append(f"buf += _VS_{n}.pack({body}, {s.type_number}, len({a}_))")
                    puts.append(f"buf += {a}_")
                    values.append(str(body))
                elif k == "optional":
                    puts.append(f"{a}_, {a}_o = {self.vput_expr(s, f).lstrip('*')}")
                    values += [f"{a}_", f"{a}_o"]
                elif k == "array":  # its slot values (the elements' heap blocks written)
                    puts.append(f"{a}_ = {self.vput_expr(s, f).lstrip('*')}")
                    values.append(f"*{a}_")
                elif k in ("number", "enum", "uuid", "decimal"):
                    values.append(self.vput_expr(s, f))
                else:
                    puts.append(f"{a}_ = {self.vput_expr(s, f)}")
                    values.append(f"{a}_")
            if not after:
                puts.insert(0, f"buf += _VH_{n}")
            puts.append(self.wrap(f"_VL_{n}.pack_into(", ["buf", "pos + 8"] + values, ")"))
            p.print("""
                def _vput_$n$(buf, base, v):
                    pos = len(buf)
                    $puts$
                    return pos - base
            """, n=n, puts="\n".join(puts))
        else:
            p.print("""
                def _vput_$n$(buf, base, v):
                    pos = len(buf)
                    buf += _VH_$n$
                    return pos - base
            """, n=n)

        # deserialize
        self.gap()
        p.print("""
            def _vget_$n$(r, base, off, slot_end, d):
        """, n=n)
        p.indent()
        if fields:
            p.value(f"v = _new({cls})")
        self.emit_enter(s, "_VG", "vget_slow",
                        ["stored", "found"] + [x for f in fields for x in raw(f, direct=True)]
                        + (["n"] if after else []), after)
        if any(self.takes_depth(f) for f in fields):
            p.print("d -= 1")
        for f, off in zip(fields, offsets):
            get = f"v.{self.field_attr(f)} = {self.vget_expr(s, f, off, self.slot(f)[1])}"
            if f is after:
                p.print("""
                    if ($a$_ == $body$ and (q := pos + $start$ + n) <= r.end
                            and (rest := budget - 4 - n) >= 0):
                        r.budget = rest  # where writers put it, right after the body
                        $read$
                    else:
                        r.budget = budget
                        $get$
                """, a=self.field_attr(f), body=body, start=body + 4, get=get,
                    read=self.read_text(f, f"r.buf[pos + {body + 4}:q]"))
            elif self.kind(f) != "number":
                p.print(get)
        p.print("return v" if fields else f"return {cls}()")
        p.outdent()

        # verify
        self.gap()
        checks = [(f, self.vcheck_stmt(s, f, off, self.slot(f)[1]))
                  for f, off in zip(fields, offsets)]
        checks = [(f, c) for f, c in checks if c]
        p.print("""
            def _vcheck_$n$(r, base, off, slot_end, d):
        """, n=n)
        p.indent()
        self.emit_enter(s, "_VC", "vcheck_slow",
                        ["stored", "found"] + [x for f in fields if self.checked(f)
                                               for x in raw(f)] + (["n"] if after else []), after)
        if any(self.takes_depth(f) for f, _ in checks):
            p.print("d -= 1")
        for f, c in checks:
            if f is after:
                p.print("""
                    if ($a$_ == $body$ and n <= r.end - pos - $start$
                            and (rest := budget - 4 - n) >= 0):
                        r.budget = rest  # where writers put it, right after the body
                    else:
                        r.budget = budget
                        $check$
                """, a=self.field_attr(f), body=body, start=body + 4, check=c)
            else:
                p.print(c)
        p.outdent()

    def emit_enter(self, s: ir.StructType, layout: str, slow: str, names: List[str],
                   after: Optional[ir.Field]) -> None:
        """The start of a versioned reader: one unpack of the header and the slots, and one
        condition for the usual case (this version or a newer one, well formed: the checks
        of the runtime's venter()); anything else, an older version or an error, goes to
        the runtime's slow path."""
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
            body=self.body_size(s), type=s.type_number, n=s.name, slow=slow,
            beyond="the body (or the length after it)" if after else "the body")
        if not after:  # else charged with the string after the body
            self.p.print("r.budget = budget")

    def vcheck_stmt(self, s: ir.StructType, f: ir.Field, off: int, size: int) -> str:
        k = self.kind(f)
        a = f"{self.field_attr(f)}_"
        end = f"pos + {off + size}"
        if k in ("number", "enum", "uuid"):
            return ""
        if k == "decimal":
            return f"_rt.vcheck_decimal({a})"
        if k in ("string", "bytes"):
            return f"_rt.vcheck_str(r, pos, {a}, {end})"
        if k == "struct":
            return f"{self.struct_fn(f.type.value, 'vcheck')}(r, pos, {a}, {end}, d)"
        c = self.field_codec(s, f)
        if k == "optional":
            return f"{c}.vcheck(r, pos, {a}, {self.field_attr(f)}_o, {end}, d)"
        if k == "array":
            if self.trivial_array(f):
                return ""
            return f"{c}.vcheck_slot(r, pos + {off}, pos, d)"
        return f"{c}.vcheck(r, pos, {a}, {end}, d)"

    @staticmethod
    def trivial_array(f: ir.Field) -> bool:
        """An array whose elements verify trivially (numbers, enums, uuids)."""
        ref = f.type.value
        if f.type.optional:
            return False
        if ref.kind in ("enum", "flags"):
            return True
        return ref.kind == "primitive" and ref.name not in ("string", "bytes", "decimal")
