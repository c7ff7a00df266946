"""Each struct's part of the runtime's codecs (fastwire::Struct) from the codec plan:
straight-line calls at the steps' offsets (a run of final values: one bounds check)."""

from __future__ import annotations

from typing import List, Optional

from ... import ir, layouts, lower
from .types import Types, match, wrapped

_IMPL = """

impl ::fastwire::Struct for $name$ {
    const NAME: &'static str = "$qualified$";
    const TYPE: u32 = $type$;
    const BODY: usize = $body$;
    const FINAL_MIN: usize = $min$;
"""
_VR = "r: &mut ::fastwire::versioned::Reader<'_>"
_FR = "r: &mut ::fastwire::final_format::Reader<'_>"
_RESULT = "::fastwire::Result<()>"


def store(name: str, start: int, end: int) -> str:
    """The write of value field `name` to the bytes `start..end` of `b`."""
    return f"::fastwire::Fixed::store(&self.{name}, &mut b[{start}..{end}]);"


def load(name: str, start: int, end: int) -> str:
    """The read of value field `name` from the bytes `start..end` of `b`."""
    return f"self.{name} = ::fastwire::Fixed::load(&b[{start}..{end}])?;"


def sum_lines(terms: List[str]) -> List[str]:
    """`a + b + …` as rustfmt writes it: on one line, or one term a line when too long."""
    one = " + ".join(terms) or "0"
    return ("\n    + ".join(terms) if len(one) + 8 > 120 else one).split("\n")


