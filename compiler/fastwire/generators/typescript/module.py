"""One package's ES module, in TypeScript or as JavaScript plus a `.d.ts`.

Every line holding schema text is printed as a value (Printer.value), never as a template.
"""

from __future__ import annotations

import json
import math
import os
from typing import List, Tuple

from ... import __version__, ir, lower
from ..common import docs, naming
from ..options import Options
from ..printer import Printer

RUNTIME = "@fastwire/runtime"
LANG = "typescript"

# wire scalar -> (runtime codec, TypeScript type)
SCALARS = {
    "bool": ("BOOL", "boolean"), "byte": ("BYTE", "number"), "char": ("CHAR", "number"),
    "wchar": ("WCHAR", "number"), "int8": ("INT8", "number"), "uint8": ("UINT8", "number"),
    "int16": ("INT16", "number"), "uint16": ("UINT16", "number"),
    "int32": ("INT32", "number"), "uint32": ("UINT32", "number"),
    "int64": ("INT64", "bigint"), "uint64": ("UINT64", "bigint"),
    "float": ("FLOAT", "number"), "double": ("DOUBLE", "number"),
}
# other plain kinds -> (runtime codec, TypeScript type)
PLAIN = {
    "decimal": ("DECIMAL", "rt.Decimal"), "uuid": ("UUID", "string"),
    "timestamp": ("TIMESTAMP", "bigint"), "string": ("STRING", "string"),
    "bytes": ("BYTES", "Uint8Array"),
}
# wire scalar -> (DataView accessor, size)
DATAVIEW = {
    "byte": ("Uint8", 1), "char": ("Uint8", 1), "uint8": ("Uint8", 1), "int8": ("Int8", 1),
    "int16": ("Int16", 2), "uint16": ("Uint16", 2), "int32": ("Int32", 4),
    "uint32": ("Uint32", 4), "wchar": ("Uint32", 4), "int64": ("BigInt64", 8),
    "uint64": ("BigUint64", 8), "float": ("Float32", 4), "double": ("Float64", 8),
}
ZERO = {"boolean": "false", "number": "0", "bigint": "0n", "string": '""'}


def js_string(text: str) -> str:
    """A JavaScript string literal as prettier writes it: JSON's escapes (ASCII only), in
    double quotes unless the text holds more double quotes than single ones."""
    body = json.dumps(text, ensure_ascii=True)[1:-1]
    if text.count('"') <= text.count("'"):
        return '"' + body + '"'
    out, i = [], 0
    while i < len(body):
        if body[i] == "\\":
            pair = body[i:i + 2]
            out.append('"' if pair == '\\"' else pair)
            i += 2
            continue
        out.append("\\'" if body[i] == "'" else body[i])
        i += 1
    return "'" + "".join(out) + "'"


