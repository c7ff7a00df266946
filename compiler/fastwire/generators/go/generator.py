"""The Go generator: one Go package per FBE package, on the runtime module in go/.

    fastwire compile schemas/proto.fbe --lang go --final --json --proto \\
        --go-import example.com/app/gen -o gen/
    fastwire --go --input=schemas/proto.fbe --output=gen/           # fbec's flags

Each FBE package `p` becomes the Go package `p` in `<output>/p/p.fbe.go`, imported as
`<go-import>/p`: the CLI's --go-import, else the compiled schema's `option go_import =
"PATH"` (as protoc's go_package; docs/schema-language.md#options), else `fastwire.gen`.
A package holds:

- enums and flags as named integer types with constants `<Type><Value>` and `String()`
  (flags also `Has`);
- one exported struct per struct or message, `New<T>()` with the schema's defaults;
  optionals are pointers, arrays `[N]T`, vectors/lists/sets slices (sets kept in
  ascending order), maps and hashes Go maps (a struct or bytes key: a slice of
  `fastwire.Pair`);
- the versioned format: `MarshalFBE(buf) []byte`, `UnmarshalFBE(data) error`,
  `Verify<T>(data) error`; with --final `MarshalFinal`, `UnmarshalFinal`,
  `Verify<T>Final`; with --json `MarshalJSON`, `UnmarshalJSON`, `AppendJSON`;
- with --proto: `Sender`, `Receiver` (and `FinalSender`, `FinalReceiver` with --final).

Every offset, slot size, final minimum and type number comes from the lowered model
(fastwire.lower); nothing of the layout is computed here. The output is gofmt-clean
(tabs; struct fields aligned as gofmt aligns them; no other aligned columns).
"""

from __future__ import annotations

import os
import re
import struct as _struct
from typing import Dict, List, Optional

from ... import __version__, ir, lower
from ..common import docs, naming
from ..common.literals import c_string
from ..options import Options

DEFAULT_IMPORT = "fastwire.gen"
RUNTIME = "github.com/fastwire/fastwire/go"

GO_SCALAR = {"bool": "bool", "byte": "byte", "char": "byte", "wchar": "rune", "int8": "int8",
             "uint8": "uint8", "int16": "int16", "uint16": "uint16", "int32": "int32",
             "uint32": "uint32", "int64": "int64", "uint64": "uint64", "float": "float32",
             "double": "float64"}
SIGNED = {"int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2**31, 2**31 - 1),
          "int64": (-2**63, 2**63 - 1)}
UNSIGNED = {"bool": 1, "byte": 255, "char": 255, "uint8": 255, "uint16": 65535,
            "wchar": 2**32 - 1, "uint32": 2**32 - 1, "uint64": 2**64 - 1}


def generate(schema: ir.Schema, options: Options) -> Dict[str, str]:
    model = lower.lower(schema)
    out = {}
    for p in schema.packages:
        name = go_package(p.name)
        out[f"{name}/{naming.file_name('go', p.name, 'module')}"] = _Package(
            schema, p, options, model).render()
    return out


def go_package(name: str) -> str:
    return naming.ident("go", name.replace(".", "_").lower())


def exported(name: str) -> str:
    p = naming.pascal(name)
    return p[:1].upper() + p[1:]



def _after(sizes: List[int]) -> List[int]:
    """For each position, the sum of the sizes after it (a suffix sum: linear)."""
    out = [0] * len(sizes)
    total = 0
    for i in range(len(sizes) - 1, -1, -1):
        out[i] = total
        total += sizes[i]
    return out