class Codec(Types):
    def method(self, head: str, params: List[str], ret: str, body: List[str], attr: Optional[str] = "#[inline]",
               blank: bool = True) -> None:
        """A method as rustfmt writes it (one line if it fits in 120 columns, else a parameter
        a line; `{}` when empty), #[inline] for codecs: a struct's fields are coded in its
        parent's code. `blank`: a blank line first."""
        if blank:
            self.emit("")
        if attr:
            self.emit(f"    {attr}")
        lines = wrapped(f"fn {head}(", params, f") -> {ret} {{" if ret else ") {", 116)
        if body:
            lines += [f"    {line}" for line in body] + ["}"]
        else:
            lines[-1] += "}"
        self.emit(*[f"    {line}" for line in lines])

    def emit_codec(self, s: ir.StructType, name: str, names: List[str], layout: lower.StructLayout) -> None:
        plan = layout.plan
        u = "" if names else "_"  # unused by a struct without fields
        body = layout.body_size
        # Versioned: the values stored at their positions, then the heap fields in order.
        write = [f"let b = ::fastwire::versioned::body_mut::<{body}>(body);",
                 "b[0..8].copy_from_slice(&::fastwire::versioned::header::<Self>());"]
        extra: List[str] = []
        heap, read, verify, older = [], [], [], []
        for step in plan.versioned.steps:
            values = step.op == "values"
            for f in step.fields:
                n, o = names[f.index], f.at
                assert o is not None  # versioned: every field is at its offset
                end = o + f.wire.slot
                if values:
                    write.append(store(n, o, end))
                    read.append(load(n, o, end))
                else:
                    extra.append(f"self.{n}.v_extra()")
                    heap.append(f"self.{n}.v_write(buf, &mut b[{o}..{end}], pos);")
                    read.append(f"self.{n}.v_read_slot(r, &b[{o}..{end}], pos + {o}, pos, depth)?;")
                if not values or f.helper == "decimal":  # other values: any bytes are one
                    verify += [f"if {end} <= stored {{", "    ::fastwire::versioned::verify_field("
                               f"|v: &Self| &v.{n}, r, pos + {o}, pos, depth)?;", "}"]
                older += [f"if {end} <= stored {{", f"    self.{n}.v_read(r, pos + {o}, pos, depth)?;",
                          "} else {", f"    self.{n} = defaults.{n};", "}"]
        if names:
            # `body` is the stored body: this version's size or more, or an older one's.
            read[:0] = [f"let Some(b) = body.first_chunk::<{body}>() else {{",
                        "    return self.v_read_older(r, pos, body.len(), depth);", "};"]
        self.p.print(_IMPL, name=name, qualified=s.qualified_name, type=layout.type_number, body=body,
                     min=layout.final_min)
        self.method("v_extra_fields", ["&self"], "usize", sum_lines(extra))
        hu = "" if heap else "_"  # a struct of values only appends nothing
        # `body`: the body's bytes (carved from the message by the writer) at `pos`.
        self.method("v_write_fields", ["&self", f"{hu}buf: &mut ::fastwire::versioned::Writer<'_>",
                                       "body: &mut [u8]", f"{hu}pos: usize"], "", write + heap)
        self.method("v_read_fields", ["&mut self", u + _VR, f"{u}pos: usize", f"{u}body: &[u8]", f"{u}depth: u32"],
                    _RESULT, read + ["Ok(())"])
        vu = "" if verify else "_"  # unused by a verify with nothing to check
        self.method("v_verify_fields", [vu + _VR, f"{vu}pos: usize", f"{vu}stored: usize", f"{vu}depth: u32"],
                    _RESULT, verify + ["Ok(())"])
        self.emit_final(u, names, plan.final.steps)
        # JSON
        self.method("j_write_fields", ["&self", f"{u}out: &mut String"], "",
                    [line for i, f in enumerate(plan.json.fields)
                     for line in (f'::fastwire::json::key(out, "{f.name}", {"true" if i == 0 else "false"});',
                                  f"self.{names[f.index]}.j_write(out);")], None)
        arms = [f'"{f.name}" => self.{names[f.index]}.j_read(v, ctx),' for f in plan.json.fields]
        self.method("j_read_field", ["&mut self", f"{u}name: &str", f"{u}v: &::fastwire::json::Value<'_>",
                                     f"{u}ctx: &mut ::fastwire::json::Context"], _RESULT,
                    match("name", arms, "_ => Ok(()),") if arms else ["Ok(())"], None)
        self.emit("}", "", f"::fastwire::impl_struct!({name});")
        if names:
            # older, shorter bodies: fields beyond the stored size take their defaults
            self.emit("", f"impl {name} {{")
            self.method("v_read_older", ["&mut self", _VR, "pos: usize", "stored: usize", "depth: u32"], _RESULT,
                        ["let defaults = Self::default();", *older, "Ok(())"], "#[cold]", False)
            self.emit("}")

    def emit_final(self, u: str, names: List[str], steps: tuple) -> None:
        """The final format by the plan's steps: the exact size, write, read, verify. A run
        of values takes its bytes at once, with the length of a string or bytes after it."""
        size: List[str] = []
        write, read, verify = [], [], []
        total = i = 0
        while i < len(steps):
            step = steps[i]
            i += 1
            if step.op != "values":
                n = names[step.field.index]
                size.append(f"self.{n}.f_size()")
                write.append(f"self.{n}.f_write(buf);")
                read.append(f"self.{n}.f_read(r, depth)?;")
                verify.append(f"::fastwire::final_format::verify_field(|v: &Self| &v.{n}, r, depth)?;")
                continue
            run = step.size
            text = names[steps[i].field.index] if i < len(steps) and steps[i].op in ("string", "bytes") else None
            take = run + (layouts.BLOCK.length_size if text else 0)  # a text's length with the run
            total += run
            write.append(f"let b = buf.take::<{take}>();")
            read.append(f"let b = r.take::<{take}>()?;")
            decimals = [f"::fastwire::fixed::check_decimal(&b[{f.at}..{f.at + (f.wire.final_size or 0)}])?;"
                        for f in step.fields if f.helper == "decimal"]
            if decimals or text:
                verify += [f"let b = r.take::<{take}>()?;", *decimals]
            else:
                verify.append(f"r.skip::<{run}>()?;")
            for f in step.fields:
                n, o = names[f.index], f.at
                end = o + (f.wire.final_size or 0)
                write.append(store(n, o, end))
                read.append(load(n, o, end))
            if text:
                i += 1
                size.append(f"self.{text}.f_size()")
                payload = "::fastwire::final_format::Payload"
                write.append(f"{payload}::f_write_payload(&self.{text}, &mut b[{run}..{take}], buf);")
                read.append(f"{payload}::f_read_payload(&mut self.{text}, &b[{run}..{take}], r)?;")
                verify.append(f"r.take_slice(::fastwire::versioned::word(&b[{run}..{take}]) as usize)?;")
        self.method("f_size_fields", ["&self"], "usize", sum_lines(size + ([str(total)] if total else [])))
        self.method("f_write_fields", ["&self", f"{u}buf: &mut ::fastwire::final_format::Writer<'_>"], "", write)
        du = "" if any("depth" in line for line in read + verify) else "_"  # to fields read by their codec
        self.method("f_read_fields", ["&mut self", u + _FR, f"{du}depth: u32"], _RESULT, read + ["Ok(())"])
        self.method("f_verify_fields", [u + _FR, f"{du}depth: u32"], _RESULT, verify + ["Ok(())"])