def number_text(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0 and math.copysign(1.0, value) < 0:
        return "-0"
    return repr(float(value)).replace("e+", "e")


class Module:
    def __init__(self, schema: ir.Schema, pkg: ir.Package, options: Options,
                 model: lower.WireModel, flavor: str) -> None:
        self.schema = schema
        self.pkg = pkg
        self.options = options
        self.model = model
        self.ts = flavor == "ts"
        self.layout = model.package(pkg.name)

    # ---- names ---------------------------------------------------------------------------
    def local(self, name: str) -> str:
        return naming.ident(LANG, name)

    def qual(self, package: str, name: str) -> str:
        n = self.local(name)
        return n if package == self.pkg.name else f"${package}.{n}"

    def ref_name(self, ref: ir.TypeRef) -> str:
        assert ref.package is not None
        return self.qual(ref.package, ref.name)

    def prop(self, f: ir.Field) -> str:
        return naming.ident(LANG, f.name)

    # ---- types and codecs ----------------------------------------------------------------
    def enum_type(self, qualified: str) -> ir.EnumType:
        package, _, name = qualified.rpartition(".")
        t = self.schema.package(package).type(name)
        assert isinstance(t, ir.EnumType)
        return t

    def wire_ref(self, qualified: str) -> str:
        package, _, name = qualified.rpartition(".")
        return self.qual(package, name)

    def codec(self, w: lower.WireType) -> str:
        k = w.kind
        if k == "scalar":
            assert w.scalar is not None
            return "rt." + SCALARS[w.scalar][0]
        if k in PLAIN:
            return "rt." + PLAIN[k][0]
        if k in ("enum", "flags", "struct"):
            assert w.ref is not None
            return self.wire_ref(w.ref) + "Codec"
        assert w.element is not None
        inner = self.codec(w.element)
        if k == "optional":
            return f"rt.optional({inner})"
        if k == "array":
            return f"rt.array({inner}, {w.length})"
        if k == "sequence":
            fn = {"vector": "vector", "list": "list", "set": "set"}[w.collection or "vector"]
            return f"rt.{fn}({inner})"
        assert w.key is not None and k == "map"
        return f"rt.{w.collection}({self.codec(w.key)}, {inner})"

    def type_of(self, w: lower.WireType) -> str:
        k = w.kind
        if k == "scalar":
            assert w.scalar is not None
            return SCALARS[w.scalar][1]
        if k in PLAIN:
            return PLAIN[k][1]
        if k in ("enum", "flags", "struct"):
            assert w.ref is not None
            return self.wire_ref(w.ref)
        assert w.element is not None
        inner = self.type_of(w.element)
        if k == "optional":
            return f"{inner} | null"
        if k in ("array", "sequence"):
            return f"({inner})[]" if " " in inner else f"{inner}[]"
        assert w.key is not None
        return f"Map<{self.type_of(w.key)}, {inner}>"

    def base_type(self, scalar: str) -> str:
        return SCALARS[scalar][1]

    # ---- defaults ------------------------------------------------------------------------
    def zero(self, w: lower.WireType) -> str:
        k = w.kind
        if k == "scalar" or k in ("enum", "flags"):
            assert w.scalar is not None
            return ZERO[SCALARS[w.scalar][1]]
        if k == "decimal":
            return "rt.Decimal.ZERO"
        if k == "uuid":
            return "rt.NIL_UUID"
        if k == "timestamp":
            return "0n"
        if k == "string":
            return '""'
        if k == "bytes":
            return "new Uint8Array(0)"
        if k == "struct":
            assert w.ref is not None
            return f"new {self.wire_ref(w.ref)}()"
        if k == "optional":
            return "null"
        if k == "array":
            assert w.element is not None and w.length is not None
            z = self.zero(w.element)
            if w.length <= 8:
                return "[" + ", ".join([z] * w.length) + "]"
            return f"Array.from({{ length: {w.length} }}, () => {z})"
        if k == "sequence":
            return "[]"
        return "new Map()"

    def literal(self, lit: lower.Literal, w: lower.WireType) -> str:
        target = w.element if w.kind == "optional" and w.element is not None else w
        if lit.kind == "null":
            return "null"
        if lit.kind == "bool":
            return "true" if lit.value else "false"
        if lit.kind == "computed":
            return {"utc": "rt.utc()", "uuid1": "rt.uuid1()", "uuid4": "rt.uuid4()"}[str(lit.value)]
        if lit.kind == "integer":
            assert isinstance(lit.value, int)
            big = target.kind == "timestamp" or (target.scalar in ("int64", "uint64"))
            return f"{lit.value}n" if big else str(lit.value)
        if lit.kind == "float":
            assert isinstance(lit.value, float)
            return number_text(lit.value)
        if lit.kind == "decimal":
            return (f"new rt.Decimal({lit.coefficient}n, {lit.scale}, "
                    f"{'true' if lit.negative else 'false'})")
        if lit.kind == "string":
            return js_string(str(lit.value))
        if lit.kind == "uuid":
            raw = lit.raw
            assert isinstance(raw, bytes)
            h = raw.hex()
            return js_string(f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}")
        raise AssertionError(lit.kind)

    def default(self, s: lower.StructLayout, i: int) -> str:
        lit = s.defaults[i]
        w = s.fields[i].wire
        return self.zero(w) if lit is None else self.literal(lit, w)

    # ---- output --------------------------------------------------------------------------
    def header(self, p: Printer) -> None:
        source = docs.comment_text("typescript", os.path.basename(self.pkg.path)
                                   if self.pkg.path else self.pkg.name)
        p.value(f"// Generated by fastwire {__version__} from {source}: do not edit.")
        domain = f" (domain {self.pkg.domain})" if self.pkg.domain else ""
        p.value(f"// Package {self.pkg.name}{domain}")
        p.value(f'import * as rt from "{RUNTIME}";')
        for name in self.layout.imports:
            spec = "./" + naming.file_name("javascript", name, "module")
            p.value(f'import * as ${name} from "{spec}";')

    def structs(self) -> List[ir.StructType]:
        by = {s.qualified_name: s for s in self.pkg.structs}
        return [by[q] for q in self.layout.emission_order]

    def finish(self, p: Printer) -> str:
        """The lines as prettier (printWidth 120, tabWidth of the indent) lays them out:
        a call too long for a line gets one argument a line; an arrow function whose
        expression body is too long continues on the next line; a parameter list too long
        gets one parameter a line."""
        unit = p.unit
        out: List[str] = []
        for line in p.lines:
            out.extend(fit(line, unit))
        return "\n".join(out) + "\n"

    def render(self) -> str:
        p = Printer(indent=self.options.indent or 2, tabs=self.options.tabs)
        self.header(p)
        for t in self.pkg.types:
            if isinstance(t, ir.EnumType):
                self.emit_enum(p, t, "ts")
        for s in self.structs():
            self.emit_class(p, s, "ts")
        self.emit_codecs(p, "ts")
        for s in self.structs():
            self.emit_models(p, s, "ts")
        if self.options.proto:
            self.emit_protocol(p, "ts")
        return self.finish(p)

    def render_js(self) -> Tuple[str, str]:
        js = Printer(indent=self.options.indent or 2, tabs=self.options.tabs)
        dts = Printer(indent=self.options.indent or 2, tabs=self.options.tabs)
        self.header(js)
        self.header(dts)
        for t in self.pkg.types:
            if isinstance(t, ir.EnumType):
                self.emit_enum(js, t, "js")
                self.emit_enum(dts, t, "dts")
        for s in self.structs():
            self.emit_class(js, s, "js")
            self.emit_class(dts, s, "dts")
        self.emit_codecs(js, "js")
        self.emit_codecs(dts, "dts")
        for s in self.structs():
            self.emit_models(js, s, "js")
            self.emit_models(dts, s, "dts")
        if self.options.proto:
            self.emit_protocol(js, "js")
            self.emit_protocol(dts, "dts")
        return self.finish(js), self.finish(dts)

    # ---- enums ---------------------------------------------------------------------------
    def emit_enum(self, p: Printer, t: ir.EnumType, mode: str) -> None:
        name = self.local(t.name)
        big = self.base_type(t.base) == "bigint"
        members = [(v.name, f"{v.value}n" if big else str(v.value)) for v in t.values]
        p.value("")
        if t.doc:
            p.value(docs.block_comment("typescript", t.doc))
        if not members:
            p.value(f"export declare const {name}: {{}};" if mode == "dts" else
                    f"export const {name} = Object.freeze({{}}{' as const' if mode == 'ts' else ''});")
        elif mode == "dts":
            p.value(f"export declare const {name}: {{")
            p.indent()
            for k, v in members:
                p.value(f"readonly {k}: {v};")
            p.outdent()
            p.value("};")
        else:
            p.value(f"export const {name} = Object.freeze({{")
            p.indent()
            for k, v in members:
                p.value(f"{k}: {v},")
            p.outdent()
            p.value("} as const);" if mode == "ts" else "});")
        if mode != "js":
            p.value(f"/** {'An' if t.kind == 'enum' else 'A'} {t.kind} value of {self.pkg.name}.{t.name}: any {t.base} "
                    f"(names in {name}). */")
            p.value(f"export type {name} = {self.base_type(t.base)};")
        fn = "flagsOf" if t.kind == "flags" else "enumOf"
        base = "rt." + SCALARS[t.base][0]
        if mode == "dts":
            p.value(f"export declare const {name}Codec: rt.EnumCodec<{name}>;")
        elif mode == "ts":
            p.value(f"export const {name}Codec: rt.EnumCodec<{name}> = rt.{fn}<{name}>("
                    f"{js_string(t.qualified_name)}, {base}, {name});")
        else:
            p.value(f"export const {name}Codec = rt.{fn}({js_string(t.qualified_name)}, {base}, {name});")

    # ---- classes -------------------------------------------------------------------------
    def emit_class(self, p: Printer, s: ir.StructType, mode: str) -> None:
        name = self.local(s.name)
        lay = self.model.struct(s.qualified_name)
        p.value("")
        doc = s.doc or f"{s.kind} {s.qualified_name} (type {s.type_number})"
        p.value(docs.block_comment("typescript", doc))
        p.value(f"export {'declare ' if mode == 'dts' else ''}class {name} {{")
        p.indent()
        if mode != "js":
            for f, fl in zip(s.all_fields, lay.fields):
                if f.doc:
                    p.value(docs.block_comment("typescript", f.doc))
                bang = "!" if mode == "ts" else ""
                p.value(f"{self.prop(f)}{bang}: {self.type_of(fl.wire)};")
        init = f"init?: Partial<{name}>" if mode != "js" else "init"
        if mode == "dts":
            p.value(f"constructor({init});")
        else:
            p.value(f"constructor({init}) {{")
            p.indent()
            raw = "(init as object | undefined)" if mode == "ts" else "init"
            p.value(f"if ({raw} === rt.RAW) return; // a reader assigns every field")
            for i, f in enumerate(s.all_fields):
                p.value(f"this.{self.prop(f)} = {self.default(lay, i)};")
            p.value("if (init !== undefined) Object.assign(this, init);")
            p.outdent()
            p.value("}")
        other = f"other: {name}" if mode != "js" else "other"
        self.method(p, mode, f"equals({other})", ": boolean", f"return {name}Codec.equals(this, other);",
                    "By the schema's equality: the [key] fields, else every field.")
        self.method(p, mode, "toString()", ": string", f"return rt.text({name}Codec, this);",
                    "The printout, as C++'s operator<< writes it.")
        if self.options.json:
            self.method(p, mode, "toJson()", ": string", f"return {name}Codec.toJson(this);",
                        "fastwire's JSON text of the value.")
            args = "text: string | Uint8Array, limits?: rt.Limits" if mode != "js" else "text, limits"
            self.method(p, mode, f"static fromJson({args})", f": {name}",
                        f"return rt.fromJson({name}Codec, text, limits);",
                        "A value from JSON text; throws rt.DecodeError.")
        p.outdent()
        p.value("}")

    def method(self, p: Printer, mode: str, sig: str, ret: str, body: str, doc: str) -> None:
        p.value(f"/** {doc} */")
        if mode == "dts":
            p.value(f"{sig}{ret};")
            return
        p.value(f"{sig}{ret if mode == 'ts' else ''} {{")
        p.indent()
        p.value(body)
        p.outdent()
        p.value("}")

    # ---- codecs --------------------------------------------------------------------------
    def emit_codecs(self, p: Printer, mode: str) -> None:
        structs = self.structs()
        if not structs:
            return
        p.value("")
        for s in structs:
            name = self.local(s.name)
            if mode == "dts":
                p.value(f"export declare const {name}Codec: rt.StructCodec<{name}>;")
            else:
                t = f": rt.StructCodec<{name}>" if mode == "ts" else ""
                p.value(f"export const {name}Codec{t} = new rt.StructCodec({name}, "
                        f"{js_string(s.qualified_name)}, {s.type_number});")
        if mode == "dts":
            return
        for s in structs:
            name = self.local(s.name)
            lay = self.model.struct(s.qualified_name)
            p.value("")
            fsize = "null" if lay.final_size is None else str(lay.final_size)
            entries = []
            for f, fl in zip(s.all_fields, lay.fields):
                key = ", key: true" if lay.keyed and f.name in lay.equality else ""
                entries.append((f"name: {js_string(f.name)}", f"prop: {js_string(self.prop(f))}",
                                f"codec: {self.codec(fl.wire)}", f"offset: {fl.offset}{key}"))
            head = f"{name}Codec.define({lay.body_size}, {lay.final_min}, {fsize}, ["
            one = head + ", ".join("{ " + ", ".join(e) + " }" for e in entries) + "]);"
            if len(one) <= WIDTH:  # as prettier: an array that fits stays on its line
                p.value(one)
            else:
                p.value(head)
                p.indent()
                unit = p.unit
                for e in entries:
                    line = "{ " + ", ".join(e) + " },"
                    if len(unit + line) <= WIDTH:
                        p.value(line)
                    else:  # an object too long for its line: a property a line
                        p.value("{")
                        p.indent()
                        for prop in e:
                            for part in prop.split(", key"):
                                p.value((part if part.startswith(("name", "prop", "codec", "offset"))
                                         else "key" + part) + ",")
                        p.outdent()
                        p.value("},")
                p.outdent()
                p.value("]);")
            self.emit_fast(p, s, mode)

    # ---- hot paths: straight-line code per struct over the lowered layout -------------
    def dv_read(self, w: lower.WireType, pos: str, view: str = "dv") -> str:
        if w.kind == "decimal":
            return f"rt.DECIMAL.read(r, {pos})"
        if w.kind == "uuid":
            return f"rt.UUID.read(r, {pos})"
        scalar = "uint64" if w.kind == "timestamp" else w.scalar
        assert scalar is not None
        if scalar == "bool":
            return f"{view}.getUint8({pos}) !== 0"
        t, size = DATAVIEW[scalar]
        return f"{view}.get{t}({pos}{', true' if size > 1 else ''})"

    def dv_write(self, w: lower.WireType, pos: str, value: str, view: str = "dv") -> str:
        if w.kind == "decimal":
            return f"rt.DECIMAL.write(w, {pos}, {value});"
        if w.kind == "uuid":
            return f"rt.UUID.write(w, {pos}, {value});"
        scalar = "uint64" if w.kind == "timestamp" else w.scalar
        assert scalar is not None
        if scalar == "bool":
            return f"{view}.setUint8({pos}, {value} ? 1 : 0);"
        t, size = DATAVIEW[scalar]
        return f"{view}.set{t}({pos}, {value}{', true' if size > 1 else ''});"

    @staticmethod
    def struct_seq(w: lower.WireType) -> bool:
        """A vector or list of structs: read and checked by loops in the generated code."""
        return (w.kind == "sequence" and w.collection in ("vector", "list")
                and w.element is not None and w.element.kind == "struct")

    @staticmethod
    def optional_struct(w: lower.WireType) -> bool:
        return w.kind == "optional" and w.element is not None and w.element.kind == "struct"

    def emit_opt_struct(self, p: Printer, prop: str, w: lower.WireType, offset: int, check: bool) -> None:
        """A struct optional, versioned: its value block found and its body read in line."""
        assert w.element is not None
        ec = self.codec(w.element)
        if check:
            p.value(f"if (r.buf[at + {offset}] !== 0) {{")
            p.indent()
            p.value(f"const b = rt.voptional(r, at, at + {offset}, 4);")
            p.value(f"{ec}.checkAt(r, b, r.view.getUint32(b, true), b + 4, d - 1);")
            p.outdent()
            p.value("}")
            return
        p.value(f"if (r.buf[at + {offset}] === 0) v.{prop} = null;")
        p.value("else {")
        p.indent()
        p.value(f"const b = rt.voptional(r, at, at + {offset}, 4);")
        p.value(f"v.{prop} = {ec}.getAt(r, b, r.view.getUint32(b, true), b + 4, d - 1);")
        p.outdent()
        p.value("}")

    def emit_seq_get(self, p: Printer, prop: str, w: lower.WireType, offset: int, versioned: bool,
                     ts: bool, check: bool) -> None:
        assert w.element is not None
        ec = self.codec(w.element)
        p.value("{")
        p.indent()
        if versioned:
            p.value(f"const so = r.view.getUint32(at + {offset}, true);")
            if not check:
                p.value(f"const out{': ' + self.type_of(w) if ts else ''} = [];")
            p.value("if (so !== 0) {")
            p.indent()
            p.value(f"let p = rt.vcount(r, at, so, at + {offset + 4}, 4);")
            p.value("const n = r.p;")
            p.value("for (let i = 0; i < n; i++, p += 4) {")
            p.indent()
            call = f"{ec}.{'checkAt' if check else 'getAt'}(r, at, r.view.getUint32(p, true), p + 4, d - 1)"
            p.value(f"{call};" if check else f"out.push({call});")
            p.outdent()
            p.value("}")
            p.outdent()
            p.value("}")
        else:
            p.value(f"const n = rt.fcount(r, {w.element.final_min});")
            if not check:
                p.value(f"const out{': ' + self.type_of(w) if ts else ''} = [];")
            p.value("for (let i = 0; i < n; i++) {")
            p.indent()
            p.value(f"{ec}.fcheck(r, d - 1);" if check else f"out.push({ec}.fget(r, d - 1));")
            p.outdent()
            p.value("}")
        if not check:
            p.value(f"v.{prop} = out;")
        p.outdent()
        p.value("}")

    def emit_fast(self, p: Printer, s: ir.StructType, mode: str) -> None:
        name = self.local(s.name)
        lay = self.model.struct(s.qualified_name)
        ts = mode == "ts"
        c = f"{name}Codec"
        F = f"_F_{name}"

        def t(text: str) -> str:
            return text if ts else ""

        bang = "!" if ts else ""
        fields = list(zip(s.all_fields, lay.fields))
        values = [(f, fl) for f, fl in fields if fl.wire.is_value]
        others = [(f, fl) for f, fl in fields if not fl.wire.is_value]
        nested = bool(others)
        p.value(f"const {F}{t(': readonly rt.AnyCodec[]')} = {c}.fields.map((f) => f.codec);")
        if not others:
            p.value(f"void {F};")
        cls = f"new {name}(rt.RAW{t(f' as Partial<{name}>')})"
        # versioned write: the header and the values at once, then each field's blocks in order
        p.value(f"{c}.put = (w{t(': rt.Writer')}, v{t(f': {name}')}){t(': number')} => {{")
        p.indent()
        p.value(f"const at = w.reserve({lay.body_size});")
        p.value("const dv = w.view;")
        p.value(f"dv.setUint32(at, {lay.body_size}, true);")
        p.value(f"dv.setUint32(at + 4, {lay.type_number}, true);")
        for f, fl in values:
            p.value(self.dv_write(fl.wire, f"at + {fl.offset}", f"v.{self.prop(f)}"))
        for f, fl in others:
            if fl.wire.kind == "struct":
                sc = self.codec(fl.wire)
                # (the body is put first: it may grow the buffer, and so replace w.view)
                p.value(f"const o{fl.index} = {sc}.put(w, v.{self.prop(f)});")
                p.value(f"w.view.setUint32(at + {fl.offset}, o{fl.index} - at, true);")
            else:
                p.value(f"{F}[{fl.index}]{bang}.vput(w, at + {fl.offset}, at, v.{self.prop(f)});")
        p.value("return at;")
        p.outdent()
        p.value("};")
        # versioned read: this version or a newer one in line; an older one generically
        sig = (f"(r{t(': rt.Reader')}, base{t(': number')}, off{t(': number')}, "
               f"slotEnd{t(': number')}, d{t(': number')})")
        p.value(f"{c}.getAt = {sig}{t(f': {name}')} => {{")
        p.indent()
        p.value(f"const at = {c}.enter(r, base, off, slotEnd, d);")
        p.value(f"if (r.p < {lay.body_size}) return {c}.getOlder(r, at, r.p, d);")
        if values:
            p.value("const dv = r.view;")
        p.value(f"const v = {cls};")
        for f, fl in fields:
            if fl.wire.is_value:
                p.value(f"v.{self.prop(f)} = {self.dv_read(fl.wire, f'at + {fl.offset}')};")
            elif fl.wire.kind == "struct":
                p.value(f"v.{self.prop(f)} = {self.codec(fl.wire)}.getAt(r, at, "
                        f"r.view.getUint32(at + {fl.offset}, true), at + {fl.offset + 4}, d - 1);")
            elif fl.wire.kind == "string":
                p.value(f"v.{self.prop(f)} = rt.vgetString(r, at + {fl.offset}, at);")
            elif self.optional_struct(fl.wire):
                self.emit_opt_struct(p, self.prop(f), fl.wire, fl.offset, False)
            elif self.struct_seq(fl.wire):
                self.emit_seq_get(p, self.prop(f), fl.wire, fl.offset, True, ts, False)
            else:
                p.value(f"v.{self.prop(f)} = {F}[{fl.index}]{bang}.vget(r, at + {fl.offset}, at, d - 1);")
        p.value("return v;")
        p.outdent()
        p.value("};")
        slot = f"(r{t(': rt.Reader')}, pos{t(': number')}, base{t(': number')}, d{t(': number')})"
        p.value(f"{c}.vget = {slot}{t(f': {name}')} => {c}.getAt(r, base, r.view.getUint32(pos, true), "
                "pos + 4, d);")
        p.value(f"{c}.vcheck = {slot}{t(': void')} => {c}.checkAt(r, base, r.view.getUint32(pos, true), "
                "pos + 4, d);")
        # versioned check: the header's checks as two conditions (when one fails, the
        # generic enter() runs to throw the precise error), the budget kept in a local
        # (written back around nested calls), text blocks checked in line
        p.value(f"{c}.checkAt = {sig}{t(': void')} => {{")
        p.indent()
        p.value("const end = r.end;")
        p.value("const at = base + off;")
        p.value(f"if (off === 0 || at < slotEnd || at + 8 > end) {c}.enter(r, base, off, slotEnd, d);")
        p.value("const dv = r.view;")
        p.value("const stored = dv.getUint32(at, true);")
        p.value(f"if (stored < 8 || stored > end - at || dv.getUint32(at + 4, true) !== {lay.type_number} || "
                "d < 1 || stored > r.budget) {")
        p.indent()
        p.value(f"{c}.enter(r, base, off, slotEnd, d);")
        p.outdent()
        p.value("}")
        p.value("r.budget -= stored;")
        p.value(f"if (stored < {lay.body_size}) return {c}.checkOlder(r, at, stored, d);")
        for _f, fl in fields:
            if fl.wire.kind == "decimal":
                p.value(f"if (r.buf[at + {fl.offset + 14}]{bang} > 28) rt.DECIMAL.vcheck(r, at + {fl.offset}, at, d);")
            elif fl.wire.kind == "struct":
                p.value(f"{self.codec(fl.wire)}.checkAt(r, at, dv.getUint32(at + {fl.offset}, true), "
                        f"at + {fl.offset + 4}, d - 1);")
            elif fl.wire.kind in ("string", "bytes"):
                p.value("{")
                p.indent()
                p.value(f"const o = dv.getUint32(at + {fl.offset}, true);")
                p.value("if (o !== 0) {")
                p.indent()
                p.value("const q = at + o;")
                p.value(f"if (q < at + {fl.offset + 4} || q + 4 > end) rt.vblock(r, at, o, at + {fl.offset + 4});")
                p.value("const n = dv.getUint32(q, true) + 4;")
                p.value(f"if (n > end - q || n > r.budget) rt.vblock(r, at, o, at + {fl.offset + 4});")
                p.value("r.budget -= n;")
                p.outdent()
                p.value("}")
                p.outdent()
                p.value("}")
            elif self.optional_struct(fl.wire):
                self.emit_opt_struct(p, "", fl.wire, fl.offset, True)
            elif self.struct_seq(fl.wire):
                self.emit_seq_get(p, "", fl.wire, fl.offset, True, ts, True)
            elif not fl.wire.is_value:
                p.value(f"{F}[{fl.index}]{bang}.vcheck(r, at + {fl.offset}, at, d - 1);")
        p.outdent()
        p.value("};")
        if not self.options.final:
            return
        runs = {run.first: run for run in lay.final_runs}
        # final write: runs of values at once
        if not fields:
            p.value(f"{c}.fput = (w{t(': rt.Writer')}, v{t(f': {name}')}){t(': void')} => {{}};")
        else:
            p.value(f"{c}.fput = (w{t(': rt.Writer')}, v{t(f': {name}')}){t(': void')} => {{")
        p.indent()
        i = 0
        while i < len(fields):
            f, fl = fields[i]
            run = runs.get(i)
            if run is not None:
                p.value(f"w.ensure({run.size});")
                p.value("{")
                p.indent()
                p.value("const dv = w.view;")
                p.value("const p = w.len;")
                for k in run.indexes:
                    g, gl = fields[k]
                    p.value(self.dv_write(gl.wire, f"p + {run.offsets[k - run.first]}", f"v.{self.prop(g)}"))
                p.value(f"w.len = p + {run.size};")
                p.outdent()
                p.value("}")
                i += run.count
                continue
            if fl.wire.kind == "struct":
                p.value(f"{self.codec(fl.wire)}.fput(w, v.{self.prop(f)});")
            else:
                p.value(f"{F}[{fl.index}]{bang}.fput(w, v.{self.prop(f)});")
            i += 1
        p.outdent()
        if fields:
            p.value("};")
        for what in ("fget",):
            get = what == "fget"
            ret = f": {name}" if get else ": void"
            p.value(f"{c}.{what} = (r{t(': rt.Reader')}, d{t(': number')}){t(ret)} => {{")
            p.indent()
            p.value('if (d < 1) rt.fail("too_deep");')
            if get:
                p.value(f"const v = {cls};")
            i = 0
            while i < len(fields):
                f, fl = fields[i]
                run = runs.get(i)
                if run is not None:
                    p.value("{")
                    p.indent()
                    p.value(f"const p = rt.needFinal(r, {run.size});")
                    if get:
                        p.value("const dv = r.view;")
                    for k in run.indexes:
                        g, gl = fields[k]
                        pos = f"p + {run.offsets[k - run.first]}"
                        if get:
                            p.value(f"v.{self.prop(g)} = {self.dv_read(gl.wire, pos)};")
                        elif gl.wire.kind == "decimal":
                            p.value(f"rt.DECIMAL.vcheck(r, {pos}, 0, d);")
                    if not get and not any(fields[k][1].wire.kind == "decimal" for k in run.indexes):
                        p.value("void p;")
                    p.outdent()
                    p.value("}")
                    i += run.count
                    continue
                target = self.codec(fl.wire) if fl.wire.kind == "struct" else f"{F}[{fl.index}]{bang}"
                if fl.wire.kind == "string" and get:
                    p.value(f"v.{self.prop(f)} = rt.fgetString(r);")
                elif fl.wire.kind in ("string", "bytes") and not get:
                    p.value("rt.fcheckText(r);")
                elif self.struct_seq(fl.wire):
                    self.emit_seq_get(p, self.prop(f), fl.wire, 0, False, ts, not get)
                elif self.optional_struct(fl.wire):
                    assert fl.wire.element is not None
                    ec = self.codec(fl.wire.element)
                    if get:
                        p.value(f"v.{self.prop(f)} = r.buf[rt.needFinal(r, 1)] !== 0 ? {ec}.fget(r, d - 1) : null;")
                    else:
                        p.value(f"if (r.buf[rt.needFinal(r, 1)] !== 0) {ec}.fcheck(r, d - 1);")
                elif get:
                    p.value(f"v.{self.prop(f)} = {target}.fget(r, d - 1);")
                else:
                    p.value(f"{target}.fcheck(r, d - 1);")
                i += 1
            if get:
                p.value("return v;")
            elif not nested and not values:
                p.value("void r;")
            p.outdent()
            p.value("};")
        self.emit_fskip(p, s, mode)

    def emit_fskip(self, p: Printer, s: ir.StructType, mode: str) -> None:
        """The final check: the cursor in a local (fskip returns where the struct ends), one
        bounds check per run of values and per length or count; nested structs by fskip."""
        name = self.local(s.name)
        lay = self.model.struct(s.qualified_name)
        ts = mode == "ts"
        c = f"{name}Codec"
        F = f"_F_{name}"

        def t(text: str) -> str:
            return text if ts else ""

        bang = "!" if ts else ""
        fields = list(zip(s.all_fields, lay.fields))
        runs = {run.first: run for run in lay.final_runs}
        p.value(f"{c}.fskip = (r{t(': rt.Reader')}, p{t(': number')}, d{t(': number')}){t(': number')} => {{")
        p.indent()
        p.value('if (d < 1) rt.fail("too_deep");')
        body: List[str] = []
        in_reader = False  # the cursor is in r.p (after a generic codec's fcheck), not in p

        def local() -> None:
            nonlocal in_reader
            if in_reader:
                body.append("p = r.p;")
                in_reader = False

        i = 0
        while i < len(fields):
            f, fl = fields[i]
            run = runs.get(i)
            if run is not None or fl.wire.kind in ("string", "bytes", "struct") or self.optional_struct(fl.wire) \
                    or self.struct_seq(fl.wire):
                local()
            if run is not None:
                body.append(f'if ({run.size} > end - p) rt.fail("truncated");')
                for k in run.indexes:
                    gl = fields[k][1]
                    if gl.wire.kind == "decimal":
                        pos = f"p + {run.offsets[k - run.first]}"
                        body.append(f"if (r.buf[{pos} + 14]{bang} > 28) rt.DECIMAL.vcheck(r, {pos}, 0, d);")
                body.append(f"p += {run.size};")
                i += run.count
                continue
            w = fl.wire
            if w.kind in ("string", "bytes"):
                body.append("{")
                body.append('    if (4 > end - p) rt.fail("truncated");')
                body.append("    const n = dv.getUint32(p, true);")
                body.append("    p += 4;")
                body.append('    if (n > end - p) rt.fail("truncated");')
                body.append("    p += n;")
                body.append("}")
            elif w.kind == "struct":
                body.append(f"p = {self.codec(w)}.fskip(r, p, d - 1);")
            elif self.optional_struct(w):
                assert w.element is not None
                body.append('if (1 > end - p) rt.fail("truncated");')
                body.append(f"if (r.buf[p++] !== 0) p = {self.codec(w.element)}.fskip(r, p, d - 1);")
            elif self.struct_seq(w):
                assert w.element is not None
                emin = w.element.final_min
                body.append("{")
                body.append('    if (4 > end - p) rt.fail("truncated");')
                body.append("    const n = dv.getUint32(p, true);")
                body.append("    p += 4;")
                if emin > 0:
                    body.append(f'    if (n * {emin} > end - p) rt.fail("truncated");')
                else:
                    body.append("    rt.zeroSized(r, n);")
                body.append("    for (let i = 0; i < n; i++) {")
                body.append(f"        p = {self.codec(w.element)}.fskip(r, p, d - 1);")
                body.append("    }")
                body.append("}")
            else:
                if not in_reader:
                    body.append("r.p = p;")
                    in_reader = True
                body.append(f"{F}[{fl.index}]{bang}.fcheck(r, d - 1);")
            i += 1
        text = "\n".join(body)
        if "end" in text:
            p.value("const end = r.end;")
        if "dv." in text:
            p.value("const dv = r.view;")
        for line in body:
            p.value(line)
        p.value("return r.p;" if in_reader else "return p;")
        p.outdent()
        p.value("};")
        p.value(f"{c}.fcheck = (r{t(': rt.Reader')}, d{t(': number')}){t(': void')} => {{")
        p.indent()
        p.value(f"r.p = {c}.fskip(r, r.p, d);")
        p.outdent()
        p.value("};")

    def emit_models(self, p: Printer, s: ir.StructType, mode: str) -> None:
        name = self.local(s.name)
        kinds = [("Model", "versioned")] + ([("FinalModel", "final")] if self.options.final else [])
        for kind, what in kinds:
            p.value("")
            p.value(f"/** {s.qualified_name} as one root model in the {what} format. */")
            if mode == "dts":
                p.value(f"export declare class {name}{kind} extends rt.{kind}<{name}> {{")
                p.indent()
                p.value("constructor(limits?: rt.Limits);")
                p.outdent()
                p.value("}")
                continue
            gen = f"<{name}>" if mode == "ts" else ""
            arg = "limits?: rt.Limits" if mode == "ts" else "limits"
            p.value(f"export class {name}{kind} extends rt.{kind}{gen} {{")
            p.indent()
            p.value(f"constructor({arg}) {{")
            p.indent()
            p.value(f"super({name}Codec, limits);")
            p.outdent()
            p.value("}")
            p.outdent()
            p.value("}")

    # ---- protocol ------------------------------------------------------------------------
    def emit_protocol(self, p: Printer, mode: str) -> None:
        by = {s.qualified_name: s for s in self.pkg.structs}
        sent = [by[q] for q in self.layout.sends]
        requests = [s for s in sent if s.request and s.response is not None]
        families = [("", "false", "Model")]
        if self.options.final:
            families.append(("Final", "true", "FinalModel"))
        ts, dts = mode == "ts", mode == "dts"
        decl = "declare " if dts else ""
        what = f"what the {self.pkg.name} package's protocol sends"
        if requests:
            p.value("")
            p.value(f"/** The [request] messages of {self.pkg.name}: their responses, rejects and [id]. */")
            if dts:
                p.value("export declare const REQUESTS: readonly rt.RequestSpec[];")
            else:
                head = "export const REQUESTS" + (": readonly rt.RequestSpec[]" if ts else "") + " = ["
                items = []
                for s in requests:
                    assert s.response is not None
                    rejects = ", ".join(self.ref_name(r.type) for r in s.rejects)
                    idf = s.id_field
                    ident = self.prop(idf) if idf is not None else "id"
                    items.append(f"{{ request: {self.local(s.name)}, response: {self.ref_name(s.response)}, "
                                 f"rejects: [{rejects}], id: {js_string(ident)} }}")
                one = head + ", ".join(items) + "];"
                if len(one) <= WIDTH:  # as prettier: an array that fits stays on its line
                    p.value(one)
                else:
                    p.value(head)
                    p.indent()
                    for item in items:
                        p.value(item + ",")
                    p.outdent()
                    p.value("];")
        for prefix, final, model in families:
            fmt = "final" if final == "true" else "versioned"
            # Sender
            p.value("")
            p.value(f"/** Sends {what} ({fmt}): its messages, or its structs when it declares none. */")
            p.value(f"export {decl}class {prefix}Sender extends rt.Sender {{")
            p.indent()
            if dts:
                p.value("constructor();")
            else:
                p.value("constructor() {")
                p.indent()
                p.value(f"super({final});")
                for s in sent:
                    n = self.local(s.name)
                    p.value(f"this.register({n}, new {n}{model}());")
                p.outdent()
                p.value("}")
            p.outdent()
            p.value("}")
            # Receiver
            p.value("")
            p.value(f"/** Receives {what} ({fmt}): override the on<Message> hooks. */")
            p.value(f"export {decl}class {prefix}Receiver extends rt.Receiver {{")
            p.indent()
            lim = "limits?: rt.Limits" if mode != "js" else "limits"
            if dts:
                p.value(f"constructor({lim});")
            else:
                p.value(f"constructor({lim}) {{")
                p.indent()
                p.value(f"super({final}, limits);")
                for s in sent:
                    n = self.local(s.name)
                    hook = "on" + naming.pascal(s.name)
                    p.value(f"this.handle(new {n}{model}(this.limits), (v) => this.{hook}(v));")
                p.outdent()
                p.value("}")
            for s in sent:
                n = self.local(s.name)
                hook = "on" + naming.pascal(s.name)
                p.value(f"/** Called for each {s.qualified_name} received. */")
                arg = f"value: {n}" if mode != "js" else "value"
                if dts:
                    p.value(f"{hook}({arg}): void;")
                else:
                    p.value(f"{hook}({arg}){': void' if ts else ''} {{")
                    p.indent()
                    p.value("void value;")
                    p.outdent()
                    p.value("}")
            p.outdent()
            p.value("}")
            # Client
            p.value("")
            p.value(f"/** A {prefix}Sender and a {prefix}Receiver with requests matched to their responses. */")
            gen = f"<{prefix}Sender, {prefix}Receiver>" if mode != "js" else ""
            p.value(f"export {decl}class {prefix}Client extends rt.Client{gen} {{")
            p.indent()
            arg = f"receiver?: {prefix}Receiver" if mode != "js" else "receiver"
            specs = "REQUESTS" if requests else "[]"
            if dts:
                p.value(f"constructor({arg});")
            else:
                p.value(f"constructor({arg}) {{")
                p.indent()
                p.value(f"super(new {prefix}Sender(), receiver ?? new {prefix}Receiver(), {specs});")
                p.outdent()
                p.value("}")
            if requests:
                p.value("/** Sends a request; resolves with its response, or rejects with an "
                        "rt.RequestError. */")
                for s in requests:
                    assert s.response is not None
                    if mode != "js":
                        p.value(f"request(q: {self.local(s.name)}, timeoutMs?: number): "
                                f"Promise<{self.ref_name(s.response)}>;")
                if ts:
                    p.value("request(q: object, timeoutMs?: number): Promise<object> {")
                elif mode == "js":
                    p.value("request(q, timeoutMs) {")
                if not dts:
                    p.indent()
                    p.value("return this.call(q, timeoutMs);")
                    p.outdent()
                    p.value("}")
            p.outdent()
            p.value("}")




WIDTH = 120


def split_top(text: str) -> List[str]:
    """`text` split at the commas outside brackets and strings."""
    parts, depth, start, quote, i = [], 0, 0, "", 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c in "([{<" and not (c == "<" and text[i - 1:i] == " "):
            depth += 1
        elif c in ")]}>" and not (c == ">" and text[i - 1:i] in ("=", " ")):
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    parts.append(text[start:].strip())
    return [x for x in parts if x]


def matching(text: str, open_at: int) -> int:
    """The index of the bracket closing the one at `open_at` (-1: none)."""
    depth, quote, i = 0, "", open_at
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def fit(line: str, unit: str) -> List[str]:
    if len(line) <= WIDTH or line.lstrip().startswith(("//", "/*", "*")):
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    body = line.lstrip()
    # an arrow function: the parameters, or the expression body, on lines of their own
    arrow = body.find(") => ") if "= (" in body else -1
    if arrow < 0 and "= (" in body:
        arrow = body.find("): ")
    if "= (" in body and " => " in body:
        open_at = body.index("= (") + 2
        close = matching(body, open_at)
        head, params, rest = body[:open_at + 1], body[open_at + 1:close], body[close:]
        if rest.endswith("=> {") or rest.endswith("{"):
            if len(line) > WIDTH:
                return ([indent + head] + [indent + unit + a + "," for a in split_top(params)]
                        + [indent + rest])
        at = body.index(" => ") + 4
        first = indent + body[:at - 1]
        if len(first) <= WIDTH:
            return [first] + fit(indent + unit + body[at:], unit)
    # a call statement: one argument a line
    if body.endswith(");"):
        close = len(body) - 2
        depth, i = 0, close
        while i >= 0:
            if body[i] == ")":
                depth += 1
            elif body[i] == "(":
                depth -= 1
                if depth == 0:
                    break
            i -= 1
        if i > 0:
            args = split_top(body[i + 1:close])
            if args:
                return ([indent + body[:i + 1]] + [indent + unit + a + "," for a in args]
                        + [indent + ");"])
    return [line]