class _Package:
    def __init__(self, schema: ir.Schema, pkg: ir.Package, options: Options,
                 model: lower.WireModel) -> None:
        self.schema = schema
        self.pkg = pkg
        self.options = options
        self.model = model
        self.lines: List[str] = []
        self.level = 0
        self.tmp = 0
        self.vconst: List[int] = []
        self.ffast = False
        self.imports_used: set = set()
        # --go-import, else the compiled (root) schema's `option go_import`: every package
        # of one compilation is written under the same output folder.
        root = next((p for p in schema.packages if p.name == schema.root), None)
        self.prefix = (options.go_import or (root.option("go_import") if root else None)
                       or DEFAULT_IMPORT)

    # ---- output ------------------------------------------------------------------------
    def o(self, line: str = "") -> None:
        self.lines.append(("\t" * self.level + line) if line else "")

    def open(self, line: str) -> None:
        self.o(line)
        self.level += 1

    def close(self, line: str = "}") -> None:
        self.level -= 1
        self.o(line)

    def var(self, stem: str) -> str:
        self.tmp += 1
        return f"{stem}{self.tmp}"

    # ---- names -------------------------------------------------------------------------
    def qual(self, qualified: str) -> str:
        """A struct, enum or flags type by its qualified name, as Go names it here."""
        pkg, _, name = qualified.rpartition(".")
        if pkg == self.pkg.name:
            return name
        self.imports_used.add(pkg)
        return f"{go_package(pkg)}.{name}"

    def qual_fn(self, qualified: str, fmt: str) -> str:
        """A package-level function of a struct, e.g. Verify{name}."""
        pkg, _, name = qualified.rpartition(".")
        fn = fmt.format(name=name)
        if pkg == self.pkg.name:
            return fn
        self.imports_used.add(pkg)
        return f"{go_package(pkg)}.{fn}"

    def field_name(self, f: ir.Field) -> str:
        return exported(f.name)

    def enum_const(self, e: ir.EnumType, value: str) -> str:
        return e.name + exported(value)

    # ---- types -------------------------------------------------------------------------
    def gotype(self, w: lower.WireType) -> str:
        k = w.kind
        if k == "scalar":
            assert w.scalar is not None
            return GO_SCALAR[w.scalar]
        if k == "decimal":
            return "fw.Decimal"
        if k == "uuid":
            return "fw.UUID"
        if k == "timestamp":
            return "fw.Timestamp"
        if k == "string":
            return "string"
        if k == "bytes":
            return "[]byte"
        if k in ("enum", "flags", "struct"):
            assert w.ref is not None
            return self.qual(w.ref)
        assert w.element is not None
        if k == "optional":
            return "*" + self.gotype(w.element)
        if k == "array":
            return f"[{w.length}]{self.gotype(w.element)}"
        if k == "sequence":
            return "[]" + self.gotype(w.element)
        assert k == "map" and w.key is not None
        if self.pair_map(w):
            return f"[]fw.Pair[{self.gotype(w.key)}, {self.gotype(w.element)}]"
        return f"map[{self.gotype(w.key)}]{self.gotype(w.element)}"

    @staticmethod
    def pair_map(w: lower.WireType) -> bool:
        assert w.key is not None
        return w.key.kind in ("struct", "bytes")

    def base_scalar(self, w: lower.WireType) -> str:
        assert w.scalar is not None
        return w.scalar

    def compare_fn(self, w: lower.WireType) -> str:
        """A func(a, b T) int ordering values of a set element or map key type."""
        k = w.kind
        if k == "struct":
            assert w.ref is not None
            return self.qual_fn(w.ref, "FwCompare{name}")
        if k == "decimal":
            return "fw.CompareDecimal"
        if k == "uuid":
            return "fw.CompareUUID"
        if k == "bytes":
            return "bytes.Compare"
        if k == "scalar" and w.scalar == "bool":
            return "fw.CompareBool"
        if k == "scalar" and w.scalar in ("float", "double"):
            return "fw.CompareFloat"
        self.imports_used.add("cmp")
        return f"cmp.Compare[{self.gotype(w)}]"

    # ---- render ------------------------------------------------------------------------
    def render(self) -> str:
        structs = [self.model.struct(n) for n in self.model.package(self.pkg.name).emission_order]
        by_name = {s.qualified_name: s for s in self.pkg.structs}
        for t in self.pkg.types:
            if isinstance(t, ir.EnumType):
                self.emit_enum(t)
        for layout in structs:
            s = by_name[layout.name]
            self.emit_struct(s, layout)
            self.emit_versioned(s, layout)
            if self.options.final:
                self.emit_final(s, layout)
            if self.options.json:
                self.emit_json(s, layout)
        if self.options.proto:
            self.emit_protocol()
        body = self.lines
        self.lines = []
        self.level = 0
        self.emit_header(body)
        text = "\n".join(self.lines + body)
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
        return text.rstrip("\n") + "\n"

    def emit_header(self, body: List[str]) -> None:
        source = docs.comment_text("go", os.path.basename(self.pkg.path))
        self.o(f"// Code generated by fastwire {__version__} from {source} (package "
               f"{self.pkg.name}). DO NOT EDIT.")
        self.o()
        doc = self.pkg.doc or f"The {self.pkg.name} package."
        lines = doc.strip().splitlines()
        lines[0] = f"Package {go_package(self.pkg.name)}: " + lines[0]
        for line in lines:
            self.o(("// " + line.rstrip()).rstrip())
        self.o(f"package {go_package(self.pkg.name)}")
        self.o()
        text = "\n".join(body)
        std = []
        for name, use in (("bytes", "bytes."), ("cmp", "cmp."), ("math", "math."),
                          ("strconv", "strconv."), ("time", "time.")):
            if use in text:
                std.append(name)
        self.o("import (")
        for name in std:
            self.o(f'\t"{name}"')
        if std:
            self.o()
        local = [(RUNTIME, f'\tfw "{RUNTIME}"')]
        for name in self.imports_used - {"cmp"}:
            if f"{go_package(name)}." in text:
                path = f"{self.prefix}/{go_package(name)}"
                local.append((path, f'\t"{path}"'))
        for _, line in sorted(local):
            self.o(line)
        self.o(")")
        self.o()
        self.o("var _ = fw.Version")
        self.o()

    # ---- enums -------------------------------------------------------------------------
    def emit_enum(self, e: ir.EnumType) -> None:
        gt = GO_SCALAR[e.base]
        self.doc(e.doc, f"{e.name} is the schema's {e.kind} {e.name}.")
        self.o(f"type {e.name} {gt}")
        self.o()
        for v in e.values:
            self.o(f"const {self.enum_const(e, v.name)} {e.name} = {v.value}")
        self.o()
        if e.kind == "flags":
            self.o("// String is every named value whose bits are all set in v (zero values never")
            self.o("// match), in declaration order, joined by | (as fastwire's C++ prints flags).")
            self.open(f"func (v {e.name}) String() string {{")
            self.o('s := ""')
            for v in e.values:
                if not v.value:
                    continue
                c = self.enum_const(e, v.name)
                self.open(f"if v&{c} == {c} {{")
                self.o(f's += "|" + {c_string(v.name)}')
                self.close()
            self.open('if s != "" {')
            self.o("s = s[1:]")
            self.close()
            self.o("return s")
            self.close()
        else:
            self.o("// String is the value's name, or <unknown>.")
            self.open(f"func (v {e.name}) String() string {{")
            seen = set()
            if e.values:
                self.o("switch v {")
                for v in e.values:
                    if v.value in seen:
                        continue
                    seen.add(v.value)
                    self.o(f"case {self.enum_const(e, v.name)}:")
                    self.o(f"\treturn {c_string(v.name)}")
                self.o("}")
            self.o('return "<unknown>"')
            self.close()
        self.o()
        if e.kind == "flags":
            self.o("// Has tells whether every bit of f is set in v.")
            self.o(f"func (v {e.name}) Has(f {e.name}) bool {{ return v&f == f }}")
            self.o()

    def doc(self, doc: Optional[str], fallback: str) -> None:
        text = (doc or fallback).strip()
        for line in docs.comment_lines("go", text):
            self.o(("// " + line.rstrip()).rstrip())

    # ---- structs -----------------------------------------------------------------------
    def emit_struct(self, s: ir.StructType, layout: lower.StructLayout) -> None:
        name = s.name
        self.doc(s.doc, f"{name} is the schema's {s.kind} {name} (type {layout.type_number}).")
        fields = [(self.field_name(f), self.gotype(fl.wire)) for f, fl in
                  zip(s.all_fields, layout.fields)]
        if not fields:
            self.o(f"type {name} struct{{}}")
        else:
            width = max(len(n) for n, _ in fields)
            self.o(f"type {name} struct {{")
            for n, t in fields:
                self.o(f"\t{n}{' ' * (width - len(n) + 1)}{t}")
            self.o("}")
        self.o()
        self.o(f"// FBEType is {name}'s type number.")
        self.o(f"func (*{name}) FBEType() uint32 {{ return {layout.type_number} }}")
        self.o()
        self.o(f"// New{name} is a {name} holding the schema's defaults.")
        self.open(f"func New{name}() {name} {{")
        self.o(f"var s {name}")
        for f, fl, lit in zip(s.all_fields, layout.fields, layout.defaults):
            self.emit_default(f"s.{self.field_name(f)}", fl.wire, lit)
        self.o("return s")
        self.close()
        self.o()
        self.emit_print(s, layout)
        self.emit_compare(s, layout)

    def emit_default(self, dst: str, w: lower.WireType, lit: Optional[lower.Literal]) -> None:
        if lit is not None and lit.kind != "null":
            self.o(f"{dst} = {self.literal(w, lit)}")
            return
        if lit is not None:
            return  # null
        if w.kind == "struct":
            assert w.ref is not None
            self.o(f"{dst} = {self.qual_fn(w.ref, 'New{name}')}()")
        elif w.kind == "array" and w.element is not None and self.needs_init(w.element):
            i = self.var("i")
            self.open(f"for {i} := range {dst} {{")
            self.emit_default(f"{dst}[{i}]", w.element, None)
            self.close()

    def needs_init(self, w: lower.WireType) -> bool:
        if w.kind == "struct":
            return True
        return w.kind == "array" and w.element is not None and self.needs_init(w.element)

    def literal(self, w: lower.WireType, lit: lower.Literal) -> str:
        if w.kind == "optional":
            assert w.element is not None
            return f"fw.Ptr({self.typed_literal(w.element, lit)})"
        return self.plain_literal(w, lit)

    def typed_literal(self, w: lower.WireType, lit: lower.Literal) -> str:
        text = self.plain_literal(w, lit)
        if w.kind in ("scalar", "enum", "flags") and not text.startswith(("math.", "fw.")):
            return f"{self.gotype(w)}({text})"
        return text

    def plain_literal(self, w: lower.WireType, lit: lower.Literal) -> str:
        k = lit.kind
        if k == "bool":
            return "true" if lit.value else "false"
        if k == "computed":
            return {"utc": "fw.Now()", "uuid1": "fw.NewUUID1()", "uuid4": "fw.NewUUID4()"}[
                str(lit.value)]
        if k == "string":
            return c_string(str(lit.value))
        if k == "uuid":
            raw = lit.raw
            assert isinstance(raw, bytes)
            if not any(raw):
                return "fw.UUID{}"
            return "fw.UUID{" + ", ".join(f"0x{b:02x}" for b in raw) + "}"
        if k == "decimal":
            c = lit.coefficient
            return (f"fw.Decimal{{Lo: {c & (2**64 - 1)}, Hi: {c >> 64}, Scale: {lit.scale}, "
                    f"Neg: {'true' if lit.negative else 'false'}}}")
        if k == "float":
            if w.kind == "scalar" and w.scalar == "float" or lit.bits == 32 and w.kind != "decimal":
                bits = lit.raw if lit.bits == 32 else _struct.unpack(
                    "<I", _struct.pack("<f", float(lit.value)))[0]  # type: ignore[arg-type]
                return f"math.Float32frombits(0x{bits:08x})"
            if w.kind == "decimal":
                return f"fw.MustDecimal({c_string(repr(lit.value))})"
            return f"math.Float64frombits(0x{lit.raw:016x})"
        if k == "integer":
            assert isinstance(lit.value, int)
            v = int(lit.value)
            if w.kind == "timestamp":
                return f"fw.Timestamp({v})"
            if w.kind == "decimal":
                return f"fw.MustDecimal({c_string(str(v))})"
            if w.kind == "scalar" and w.scalar in ("float", "double"):
                return self.plain_literal(w, lower.Literal(
                    "float", float(v), 32 if w.scalar == "float" else 64,
                    raw=_struct.unpack("<I", _struct.pack("<f", float(v)))[0]
                    if w.scalar == "float" else _struct.unpack("<Q", _struct.pack("<d", float(v)))[0]))
            if w.kind in ("enum", "flags"):
                return f"{self.gotype(w)}({v})"
            if w.kind == "scalar" and w.scalar == "bool":
                return "true" if v else "false"
            return str(v)
        raise AssertionError(k)

    def emit_print(self, s: ir.StructType, layout: lower.StructLayout) -> None:
        name = s.name
        self.o(f"// String prints s as fastwire's C++ does: {name}(field=value,…).")
        self.o(f"func (s *{name}) String() string {{ return string(s.FwPrint(nil)) }}")
        self.o()
        self.o("// FwPrint appends String() (generated code).")
        self.open(f"func (s *{name}) FwPrint(b []byte) []byte {{")
        wires = {f.name: fl.wire for f, fl in zip(s.all_fields, layout.fields)}
        self.print_struct(s, wires)
        self.o("return b")
        self.close()
        self.o()

    def print_struct(self, s: ir.StructType, wires: Dict[str, lower.WireType]) -> None:
        self.o(f"b = append(b, {c_string(s.name + '(')}...)")
        first = True
        if s.base is not None:
            base = self.schema.lookup(s.base)
            assert isinstance(base, ir.StructType)
            self.print_struct(base, wires)
            first = False
        for f in s.fields:
            head = ("" if first else ",") + f.name + "="
            first = False
            if f.hidden:
                self.o(f"b = append(b, {c_string(head + '***')}...)")
                continue
            self.o(f"b = append(b, {c_string(head)}...)")
            self.pput(wires[f.name], f"s.{self.field_name(f)}")
        self.o("b = append(b, ')')")

    def pput(self, w: lower.WireType, v: str) -> None:
        k = w.kind
        if k == "decimal":
            self.o(f"b = {v}.AppendText(b)")
        elif k == "uuid":
            self.o("b = append(b, '\"')")
            self.o(f"b = {v}.AppendText(b)")
            self.o("b = append(b, '\"')")
        elif k == "timestamp":
            self.o(f"b = strconv.AppendUint(b, uint64({v}), 10)")
        elif k in ("enum", "flags"):
            self.o(f"b = append(b, {v}.String()...)")
        elif k == "scalar":
            sc = self.base_scalar(w)
            if sc == "bool":
                self.o(f"b = strconv.AppendBool(b, {v})")
            elif sc == "char":
                self.o(f"b = append(b, '\\'', {v}, '\\'')")
            elif sc == "wchar":
                self.o(f"b = fw.AppendPrintWChar(b, {v})")
            elif sc in ("float", "double"):
                self.o(f"b = fw.AppendPrintFloat(b, float64({v}))")
            elif sc in SIGNED:
                self.o(f"b = strconv.AppendInt(b, int64({v}), 10)")
            else:
                self.o(f"b = strconv.AppendUint(b, uint64({v}), 10)")
        elif k == "string":
            self.o("b = append(b, '\"')")
            self.o(f"b = append(b, {v}...)")
            self.o("b = append(b, '\"')")
        elif k == "bytes":
            self.o('b = append(b, "bytes["...)')
            self.o(f"b = strconv.AppendInt(b, int64(len({v})), 10)")
            self.o("b = append(b, ']')")
        elif k == "struct":
            self.o(f"b = {v}.FwPrint(b)")
        elif k == "optional":
            assert w.element is not None
            self.open(f"if {v} == nil {{")
            self.o('b = append(b, "null"...)')
            self.close("} else {")
            self.level += 1
            self.pput(w.element, v if w.element.kind == "struct" else f"(*{v})")
            self.close()
        elif k in ("array", "sequence"):
            assert w.element is not None
            opener, closer = {"list": ("<", ">"), "set": ("{", "}")}.get(
                w.collection or "", ("[", "]"))
            src = v
            if w.collection == "set":
                src = self.var("set")
                self.o(f"{src} := fw.SortedSet({v}, {self.compare_fn(w.element)})")
            i = self.var("i")
            self.o("b = append(b, '[')")
            self.o(f"b = strconv.AppendInt(b, int64(len({src})), 10)")
            self.o(f"b = append(b, ']', '{opener}')")
            self.open(f"for {i} := range {src} {{")
            self.open(f"if {i} > 0 {{")
            self.o("b = append(b, ',')")
            self.close()
            self.pput(w.element, f"{src}[{i}]")
            self.close()
            self.o(f"b = append(b, '{closer}')")
        elif k == "map":
            assert w.element is not None and w.key is not None
            opener, closer = ("<", ">") if w.collection == "map" else ("[", "]")
            self.o("b = append(b, '[')")
            self.o(f"b = strconv.AppendInt(b, int64(len({v})), 10)")
            self.o(f"b = append(b, ']', '{opener}')")
            i = self.var("i")
            if self.pair_map(w):
                src = v
                if w.collection == "map":
                    src = self.var("m")
                    self.o(f"{src} := fw.SortedPairs({v}, {self.compare_fn(w.key)})")
                self.open(f"for {i} := range {src} {{")
                self.open(f"if {i} > 0 {{")
                self.o("b = append(b, ',')")
                self.close()
                self.o("b = append(b, '{')")
                self.pput(w.key, f"{src}[{i}].Key")
                self.o('b = append(b, "->"...)')
                self.pput(w.element, f"{src}[{i}].Value")
                self.o("b = append(b, '}')")
                self.close()
            else:
                key, val = self.var("k"), self.var("v")
                self.o(f"{i} := 0")
                if w.collection == "map":
                    self.open(f"for _, {key} := range fw.SortedKeys({v}, {self.compare_fn(w.key)}) {{")
                    self.o(f"{val} := {v}[{key}]")
                else:
                    self.open(f"for {key}, {val} := range {v} {{")
                self.open(f"if {i} > 0 {{")
                self.o("b = append(b, ',')")
                self.close()
                self.o(f"{i}++")
                self.o("b = append(b, '{')")
                self.pput(w.key, key)
                self.o('b = append(b, "->"...)')
                self.pput(w.element, val)
                self.o("b = append(b, '}')")
                self.close()
            self.o(f"b = append(b, '{closer}')")
        else:
            raise AssertionError(k)

    def emit_compare(self, s: ir.StructType, layout: lower.StructLayout) -> None:
        """FwCompare<T>: the order of the [key] fields (sets and map keys)."""
        if not layout.keyed:
            return
        name = s.name
        self.o(f"// FwCompare{name} orders {name}s by their [key] fields.")
        self.open(f"func FwCompare{name}(a, b {name}) int {{")
        for fname in layout.equality:
            fl = layout.field(fname)
            f = s.all_fields[fl.index]
            n = self.field_name(f)
            fn = self.compare_fn(fl.wire) if fl.wire.kind not in (
                "optional", "array", "sequence", "map") else None
            if fn is None:
                continue
            self.open(f"if c := {fn}(a.{n}, b.{n}); c != 0 {{")
            self.o("return c")
            self.close()
        self.o("return 0")
        self.close()
        self.o()

    # ---- versioned ---------------------------------------------------------------------
    def emit_versioned(self, s: ir.StructType, layout: lower.StructLayout) -> None:
        name = s.name
        fields = list(zip(s.all_fields, layout.fields))
        t = layout.type_number
        body = layout.body_size
        # Root model API.
        self.o("// MarshalFBE appends s to buf as a versioned root model (reusing buf's "
               "capacity).")
        self.open(f"func (s *{name}) MarshalFBE(buf []byte) []byte {{")
        self.o("w := fw.Writer{Buf: buf}")
        self.o("start := w.Alloc(8)")
        self.o("s.FwPutV(&w, start+4, start)")
        self.o("fw.PutU32(w.Buf, start, uint32(len(w.Buf)-start))")
        self.o("return w.Buf")
        self.close()
        self.o()
        self.o("// UnmarshalFBE reads a versioned root model into s, reusing its memory; "
               "malformed data")
        self.o("// is an error (then s is valid but unspecified).")
        self.open(f"func (s *{name}) UnmarshalFBE(data []byte) error {{")
        self.o("return s.UnmarshalFBELimits(data, &fw.DefaultLimits)")
        self.close()
        self.o()
        self.o("// UnmarshalFBELimits is UnmarshalFBE under other limits.")
        self.open(f"func (s *{name}) UnmarshalFBELimits(data []byte, lim *fw.Limits) error {{")
        self.o("full, err := fw.Root(data, lim)")
        self.open("if err != nil {")
        self.o("return err")
        self.close()
        self.o("var r fw.VReader")
        self.o("r.Start(data, full, lim)")
        self.o("s.FwGetV(&r, 4, 0)")
        self.o("return r.Result()")
        self.close()
        self.o()
        self.o(f"// Verify{name} checks a versioned root model of {name} without reading it.")
        self.open(f"func Verify{name}(data []byte) error {{")
        self.o(f"return Verify{name}Limits(data, &fw.DefaultLimits)")
        self.close()
        self.o()
        self.o(f"// Verify{name}Limits is Verify{name} under other limits.")
        self.open(f"func Verify{name}Limits(data []byte, lim *fw.Limits) error {{")
        self.o("full, err := fw.Root(data, lim)")
        self.open("if err != nil {")
        self.o("return err")
        self.close()
        verify = f"FwVerifyV{name}"
        if self.vfast_struct(layout):
            # The fast walk straight from here (no VReader to set up); the depth limit
            # as VReader.Start would take it (MaxDepth clamped to 0..MaxDepthCap).
            verify = f"fwVerifyV{name}Full"
            self.open(f"if lim.MaxDepth >= {layout.depth} {{")
            self.open(f"if left, ok := fwFastV{name}(data[:full], 4, 0, int64(full)-8); ok {{")
            self.open("if left < 0 {")
            self.o("return fw.ErrOverBudget")
            self.close()
            self.o("return nil")
            self.close()
            self.close()
        self.o("var r fw.VReader")
        self.o("r.Start(data, full, lim)")
        self.o(f"{verify}(&r, 4, 0)")
        self.o("return r.Result()")
        self.close()
        self.o()
        # Put.
        self.o("// FwPutV writes s's body and heap blocks and its offset into the slot "
               "(generated code).")
        self.open(f"func (s *{name}) FwPutV(w *fw.Writer, slot, base int) {{")
        self.emit_vput_body(s, layout)
        self.close()
        self.o()
        # Get.
        self.o("// FwGetV reads s from the body the slot leads to (generated code).")
        self.open(f"func (s *{name}) FwGetV(r *fw.VReader, slot, base int) {{")
        self.emit_enter(t)
        if fields:
            self.open(f"if stored >= {body} {{")
            plain = [(f, fl) for f, fl in fields if fl.wire.is_value and fl.wire.kind != "decimal"]
            if plain:
                self.o(f"body := d[pos : pos+{body} : pos+{body}]")
                for f, fl in plain:
                    self.o(f"s.{self.field_name(f)} = {self.load_value(fl.wire, 'body', str(fl.offset))}")
            for f, fl in fields:
                if not (fl.wire.is_value and fl.wire.kind != "decimal"):
                    self.vget(fl.wire, f"s.{self.field_name(f)}", f"pos+{fl.offset}", "pos")
            self.close("} else {")
            self.level += 1
            self.o(f"d := New{name}()")
            for f, fl in fields:
                n = self.field_name(f)
                self.open(f"if {fl.offset + fl.slot} <= stored {{")
                self.vget(fl.wire, f"s.{n}", f"pos+{fl.offset}", "pos")
                self.close("} else {")
                self.o(f"\ts.{n} = d.{n}")
                self.o("}")
            self.close()
        else:
            self.o("_, _ = pos, stored")
        self.o("r.Leave()")
        self.close()
        self.o()
        # Verify.
        verify = f"FwVerifyV{name}"
        if self.vfast_struct(layout):
            self.emit_vfast_fn(name, layout)
            verify = f"fwVerifyV{name}Full"
            self.o(f"// {verify} is FwVerifyV{name} for every input: it records why a "
                   "message fails.")
        else:
            self.o(f"// FwVerifyV{name} verifies the {name} body the slot leads to "
                   "(generated code).")
        self.open(f"func {verify}(r *fw.VReader, slot, base int) {{")
        self.emit_enter(t)
        # The budget is kept in a local (left) while checking, written back around each
        # call: a chain of updates through memory would be the walk's critical path.
        if any(self.vneeds_check(fl.wire) for fl in layout.fields):
            self.o("left := r.Left")
            self.emit_vchecks(layout)
            self.o("r.Left = left")
        else:
            self.o("_, _ = pos, stored")
        self.o("r.Leave()")
        self.close()
        self.o()

    # The fast path of versioned verify. A struct whose checks need no call (its fields
    # are values, strings, bytes, leaf structs, and optionals and collections of these)
    # verifies the usual message in one straight walk, fwFastV<Name>(d, slot, base,
    # left): each check passes or returns false, having recorded nothing (the budget is
    # a parameter), and the caller runs the full walk (fwVerifyV<Name>Full, the general
    # code), which starts that struct over from the same state and records why it
    # fails. The fast walk accepts only what the full walk accepts and charges the same
    # blocks: it wants every body at least as large as this version's (older bodies take
    # the full walk), offsets that are not 0 (empty strings and collections too), and
    # the depth limit not reached anywhere in the struct (the schema bounds its nesting:
    # layout.depth). It looks at the budget once, at the end: what it found valid the
    # full walk finds valid too, and a budget run out is over_budget in both. Its work
    # is bounded by the bytes it charges (counts are checked against the bytes after
    # them), and a fast walk given up costs one redo of that struct at most (it calls
    # nothing, so redos do not nest).
    def vfast_ok(self, w: lower.WireType) -> bool:
        if w.is_value or w.kind in ("string", "bytes"):
            return True
        if w.kind == "struct":
            assert w.ref is not None
            leaf = self.model.struct(w.ref)
            return leaf.depth == 1 and all(self.vfast_ok(fl.wire) for fl in leaf.fields)
        if w.kind in ("optional", "sequence", "array"):
            assert w.element is not None
            return self.vfast_ok(w.element)
        if w.kind == "map":
            assert w.key is not None and w.element is not None
            return self.vfast_ok(w.key) and self.vfast_ok(w.element)
        return False

    def vfast_struct(self, layout: lower.StructLayout) -> bool:
        return (layout.depth in (1, 2) and any(self.vneeds_check(fl.wire) for fl in layout.fields)
                and all(self.vfast_ok(fl.wire) for fl in layout.fields))

    def emit_vfast_fn(self, name: str, layout: lower.StructLayout) -> None:
        self.o(f"// FwVerifyV{name} verifies the {name} body the slot leads to (generated "
               "code): the")
        self.o(f"// usual message by fwFastV{name}, anything else by fwVerifyV{name}Full.")
        self.open(f"func FwVerifyV{name}(r *fw.VReader, slot, base int) {{")
        self.open(f"if r.Depth >= {layout.depth} {{")
        self.open(f"if left, ok := fwFastV{name}(r.Data, slot, base, r.Left); ok {{")
        self.o("r.Left = left")
        self.o("return")
        self.close()
        self.close()
        self.o(f"fwVerifyV{name}Full(r, slot, base)")
        self.close()
        self.o()
        self.o(f"// fwFastV{name} walks the {name} body the slot leads to in d (a root "
               "model) when")
        self.o("// it is the usual one, and returns the budget left (charged from left); "
               "false when")
        self.o("// anything is unusual, with nothing recorded (the full walk then starts "
               "over). The")
        self.o(f"// caller has checked that the depth limit allows {layout.depth} more "
               "levels.")
        self.open(f"func fwFastV{name}(d []byte, slot, base int, left int64) (int64, bool) {{")
        self.o("size := len(d)")
        self.o("pos := base + int(fw.U32(d, slot))")
        self.open(f"if pos < slot+4 || pos > size-{layout.body_size} {{")
        self.o("return 0, false")
        self.close()
        self.vconst = [0]
        self.vfast_body(layout, "pos")
        self.vcharge()
        self.o("return left, true")
        self.close()
        self.o()

    # Charges of a known size (the 4-byte length or count words, optional blocks) are
    # summed and taken once, after the checks of a straight run (a walk body, one loop
    # pass): the fast walk looks at the budget at the end only.
    def vcharge(self) -> None:
        c = self.vconst.pop()
        if c:
            self.o(f"left -= {c}")

    def vfast_body(self, layout: lower.StructLayout, pos: str) -> None:
        """The body at pos (0 <= pos <= size-body checked): header, charge, fields."""
        b = layout.body_size
        body, stored = self.var("b"), self.var("stored")
        self.o(f"{body} := d[{pos} : {pos}+{b} : {pos}+{b}]")
        self.o(f"{stored} := int(fw.U32({body}, 0))")
        self.open(f"if {stored} < {b} || {pos}+{stored} > size || fw.U32({body}, 4) != "
                  f"{layout.type_number} {{")
        self.o("return 0, false")
        self.close()
        self.o(f"left -= int64({stored})")
        for fl in layout.fields:
            self.vfast(fl.wire, body, str(fl.offset), pos, f"{pos}+{fl.offset}")

    @staticmethod
    def plus(expr: str, n: int) -> str:
        """expr + n, folding a trailing constant."""
        m = re.fullmatch(r"(.*)\+(\d+)", expr)
        if m:
            return f"{m.group(1)}+{int(m.group(2)) + n}"
        return expr if n == 0 else f"{expr}+{n}"

    def vfast_target(self, buf: str, idx: str, base: str, at: str, extent: int,
                     stem: str) -> str:
        """Loads the offset at buf[idx:] (relative to base; the slot is at `at` in d)
        and checks that it
        leads past the slot's 4 bytes to extent bytes inside d: the target's name. An
        offset below the slot's end (0 among them) takes the full walk. (The bounds are
        spelled on the target, not on the offset, so that the compiler knows
        0 <= target <= size-extent and drops the bounds checks of the loads there.)"""
        t = self.var(stem)
        self.o(f"{t} := {base} + int(fw.U32({buf}, {idx}))")
        self.open(f"if {t} < {self.plus(at, 4)} || {t} > size-{extent} {{")
        self.o("return 0, false")
        self.close()
        return t

    def vfast(self, w: lower.WireType, buf: str, idx: str, base: str, at: str) -> None:
        """The fast checks of the slot at buf[idx:] (at `at` in d), whose offsets are
        relative to base."""
        k = w.kind
        if k == "decimal":
            self.open(f"if {buf}[{idx}+14] > fw.MaxDecimalScale {{")
            self.o("return 0, false")
            self.close()
        elif w.is_value:
            return
        elif k in ("string", "bytes"):
            q = self.vfast_target(buf, idx, base, at, 4, "q")
            n = self.var("n")
            self.o(f"{n} := int(fw.U32(d, {q}))")
            self.open(f"if {q}+4+{n} > size {{")
            self.o("return 0, false")
            self.close()
            self.o(f"left -= int64({n})")
            self.vconst[-1] += 4
        elif k == "struct":
            assert w.ref is not None
            leaf = self.model.struct(w.ref)
            p = self.vfast_target(buf, idx, base, at, leaf.body_size, "p")
            self.vfast_body(leaf, p)
        elif k == "optional":
            assert w.element is not None
            e = w.element
            self.open(f"if {buf}[{idx}] != 0 {{")
            self.vconst.append(e.slot)
            # The slot's flag byte first: the offset is 1 further, and its end 5.
            p = self.vfast_target(buf, self.plus(idx, 1), base, self.plus(at, 1), e.slot, "p")
            if self.vneeds_check(e):
                o = self.var("o")
                self.o(f"{o} := d[{p} : {p}+{e.slot} : {p}+{e.slot}]")
                self.vfast(e, o, "0", p, p)
            self.vcharge()
            self.close()
        elif k == "array":
            assert w.element is not None
            e = w.element
            if self.vneeds_check(e):
                i = self.var("i")
                self.open(f"for {i} := 0; {i} < {w.length}*{e.slot}; {i} += {e.slot} {{")
                self.vconst.append(0)
                self.vfast(e, buf, f"{idx}+{i}", base, f"{at}+{i}")
                self.vcharge()
                self.close()
        elif k in ("sequence", "map"):
            assert w.element is not None
            elems: List[lower.WireType] = [w.element]
            if k == "map":
                assert w.key is not None
                elems.insert(0, w.key)
            es = sum(e.slot for e in elems)
            q = self.vfast_target(buf, idx, base, at, 4, "q")
            n = self.var("n")
            self.o(f"{n} := int(fw.U32(d, {q})) * {es}")
            self.open(f"if {q}+4+{n} > size {{")
            self.o("return 0, false")
            self.close()
            self.o(f"left -= int64({n})")
            self.vconst[-1] += 4
            if any(self.vneeds_check(e) for e in elems):
                # The element slots are read from d at their position, which the loop
                # keeps; their offsets are relative to the collection's base, not to q.
                end, slot = self.var("end"), self.var("at")
                self.o(f"{end} := {q} + 4 + {n}")
                self.open(f"for {slot} := {q} + 4; {slot}+{es} <= {end}; {slot} += {es} {{")
                self.vconst.append(0)
                off = 0
                for e in elems:
                    self.vfast(e, "d", self.plus(slot, off), base, self.plus(slot, off))
                    off += e.slot
                self.vcharge()
                self.close()
        else:
            raise AssertionError(k)

    def emit_vput_body(self, s: ir.StructType, layout: lower.StructLayout) -> None:
        """FwPutV's body: s (a pointer to the struct), w, slot and base in scope."""
        fields = list(zip(s.all_fields, layout.fields))
        t = layout.type_number
        body = layout.body_size
        # The body (reserved, its offset into the slot), then its fixed slots through one
        # slice of the body (no bounds checks), then the heap blocks in field order.
        # The heap blocks of the strings and bytes before the first other heap field come
        # right after the body: they are allocated with it, at once, spelled out (the
        # compiler would not inline w.Alloc).
        heap = [(f, fl) for f, fl in fields if not fl.wire.is_value]
        lead = 0
        while lead < len(heap) and heap[lead][1].wire.kind in ("string", "bytes"):
            lead += 1
        size = " + ".join([str(body)] + [f"4 + len(s.{self.field_name(f)})"
                                          for f, _ in heap[:lead]])
        self.o(f"n := {size}")
        self.o("pos := len(w.Buf)")
        self.open("if pos+n > cap(w.Buf) {")
        self.o("w.Grow(n)")
        self.close()
        # Resliced in place: only the length is stored (no pointer, no write barrier).
        self.o("w.Buf = w.Buf[:pos+n]")
        self.o("buf := w.Buf")
        self.o("fw.PutU32(buf, slot, uint32(pos-base))")
        self.o(f"b := buf[pos : pos+{body} : pos+{body}]")
        self.o(f"fw.PutU32(b, 0, {body})")
        self.o(f"fw.PutU32(b, 4, {t})")
        for f, fl in fields:
            if fl.wire.is_value:
                self.o(self.store_value(fl.wire, f"s.{self.field_name(f)}", "b", str(fl.offset)))
        if lead:
            self.o(f"q := pos + {body}")
        for i, (f, fl) in enumerate(heap[:lead]):
            v = f"s.{self.field_name(f)}"
            off = str(body) if i == 0 else "uint32(q-pos)"
            self.o(f"fw.PutU32(b, {fl.offset}, {off})")
            self.o(f"fw.PutU32(buf, q, uint32(len({v})))")
            self.o(f"copy(buf[q+4:], {v})")
            if i + 1 < lead:
                self.o(f"q += 4 + len({v})")
        for f, fl in heap[lead:]:
            self.vput(fl.wire, f"s.{self.field_name(f)}", f"pos+{fl.offset}", "pos")

    def ir_struct(self, qualified: str) -> Optional[ir.StructType]:
        for pkg in self.schema.packages:
            for st in pkg.structs:
                if st.qualified_name == qualified:
                    return st
        return None

    def emit_vchecks(self, layout: lower.StructLayout) -> bool:
        """The checks of a versioned body at pos (stored bytes); False when none."""
        checked = [fl for fl in layout.fields if self.vneeds_check(fl.wire)]
        if not checked:
            return False
        self.open(f"if stored >= {layout.body_size} {{")
        for fl in checked:
            self.vcheck(fl.wire, f"pos+{fl.offset}", "pos")
        self.close("} else {")
        self.level += 1
        for fl in checked:
            self.open(f"if {fl.offset + fl.slot} <= stored {{")
            self.vcheck(fl.wire, f"pos+{fl.offset}", "pos")
            self.close()
        self.close()
        return True

    def sync(self, stmt: str) -> None:
        """A runtime call from verify's checks, with the local budget written back."""
        self.o("r.Left = left")
        self.o(stmt)
        self.o("left = r.Left")

    def emit_vleaf(self, layout: lower.StructLayout, slot: str, base: str) -> None:
        """Verifies a struct holding no struct (a leaf) in line: no call; it enters no
        deeper, so only the depth limit is checked."""
        self.open("{")
        self.o(f"slot, base := {slot}, {base}")
        self.o("pos := base + int(fw.U32(d, slot))")
        self.o("stored, typ := 0, uint32(0)")
        self.o("if pos >= slot+4 && pos <= size-8 {")
        self.o("\th := d[pos : pos+8 : pos+8]")
        self.o("\tstored, typ = int(fw.U32(h, 0)), fw.U32(h, 4)")
        self.o("}")
        self.open(f"if stored >= 8 && stored <= size-pos && typ == {layout.type_number} && "
                  "r.Depth > 0 {")
        self.o("left -= int64(stored)")
        self.emit_vchecks(layout)
        self.close("} else {")
        self.level += 1
        self.sync(f"r.Enter(slot, base, {layout.type_number}) // records why")
        self.close()
        self.close()

    def emit_enter(self, t: int) -> None:
        """r.Enter's usual case spelled out (the Go compiler would not inline it). size is
        len(d), which is r.Size (NewVReader), kept in a register."""
        self.o("d := r.Data")
        self.o("size := len(d)")
        self.o("pos := base + int(fw.U32(d, slot))")
        self.o("stored, typ := 0, uint32(0)")
        self.o("if pos >= slot+4 && pos <= size-8 {")
        self.o("\th := d[pos : pos+8 : pos+8]")
        self.o("\tstored, typ = int(fw.U32(h, 0)), fw.U32(h, 4)")
        self.o("}")
        self.open(f"if stored >= 8 && stored <= size-pos && typ == {t} && r.Depth > 0 {{")
        self.o("r.Depth--")
        self.o("r.Left -= int64(stored)")
        self.close("} else {")
        self.o(f"\tr.Enter(slot, base, {t}) // records why")
        self.o("\treturn")
        self.o("}")

    def emit_text_check(self, slot: str, base: str) -> None:
        """r.Text's usual case spelled out for verify."""
        blk, n = self.var("blk"), self.var("n")
        self.o(f"{blk} := {base} + int(fw.U32(d, {slot}))")
        self.open(f"if {blk} >= {slot}+4 && {blk} <= size-4 {{")
        self.open(f"if {n} := int(fw.U32(d, {blk})); {n} <= size-{blk}-4 {{")
        self.o(f"left -= int64(4 + {n})")
        self.close("} else {")
        self.level += 1
        self.sync(f"r.Text({slot}, {base})")
        self.close()
        self.close("} else {")
        self.level += 1
        self.sync(f"r.Text({slot}, {base})")
        self.close()

    def emit_block(self, slot: str, base: str, elem: int) -> tuple:
        """r.Block's usual case spelled out: returns the names of its (pos, count, ok)."""
        p, n, ok, blk = self.var("p"), self.var("n"), self.var("ok"), self.var("blk")
        self.o(f"{p}, {n}, {ok} := 0, 0, false")
        self.o(f"{blk} := {base} + int(fw.U32(d, {slot}))")
        self.open(f"if {blk} >= {slot}+4 && {blk} <= size-4 && "
                  f"int(fw.U32(d, {blk}))*{elem} <= size-{blk}-4 {{")
        self.o(f"{n} = int(fw.U32(d, {blk}))")
        self.o(f"{p} = {blk} + 4")
        self.o(f"left -= int64(4 + {n}*{elem})")
        self.o(f"{ok} = left >= 0")
        self.close("} else {")
        self.level += 1
        self.sync(f"{p}, {n}, {ok} = r.Block({slot}, {base}, {elem})")
        self.close()
        return p, n, ok

    def emit_alloc(self, n: str) -> str:
        """w.Alloc(n) spelled out (the compiler would not inline it); the position's name."""
        p = self.var("blk")
        self.o(f"{p} := len(w.Buf)")
        self.open(f"if {p}+{n} > cap(w.Buf) {{")
        self.o(f"w.Grow({n.replace('+', ' + ')})")
        self.close()
        self.o(f"w.Buf = w.Buf[:{p}+{n}]")
        return p

    def emit_vblock(self, slot: str, base: str, count: str, elem: int) -> str:
        """w.VBlock spelled out: the position of the first element slot."""
        c = self.var("c")
        self.o(f"{c} := {count}")
        blk = self.emit_alloc(f"4+{c}*{elem}")
        self.o(f"fw.PutU32(w.Buf, {slot}, uint32({blk}-{base}))")
        self.o(f"fw.PutU32(w.Buf, {blk}, uint32({c}))")
        p = self.var("p")
        self.o(f"{p} := {blk} + 4")
        return p

    def vput(self, w: lower.WireType, v: str, slot: str, base: str) -> None:
        k = w.kind
        if w.is_value:
            self.o(self.store_value(w, v, "w.Buf", slot))
            return
        if k == "string":
            blk = self.emit_alloc(f"4+len({v})")
            self.o(f"fw.PutU32(w.Buf, {slot}, uint32({blk}-{base}))")
            self.o(f"fw.PutU32(w.Buf, {blk}, uint32(len({v})))")
            self.o(f"copy(w.Buf[{blk}+4:], {v})")
        elif k == "bytes":
            self.o(f"w.VBytes({slot}, {base}, {v})")
        elif k == "struct":
            assert w.ref is not None
            leaf, st = self.model.struct(w.ref), self.ir_struct(w.ref)
            if leaf.depth == 1 and st is not None and w.ref.rpartition(".")[0] == self.pkg.name:
                # A leaf struct in line (no call): its FwPutV body in a block of its own.
                self.open("{")
                self.o(f"s, slot, base := &{v}, {slot}, {base}")
                if not leaf.fields:
                    self.o("_ = s")
                self.emit_vput_body(st, leaf)
                self.close()
            else:
                self.o(f"{v}.FwPutV(w, {slot}, {base})")
        elif k == "optional":
            assert w.element is not None
            e = w.element
            self.open(f"if {v} == nil {{")
            self.o(f"fw.VNull(w, {slot})")
            self.close("} else {")
            self.level += 1
            b = self.emit_alloc(str(e.slot))
            self.o(f"w.Buf[{slot}] = 1")
            self.o(f"fw.PutU32(w.Buf, {slot}+1, uint32({b}-{base}))")
            self.vput(e, f"(*{v})", b, b)
            self.close()
        elif k == "array":
            assert w.element is not None
            i = self.var("i")
            self.open(f"for {i} := range {v} {{")
            self.vput(w.element, f"{v}[{i}]", f"{slot}+{i}*{w.element.slot}", base)
            self.close()
        elif k == "sequence":
            assert w.element is not None
            e = w.element
            src = v
            if w.collection == "set":
                src = self.var("set")
                self.o(f"{src} := fw.SortedSet({v}, {self.compare_fn(e)})")
            p = self.emit_vblock(slot, base, f"len({src})", e.slot)
            i = self.var("i")
            self.open(f"for {i} := range {src} {{")
            self.vput(e, f"{src}[{i}]", f"{p}+{i}*{e.slot}", base)
            self.close()
        elif k == "map":
            assert w.element is not None and w.key is not None
            ks, es = w.key.slot, w.element.slot
            p = self.emit_vblock(slot, base, f"len({v})", ks + es)
            if self.pair_map(w):
                src = v
                if w.collection == "map":
                    src = self.var("m")
                    self.o(f"{src} := fw.SortedPairs({v}, {self.compare_fn(w.key)})")
                i = self.var("i")
                self.open(f"for {i} := range {src} {{")
                self.vput(w.key, f"{src}[{i}].Key", p, base)
                self.vput(w.element, f"{src}[{i}].Value", f"{p}+{ks}", base)
                self.o(f"{p} += {ks + es}")
                self.close()
            else:
                key, val = self.var("k"), self.var("v")
                if w.collection == "map":
                    self.open(f"for _, {key} := range fw.SortedKeys({v}, "
                              f"{self.compare_fn(w.key)}) {{")
                    self.o(f"{val} := {v}[{key}]")
                else:
                    self.open(f"for {key}, {val} := range {v} {{")
                self.vput(w.key, key, p, base)
                self.vput(w.element, val, f"{p}+{ks}", base)
                self.o(f"{p} += {ks + es}")
                self.close()
        else:
            raise AssertionError(k)

    def store_value(self, w: lower.WireType, v: str, buf: str, at: str) -> str:
        k = w.kind
        if k == "decimal":
            return f"fw.PutDecimal({buf}[{at}:], {v})"
        if k == "uuid":
            return f"copy({buf}[{at}:], {v}[:])"
        if k == "timestamp":
            return f"fw.PutU64({buf}, {at}, uint64({v}))"
        sc = self.base_scalar(w)
        if sc == "bool":
            return f"{buf}[{at}] = fw.B2U({v})"
        if sc in ("byte", "char", "int8", "uint8"):
            return f"{buf}[{at}] = byte({v})"
        if sc in ("int16", "uint16"):
            return f"fw.PutU16({buf}, {at}, uint16({v}))"
        if sc in ("int32", "uint32", "wchar"):
            return f"fw.PutU32({buf}, {at}, uint32({v}))"
        if sc in ("int64", "uint64"):
            return f"fw.PutU64({buf}, {at}, uint64({v}))"
        if sc == "float":
            return f"fw.PutF32({buf}, {at}, float32({v}))"
        return f"fw.PutF64({buf}, {at}, float64({v}))"

    def load_value(self, w: lower.WireType, buf: str, at: str) -> str:
        """A fixed value's load (not decimal, which is checked)."""
        k = w.kind
        if k == "timestamp":
            return f"fw.Timestamp(fw.U64({buf}, {at}))"
        if k == "uuid":
            return f"fw.UUIDAt({buf}, {at})"
        t = self.gotype(w)
        sc = self.base_scalar(w)
        if sc == "bool":
            return f"{buf}[{at}] != 0"
        if sc in ("byte", "char", "int8", "uint8"):
            return f"{t}({buf}[{at}])"
        if sc in ("int16", "uint16"):
            return f"{t}(fw.U16({buf}, {at}))"
        if sc in ("int32", "uint32", "wchar"):
            return f"{t}(fw.U32({buf}, {at}))"
        if sc in ("int64", "uint64"):
            return f"{t}(fw.U64({buf}, {at}))"
        if sc == "float":
            return f"{t}(fw.F32({buf}, {at}))" if t != "float32" else f"fw.F32({buf}, {at})"
        return f"{t}(fw.F64({buf}, {at}))" if t != "float64" else f"fw.F64({buf}, {at})"

    def vget(self, w: lower.WireType, dst: str, slot: str, base: str) -> None:
        k = w.kind
        if k == "decimal":
            self.o(f"{dst} = fw.VDecimal(r, {slot})")
        elif w.is_value:
            self.o(f"{dst} = {self.load_value(w, 'r.Data', slot)}")
        elif k == "string":
            self.o(f"r.String({slot}, {base}, &{dst})")
        elif k == "bytes":
            self.o(f"r.Bytes({slot}, {base}, &{dst})")
        elif k == "struct":
            self.o(f"{dst}.FwGetV(r, {slot}, {base})")
        elif k == "optional":
            assert w.element is not None
            e = w.element
            p, st, ok = self.var("p"), self.var("set"), self.var("ok")
            self.o(f"{p}, {st}, {ok} := r.Optional({slot}, {base}, {e.slot})")
            self.open(f"if !{st} {{")
            self.o(f"{dst} = nil")
            self.close(f"}} else if {ok} {{")
            self.level += 1
            self.open(f"if {dst} == nil {{")
            self.o(f"{dst} = new({self.gotype(e)})")
            self.close()
            self.vget(e, dst if e.kind == "struct" else f"(*{dst})", p, p)
            self.close()
        elif k == "array":
            assert w.element is not None
            i = self.var("i")
            self.open(f"for {i} := range {dst} {{")
            if not w.element.is_value:
                self.open("if !r.OK() {")
                self.o("break")
                self.close()
            self.vget(w.element, f"{dst}[{i}]", f"{slot}+{i}*{w.element.slot}", base)
            self.close()
        elif k == "sequence":
            assert w.element is not None
            e = w.element
            p, n, ok, i = self.var("p"), self.var("n"), self.var("ok"), self.var("i")
            self.o(f"{p}, {n}, {ok} := r.Block({slot}, {base}, {e.slot})")
            self.open(f"if {ok} {{")
            self.o(f"{dst} = fw.Resize({dst}, {n})")
            self.open(f"for {i} := range {dst} {{")
            self.vget(e, f"{dst}[{i}]", f"{p}+{i}*{e.slot}", base)
            if not e.is_value or e.kind == "decimal":
                self.open("if !r.OK() {")
                self.o("break")
                self.close()
            self.close()
            if w.collection == "set":
                self.o(f"{dst} = fw.SortSet({dst}, {self.compare_fn(e)})")
            self.close()
        elif k == "map":
            assert w.element is not None and w.key is not None
            ks, es = w.key.slot, w.element.slot
            p, n, ok, i = self.var("p"), self.var("n"), self.var("ok"), self.var("i")
            key, val = self.var("k"), self.var("v")
            self.o(f"{p}, {n}, {ok} := r.Block({slot}, {base}, {ks + es})")
            self.open(f"if {ok} {{")
            pairs = self.pair_map(w)
            if pairs:
                self.o(f"{dst} = {dst}[:0]")
            else:
                self.o(f"{dst} = fw.ClearMap({dst}, {n})")
            self.open(f"for {i} := 0; {i} < {n}; {i}++ {{")
            self.o(f"var {key} {self.gotype(w.key)}")
            self.o(f"var {val} {self.gotype(w.element)}")
            self.vget(w.key, key, p, base)
            self.vget(w.element, val, f"{p}+{ks}", base)
            self.open("if !r.OK() {")
            self.o("break")
            self.close()
            if pairs:
                self.o(f"{dst} = append({dst}, fw.Pair[{self.gotype(w.key)}, "
                       f"{self.gotype(w.element)}]{{Key: {key}, Value: {val}}})")
            else:
                self.open(f"if _, dup := {dst}[{key}]; !dup {{")
                self.o(f"{dst}[{key}] = {val}")
                self.close()
            self.o(f"{p} += {ks + es}")
            self.close()
            if pairs:
                self.o(f"{dst} = fw.SortPairs({dst}, {self.compare_fn(w.key)})")
            self.close()
        else:
            raise AssertionError(k)

    def vneeds_check(self, w: lower.WireType) -> bool:
        if w.kind == "decimal":
            return True
        if w.is_value:
            return False
        if w.kind == "array":
            assert w.element is not None
            return self.vneeds_check(w.element)
        return True

    def vcheck(self, w: lower.WireType, slot: str, base: str) -> None:
        k = w.kind
        if k == "decimal":
            self.sync(f"fw.VCheckDecimal(r, {slot})")
        elif w.is_value:
            return
        elif k in ("string", "bytes"):
            self.emit_text_check(slot, base)
        elif k == "struct":
            assert w.ref is not None
            if self.model.struct(w.ref).depth == 1:
                self.emit_vleaf(self.model.struct(w.ref), slot, base)
            else:
                self.sync(f"{self.qual_fn(w.ref, 'FwVerifyV{name}')}(r, {slot}, {base})")
        elif k == "optional":
            assert w.element is not None
            # r.Optional's usual case spelled out.
            p, size = self.var("p"), w.element.slot
            self.open(f"if d[{slot}] != 0 {{")
            self.o(f"{p} := {base} + int(fw.U32(d, {slot}+1))")
            self.open(f"if {p} >= {slot}+5 && {p} <= size-{size} {{")
            self.o(f"left -= {size}")
            if self.vneeds_check(w.element):
                self.vcheck(w.element, p, p)
            self.close("} else {")
            self.level += 1
            self.sync(f"r.Optional({slot}, {base}, {size}) // records why")
            self.close()
            self.close()
        elif k == "array":
            assert w.element is not None
            i = self.var("i")
            self.open(f"for {i} := 0; {i} < {w.length} && left >= 0; {i}++ {{")
            self.vcheck(w.element, f"{slot}+{i}*{w.element.slot}", base)
            self.close()
        elif k == "sequence":
            assert w.element is not None
            e = w.element
            if not self.vneeds_check(e):
                self.sync(f"r.Block({slot}, {base}, {e.slot})")
                return
            p, n, ok = self.emit_block(slot, base, e.slot)
            i = self.var("i")
            self.open(f"if {ok} {{")
            self.open(f"for {i} := 0; {i} < {n} && left >= 0; {i}++ {{")
            self.vcheck(e, f"{p}+{i}*{e.slot}", base)
            self.close()
            self.close()
        elif k == "map":
            assert w.element is not None and w.key is not None
            ks, es = w.key.slot, w.element.slot
            if not self.vneeds_check(w.key) and not self.vneeds_check(w.element):
                self.sync(f"r.Block({slot}, {base}, {ks + es})")
                return
            p, n, ok = self.emit_block(slot, base, ks + es)
            i = self.var("i")
            self.open(f"if {ok} {{")
            self.open(f"for {i} := 0; {i} < {n} && left >= 0; {i}++ {{")
            at = f"{p}+{i}*{ks + es}"
            self.vcheck(w.key, at, base)
            if self.vneeds_check(w.element):
                if self.vneeds_check(w.key):
                    self.open("if left >= 0 {")
                    self.vcheck(w.element, f"{at}+{ks}", base)
                    self.close()
                else:
                    self.vcheck(w.element, f"{at}+{ks}", base)
            self.close()
            self.close()
        else:
            raise AssertionError(k)

    # ---- final -------------------------------------------------------------------------
    def emit_final(self, s: ir.StructType, layout: lower.StructLayout) -> None:
        name = s.name
        fields = list(zip(s.all_fields, layout.fields))
        t = layout.type_number
        self.o("// MarshalFinal appends s to buf as a final-format root model.")
        self.open(f"func (s *{name}) MarshalFinal(buf []byte) []byte {{")
        self.o("start := len(buf)")
        self.o(f"buf = fw.AppendU32(fw.AppendU32(buf, 0), {t})")
        self.o("buf = s.FwPutF(buf)")
        self.o("fw.PutU32(buf, start, uint32(len(buf)-start))")
        self.o("return buf")
        self.close()
        self.o()
        self.o("// UnmarshalFinal reads a final-format root model into s, reusing its memory.")
        self.open(f"func (s *{name}) UnmarshalFinal(data []byte) error {{")
        self.o("return s.UnmarshalFinalLimits(data, &fw.DefaultLimits)")
        self.close()
        self.o()
        self.o("// UnmarshalFinalLimits is UnmarshalFinal under other limits.")
        self.open(f"func (s *{name}) UnmarshalFinalLimits(data []byte, lim *fw.Limits) error {{")
        self.o(f"full, err := fw.FRoot(data, lim, {t}, {layout.final_min})")
        self.open("if err != nil {")
        self.o("return err")
        self.close()
        self.o("var r fw.FReader")
        self.o("r.Start(data, full, lim)")
        self.o("return r.Finish(s.FwGetF(&r, 8, full), full)")
        self.close()
        self.o()
        self.o(f"// Verify{name}Final checks a final-format root model of {name}.")
        self.open(f"func Verify{name}Final(data []byte) error {{")
        self.o(f"return Verify{name}FinalLimits(data, &fw.DefaultLimits)")
        self.close()
        self.o()
        self.o(f"// Verify{name}FinalLimits is Verify{name}Final under other limits.")
        self.open(f"func Verify{name}FinalLimits(data []byte, lim *fw.Limits) error {{")
        self.o(f"full, err := fw.FRoot(data, lim, {t}, {layout.final_min})")
        self.open("if err != nil {")
        self.o("return err")
        self.close()
        ffast = self.ffast_struct(layout)
        if ffast:
            # The fast walk (fwFastF<Name>) straight from here; when it fails, the full
            # walk runs and says why.
            self.open(f"if lim.MaxDepth >= {layout.depth} {{")
            self.open(f"if p := fwFastF{name}(data[:full], 8, full); p >= 0 {{")
            self.open("if p != full {")
            self.o("return fw.ErrBadSize")
            self.close()
            self.o("return nil")
            self.close()
            self.close()
        self.o("var r fw.FReader")
        self.o("r.Start(data, full, lim)")
        self.o(f"return r.Finish(FwVerifyF{name}(&r, 8, full), full)")
        self.close()
        self.o()
        if ffast:
            self.emit_ffast_fn(name, layout)
        # Put.
        self.o("// FwPutF appends s's fields in the final format (generated code).")
        self.open(f"func (s *{name}) FwPutF(b []byte) []byte {{")
        for f, fl in fields:
            self.fput(fl.wire, f"s.{self.field_name(f)}")
        self.o("return b")
        self.close()
        self.o()
        # Get and verify.
        mins = [fl.wire.final_min for _, fl in fields]
        after = _after(mins)
        for verify in (False, True):
            if verify:
                self.o(f"// FwVerifyF{name} verifies {name}'s fields at p, within [p, end) "
                       "(generated code).")
                self.open(f"func FwVerifyF{name}(r *fw.FReader, p, end int) int {{")
            else:
                self.o("// FwGetF reads s's fields at p, within [p, end); returns the position "
                       "after them or -1.")
                self.open(f"func (s *{name}) FwGetF(r *fw.FReader, p, end int) int {{")
            self.open("if !r.Enter() {")
            self.o("return -1")
            self.close()
            self.o("d := r.Data")
            self.o("_ = d")
            run: List[tuple] = []  # consecutive fixed values: one bounds check for all

            for (f, fl), aft in zip(fields, after):
                room = f"end-{aft}" if aft else "end"
                if verify:
                    self.fcheck(fl.wire, room)
                elif fl.wire.is_value and fl.wire.kind not in ("decimal", "uuid"):
                    run.append((f, fl))
                else:
                    self.flush_run(run)
                    self.fget(fl.wire, f"s.{self.field_name(f)}", room)
            self.flush_run(run)
            self.o("r.Leave()")
            self.o("return p")
            self.close()
            self.o()

    def flush_run(self, run: List[tuple]) -> None:
        """Reads the fixed fields of `run` through one slice (one bounds check)."""
        if not run:
            return
        size = sum(fl.wire.final_size or 0 for _, fl in run)
        q = self.var("q")
        self.o(f"{q} := d[p : p+{size} : p+{size}]")
        at = 0
        for f, fl in run:
            self.o(f"s.{self.field_name(f)} = {self.load_value(fl.wire, q, str(at))}")
            at += fl.wire.final_size or 0
        self.o(f"p += {size}")
        run.clear()

    def fput(self, w: lower.WireType, v: str) -> None:
        k = w.kind
        if k == "decimal":
            self.o(f"b = fw.AppendDecimal(b, {v})")
        elif k == "uuid":
            self.o(f"b = append(b, {v}[:]...)")
        elif k == "timestamp":
            self.o(f"b = fw.AppendU64(b, uint64({v}))")
        elif w.is_value:
            sc = self.base_scalar(w)
            if sc == "bool":
                self.o(f"b = fw.AppendBool(b, {v})")
            elif sc in ("byte", "char", "int8", "uint8"):
                self.o(f"b = append(b, byte({v}))")
            elif sc in ("int16", "uint16"):
                self.o(f"b = fw.AppendU16(b, uint16({v}))")
            elif sc in ("int32", "uint32", "wchar"):
                self.o(f"b = fw.AppendU32(b, uint32({v}))")
            elif sc in ("int64", "uint64"):
                self.o(f"b = fw.AppendU64(b, uint64({v}))")
            elif sc == "float":
                self.o(f"b = fw.AppendF32(b, float32({v}))")
            else:
                self.o(f"b = fw.AppendF64(b, float64({v}))")
        elif k == "string":
            self.o(f"b = fw.AppendString(b, {v})")
        elif k == "bytes":
            self.o(f"b = fw.AppendBytes(b, {v})")
        elif k == "struct":
            self.o(f"b = {v}.FwPutF(b)")
        elif k == "optional":
            assert w.element is not None
            self.open(f"if {v} == nil {{")
            self.o("b = append(b, 0)")
            self.close("} else {")
            self.level += 1
            self.o("b = append(b, 1)")
            self.fput(w.element, v if w.element.kind == "struct" else f"(*{v})")
            self.close()
        elif k == "array":
            assert w.element is not None
            i = self.var("i")
            self.open(f"for {i} := range {v} {{")
            self.fput(w.element, f"{v}[{i}]")
            self.close()
        elif k == "sequence":
            assert w.element is not None
            src = v
            if w.collection == "set":
                src = self.var("set")
                self.o(f"{src} := fw.SortedSet({v}, {self.compare_fn(w.element)})")
            self.o(f"b = fw.AppendU32(b, uint32(len({src})))")
            if w.element.kind == "scalar" and w.element.scalar in ("byte", "uint8", "char"):
                self.o(f"b = append(b, {src}...)")
                return
            i = self.var("i")
            self.open(f"for {i} := range {src} {{")
            self.fput(w.element, f"{src}[{i}]")
            self.close()
        elif k == "map":
            assert w.element is not None and w.key is not None
            self.o(f"b = fw.AppendU32(b, uint32(len({v})))")
            if self.pair_map(w):
                src = v
                if w.collection == "map":
                    src = self.var("m")
                    self.o(f"{src} := fw.SortedPairs({v}, {self.compare_fn(w.key)})")
                i = self.var("i")
                self.open(f"for {i} := range {src} {{")
                self.fput(w.key, f"{src}[{i}].Key")
                self.fput(w.element, f"{src}[{i}].Value")
                self.close()
            else:
                key, val = self.var("k"), self.var("v")
                if w.collection == "map":
                    self.open(f"for _, {key} := range fw.SortedKeys({v}, "
                              f"{self.compare_fn(w.key)}) {{")
                    self.o(f"{val} := {v}[{key}]")
                else:
                    self.open(f"for {key}, {val} := range {v} {{")
                self.fput(w.key, key)
                self.fput(w.element, val)
                self.close()
        else:
            raise AssertionError(k)

    def fget(self, w: lower.WireType, dst: str, end: str) -> None:
        k = w.kind
        fail = "return -1"
        if k == "decimal":
            self.open(f"if !r.Decimal(p, &{dst}) {{")
            self.o(fail)
            self.close()
            self.o("p += 16")
        elif k == "uuid":
            self.o(f"copy({dst}[:], d[p:p+16])")
            self.o("p += 16")
        elif w.is_value:
            self.o(f"{dst} = {self.load_value(w, 'd', 'p')}")
            self.o(f"p += {w.final_size}")
        elif k in ("string", "bytes"):
            fn = "String" if k == "string" else "Bytes"
            self.open(f"if p = r.{fn}(p, {end}, &{dst}); p < 0 {{")
            self.o(fail)
            self.close()
        elif k == "struct":
            self.open(f"if p = {dst}.FwGetF(r, p, {end}); p < 0 {{")
            self.o(fail)
            self.close()
        elif k == "optional":
            assert w.element is not None
            e = w.element
            self.open("if d[p] == 0 {")
            self.o(f"{dst} = nil")
            self.o("p++")
            self.close("} else {")
            self.level += 1
            self.o("p++")
            if e.final_min:
                self.open(f"if {e.final_min} > {end}-p {{")
                self.o(self.ffail("fw.ErrTruncated"))
                self.close()
            self.open(f"if {dst} == nil {{")
            self.o(f"{dst} = new({self.gotype(e)})")
            self.close()
            self.fget(e, dst if e.kind == "struct" else f"(*{dst})", end)
            self.close()
        elif k == "array":
            assert w.element is not None
            e = w.element
            i = self.var("i")
            if e.fixed:
                self.open(f"for {i} := range {dst} {{")
                self.fget(e, f"{dst}[{i}]", end)
                self.close()
            else:
                rest = self.var("rest")
                self.o(f"{rest} := {(w.length or 0) * e.final_min}")
                self.open(f"for {i} := range {dst} {{")
                self.o(f"{rest} -= {e.final_min}")
                self.fget(e, f"{dst}[{i}]", f"{end}-{rest}")
                self.close()
        elif k == "sequence":
            assert w.element is not None
            e = w.element
            n, ok, i = self.var("n"), self.var("ok"), self.var("i")
            self.fcount(n, ok, end, e.final_min)
            self.o("p += 4")
            if e.kind == "scalar" and e.scalar in ("byte", "uint8", "char"):
                self.o(f"{dst} = append({dst}[:0], d[p:p+{n}]...)")
                self.o(f"p += {n}")
                return
            self.o(f"{dst} = fw.Resize({dst}, {n})")
            if e.fixed:
                self.open(f"for {i} := range {dst} {{")
                self.fget(e, f"{dst}[{i}]", end)
                self.close()
            else:
                rest = self.var("rest")
                self.o(f"{rest} := {n} * {e.final_min}")
                self.open(f"for {i} := range {dst} {{")
                self.o(f"{rest} -= {e.final_min}")
                self.fget(e, f"{dst}[{i}]", f"{end}-{rest}")
                self.close()
            if w.collection == "set":
                self.o(f"{dst} = fw.SortSet({dst}, {self.compare_fn(e)})")
        elif k == "map":
            assert w.element is not None and w.key is not None
            pair = w.key.final_min + w.element.final_min
            n, ok, i, rest = self.var("n"), self.var("ok"), self.var("i"), self.var("rest")
            key, val = self.var("k"), self.var("v")
            self.o(f"{n}, {ok} := r.Count(p, {end}, {pair})")
            self.open(f"if !{ok} {{")
            self.o(fail)
            self.close()
            self.o("p += 4")
            pairs = self.pair_map(w)
            if pairs:
                self.o(f"{dst} = {dst}[:0]")
            else:
                self.o(f"{dst} = fw.ClearMap({dst}, {n})")
            self.o(f"{rest} := {n} * {pair}")
            self.open(f"for {i} := 0; {i} < {n}; {i}++ {{")
            self.o(f"{rest} -= {pair}")
            self.o(f"var {key} {self.gotype(w.key)}")
            self.o(f"var {val} {self.gotype(w.element)}")
            self.fget(w.key, key, f"{end}-{rest}-{w.element.final_min}")
            self.fget(w.element, val, f"{end}-{rest}")
            if pairs:
                self.o(f"{dst} = append({dst}, fw.Pair[{self.gotype(w.key)}, "
                       f"{self.gotype(w.element)}]{{Key: {key}, Value: {val}}})")
            else:
                self.open(f"if _, dup := {dst}[{key}]; !dup {{")
                self.o(f"{dst}[{key}] = {val}")
                self.close()
            self.close()
            if pairs:
                self.o(f"{dst} = fw.SortPairs({dst}, {self.compare_fn(w.key)})")
        else:
            raise AssertionError(k)

    def ftrivial(self, w: lower.WireType) -> bool:
        """A value verify can step over: fixed size, nothing to check."""
        if w.kind in ("scalar", "uuid", "timestamp", "enum", "flags"):
            return True
        if w.kind == "array":
            assert w.element is not None
            return self.ftrivial(w.element)
        return False

    def ffail(self, err: str) -> str:
        """The statement failing the final walk with err (the fast walk: just -1)."""
        return "return -1" if self.ffast else f"return r.Fail({err})"

    # The fast path of final verify: a root struct whose checks need no call and no
    # zero-size allowance (values, strings, bytes, leaf structs, optionals, arrays and
    # collections of these, of nonzero size) is first walked by fwFastF<Name>(d, p, end),
    # the same checks without the FReader: depth checked once by the caller against the
    # schema's nesting, any failure -1 with nothing recorded. The final walk stops at the
    # first failure, so the full walk that then runs finds it and says why (a failing
    # message is walked twice; one that passes, once).
    def ffast_ok(self, w: lower.WireType) -> bool:
        if w.is_value or w.kind in ("string", "bytes"):
            return True
        if w.kind == "struct":
            assert w.ref is not None
            leaf = self.model.struct(w.ref)
            return leaf.depth == 1 and all(self.ffast_ok(fl.wire) for fl in leaf.fields)
        if w.kind in ("optional", "array"):
            assert w.element is not None
            return self.ffast_ok(w.element)
        if w.kind == "sequence":
            assert w.element is not None
            return w.element.final_min > 0 and self.ffast_ok(w.element)
        if w.kind == "map":
            assert w.key is not None and w.element is not None
            return (w.key.final_min + w.element.final_min > 0 and self.ffast_ok(w.key)
                    and self.ffast_ok(w.element))
        return False

    def ffast_struct(self, layout: lower.StructLayout) -> bool:
        return (layout.depth in (1, 2)
                and any(not self.ftrivial(fl.wire) for fl in layout.fields)
                and all(self.ffast_ok(fl.wire) for fl in layout.fields))

    def emit_ffast_fn(self, name: str, layout: lower.StructLayout) -> None:
        after = _after([fl.wire.final_min for fl in layout.fields])
        self.o(f"// fwFastF{name} is FwVerifyF{name} for the usual message (root models "
               "only): the")
        self.o("// position after the fields, or -1 with nothing recorded. The caller "
               "has checked")
        self.o(f"// that the depth limit allows {layout.depth} levels.")
        self.open(f"func fwFastF{name}(d []byte, p, end int) int {{")
        self.ffast = True
        for fi, fl in enumerate(layout.fields):
            aft = after[fi]
            self.fcheck(fl.wire, f"end-{aft}" if aft else "end")
        self.ffast = False
        self.o("return p")
        self.close()
        self.o()

    def fcheck(self, w: lower.WireType, end: str) -> None:
        k = w.kind
        fail = "return -1"
        if self.ftrivial(w):
            self.o(f"p += {w.final_size}")
        elif k == "decimal":
            if self.ffast:
                self.open("if !fw.DecimalValid(d, p) {")
            else:
                self.open("if !r.CheckDecimal(p) {")
            self.o(fail)
            self.close()
            self.o("p += 16")
        elif k in ("string", "bytes"):
            # r.Text spelled out, without making the payload's slice.
            ln = self.var("n")
            self.o(f"{ln} := int(fw.U32(d, p))")
            self.open(f"if {ln} > {end}-p-4 {{")
            self.o(self.ffail("fw.ErrTruncated"))
            self.close()
            self.o(f"p += 4 + {ln}")
        elif k == "struct" and self.model.struct(w.ref or "").depth == 1:
            # A struct holding no struct (a leaf) in line: no call; it enters no deeper,
            # so only the depth limit is checked.
            lay = self.model.struct(w.ref or "")
            after = _after([fl.wire.final_min for fl in lay.fields])
            self.open("{")
            at = len(self.lines)
            self.o(f"end := {end.replace('-', ' - ')}")
            if not self.ffast:
                self.open("if r.Depth == 0 {")
                self.o("return r.Fail(fw.ErrTooDeep)")
                self.close()
            for fi, fl in enumerate(lay.fields):
                aft = after[fi]
                self.fcheck(fl.wire, f"end-{aft}" if aft else "end")
            if not any(re.search(r"\bend\b", line) for line in self.lines[at + 1:]):
                del self.lines[at]  # no check needs it
            self.close()
        elif k == "struct":
            assert w.ref is not None
            self.open(f"if p = {self.qual_fn(w.ref, 'FwVerifyF{name}')}(r, p, {end}); p < 0 {{")
            self.o(fail)
            self.close()
        elif k == "optional":
            assert w.element is not None
            e = w.element
            self.open("if d[p] == 0 {")
            self.o("p++")
            self.close("} else {")
            self.level += 1
            self.o("p++")
            if e.final_min:
                self.open(f"if {e.final_min} > {end}-p {{")
                self.o(self.ffail("fw.ErrTruncated"))
                self.close()
            self.fcheck(e, end)
            self.close()
        elif k == "array":
            assert w.element is not None
            e = w.element
            i = self.var("i")
            if e.fixed:
                self.open(f"for {i} := 0; {i} < {w.length}; {i}++ {{")
                self.fcheck(e, end)
                self.close()
            else:
                rest = self.var("rest")
                self.o(f"{rest} := {(w.length or 0) * e.final_min}")
                self.open(f"for {i} := 0; {i} < {w.length}; {i}++ {{")
                self.o(f"{rest} -= {e.final_min}")
                self.fcheck(e, f"{end}-{rest}")
                self.close()
        elif k == "sequence":
            assert w.element is not None
            e = w.element
            n, ok, i = self.var("n"), self.var("ok"), self.var("i")
            self.fcount(n, ok, end, e.final_min)
            self.o("p += 4")
            if self.ftrivial(e):
                self.o(f"p += {n} * {e.final_size}")
            elif e.fixed:
                self.open(f"for {i} := 0; {i} < {n}; {i}++ {{")
                self.fcheck(e, end)
                self.close()
            else:
                rest = self.var("rest")
                self.o(f"{rest} := {n} * {e.final_min}")
                self.open(f"for {i} := 0; {i} < {n}; {i}++ {{")
                self.o(f"{rest} -= {e.final_min}")
                self.fcheck(e, f"{end}-{rest}")
                self.close()
        elif k == "map":
            assert w.element is not None and w.key is not None
            pair = w.key.final_min + w.element.final_min
            n, ok, i, rest = self.var("n"), self.var("ok"), self.var("i"), self.var("rest")
            self.fcount(n, ok, end, pair)
            self.o("p += 4")
            if self.ftrivial(w.key) and self.ftrivial(w.element):
                self.o(f"p += {n} * {pair}")
                return
            self.o(f"{rest} := {n} * {pair}")
            self.open(f"for {i} := 0; {i} < {n}; {i}++ {{")
            self.o(f"{rest} -= {pair}")
            self.fcheck(w.key, f"{end}-{rest}-{w.element.final_min}")
            self.fcheck(w.element, f"{end}-{rest}")
            self.close()
        else:
            raise AssertionError(k)

    def fcount(self, n: str, ok: str, end: str, size: int) -> None:
        """r.Count at p: n elements of at least size bytes (spelled out in the fast walk,
        which only has elements of nonzero size; multiplied rather than divided, which
        can only fail more: when fewer than 4 bytes are left, even for count 0)."""
        if self.ffast:
            self.o(f"{n} := int(fw.U32(d, p))")
            self.open(f"if {n}*{size} > {end}-p-4 {{")
        else:
            self.o(f"{n}, {ok} := r.Count(p, {end}, {size})")
            self.open(f"if !{ok} {{")
        self.o("return -1")
        self.close()

    # ---- JSON --------------------------------------------------------------------------
    def emit_json(self, s: ir.StructType, layout: lower.StructLayout) -> None:
        name = s.name
        fields = list(zip(s.all_fields, layout.fields))
        self.o("// MarshalJSON is s as fastwire's JSON (docs/wire-format.md#json).")
        self.open(f"func (s *{name}) MarshalJSON() ([]byte, error) {{")
        self.o("return s.AppendJSON(nil), nil")
        self.close()
        self.o()
        self.o("// AppendJSON appends s as JSON to b.")
        self.open(f"func (s *{name}) AppendJSON(b []byte) []byte {{")
        self.o("b = append(b, '{')")
        for i, (f, fl) in enumerate(fields):
            key = ("," if i else "") + '"' + f.name + '":'
            self.o(f"b = append(b, {c_string(key)}...)")
            self.jput(fl.wire, f"s.{self.field_name(f)}")
        self.o("return append(b, '}')")
        self.close()
        self.o()
        self.o("// UnmarshalJSON reads JSON text into s; missing fields take their defaults.")
        self.open(f"func (s *{name}) UnmarshalJSON(data []byte) error {{")
        self.o("return s.UnmarshalJSONLimits(data, &fw.DefaultLimits)")
        self.close()
        self.o()
        self.o("// UnmarshalJSONLimits is UnmarshalJSON under other limits.")
        self.open(f"func (s *{name}) UnmarshalJSONLimits(data []byte, lim *fw.Limits) error {{")
        self.o("p := fw.NewJSONParser(data, lim)")
        self.o("s.FwGetJSON(p)")
        self.o("return p.Finish()")
        self.close()
        self.o()
        self.o("// FwGetJSON reads an object into s (generated code).")
        self.open(f"func (s *{name}) FwGetJSON(p *fw.JSONParser) {{")
        self.o(f"*s = New{name}()")
        self.open("if !p.Object() {")
        self.o("return")
        self.close()
        self.open("for p.NextKey() {")
        if fields:
            self.o("switch string(p.Key) {")
            for f, fl in fields:
                self.o(f"case {c_string(f.name)}:")
                self.level += 1
                self.jget(fl.wire, f"s.{self.field_name(f)}")
                self.level -= 1
            self.o("default:")
            self.o("\tp.Skip()")
            self.o("}")
        else:
            self.o("p.Skip()")
        self.close()
        self.close()
        self.o()

    def jput(self, w: lower.WireType, v: str) -> None:
        k = w.kind
        if k == "decimal":
            self.o(f"b = fw.AppendJSONDecimal(b, {v})")
        elif k == "uuid":
            self.o(f"b = fw.AppendJSONUUID(b, {v})")
        elif k == "timestamp":
            self.o(f"b = strconv.AppendUint(b, uint64({v}), 10)")
        elif w.is_value:
            sc = self.base_scalar(w)
            if sc == "bool":
                self.o(f"b = fw.AppendJSONBool(b, {v})")
            elif sc in ("float", "double"):
                self.o(f"b = fw.AppendDouble(b, float64({v}))")
            elif sc in SIGNED:
                self.o(f"b = strconv.AppendInt(b, int64({v}), 10)")
            elif sc == "wchar":
                self.o(f"b = strconv.AppendUint(b, uint64(uint32({v})), 10)")
            else:
                self.o(f"b = strconv.AppendUint(b, uint64({v}), 10)")
        elif k == "string":
            self.o(f"b = fw.AppendJSONString(b, {v})")
        elif k == "bytes":
            self.o(f"b = fw.AppendJSONBytes(b, {v})")
        elif k == "struct":
            self.o(f"b = {v}.AppendJSON(b)")
        elif k == "optional":
            assert w.element is not None
            self.open(f"if {v} == nil {{")
            self.o('b = append(b, "null"...)')
            self.close("} else {")
            self.level += 1
            self.jput(w.element, v if w.element.kind == "struct" else f"(*{v})")
            self.close()
        elif k in ("array", "sequence"):
            assert w.element is not None
            src = v
            if w.collection == "set":
                src = self.var("set")
                self.o(f"{src} := fw.SortedSet({v}, {self.compare_fn(w.element)})")
            i = self.var("i")
            self.o("b = append(b, '[')")
            self.open(f"for {i} := range {src} {{")
            self.open(f"if {i} > 0 {{")
            self.o("b = append(b, ',')")
            self.close()
            self.jput(w.element, f"{src}[{i}]")
            self.close()
            self.o("b = append(b, ']')")
        elif k == "map":
            assert w.element is not None and w.key is not None
            if self.pair_map(w):
                src = v
                if w.collection == "map":
                    src = self.var("m")
                    self.o(f"{src} := fw.SortedPairs({v}, {self.compare_fn(w.key)})")
                i = self.var("i")
                self.o("b = append(b, '[')")
                self.open(f"for {i} := range {src} {{")
                self.open(f"if {i} > 0 {{")
                self.o("b = append(b, ',')")
                self.close()
                self.o("b = append(b, '[')")
                self.jput(w.key, f"{src}[{i}].Key")
                self.o("b = append(b, ',')")
                self.jput(w.element, f"{src}[{i}].Value")
                self.o("b = append(b, ']')")
                self.close()
                self.o("b = append(b, ']')")
                return
            key, val, first = self.var("k"), self.var("v"), self.var("first")
            self.o("b = append(b, '{')")
            self.o(f"{first} := true")
            if w.collection == "map":
                self.open(f"for _, {key} := range fw.SortedKeys({v}, {self.compare_fn(w.key)}) {{")
                self.o(f"{val} := {v}[{key}]")
            else:
                self.open(f"for {key}, {val} := range {v} {{")
            self.open(f"if !{first} {{")
            self.o("b = append(b, ',')")
            self.close()
            self.o(f"{first} = false")
            self.jkey_put(w.key, key)
            self.o("b = append(b, ':')")
            self.jput(w.element, val)
            self.close()
            self.o("b = append(b, '}')")
        else:
            raise AssertionError(k)

    def jkey_put(self, w: lower.WireType, v: str) -> None:
        k = w.kind
        if k == "string":
            self.o(f"b = fw.AppendJSONString(b, {v})")
        elif k == "decimal":
            self.o(f"b = fw.AppendJSONDecimal(b, {v})")
        elif k == "uuid":
            self.o(f"b = fw.AppendJSONUUID(b, {v})")
        elif k == "scalar" and w.scalar in ("float", "double"):
            self.o(f"b = fw.AppendDoubleKey(b, float64({v}))")
        elif k == "scalar" and w.scalar == "bool":
            self.open(f"if {v} {{")
            self.o('b = append(b, `"true"`...)')
            self.close("} else {")
            self.o('\tb = append(b, `"false"`...)')
            self.o("}")
        else:
            self.o("b = append(b, '\"')")
            self.jput(w, v)
            self.o("b = append(b, '\"')")

    def jget(self, w: lower.WireType, dst: str) -> None:
        k = w.kind
        t = self.gotype(w)
        if k == "decimal":
            self.o(f"{dst} = p.Decimal()")
        elif k == "uuid":
            self.o(f"{dst} = p.UUID()")
        elif k == "timestamp":
            self.o(f"{dst} = fw.Timestamp(p.Uint({2**64 - 1}))")
        elif w.is_value:
            sc = self.base_scalar(w)
            if sc == "bool":
                self.o(f"{dst} = p.Bool()")
            elif sc == "float":
                self.o(f"{dst} = {t}(p.Float())")
            elif sc == "double":
                self.o(f"{dst} = {t}(p.Double())")
            elif sc in SIGNED:
                lo, hi = SIGNED[sc]
                self.o(f"{dst} = {t}(p.Int({lo}, {hi}))")
            else:
                self.o(f"{dst} = {t}(p.Uint({UNSIGNED[sc]}))")
        elif k == "string":
            self.o(f"p.String(&{dst})")
        elif k == "bytes":
            self.o(f"p.Bytes(&{dst})")
        elif k == "struct":
            self.o(f"{dst}.FwGetJSON(p)")
        elif k == "optional":
            assert w.element is not None
            e = w.element
            self.open("if p.Null() {")
            self.o(f"{dst} = nil")
            self.close("} else {")
            self.level += 1
            self.open(f"if {dst} == nil {{")
            self.o(f"{dst} = new({self.gotype(e)})")
            self.close()
            self.jget(e, dst if e.kind == "struct" else f"(*{dst})")
            self.close()
        elif k == "array":
            assert w.element is not None
            i = self.var("i")
            self.open("if p.Array() {")
            self.o(f"{i} := 0")
            self.open("for p.More() {")
            self.open(f"if {i} == {w.length} {{")
            self.o("p.Fail(fw.ErrInvalidArgument)")
            self.o("break")
            self.close()
            self.jget(w.element, f"{dst}[{i}]")
            self.o(f"{i}++")
            self.close()
            self.open(f"if {i} != {w.length} {{")
            self.o("p.Fail(fw.ErrInvalidArgument)")
            self.close()
            self.close()
        elif k == "sequence":
            assert w.element is not None
            e = w.element
            x = self.var("e")
            self.o(f"{dst} = {dst}[:0]")
            self.open("if p.Array() {")
            self.open("for p.More() {")
            self.o(f"var {x} {self.gotype(e)}")
            if e.kind == "struct" or self.needs_init(e):
                self.emit_default(x, e, None)
            self.jget(e, x)
            if e.final_size == 0:
                self.o("p.ChargeZero()")
            self.open("if p.Err != nil {")
            self.o("break")
            self.close()
            self.o(f"{dst} = append({dst}, {x})")
            self.close()
            self.close()
            if w.collection == "set":
                self.o(f"{dst} = fw.SortSet({dst}, {self.compare_fn(e)})")
        elif k == "map":
            assert w.element is not None and w.key is not None
            key, val = self.var("k"), self.var("v")
            kt, vt = self.gotype(w.key), self.gotype(w.element)
            if self.pair_map(w):
                self.o(f"{dst} = {dst}[:0]")
                self.open("if p.Array() {")
                self.open("for p.More() {")
                self.open("if !p.Array() || !p.More() {")
                self.o("p.Fail(fw.ErrInvalidArgument)")
                self.o("break")
                self.close()
                self.o(f"var {key} {kt}")
                self.o(f"var {val} {vt}")
                self.jget(w.key, key)
                self.open("if !p.More() {")
                self.o("p.Fail(fw.ErrInvalidArgument)")
                self.o("break")
                self.close()
                self.jget(w.element, val)
                self.open("if p.More() {")
                self.o("p.Fail(fw.ErrInvalidArgument)")
                self.close()
                self.open("if p.Err != nil {")
                self.o("break")
                self.close()
                self.o(f"{dst} = append({dst}, fw.Pair[{kt}, {vt}]{{Key: {key}, Value: {val}}})")
                self.close()
                self.close()
                self.o(f"{dst} = fw.SortPairs({dst}, {self.compare_fn(w.key)})")
                return
            self.o(f"{dst} = fw.ClearMap({dst}, 0)")
            self.open("if p.Object() {")
            self.open("for p.NextKey() {")
            self.o(f"{key} := {self.jkey_get(w.key)}")
            self.o(f"var {val} {vt}")
            self.jget(w.element, val)
            self.open("if p.Err != nil {")
            self.o("break")
            self.close()
            self.open(f"if _, dup := {dst}[{key}]; !dup {{")
            self.o(f"{dst}[{key}] = {val}")
            self.close()
            self.close()
            self.close()
        else:
            raise AssertionError(k)

    def jkey_get(self, w: lower.WireType) -> str:
        k = w.kind
        t = self.gotype(w)
        if k == "string":
            return "p.KeyString()"
        if k == "decimal":
            return "p.KeyDecimal()"
        if k == "uuid":
            return "p.KeyUUID()"
        if k == "timestamp":
            return f"fw.Timestamp(p.KeyUint({2**64 - 1}))"
        sc = self.base_scalar(w)
        if sc == "bool":
            return "p.KeyBool()"
        if sc == "float":
            return f"{t}(p.KeyFloat())"
        if sc == "double":
            return f"{t}(p.KeyDouble())"
        if sc in SIGNED:
            lo, hi = SIGNED[sc]
            return f"{t}(p.KeyInt({lo}, {hi}))"
        return f"{t}(p.KeyUint({UNSIGNED[sc]}))"

    # ---- protocol ----------------------------------------------------------------------
    def emit_protocol(self) -> None:
        layout = self.model.package(self.pkg.name)
        sends = [n for n in layout.sends if n.rpartition(".")[0] == self.pkg.name]
        local = {s.qualified_name: s for s in self.pkg.structs}
        answers: Dict[str, bool] = {}  # response or reject type -> is a reject
        for s in self.pkg.structs:
            if not s.request:
                continue
            if s.response is not None:
                answers.setdefault(s.response.qualified_name, False)
            for rej in s.rejects:
                answers[rej.type.qualified_name] = True
        ids = {}
        for q in sends:
            s = local[q]
            idf = s.id_field
            if idf is not None:
                ids[q] = self.field_name(idf)
        for q in sends:
            s = local[q]
            if s.request and q in ids:
                self.o(f"// FBERequestID is the [id] the answer to a {s.name} carries.")
                self.o(f"func (m *{s.name}) FBERequestID() any {{ return m.{ids[q]} }}")
                self.o()
        names = [local[q].name for q in sends]
        self.o("// Receiver decodes the messages of this package's protocol and calls the hook of")
        self.o("// each (a nil hook skips it): " + (", ".join(names) or "none") + ".")
        self.o("// The value passed to a hook is reused for the next message of its type (answers")
        self.o("// excepted): copy what is kept. OnResponse, when set, is offered every response")
        self.o("// and reject first (fw.Client sets it); true means it took the message.")
        rows = [("Final", "bool"), ("Limits", "fw.Limits"),
                ("OnResponse", "func(id any, m fw.Message, reject bool) bool")]
        rows += [(f"On{n}", f"func(*{n})") for n in names]
        rows += [(f"m{i}", n) for i, n in enumerate(names) if local[sends[i]].qualified_name
                 not in answers]
        width = max(len(a) for a, _ in rows)
        self.o("type Receiver struct {")
        for a, b in rows:
            self.o(f"\t{a}{' ' * (width - len(a) + 1)}{b}")
        self.o("}")
        self.o()
        self.o("// NewReceiver is a Receiver of the versioned format.")
        self.o("func NewReceiver() *Receiver { return &Receiver{Limits: fw.DefaultLimits} }")
        self.o()
        self.o("// NewFinalReceiver is a Receiver of the final format.")
        self.o("func NewFinalReceiver() *Receiver { return &Receiver{Final: true, Limits: "
               "fw.DefaultLimits} }")
        self.o()
        self.o("// IsFinal tells the format the Receiver reads.")
        self.o("func (r *Receiver) IsFinal() bool { return r.Final }")
        self.o()
        self.o("// ReceiveLimits are the limits messages are read under.")
        self.o("func (r *Receiver) ReceiveLimits() *fw.Limits { return &r.Limits }")
        self.o()
        self.o("// SetOnResponse sets OnResponse (fw.Client).")
        self.o("func (r *Receiver) SetOnResponse(f func(id any, m fw.Message, reject bool) bool) "
               "{ r.OnResponse = f }")
        self.o()
        self.o("// Dispatch decodes one message of type typ and calls its hook; known is false "
               "for a type")
        self.o("// this protocol does not know.")
        self.open("func (r *Receiver) Dispatch(typ uint32, msg []byte) (known bool, err error) {")
        if names:
            self.o("switch typ {")
            for i, q in enumerate(sends):
                s = local[q]
                lay = self.model.struct(q)
                self.o(f"case {lay.type_number}:")
                self.level += 1
                if q in answers:
                    self.o(f"v := new({s.name})")
                    self.o(f"*v = New{s.name}()")
                else:
                    self.o(f"v := &r.m{i}")
                self.open("if err := fw.Decode(v, typ, msg, r.Final, &r.Limits); err != nil {")
                self.o("return true, err")
                self.close()
                if q in answers and q in ids:
                    reject = "true" if answers[q] else "false"
                    self.open(f"if r.OnResponse != nil && r.OnResponse(v.{ids[q]}, v, {reject}) {{")
                    self.o("return true, nil")
                    self.close()
                self.open(f"if r.On{s.name} != nil {{")
                self.o(f"r.On{s.name}(v)")
                self.close()
                self.o("return true, nil")
                self.level -= 1
            self.o("}")
        else:
            self.o("_ = msg")
        self.o("return false, nil")
        self.close()
        self.o()
        for q in sends:
            s = local[q]
            if not s.request or s.response is None or q not in ids:
                continue
            resp = self.qual(s.response.qualified_name)
            self.o(f"// Request{s.name} sends q through c and waits for its {resp}: or fails "
                   "with")
            self.o("// fw.ErrRejected (a *fw.RejectedError holding the reject), fw.ErrTimeout,")
            self.o("// fw.ErrDisconnected or fw.ErrOverflow. timeout 0 is the client's "
                   "RequestTimeout.")
            self.open(f"func Request{s.name}(c *fw.Client, q *{s.name}, timeout time.Duration) "
                      f"(*{resp}, error) {{")
            self.o("m, err := c.Request(q, timeout)")
            self.open("if err != nil {")
            self.o("return nil, err")
            self.close()
            self.o(f"a, ok := m.(*{resp})")
            self.open("if !ok {")
            self.o("return nil, &fw.RejectedError{Message: m}")
            self.close()
            self.o("return a, nil")
            self.close()
            self.o()
