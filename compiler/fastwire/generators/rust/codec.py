"""Each struct's part of the runtime's codecs (fastwire::Struct): straight-line calls at
the plan's slot offsets for the versioned format, its runs for the final format, JSON."""

from __future__ import annotations

from typing import List

from ... import ir, lower
from .enums import Enums


class Codec(Enums):
    def emit_codec(self, s: ir.StructType, name: str, fields: list, names: List[str],
                   layout: lower.StructLayout) -> None:
        e = self.emit
        u = "" if fields else "_"  # parameters a struct without fields does not use
        e("",
          f"impl ::fastwire::Struct for {name} {{",
          f'    const NAME: &\'static str = "{s.qualified_name}";',
          f"    const TYPE: u32 = {layout.type_number};",
          f"    const BODY: usize = {layout.body_size};",
          f"    const FINAL_MIN: usize = {layout.final_min};",
          "")
        # versioned write
        # Heap bytes: only fields that are not one value in their slot have any.
        terms = [f"self.{n}.v_extra()" for (_f, fl, _), n in zip(fields, names)
                 if not fl.wire.is_value]
        extra = " + ".join(terms) or "0"
        if len(extra) + 8 > 120:  # as rustfmt breaks a long sum
            extra = "\n    + ".join(terms)
        self.fn_body("fn v_extra_fields(&self) -> usize", extra.split("\n"), inline=True)
        # Values in their slot are stored at constant positions of the body; then the
        # fields with heap blocks, in field order (the blocks' order).
        body = layout.body_size
        values = [(fl, n) for (_f, fl, _), n in zip(fields, names) if fl.wire.is_value]
        # `body` is the body's bytes (carved from the message by the writer), `pos` where it
        # starts; each heap field gets its slot's bytes: stores without bounds checks.
        write = [f"let b = ::fastwire::versioned::body_mut::<{body}>(body);",
                 "b[0..8].copy_from_slice(&::fastwire::versioned::header::<Self>());"]
        write += [f"::fastwire::Fixed::store(&self.{n}, &mut b[{fl.offset}..{fl.offset + fl.slot}]);"
                  for fl, n in values]
        heap = [f"self.{n}.v_write(buf, &mut b[{fl.offset}..{fl.offset + fl.slot}], pos);"
                for (_f, fl, _), n in zip(fields, names) if not fl.wire.is_value]
        write += heap
        hu = "" if heap else "_"  # a struct of values only appends nothing
        self.fn_body(f"fn v_write_fields(&self, {hu}buf: &mut ::fastwire::versioned::Writer<'_>, body: &mut [u8], "
                     f"{hu}pos: usize)", write, inline=True)
        # versioned read
        e("    #[inline]", "    fn v_read_fields(",
          "        &mut self,",
          f"        {u}r: &mut ::fastwire::versioned::Reader<'_>,",
          f"        {u}pos: usize,",
          f"        {u}body: &[u8],",
          f"        {u}depth: u32,",
          "    ) -> ::fastwire::Result<()> {")
        if fields:
            # `body` is the stored body (checked to lie in the message): at least this
            # version's size, or an older, shorter one. Values load from it at constant
            # positions, the other fields' slots (offsets) are handed over as its bytes.
            e(f"        let Some(b) = body.first_chunk::<{body}>() else {{",
              "            return self.v_read_older(r, pos, body.len(), depth);",
              "        };")
            for (_f, fl, _), n in zip(fields, names):
                o, end = fl.offset, fl.offset + fl.slot
                if fl.wire.is_value:
                    e(f"        self.{n} = ::fastwire::Fixed::load(&b[{o}..{end}])?;")
                else:
                    e(f"        self.{n}.v_read_slot(r, &b[{o}..{end}], pos + {o}, pos, depth)?;")
        e("        Ok(())", "    }", "")
        # versioned verify
        checked = [fl for (_f, fl, _) in fields if not fl.wire.is_value or fl.wire.kind == "decimal"]
        vu = "" if checked else "_"  # parameters a verify with nothing to check does not use
        e("    #[inline]", "    fn v_verify_fields(",
          f"        {vu}r: &mut ::fastwire::versioned::Reader<'_>,",
          f"        {vu}pos: usize,",
          f"        {vu}stored: usize,",
          f"        {vu}depth: u32,",
          "    ) -> ::fastwire::Result<()> {")
        for (_f, fl, _), n in zip(fields, names):
            if fl.wire.is_value and fl.wire.kind != "decimal":
                continue  # any bytes are a value: nothing to check
            e(f"        if {fl.offset + fl.slot} <= stored {{",
              f"            ::fastwire::versioned::verify_field(|v: &Self| &v.{n}, r, pos + {fl.offset}, pos, depth)?;",
              "        }")
        e("        Ok(())", "    }", "")
        # final
        runs = {run.first: run for run in layout.final_runs}
        fwrite: List[str] = []
        fread: List[str] = []
        fverify: List[str] = []
        fsize: List[str] = []
        fixed = 0
        i = 0
        while i < len(fields):
            run = runs.get(i)
            if run is None:
                n = names[i]
                fsize.append(f"self.{n}.f_size()")
                fwrite.append(f"self.{n}.f_write(buf);")
                fread.append(f"self.{n}.f_read(r, depth)?;")
                fverify.append(f"::fastwire::final_format::verify_field(|v: &Self| &v.{n}, r, depth)?;")
                i += 1
                continue
            # A run of fixed-size values: one bounds check, then constant positions. A
            # string or bytes field right after it has its length read with the run.
            size = run.size
            members = [(fields[j][1], names[j], run.offsets[j - run.first]) for j in run.indexes]
            after = i + run.count
            text = None
            if after < len(fields) and runs.get(after) is None:
                t = fields[after][0].type
                if (t.container is None and not t.optional and t.value.kind == "primitive"
                        and t.value.name in ("string", "bytes")):
                    text = names[after]
            take = size + (4 if text else 0)
            fixed += size
            fwrite.append(f"let b = buf.take::<{take}>();")
            fread.append(f"let b = r.take::<{take}>()?;")
            decimals = [(o, fl) for fl, _n, o in members if fl.wire.kind == "decimal"]
            if decimals or text:
                fverify.append(f"let b = r.take::<{take}>()?;")
                fverify += [f"::fastwire::fixed::check_decimal(&b[{o}..{o + 16}])?;" for o, _ in decimals]
            else:
                fverify.append(f"r.skip::<{size}>()?;")
            for fl, n, o in members:
                end = o + (fl.wire.final_size or 0)
                fwrite.append(f"::fastwire::Fixed::store(&self.{n}, &mut b[{o}..{end}]);")
                fread.append(f"self.{n} = ::fastwire::Fixed::load(&b[{o}..{end}])?;")
            i += run.count
            if text:
                fsize.append(f"self.{text}.f_size()")
                payload = "::fastwire::final_format::Payload"
                fwrite.append(f"{payload}::f_write_payload(&self.{text}, &mut b[{size}..{take}], buf);")
                fread.append(f"{payload}::f_read_payload(&mut self.{text}, &b[{size}..{take}], r)?;")
                fverify.append(f"r.take_slice(::fastwire::versioned::word(&b[{size}..{take}]) as usize)?;")
                i += 1
        # The exact size first (the message is written into a block of that size).
        terms = fsize + ([str(fixed)] if fixed else [])
        total = " + ".join(terms) or "0"
        if len(total) + 8 > 120:  # as rustfmt breaks a long sum
            total = "\n    + ".join(terms)
        self.fn_body("fn f_size_fields(&self) -> usize", total.split("\n"), inline=True)
        self.fn_body(f"fn f_write_fields(&self, {u}buf: &mut ::fastwire::final_format::Writer<'_>)", fwrite,
                     inline=True)
        # depth goes to the fields read through their codec only
        du = "" if any("depth" in line for line in fread + fverify) else "_"
        for fname, params, fbody in (
                ("f_read_fields", ["&mut self", f"{u}r: &mut ::fastwire::final_format::Reader<'_>", f"{du}depth: u32"],
                 fread),
                ("f_verify_fields", [f"{u}r: &mut ::fastwire::final_format::Reader<'_>", f"{du}depth: u32"],
                 fverify)):
            e("    #[inline]")
            one = f"    fn {fname}({', '.join(params)}) -> ::fastwire::Result<()> {{"
            if len(one) <= 120:  # rustfmt's max_width (rust/rustfmt.toml)
                e(one)
            else:
                e(f"    fn {fname}(", *[f"        {x}," for x in params], "    ) -> ::fastwire::Result<()> {")
            for line in fbody:
                e(f"        {line}")
            e("        Ok(())", "    }", "")
        # json
        self.fn_body(f"fn j_write_fields(&self, {u}out: &mut String)",
                     [line for i, ((f, fl, _), n) in enumerate(zip(fields, names))
                      for line in (f'::fastwire::json::key(out, "{f.name}", '
                                   f'{"true" if i == 0 else "false"});',
                                   f"self.{n}.j_write(out);")])
        e("    fn j_read_field(",
          "        &mut self,",
          f"        {u}name: &str,",
          f"        {u}v: &::fastwire::json::Value<'_>,",
          f"        {u}ctx: &mut ::fastwire::json::Context,",
          "    ) -> ::fastwire::Result<()> {")
        if fields:
            e("        match name {")
            for (f, _fl, _), n in zip(fields, names):
                e(f'            "{f.name}" => self.{n}.j_read(v, ctx),')
            e("            _ => Ok(()),", "        }")
        else:
            e("        Ok(())")
        e("    }", "}", "")
        e(f"::fastwire::impl_struct!({name});")
        if fields:
            # older, shorter bodies: fields beyond the stored size take their defaults
            e("",
              f"impl {name} {{",
              "    #[cold]",
              "    fn v_read_older(",
              "        &mut self,",
              "        r: &mut ::fastwire::versioned::Reader<'_>,",
              "        pos: usize,",
              "        stored: usize,",
              "        depth: u32,",
              "    ) -> ::fastwire::Result<()> {",
              "        let defaults = Self::default();")
            for (_f, fl, _), n in zip(fields, names):
                e(f"        if {fl.offset + fl.slot} <= stored {{",
                  f"            self.{n}.v_read(r, pos + {fl.offset}, pos, depth)?;",
                  "        } else {",
                  f"            self.{n} = defaults.{n};",
                  "        }")
            e("        Ok(())", "    }", "}")

    def fn_body(self, signature: str, body: List[str], inline: bool = False) -> None:
        """A method of an impl block: `{}` when its body is empty, as rustfmt writes it;
        `inline`: marked `#[inline]` (the codec's per-struct methods, so a struct's fields
        are read and written straight in its parent's code)."""
        if inline:
            self.emit("    #[inline]")
        if not body:
            self.emit(f"    {signature} {{}}", "")
            return
        self.emit(f"    {signature} {{", *[f"        {line}" for line in body], "    }", "")
