"""The Ruby generator: one file per package, on the `fastwire` gem (ruby/).

    fastwire compile schemas/proto.fbe --lang ruby --final --json --proto -o gen/
    fastwire --ruby --input=schemas/proto.fbe --output=gen/          # fbec's flags

Each package becomes `<package>_fbe.rb` holding module `<Package>` (`proto` -> `Proto`):

- enums and flags as modules of Integer constants (`Proto::OrderSide::SELL`); values
  are plain Integers, so unknown values are kept;
- one class per struct or message: attribute accessors, `initialize` with keyword
  arguments and the schema's defaults, `==`/`eql?`/`hash` (and `<=>` with `[key]` fields)
  by the shared equality rule, `to_s`/`inspect` as the C++ printout, `to_json` /
  `from_json`;
- one codec per type (`E_<Enum>`, `S_<Struct>`): the field table from the lowered wire
  model (every slot offset, the body size, the body's pack format and the final
  format's runs of fixed-size fields); the runtime walks it;
- `<Struct>Model` (versioned) and `<Struct>FinalModel` (with --final);
- with --proto: `Sender`, `Receiver` (and `FinalSender`, `FinalReceiver` with --final).

No layout is computed here: offsets, sizes and runs come from fastwire.lower; the only
table of its own is the type table (wire kind -> pack directive and runtime codec).
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional

from ... import __version__, ir, lower
from ..common import docs, naming
from ..common.naming import snake
from ..options import Options
from ..printer import Printer

# Wire scalar -> (pack directive, runtime codec constant).
SCALARS: Dict[str, str] = {
    "bool": "C", "byte": "C", "char": "C", "wchar": "V", "int8": "c", "uint8": "C",
    "int16": "s<", "uint16": "S<", "int32": "l<", "uint32": "L<", "int64": "q<",
    "uint64": "Q<", "float": "L<", "double": "E",
}  # float as its bits: Ruby's "e" directive would write every NaN as the canonical one
CODECS: Dict[str, str] = {
    "bool": "BOOL", "byte": "BYTE", "char": "CHAR", "wchar": "WCHAR", "int8": "INT8",
    "uint8": "UINT8", "int16": "INT16", "uint16": "UINT16", "int32": "INT32",
    "uint32": "UINT32", "int64": "INT64", "uint64": "UINT64", "float": "FLOAT",
    "double": "DOUBLE", "decimal": "DECIMAL", "timestamp": "TIMESTAMP", "uuid": "UUID_",
    "string": "STRING", "bytes": "BYTES",
}
# Constants of Ruby's core a package's module must not replace.
CORE = frozenset("""
    Array BasicObject Binding Class Comparable Complex Data Dir Encoding Enumerable
    Enumerator Errno Exception FalseClass Fastwire Fiber File FileTest Float GC Hash IO
    Integer Kernel Marshal MatchData Math Method Module NilClass Numeric Object
    ObjectSpace Proc Process Random Range Rational Regexp Set Signal String Struct Symbol
    Thread Time TracePoint TrueClass UnboundMethod Warning JSON Socket BigDecimal
    SecureRandom Base64 Comparable Minitest""".split())


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    schema = model.schema
    return {naming.file_name("ruby", p.name, "module"): _Module(schema, p, options, model).render()
            for p in schema.packages}


def module_name(package: str) -> str:
    name = naming.pascal(package)
    name = name[:1].upper() + name[1:]
    return name + "_" if name in CORE else name


def class_name(name: str) -> str:
    return name[:1].upper() + name[1:]


def attr_name(name: str) -> str:
    """A field's accessor and keyword: a Ruby local-variable name, not reserved."""
    if name[:1].isupper():
        name = name[:1].lower() + name[1:]
    return naming.ident("ruby", name)


def member_names(e: ir.EnumType) -> Dict[str, str]:
    """schema member name -> Ruby constant (upper case; clashes get a trailing _)."""
    out: Dict[str, str] = {}
    taken = set()
    for v in e.values:
        c = v.name.upper()
        if not c[:1].isalpha():
            c = "V" + c
        while c in taken:
            c += "_"
        taken.add(c)
        out[v.name] = c
    return out


def ruby_string(text: str) -> str:
    out = []
    for ch in text:
        o = ord(ch)
        if ch in '"\\#':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02X}")
        elif o > 0x7F:
            out.append(f"\\u{{{o:X}}}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def float_literal(x: float) -> str:
    if x != x:
        return "Float::NAN"
    if x in (float("inf"), float("-inf")):
        return "Float::INFINITY" if x > 0 else "-Float::INFINITY"
    text = repr(float(x))
    if "e" in text and "." not in text.split("e")[0]:
        mant, exp = text.split("e")
        text = f"{mant}.0e{exp}"
    return text


# How many fields one walk inlines at most (of the structs it holds, 3 levels deep).
INLINE_FIELDS = 32

def comments(doc: Optional[str]) -> List[str]:
    return [f"# {line}".rstrip() for line in docs.comment_lines("ruby", doc.strip())] if doc else []


class _Module:
    def __init__(self, schema: ir.Schema, pkg: ir.Package, options: Options,
                 model: lower.WireModel) -> None:
        self.schema = schema
        self.pkg = pkg
        self.options = options
        self.model = model
        self.mod = module_name(pkg.name)
        self.lines: List[str] = []
        self.level = 0
        self._vok_tags = 0  # locals of the structs emit_vok inlines: pos, pos1, ...
        # Fields one walk (vok, vroot, fput, fget) may still inline: without a bound, a
        # struct holding k structs that each hold k more wrote k^3 copies (a 0.1 MB
        # schema made 63 MB of Ruby and took 6 s; issue 37).
        self._inline_left = INLINE_FIELDS

    # ---- output ------------------------------------------------------------------------
    def out(self, line: str = "") -> None:
        # The Printer reads 4 spaces as one level and writes its own unit (2 spaces).
        self.lines.append(("    " * self.level + line) if line else "")

    def block(self, text: str) -> None:
        """Lines at the current level; text indented by 2 spaces a level inside."""
        for line in text.split("\n"):
            body = line.lstrip(" ")
            self.level += (len(line) - len(body)) // 2
            self.out(body)
            self.level -= (len(line) - len(body)) // 2

    def render(self) -> str:
        source = docs.comment_text("ruby", os.path.basename(self.pkg.path))
        self.out("# frozen_string_literal: true")
        self.out()
        self.out(f"# Generated by fastwire {__version__} from {source} "
                 f"(package {self.pkg.name}). Do not edit.")
        self.out()
        self.out('require "fastwire"')
        for name in self.pkg.imports:
            self.out(f'require_relative "{naming.module_name("ruby", name)}"')
        self.out()
        self.out(f'Fastwire.check_version("{__version__}", "{self.pkg.name}_fbe.rb")')
        self.out()
        for line in comments(self.pkg.doc):
            self.out(line)
        self.out(f"module {self.mod}")
        self.level += 1
        first = True
        for t in self.pkg.types:
            if isinstance(t, ir.EnumType):
                if not first:
                    self.out()
                first = False
                self.emit_enum(t)
        structs = self.ordered_structs()
        for s in structs:
            if not first:
                self.out()
            first = False
            self.emit_class(s)
        self.emit_codecs(structs)
        self.emit_models()
        if self.options.proto:
            self.emit_protocol()
        self.level -= 1
        self.out("end")
        printer = Printer(indent=2)
        for i, line in enumerate(self.lines):
            printer.value(line) if line else printer.blank()
            following = self.lines[i + 1].strip() if i + 1 < len(self.lines) else ""
            if _GUARD.match(line) and following and following not in ("end", "else") \
                    and not following.startswith("elsif "):
                printer.blank()  # a blank line after a guard clause (RuboCop's layout)
        return printer.text()

    def ordered_structs(self) -> List[ir.StructType]:
        by_name = {s.qualified_name: s for s in self.pkg.structs}
        return [by_name[n] for n in self.model.package(self.pkg.name).emission_order]

    # ---- names -------------------------------------------------------------------------
    def qualify(self, package: Optional[str], name: str) -> str:
        if package is None or package == self.pkg.name:
            return name
        return f"{module_name(package)}::{name}"

    def type_name(self, ref: ir.TypeRef) -> str:
        return self.qualify(ref.package, class_name(ref.name))

    def plain_codec(self, ref: ir.TypeRef) -> str:
        if ref.kind == "primitive":
            return f"Fastwire::{CODECS[ref.name]}"
        if ref.kind in ("enum", "flags"):
            return self.qualify(ref.package, f"E_{ref.name}")
        return self.qualify(ref.package, f"S_{ref.name}")

    def codec_expr(self, t: ir.FieldType) -> str:
        c = self.plain_codec(t.value)
        if t.optional:
            c = f"Fastwire.optional({c})"
        if t.container == "array":
            return f"Fastwire.array({c}, {t.size})"
        if t.container in ("vector", "list", "set"):
            return f"Fastwire.{t.container}({c})"
        if t.container in ("map", "hash"):
            assert t.key is not None
            fn = "map" if t.container == "map" else "hash_map"
            return f"Fastwire.{fn}({self.plain_codec(t.key)}, {c})"
        return c

    @staticmethod
    def directive(w: lower.WireType) -> str:
        """The pack directive(s) of a slot, from its wire kind."""
        if w.kind in ("scalar", "enum", "flags"):
            assert w.scalar is not None
            return SCALARS[w.scalar]
        if w.kind == "timestamp":
            return "Q<"
        if w.kind in ("decimal", "uuid"):
            return "a16"
        if w.kind == "optional":
            return "CV"
        if w.kind == "array":
            assert w.element is not None and w.length is not None
            return _Module.directive(w.element) * w.length
        return "V"  # an offset: string, bytes, struct, sequence, map

    # ---- enums -------------------------------------------------------------------------
    def emit_enum(self, e: ir.EnumType) -> None:
        for line in comments(e.doc):
            self.out(line)
        self.out(f"module {class_name(e.name)}")
        self.level += 1
        names = member_names(e)
        for v in e.values:
            for line in comments(v.doc):
                self.out(line)
            self.out(f"{names[v.name]} = {v.value}")
        self.level -= 1
        self.out("end")

    # ---- defaults ----------------------------------------------------------------------
    def enum_expr(self, ref: ir.TypeRef, lit: lower.Literal) -> str:
        t = self.schema.lookup(ref)
        assert isinstance(t, ir.EnumType)
        if lit.names:
            names = member_names(t)
            cls = self.type_name(ref)
            return " | ".join(f"{cls}::{names[n]}" for n in lit.names)
        return str(lit.value)

    def zero(self, ref: ir.TypeRef) -> str:
        if ref.kind == "primitive":
            return {"bool": "false", "float": "0.0", "double": "0.0", "string": '+""',
                    "bytes": '"".b', "decimal": "Fastwire::Decimal::ZERO",
                    "uuid": "Fastwire::UUID::NIL"}.get(ref.name, "0")
        if ref.kind == "struct":
            return f"{self.type_name(ref)}.new"
        return "0"

    def literal(self, ref: ir.TypeRef, lit: lower.Literal) -> str:
        if lit.kind == "null":
            return "nil"
        if lit.kind == "bool":
            return "true" if lit.value else "false"
        if lit.kind == "computed":
            return {"utc": "Fastwire.utc", "uuid1": "Fastwire::UUID.uuid1",
                    "uuid4": "Fastwire::UUID.uuid4"}[str(lit.value)]
        if lit.kind == "integer":
            if ref.kind in ("enum", "flags"):
                return self.enum_expr(ref, lit)
            return str(lit.value)
        if lit.kind == "float":
            assert isinstance(lit.value, float)
            return float_literal(lit.value)
        if lit.kind == "decimal":
            if lit.coefficient == 0 and lit.scale == 0 and not lit.negative:
                return "Fastwire::Decimal::ZERO"
            neg = "true" if lit.negative else "false"
            return f"Fastwire::Decimal.new({lit.coefficient}, {lit.scale}, {neg})"
        if lit.kind == "string":
            return ruby_string(str(lit.value))
        if lit.kind == "uuid":
            assert isinstance(lit.raw, bytes)
            if lit.raw == bytes(16):
                return "Fastwire::UUID::NIL"
            return f'Fastwire::UUID.parse("{lit.value}")'
        raise AssertionError(lit.kind)

    def default(self, f: ir.Field, lit: Optional[lower.Literal]) -> str:
        t = f.type
        if t.container == "array":
            elem = "nil" if t.optional else self.zero(t.value)
            return f"Array.new({t.size}) {{ {elem} }}"
        if t.container in ("vector", "list"):
            return "[]"
        if t.container == "set":
            return "Set.new"
        if t.container in ("map", "hash"):
            return "{}"
        if lit is not None:
            return self.literal(t.value, lit)
        if t.optional:
            return "nil"
        return self.zero(t.value)

    # ---- classes -----------------------------------------------------------------------
    def emit_class(self, s: ir.StructType) -> None:
        layout = self.model.struct(s.qualified_name)
        for line in comments(s.doc):
            self.out(line)
        base = f" < {self.type_name(s.base)}" if s.base else ""
        cls = class_name(s.name)
        self.out(f"class {cls}{base}")
        self.level += 1
        own = [attr_name(f.name) for f in s.fields]
        attrs = [attr_name(f.name) for f in s.all_fields]
        if own:
            self.out("attr_accessor " + ", ".join(f":{a}" for a in own))
            self.out()
        codec = f"S_{s.name}"
        if attrs:
            self.out("def initialize(")
            self.level += 1
            for i, (f, lit) in enumerate(zip(s.all_fields, layout.defaults)):
                comma = "," if i + 1 < len(attrs) else ""
                self.out(f"{attrs[i]}: {self.default(f, lit)}{comma}")
            self.level -= 1
            self.out(")")
            self.level += 1
            for a in attrs:
                self.out(f"@{a} = {a}")
            self.level -= 1
            self.out("end")
        else:
            self.out("def initialize; end")
        self.out()
        self.block(
            "# The fields in declaration order (the codecs' view).\n"
            "def _fw_values\n"
            f"  [{', '.join('@' + a for a in attrs)}]\n"
            "end\n"
            "\n"
            f"def _fw_set({', '.join(attrs)})")
        self.level += 1
        for a in attrs:
            self.out(f"@{a} = {a}")
        self.out("self")
        self.level -= 1
        self.out("end")
        self.out()
        eq = [attr_name(n) for n in layout.equality]
        cond = " && ".join(["other.class == self.class"] + [f"@{a} == other.{a}" for a in eq])
        self.block(
            f"# Equal by {'its [key] fields' if layout.keyed else 'every field'}.\n"
            "def ==(other)\n"
            f"  {cond}\n"
            "end\n"
            "alias eql? ==\n"
            "\n"
            "def hash\n"
            f"  [{', '.join(['self.class'] + ['@' + a for a in eq])}].hash\n"
            "end")
        if layout.keyed:
            self.block(
                "\n"
                "# Ordered by its [key] fields.\n"
                "def <=>(other)\n"
                "  return nil unless other.class == self.class\n"
                "\n"
                f"  [{', '.join('@' + a for a in eq)}] <=> [{', '.join('other.' + a for a in eq)}]\n"
                "end\n"
                "include Comparable")
        self.block(
            "\n"
            "# As the C++ printout: Name(field=value,...).\n"
            "def to_s\n"
            f"  {codec}.text(self)\n"
            "end\n"
            "alias inspect to_s")
        if self.options.json:
            self.block(
                "\n"
                "# This value as compact JSON text.\n"
                "def to_json(*_args)\n"
                f"  {codec}.dump_json(self)\n"
                "end\n"
                "\n"
                "# A value from JSON text; raises Fastwire::DecodeError.\n"
                "def self.from_json(text, limits = nil)\n"
                f"  {codec}.from_json(text, limits)\n"
                "end")
        self.level -= 1
        self.out("end")

    # ---- codecs ------------------------------------------------------------------------
    def emit_codecs(self, structs: List[ir.StructType]) -> None:
        self.out()
        self.out("# Codecs: how each type is written and read (the field tables come from")
        self.out("# the lowered wire model: slot offsets, body sizes, pack formats, final runs).")
        for e in self.pkg.types:
            if isinstance(e, ir.EnumType):
                fn = "flags" if e.kind == "flags" else "enum"
                names = ", ".join(f"[{v.value}, {ruby_string(v.name)}]" for v in e.values)
                self.out(f'E_{e.name} = Fastwire.{fn}("{e.name}", "{e.base}", [{names}])')
        for s in structs:
            base = f", {self.plain_codec(s.base)}" if s.base else ""
            self.out(f'S_{s.name} = Fastwire::StructCodec.new({class_name(s.name)}, '
                     f'"{s.name}", {s.type_number}{base})')
        for s in structs:
            layout = self.model.struct(s.qualified_name)
            self.out()
            for f, fl in zip(s.all_fields, layout.fields):
                if self.kind(fl.wire) == "other":
                    self.out(f"{self.field_const(s, f)} = {self.codec_expr(f.type)}")
            self.out(f"S_{s.name}.define(")
            self.level += 1
            self.out("[" if layout.fields else "[],")
            self.level += 1
            for f, fl in zip(s.all_fields, layout.fields):
                hidden = "true" if f.hidden else "false"
                codec = (self.field_const(s, f) if self.kind(fl.wire) == "other"
                         else self.codec_expr(f.type))
                self.out(f'[{ruby_string(f.name)}, {codec}, {fl.offset}, {hidden}],')
            self.level -= 1
            if layout.fields:
                self.out("],")
            self.out(f"{layout.body_size},")
            vfmt = "".join(self.directive(fl.wire) for fl in layout.fields)
            self.out(f'"{vfmt}",')
            runs = ", ".join(
                f'[{r.first}, {r.count}, "'
                + "".join(self.directive(layout.fields[i].wire) for i in r.indexes) + '"]'
                for r in layout.final_runs)
            self.out(f"[{runs}]")
            self.level -= 1
            self.out(")")
        for s in structs:
            layout = self.model.struct(s.qualified_name)
            if any(self.kind(fl.wire) in ("struct", "other") for fl in layout.fields):
                self.out()
                self.out(f"Z_{s.name} = (\"\\0\" * {layout.body_size}).b.freeze")
                self.out(f"Z_{s.name}_ROOT = (\"\\0\" * {layout.body_size + 8}).b.freeze")
            for f, fl in zip(s.all_fields, layout.fields):
                elem = self.inlinable(f.type.value, []) if self.struct_vector(fl.wire) else None
                if elem is not None and self.flat(elem):
                    one = self.flat_parts(elem, "y", "_")[2]
                    self.out(f'VF_{s.name}_{f.name} = Fastwire.vector_formats("{one}")')
        for s in structs:
            self.emit_fast_paths(s)

    def emit_models(self) -> None:
        for s in self.pkg.structs:
            self.out()
            self.block(
                f"# {class_name(s.name)} as a versioned root model: serialize, verify, deserialize.\n"
                f"class {s.name}Model < Fastwire::Model\n"
                f"  self.codec = S_{s.name}\n"
                "end")
            if self.options.final:
                self.out()
                self.block(
                    f"# {class_name(s.name)} as a final (compact) root model.\n"
                    f"class {s.name}FinalModel < Fastwire::FinalModel\n"
                    f"  self.codec = S_{s.name}\n"
                    "end")

    # ---- protocol ----------------------------------------------------------------------
    def sent(self) -> List[ir.StructType]:
        by_name = {s.qualified_name: s for s in self.pkg.structs}
        return [by_name[n] for n in self.model.package(self.pkg.name).sends]

    def emit_protocol(self) -> None:
        families = [("", "versioned", "Model")]
        if self.options.final:
            families.append(("Final", "final", "FinalModel"))
        for prefix, fmt, model in families:
            sent = self.sent()
            self.out()
            self.out(f"# Sends what the {self.pkg.name} package's protocol sends ({fmt}): its")
            self.out("# messages, or its structs when it declares none.")
            self.out(f"class {prefix}Sender < Fastwire::{prefix}Sender")
            self.level += 1
            self.out("MODELS = {")
            self.level += 1
            for m in sent:
                self.out(f"{class_name(m.name)} => {m.name}{model}.new,")
            self.level -= 1
            self.out("}.freeze")
            requests = [m for m in sent if m.request and m.response is not None]
            if requests:
                self.out("# [request] => [its [response], its [reject]s]: what a transport's")
                self.out("# request() waits for.")
                self.out("REQUESTS = {")
                self.level += 1
                for m in requests:
                    assert m.response is not None
                    rejects = ", ".join(self.type_name(r.type) for r in m.rejects)
                    self.out(f"{class_name(m.name)} => [{self.type_name(m.response)}, [{rejects}]],")
                self.level -= 1
                self.out("}.freeze")
            self.level -= 1
            self.out("end")
            self.out()
            self.out(f"# Receives what the {self.pkg.name} package's protocol sends ({fmt}):")
            self.out("# override the on_receive_<message> hooks.")
            self.out(f"class {prefix}Receiver < Fastwire::{prefix}Receiver")
            self.level += 1
            self.out("HANDLERS = {")
            self.level += 1
            for m in sent:
                self.out(f"{m.type_number} => [{m.name}{model}.new, :on_receive_{snake(m.name)}],")
            self.level -= 1
            self.out("}.freeze")
            for m in sent:
                self.out()
                self.out(f"# Called for each {class_name(m.name)} received.")
                self.out(f"def on_receive_{snake(m.name)}(value); end")
            self.level -= 1
            self.out("end")
            self.out()
            self.out(f"# Receives what the {self.pkg.name} package's protocol sends ({fmt}) without")
            self.out("# reading it: override on_proxy_<message>(data) to forward verified bytes.")
            self.out(f"class {prefix}Proxy < Fastwire::{prefix}Proxy")
            self.level += 1
            self.out("HANDLERS = {")
            self.level += 1
            for m in sent:
                self.out(f"{m.type_number} => [{m.name}{model}.new, :on_proxy_{snake(m.name)}],")
            self.level -= 1
            self.out("}.freeze")
            for m in sent:
                self.out()
                self.out(f"# Called with the bytes of each {class_name(m.name)} received.")
                self.out(f"def on_proxy_{snake(m.name)}(data); end")
            self.level -= 1
            self.out("end")
            self.out()
            self.out(f"# {prefix}Sender and {prefix}Receiver in one: send_message, receive, and")
            self.out("# request(q) matched to its response on the [id] field.")
            self.out(f"class {prefix}Client < {prefix}Receiver")
            self.level += 1
            self.out("include Fastwire::ClientMethods")
            self.out(f"MODELS = {prefix}Sender::MODELS")
            if any(m.request and m.response is not None for m in sent):
                self.out(f"REQUESTS = {prefix}Sender::REQUESTS")
            self.level -= 1
            self.out("end")

    # ---- fast paths --------------------------------------------------------------------
    # Straight-line methods per struct, set on its codec object (they take over from the
    # runtime's table-driven walk, which stays the slow path: older versions, errors).

    def field_const(self, s: ir.StructType, f: ir.Field) -> str:
        return f"F_{s.name}_{f.name}"

    @staticmethod
    def kind(w: lower.WireType) -> str:
        if w.kind in ("scalar", "enum", "flags"):
            assert w.scalar is not None
            if w.scalar in ("bool", "float", "double"):
                return w.scalar
            return "int"
        if w.kind == "timestamp":
            return "int"
        if w.kind in ("decimal", "uuid", "string", "bytes", "struct"):
            return w.kind
        return "other"  # optional, array, sequence, map: the runtime's codec

    @staticmethod
    def struct_optional(w: lower.WireType) -> bool:
        return w.kind == "optional" and w.element is not None and w.element.kind == "struct"

    @staticmethod
    def struct_vector(w: lower.WireType) -> bool:
        return (w.kind == "sequence" and w.collection in ("vector", "list")
                and w.element is not None and w.element.kind == "struct")

    @staticmethod
    def read_directive(w: lower.WireType) -> str:
        """As directive(), but a float is read as a float ("e" keeps a NaN's payload;
        only writing one goes through its bits)."""
        if w.kind == "scalar" and w.scalar == "float":
            return "e"
        return _Module.directive(w)

    def check(self, var: str, w: lower.WireType, where: str) -> List[str]:
        """Lines that leave the wire value of `var` in `var` (range-checked)."""
        k = self.kind(w)
        if k == "int":
            scalar = "uint64" if w.kind == "timestamp" else w.scalar
            assert scalar is not None
            lo, hi = INT_RANGES[scalar]
            return [f"raise Fastwire.out_of_range({ruby_string(where)}, {var}, \"{scalar}\") "
                    f"unless {var}.is_a?(Integer) && {var} >= {lo} && {var} <= {hi}"]
        if k == "bool":
            return [f"{var} = Fastwire::BOOL.to_wire({var})"]
        if k == "double":
            return [f"{var} = Fastwire::DOUBLE.to_wire({var}) unless {var}.is_a?(Float)"]
        if k == "float":
            return [f"{var} = Fastwire::FLOAT.to_wire({var})"]
        if k == "decimal":
            return [f"{var} = Fastwire::DecimalCodec.bytes({var})"]
        if k == "uuid":
            return [f"{var} = Fastwire::UUID_.to_wire({var})"]
        raise AssertionError(k)

    @staticmethod
    def convert(expr: str, w: lower.WireType) -> str:
        """A value read by read_directive() as the field's Ruby value."""
        k = _Module.kind(w)
        if k == "bool":
            return f"{expr} != 0"
        if k == "decimal":
            return f"Fastwire::DecimalCodec.of({expr})"
        if k == "uuid":
            return f"Fastwire::UUID.new({expr})"
        return expr

    def emit_fast_paths(self, s: ir.StructType) -> None:
        layout = self.model.struct(s.qualified_name)
        fields = list(zip(s.all_fields, layout.fields))
        cls = class_name(s.name)
        codec = f"S_{s.name}"
        body, tn = layout.body_size, s.type_number
        vfmt = "VV" + "".join(self.directive(fl.wire) for fl in layout.fields)
        # read: size and type as one u64 (see vok_struct)
        gfmt = "Q<" + "".join(self.read_directive(fl.wire) for fl in layout.fields)
        raw_index = []
        i = 1
        for fl in layout.fields:
            raw_index.append(i)
            i += len(_directives(self.directive(fl.wire)))
        self.out()
        self.out(f"# {cls}: straight-line paths ({body}-byte body, type {tn}).")
        self.out(f"class << {codec}")
        self.level += 1
        # -- versioned write (root: the model's [size][8] header written with the body)
        self.out("def vput(buf, base, v, root = false)")
        self.level += 1
        self.out(f'raise Fastwire::EncodeError.new("{cls} expected, got #{{v.class}}", "wrong_type") '
                 f"unless v.is_a?({cls})")
        self.out()
        if all(self.kind(fl.wire) not in ("struct", "other") for fl in layout.fields):
            self.emit_flat_vput(s, layout, fields)
            return self.emit_fast_reads(s, layout, fields, vfmt, gfmt, raw_index)
        self.out("if root")
        self.out(f"  buf << Z_{s.name}_ROOT")
        self.out("  pos = buf.bytesize - " + str(body))
        self.out(f"  vals = [0, 8, {body}, {tn}]")
        self.out("else")
        self.out("  pos = buf.bytesize")
        self.out(f"  buf << Z_{s.name}")
        self.out(f"  vals = [{body}, {tn}]")
        self.out("end")
        # Strings and flat structs are appended by one pack (pend), their offsets from the
        # sizes of what comes before them in it.
        pend: List[str] = []
        pend_fmt = ""
        pend_size: List[str] = []

        def here() -> str:
            return " + ".join(["buf.bytesize - pos"] + pend_size)

        def flush() -> None:
            nonlocal pend_fmt
            if pend:
                self.out(f'[{", ".join(pend)}].pack("{pend_fmt}", buffer: buf)')
            pend.clear()
            pend_size.clear()
            pend_fmt = ""

        for n, (f, fl) in enumerate(fields):
            a = attr_name(f.name)
            k = self.kind(fl.wire)
            inline = self.inlinable(f.type.value, []) if k == "struct" else None
            if k in ("string", "bytes"):
                self.out(f"s{n} = v.{a}")
                self.out(f'raise Fastwire::EncodeError.new("{s.name}.{f.name}: {k} expected", '
                         f'"wrong_type") unless s{n}.is_a?(String)')
                self.out()
                self.out(f"n{n} = s{n}.bytesize")
                self.out(f"vals << ({here()})")
                pend += [f"n{n}", f"s{n}"]
                pend_fmt += "Va*"
                pend_size.append(f"4 + n{n}")
                continue
            if inline is not None and self.flat(inline):
                icls = self.qualify(inline.package, class_name(inline.name))
                self.out(f"y{n} = v.{a}")
                self.out(f'raise Fastwire::EncodeError.new("{inline.name} expected, got #{{y{n}.class}}", '
                         f'"wrong_type") unless y{n}.is_a?({icls})')
                self.out()
                lines, ivals, ifmt, isize = self.flat_parts(inline, f"y{n}", f"_{n}_")
                for line in lines:
                    self.out(line)
                self.out(f"vals << ({here()})")
                pend += ivals
                pend_fmt += ifmt
                pend_size.append(f"({isize})" if "+" in isize else isize)
                continue
            if k in ("struct", "other"):
                flush()
            if k == "struct":
                self.out(f"vals << {self.plain_codec(f.type.value)}.vput(buf, pos, v.{a})")
            elif k == "other" and self.struct_optional(fl.wire) and \
                    (opt := self.inlinable(f.type.value, [])) is not None and self.flat(opt):
                # T? of a flat struct: its block is the struct's offset (4: the body
                # follows), then the struct: one pack
                icls = self.qualify(opt.package, class_name(opt.name))
                self.out(f"x = v.{a}")
                self.out("if x.nil?")
                self.out("  vals << 0 << 0")
                self.out("else")
                self.level += 1
                self.out(f'raise Fastwire::EncodeError.new("{opt.name} expected, got #{{x.class}}", '
                         f'"wrong_type") unless x.is_a?({icls})')
                self.out()
                lines, ivals, ifmt, _ = self.flat_parts(opt, "x", f"_{n}_")
                for line in lines:
                    self.out(line)
                self.out("vals << 1 << (buf.bytesize - pos)")
                self.out(f'[4, {", ".join(ivals)}].pack("V{ifmt}", buffer: buf)')
                self.level -= 1
                self.out("end")
            elif k == "other" and self.struct_optional(fl.wire):
                # T? of a struct: its block is the struct's offset (4: the body follows)
                inner = self.plain_codec(f.type.value)
                self.out(f"x = v.{a}")
                self.out("if x.nil?")
                self.out("  vals << 0 << 0")
                self.out("else")
                self.out("  at = buf.bytesize")
                self.out('  buf << "\\x04\\0\\0\\0"')
                self.out(f"  {inner}.vput(buf, at, x)")
                self.out("  vals << 1 << (at - pos)")
                self.out("end")
            elif k == "other" and self.struct_vector(fl.wire):
                # T[] / T() of a struct: [count][offsets], then the bodies
                inner = self.plain_codec(f.type.value)
                self.out(f"x = v.{a}")
                self.out(f'raise Fastwire::EncodeError.new("{s.name}.{f.name}: Array expected", '
                         '"wrong_type") unless x.is_a?(Array)')
                self.out()
                self.out("at = buf.bytesize")
                self.out("vals << (at - pos)")
                self.out("n = x.size")
                elem = self.inlinable(f.type.value, [])
                if elem is not None and self.flat(elem):
                    # flat elements: count, offsets and every element (body, then its
                    # blocks) in one pack, the offsets from the sizes
                    self.emit_flat_vector_vput(elem, f"VF_{s.name}_{f.name}")
                    continue
                self.out("if n.zero?")
                self.out('  buf << "\\0\\0\\0\\0"')
                self.out("else")
                self.level += 1
                self.out('buf << ("\\0" * (4 + (4 * n)))')
                self.out("offs = [n]")
                self.out("j = 0")
                self.out("while j < n")
                self.out(f"  offs << {inner}.vput(buf, pos, x[j])")
                self.out("  j += 1")
                self.out("end")
                self.out('buf[at, 4 + (4 * n)] = offs.pack("V*")')
                self.level -= 1
                self.out("end")
            elif k == "other":
                self.out(f"{self.field_const(s, f)}.vwrite(vals, buf, pos, v.{a})")
            else:
                self.out(f"x = v.{a}")
                for line in self.check("x", fl.wire, f"{s.name}.{f.name}"):
                    self.out(line)
                self.out("vals << x")
        flush()
        self.out("if root")
        self.out("  vals[0] = buf.bytesize - pos + 8")
        self.out(f'  buf[pos - 8, {body + 8}] = vals.pack("VV{vfmt}")')
        self.out("  8")
        self.out("else")
        self.out(f'  buf[pos, {body}] = vals.pack("{vfmt}")')
        self.out("  pos - base")
        self.out("end")
        self.level -= 1
        self.out("end")
        self.emit_fast_reads(s, layout, fields, vfmt, gfmt, raw_index)

    def flat(self, s: ir.StructType) -> bool:
        """A struct of values and strings only (its blocks follow its body in order)."""
        layout = self.model.struct(s.qualified_name)
        return all(self.kind(fl.wire) not in ("struct", "other") for fl in layout.fields)

    def flat_parts(self, s: ir.StructType, var: str, sfx: str) -> tuple:
        """Lines that read and check a flat struct's fields from `var`, then its values in
        pack order (header, slots, blocks), their format and its size (an expression)."""
        layout = self.model.struct(s.qualified_name)
        body, tn = layout.body_size, s.type_number
        lines: List[str] = []
        vals = [str(body), str(tn)]
        tail: List[str] = []
        fmt = "VV"
        at = str(body)
        for n, (f, fl) in enumerate(zip(s.all_fields, layout.fields)):
            a = attr_name(f.name)
            k = self.kind(fl.wire)
            fmt += self.directive(fl.wire)
            if k in ("string", "bytes"):
                sv, nv = f"s{sfx}{n}", f"n{sfx}{n}"
                lines.append(f"{sv} = {var}.{a}")
                lines.append(f'raise Fastwire::EncodeError.new("{s.name}.{f.name}: {k} expected", '
                             f'"wrong_type") unless {sv}.is_a?(String)')
                lines.append(f"{nv} = {sv}.bytesize")
                vals.append(at)
                at = f"{at} + 4 + {nv}"
                tail += [nv, sv]
            else:
                xv = f"x{sfx}{n}"
                lines.append(f"{xv} = {var}.{a}")
                lines += self.check(xv, fl.wire, f"{s.name}.{f.name}")
                vals.append(xv)
        fmt += "Va*" * (len(tail) // 2)
        return lines, vals + tail, fmt, at

    def emit_flat_vector_vput(self, e: ir.StructType, formats: str) -> None:
        cls = self.qualify(e.package, class_name(e.name))
        lines, vals, fmt, size = self.flat_parts(e, "y", "_")
        self.out("if n.zero?")
        self.out('  buf << "\\0\\0\\0\\0"')
        self.out("else")
        self.level += 1
        self.out("o = at + 4 + (4 * n) - pos")
        self.out("head = [n]")
        self.out("items = []")
        self.out("j = 0")
        self.out("while j < n")
        self.level += 1
        self.out("y = x[j]")
        self.out(f'raise Fastwire::EncodeError.new("{e.name} expected, got #{{y.class}}", "wrong_type") '
                 f"unless y.is_a?({cls})")
        self.out()
        for line in lines:
            self.out(line)
        self.out("head << o")
        self.out(f"items.push({', '.join(vals)})")
        self.out(f"o += {size}")
        self.out("j += 1")
        self.level -= 1
        self.out("end")
        self.out(f"head.concat(items).pack({formats}[n], buffer: buf)")
        self.level -= 1
        self.out("end")

    def emit_flat_vput(self, s: ir.StructType, layout: lower.StructLayout, fields: list) -> None:
        """A struct of values and strings: its blocks follow the body in field order, so
        every offset is known before writing; body and blocks are one pack (a root's
        header too)."""
        body, tn = layout.body_size, s.type_number
        vals = [str(body), str(tn)]
        tail: List[str] = []
        fmt = "VV"
        at = str(body)
        for n, (f, fl) in enumerate(fields):
            a = attr_name(f.name)
            k = self.kind(fl.wire)
            fmt += self.directive(fl.wire)
            if k in ("string", "bytes"):
                self.out(f"s{n} = v.{a}")
                self.out(f'raise Fastwire::EncodeError.new("{s.name}.{f.name}: {k} expected", '
                         f'"wrong_type") unless s{n}.is_a?(String)')
                self.out(f"n{n} = s{n}.bytesize")
                vals.append(at)
                at = f"{at} + 4 + n{n}"
                tail += [f"n{n}", f"s{n}"]
            else:
                self.out(f"x{n} = v.{a}")
                for line in self.check(f"x{n}", fl.wire, f"{s.name}.{f.name}"):
                    self.out(line)
                vals.append(f"x{n}")
        fmt += "Va*" * (len(tail) // 2)
        self.out("pos = buf.bytesize")
        self.out("if root")
        self.out(f'  [{at} + 8, 8, {", ".join(vals + tail)}].pack("VV{fmt}", buffer: buf)')
        self.out("  8")
        self.out("else")
        self.out(f'  [{", ".join(vals + tail)}].pack("{fmt}", buffer: buf)')
        self.out("  pos - base")
        self.out("end")
        self.level -= 1
        self.out("end")

    def emit_fast_reads(self, s: ir.StructType, layout: lower.StructLayout, fields: list,
                        vfmt: str, gfmt: str, raw_index: List[int]) -> None:
        cls = class_name(s.name)
        body, tn = layout.body_size, s.type_number
        # Verify reads only what it checks: offsets, optional flags, decimal scale bytes.
        check_fmt, check_index = "VV", []
        at, skip = 2, 0
        for fl in layout.fields:
            k = self.kind(fl.wire)
            if k in ("string", "bytes", "struct") or (k == "other" and fl.wire.kind != "array"):
                part = self.directive(fl.wire)
                n = len(_directives(part))
            elif k == "decimal":
                skip += 14
                part, n = "C", 1
            else:
                skip += fl.wire.slot
                check_index.append(-1)
                continue
            check_fmt += (f"x{skip}" if skip else "") + part
            skip = 1 if k == "decimal" else 0
            check_index.append(at)
            at += n
        # -- versioned read and verify
        for method in ("vget", "vverify"):
            self.out()
            self.out(f"def {method}(r, base, off, slot_end, d)")
            self.level += 1
            self.out("pos = base + off")
            # A struct of values and strings: its first string is read with the body (the
            # length after it, where writers put the block), when it is there.
            first = None
            if method == "vget" and not any(self.kind(fl.wire) in ("struct", "other")
                                            for fl in layout.fields):
                first = next((n for n, fl in enumerate(layout.fields)
                              if self.kind(fl.wire) in ("string", "bytes")), None)
            need = body + (4 if first is not None else 0)
            self.out(f"if off != 0 && pos >= slot_end && pos <= r.end_ - {need} && d > 0")
            self.level += 1
            fmt = gfmt if method == "vget" else check_fmt
            if first is not None:
                fmt += "V"
            self.out(f'raw = r.buf.unpack("{fmt}", offset: pos)')
            if method == "vget":
                self.out(f"stored = (st = raw[0]) == {body | tn << 32} ? {body} : "
                         f"((st >> 32) == {tn} ? st & 0xFFFFFFFF : 0)")
                self.out(f"if stored >= {body} && stored <= r.end_ - pos && (budget = r.budget - stored) >= 0")
            else:
                self.out("stored = raw[0]")
                self.out(f"if stored >= {body} && raw[1] == {tn} && stored <= r.end_ - pos && "
                         "(budget = r.budget - stored) >= 0")
            self.level += 1
            self.out("r.budget = budget")
            if any(self.kind(fl.wire) in ("struct", "other") for fl in layout.fields):
                self.out("d -= 1")
            if method == "vget":
                args = []
                if first is not None:
                    fl = layout.fields[first]
                    ri = raw_index[first]
                    last = len(_directives(fmt)) - 1
                    utf8 = ".force_encoding(Encoding::UTF_8)" if self.kind(fl.wire) == "string" else ""
                    reader = "vget_str" if self.kind(fl.wire) == "string" else "vget_bytes"
                    self.out(f"if raw[{ri}] == {body} && (n = raw[{last}]) <= r.end_ - pos - "
                             f"{body + 4} && (budget = r.budget - 4 - n) >= 0")
                    self.out("  r.budget = budget")
                    self.out(f"  s{first} = r.buf.byteslice(pos + {body + 4}, n){utf8}")
                    self.out("else")
                    self.out(f"  s{first} = Fastwire.{reader}(r, pos, raw[{ri}], pos + {fl.offset + 4})")
                    self.out("end")
                for n_field, ((f, fl), ri) in enumerate(zip(fields, raw_index)):
                    k = self.kind(fl.wire)
                    slot_end = f"pos + {fl.offset + fl.wire.slot}"
                    if n_field == first:
                        args.append(f"s{first}")
                    elif k == "string":
                        args.append(f"Fastwire.vget_str(r, pos, raw[{ri}], {slot_end})")
                    elif k == "bytes":
                        args.append(f"Fastwire.vget_bytes(r, pos, raw[{ri}], {slot_end})")
                    elif k == "struct":
                        args.append(f"{self.plain_codec(f.type.value)}.vget(r, pos, raw[{ri}], "
                                    f"{slot_end}, d)")
                    elif k == "other" and self.struct_optional(fl.wire):
                        inner = self.plain_codec(f.type.value)
                        args.append(f"(raw[{ri}].zero? ? nil : Fastwire.vget_opt_struct(r, pos, "
                                    f"raw[{ri + 1}], {slot_end}, {inner}, d))")
                    elif k == "other" and self.struct_vector(fl.wire):
                        inner = self.plain_codec(f.type.value)
                        args.append(f"Fastwire.vget_structs(r, pos, raw[{ri}], {slot_end}, {inner}, d)")
                    elif k == "other":
                        c = self.field_const(s, f)
                        args.append(f"{c}.vget_slot(r, pos + {fl.offset}, pos, d)"
                                    if fl.wire.kind == "array"
                                    else f"{c}.vread(r, raw, {ri}, pos + {fl.offset}, pos, d)")
                    else:
                        args.append(self.convert(f"raw[{ri}]", fl.wire))
                if args:
                    self.out(f"return {cls}.allocate._fw_set(")
                    self.level += 1
                    for n, arg in enumerate(args):
                        self.out(arg + ("," if n + 1 < len(args) else ""))
                    self.level -= 1
                    self.out(")")
                else:
                    self.out(f"return {cls}.allocate._fw_set")
            else:
                for (f, fl), ri in zip(fields, check_index):
                    k = self.kind(fl.wire)
                    slot_end = f"pos + {fl.offset + fl.wire.slot}"
                    if k in ("string", "bytes"):
                        self.out(f"Fastwire.vcheck_str(r, pos, raw[{ri}], {slot_end})")
                    elif k == "struct":
                        self.out(f"{self.plain_codec(f.type.value)}.vverify(r, pos, raw[{ri}], "
                                 f"{slot_end}, d)")
                    elif k == "decimal":
                        self.out(f'Fastwire.fail!("bad_value", "decimal scale") if raw[{ri}] > 28')
                    elif k == "other" and self.struct_optional(fl.wire):
                        inner = self.plain_codec(f.type.value)
                        self.out(f"Fastwire.vcheck_opt_struct(r, pos, raw[{ri + 1}], {slot_end}, {inner}, d) "
                                 f"unless raw[{ri}].zero?")
                    elif k == "other" and self.struct_vector(fl.wire):
                        inner = self.plain_codec(f.type.value)
                        self.out(f"Fastwire.vcheck_structs(r, pos, raw[{ri}], {slot_end}, {inner}, d)")
                    elif k == "other":
                        c = self.field_const(s, f)
                        self.out(f"{c}.vcheck_slot(r, pos + {fl.offset}, pos, d)"
                                 if fl.wire.kind == "array"
                                 else f"{c}.vcheck(r, raw, {ri}, pos + {fl.offset}, pos, d)")
                self.out("return")
            self.level -= 1
            self.out("end")
            self.level -= 1
            self.out("end")
            self.out("super # an older version, or an error: the checked walk says which")
            self.level -= 1
            self.out("end")
        self.emit_vok(s, layout, fields)
        if self.options.final:
            self.emit_final_paths(s, layout, fields)
        self.level -= 1
        self.out("end")

    def emit_vok(self, s: ir.StructType, layout: lower.StructLayout, fields: list) -> None:
        """verify()'s fast walk of a versioned body: locals instead of the Reader, one
        unpack for every slot it checks (and the length of the first string, where writers
        put its block: right after the body), no call per field, the structs it holds
        inlined (up to a few levels, recursion through a call). Returns the budget left,
        or nil when it cannot decide (an older or unusual layout, or an error): the checked
        walk (vverify) then says which."""
        self.out()
        self.out("def vok(buf, e, b, base, off, slot_end, d)")
        self.level += 1
        self._vok_tags = 0
        self._inline_left = INLINE_FIELDS
        self.vok_struct(s, "base", "off", "slot_end", "d", [s.qualified_name])
        self.out("b")
        self.level -= 1
        self.out("end")
        # the same for a root model: its header read with the body (the usual root offset 8)
        self.out()
        self.out("def vroot(buf, e, d)")
        self.level += 1
        self._vok_tags = 0
        self._inline_left = INLINE_FIELDS
        self.out("b = e - 8")
        self.vok_struct(s, "0", "8", "8", "d", [s.qualified_name], root=True)
        self.out("b")
        self.level -= 1
        self.out("end")

    def inlinable(self, ref: ir.TypeRef, chain: List[str]) -> Optional[ir.StructType]:
        """The struct a field refers to when vok may inline it: same package, not already
        being walked (recursion), at most 3 levels deep, and (in a walk: `chain` not empty)
        while the walk's allowance of inlined fields lasts."""
        if ref.package not in (None, self.pkg.name) or len(chain) >= 3:
            return None
        t = self.schema.lookup(ref)
        if not isinstance(t, ir.StructType) or t.qualified_name in chain:
            return None
        if chain:
            if len(t.all_fields) > self._inline_left:
                return None
            self._inline_left -= len(t.all_fields)
        return t

    def vok_call_or_inline(self, ref: ir.TypeRef, base: str, off: str, slot_end: str, d: str,
                           chain: List[str], d_checked: bool = False, root: bool = False) -> None:
        t = self.inlinable(ref, chain)
        if t is None:
            inner = self.plain_codec(ref)
            self.out(f"return nil unless (b = {inner}.vok(buf, e, b, {base}, {off}, {slot_end}, {d}))")
            self.out()
        else:
            self.vok_struct(t, base, off, slot_end, d, chain + [t.qualified_name], d_checked)

    def vok_struct(self, s: ir.StructType, base: str, off: str, slot_end: str, d: str,
                   chain: List[str], d_checked: bool = False, root: bool = False) -> None:
        layout = self.model.struct(s.qualified_name)
        fields = list(zip(s.all_fields, layout.fields))
        t = "" if self._vok_tags == 0 else str(self._vok_tags)
        self._vok_tags += 1
        body, tn = layout.body_size, s.type_number
        # size and type as one u64 (one value fewer to unpack): st == size | type << 32 for
        # a body of this version; else split
        fmt, names = "Q<", [f"st{t}"]
        at = 8
        first_text = None
        for n, fl in enumerate(layout.fields):
            k = self.kind(fl.wire)
            w = fl.wire
            if k in ("string", "bytes", "struct") or self.struct_vector(w):
                want, part, vars_ = fl.offset, "V", [f"o{t}_{n}"]
                if k in ("string", "bytes") and first_text is None:
                    first_text = n
            elif self.struct_optional(w):
                want, part, vars_ = fl.offset, "CV", [f"f{t}_{n}", f"o{t}_{n}"]
            elif k == "decimal":
                want, part, vars_ = fl.offset + 14, "C", [f"c{t}_{n}"]
            else:
                continue
            fmt += (f"x{want - at}" if want > at else "") + part
            names += vars_
            at = want + (5 if part == "CV" else 4 if part == "V" else 1)
        need = body
        if first_text is not None:
            fmt += (f"x{body - at}" if body > at else "") + "V"
            names.append(f"ns{t}")
            need = body + 4
        nested = any(self.kind(fl.wire) in ("struct", "other") for fl in layout.fields)
        pos = f"pos{t}"
        if root:
            self.out(f"return nil unless e >= {need + 8} && {d} > 0")
            self.out()
            self.out(f'hd, {", ".join(names)} = buf.unpack("Q<{fmt}")')
            self.out(f"return nil unless hd == e + {8 << 32}")  # [size][8]
            self.out()
            self.out(f"{pos} = 8")
        else:
            if not off.isidentifier():
                self.out(f"off{t} = {off}")
                off = f"off{t}"
            self.out(f"{pos} = {base} + {off}")
            # off 0 fails pos >= slot_end: every slot ends after its base
            self.out(f"return nil unless {pos} >= {slot_end} && {pos} <= e - {need}"
                     + ("" if d_checked else f" && {d} > 0"))
            self.out()
            if len(names) == 1:
                self.out(f'{names[0]} = buf.unpack1("{fmt}", offset: {pos})')
            else:
                self.out(f'{", ".join(names)} = buf.unpack("{fmt}", offset: {pos})')
        self.out(f"stored{t} = st{t} == {body | tn << 32} ? {body} : "
                 f"((st{t} >> 32) == {tn} ? st{t} & 0xFFFFFFFF : 0)")
        self.out(f"return nil unless stored{t} >= {body} && stored{t} <= e - {pos} && (b -= stored{t}) >= 0")
        self.out()
        dc = f"d{t}_"
        if nested:
            self.out(f"{dc} = {d} - 1")
        for n, (f, fl) in enumerate(fields):
            k = self.kind(fl.wire)
            w = fl.wire
            o = f"o{t}_{n}"
            slot_end_n = f"{pos} + {fl.offset + w.slot}"
            if k in ("string", "bytes"):
                if n == first_text:
                    self.out(f"if {o} == {body}")
                    self.out(f"  return nil if ns{t} > e - {pos} - {body + 4} || (b -= 4 + ns{t}) < 0")
                    self.out(f"elsif {o} != 0")
                else:
                    self.out(f"if {o} != 0")
                self.level += 1
                self.out(f"p = {pos} + {o}")
                self.out(f'return nil unless p >= {slot_end_n} && p <= e - 4 && '
                         f'(n = buf.unpack1("V", offset: p)) <= e - p - 4 && (b -= 4 + n) >= 0')
                self.level -= 1
                self.out("end")
            elif k == "struct":
                self.vok_call_or_inline(f.type.value, pos, o, slot_end_n, dc, chain)
            elif self.struct_optional(w):
                q = f"q{t}_{n}"
                self.out(f"if f{t}_{n} != 0")
                self.level += 1
                self.out(f"{q} = {pos} + {o}")
                self.out(f"return nil unless {q} >= {slot_end_n} && {q} <= e - 4 && (b -= 4) >= 0")
                self.out()
                self.vok_call_or_inline(f.type.value, q, f'buf.unpack1("V", offset: {q})', f"{q} + 4", dc,
                                        chain)
                self.level -= 1
                self.out("end")
            elif self.struct_vector(w):
                q, cnt, offs, j = f"q{t}_{n}", f"n{t}_{n}", f"offs{t}_{n}", f"j{t}_{n}"
                self.out(f"if {o} != 0")
                self.level += 1
                self.out(f"{q} = {pos} + {o}")
                self.out(f'return nil unless {q} >= {slot_end_n} && {q} <= e - 4 && '
                         f'({cnt} = buf.unpack1("V", offset: {q})) <= (e - {q} - 4) / 4 && '
                         f"(b -= 4 + (4 * {cnt})) >= 0")
                self.out()
                self.out(f"if {cnt} > 0")
                self.level += 1
                self.out(f"return nil if {dc} < 1")
                self.out()
                self.level -= 1
                self.level += 1
                self.out(f'{offs} = buf.unpack("V#{{{cnt}}}", offset: {q} + 4)')
                self.out(f"{j} = 0")
                self.out(f"while {j} < {cnt}")
                self.level += 1
                self.vok_call_or_inline(f.type.value, pos, f"{offs}[{j}]", f"{q} + 8 + (4 * {j})", dc, chain,
                                        d_checked=True)
                self.out(f"{j} += 1")
                self.level -= 1
                self.out("end")
                self.level -= 1
                self.out("end")
                self.level -= 1
                self.out("end")
            elif k == "decimal":
                self.out(f"return nil if c{t}_{n} > 28")
                self.out()
            elif k == "other":
                # the runtime's codec, on a Reader (it raises DecodeError when malformed)
                qualified = self.qualify(s.package, self.field_const(s, f))
                self.out("rd = Fastwire::Reader.new(buf, b, 0)")
                self.out(f"{qualified}.vcheck_slot(rd, {pos} + {fl.offset}, {pos}, {dc})")
                self.out("b = rd.budget")

    def emit_final_paths(self, s: ir.StructType, layout: lower.StructLayout,
                         fields: list) -> None:
        cls = class_name(s.name)
        runs = {r.first: r for r in layout.final_runs}
        nested = any(self.kind(fl.wire) in ("struct", "other") for fl in layout.fields)
        # -- write
        self.out()
        self.out("def fput(buf, v)")
        self.level += 1
        self.out(f'raise Fastwire::EncodeError.new("{cls} expected, got #{{v.class}}", "wrong_type") '
                 f"unless v.is_a?({cls})")
        if fields and not nested:  # values and strings: one pack
            vals, fmt = [], ""
            for n, (f, fl) in enumerate(fields):
                a = attr_name(f.name)
                if self.kind(fl.wire) in ("string", "bytes"):
                    self.out(f"s{n} = v.{a}")
                    self.out(f'raise Fastwire::EncodeError.new("{s.name}.{f.name}: string expected", '
                             f'"wrong_type") unless s{n}.is_a?(String)')
                    vals += [f"s{n}.bytesize", f"s{n}"]
                    fmt += "Va*"
                else:
                    self.out(f"x{n} = v.{a}")
                    for line in self.check(f"x{n}", fl.wire, f"{s.name}.{f.name}"):
                        self.out(line)
                    vals.append(f"x{n}")
                    fmt += self.directive(fl.wire)
            self.out(f'[{", ".join(vals)}].pack("{fmt}", buffer: buf)')
            fields_left = 0
        else:
            fields_left = 0
            # nested: one pack of every value (format built as it goes), the structs it
            # holds inlined; a field the runtime's codec writes flushes the pack first
            self.out()
            self.out("vals = []")
            self.out("fmt = +\"\"")
            self._vok_tags = 1
            self._inline_left = INLINE_FIELDS
            self._fp_vals: List[str] = []
            self._fp_fmt = ""
            self.fput_fields(s, "v", [s.qualified_name])
            self.fput_flush(pack=True)
        i = 0
        while i < fields_left:
            f, fl = fields[i]
            if i in runs:
                run = runs[i]
                names = []
                for j in run.indexes:
                    g, gl = fields[j]
                    var = f"x{j}"
                    self.out(f"{var} = v.{attr_name(g.name)}")
                    for line in self.check(var, gl.wire, f"{s.name}.{g.name}"):
                        self.out(line)
                    names.append(var)
                fmt = "".join(self.directive(fields[j][1].wire) for j in run.indexes)
                self.out(f'[{", ".join(names)}].pack("{fmt}", buffer: buf)')
                i += run.count
                continue
            k = self.kind(fl.wire)
            a = attr_name(f.name)
            if k in ("string", "bytes"):
                self.out(f"Fastwire.fput_str(buf, v.{a})")
            elif k == "struct":
                self.out(f"{self.plain_codec(f.type.value)}.fput(buf, v.{a})")
            else:
                self.out(f"{self.field_const(s, f)}.fput(buf, v.{a})")
            i += 1
        self.level -= 1
        self.out("end")
        # -- read and check
        self.emit_fget(s)
        for method in ("fcheck",):
            self.out()
            self.out(f"def {method}(r, d)")
            self.level += 1
            self.out("Fastwire.too_deep! if d < 1")
            if nested:
                self.out("d -= 1")
            decimals = any(self.kind(fl.wire) == "decimal" for fl in layout.fields)
            if any(i in runs for i in range(len(fields))) and (method == "fget" or decimals):
                self.out("buf = r.buf")
            args: List[str] = []
            i = 0
            while i < len(fields):
                f, fl = fields[i]
                nxt = run_end = i + runs[i].count if i in runs else -1
                if (method == "fget" and i in runs and nxt < len(fields)
                        and self.kind(fields[nxt][1].wire) in ("string", "bytes")):
                    # the run and the length of the string after it in one unpack
                    run = runs[i]
                    fmt = "".join(self.read_directive(fields[j][1].wire) for j in run.indexes)
                    self.out("p = r.pos")
                    self.out(f'Fastwire.fail!("truncated") if p + {run.size + 4} > r.end_')
                    self.out(f'a{i} = buf.unpack("{fmt}V", offset: p)')
                    for n, j in enumerate(run.indexes):
                        args.append(self.convert(f"a{i}[{n}]", fields[j][1].wire))
                    self.out(f"n = a{i}[{run.count}]")
                    self.out(f"q = p + {run.size + 4}")
                    self.out('Fastwire.fail!("truncated") if n > r.end_ - q')
                    utf8 = (".force_encoding(Encoding::UTF_8)"
                            if self.kind(fields[nxt][1].wire) == "string" else "")
                    self.out(f"a{nxt} = buf.byteslice(q, n){utf8}")
                    self.out("r.pos = q + n")
                    args.append(f"a{nxt}")
                    i = run_end + 1
                    continue
                if i in runs:
                    run = runs[i]
                    self.out("p = r.pos")
                    self.out(f'Fastwire.fail!("truncated") if p + {run.size} > r.end_')
                    if method == "fget":
                        fmt = "".join(self.read_directive(fields[j][1].wire) for j in run.indexes)
                        if run.count == 1:
                            self.out(f'a{i} = buf.unpack1("{fmt}", offset: p)')
                            args.append(self.convert(f"a{i}", fl.wire))
                        else:
                            self.out(f'a{i} = buf.unpack("{fmt}", offset: p)')
                            for n, j in enumerate(run.indexes):
                                args.append(self.convert(f"a{i}[{n}]", fields[j][1].wire))
                    else:
                        for j, o in zip(run.indexes, run.offsets):
                            if self.kind(fields[j][1].wire) == "decimal":
                                self.out(f'Fastwire.fail!("bad_value", "decimal scale") '
                                         f"if buf.getbyte(p + {o + 14}) > 28")
                    self.out(f"r.pos = p + {run.size}")
                    i += run.count
                    continue
                k = self.kind(fl.wire)
                if method == "fget":
                    expr = {"string": "Fastwire.fget_str(r)", "bytes": "Fastwire.fget_bytes(r)"}.get(k)
                    if k == "struct":
                        expr = f"{self.plain_codec(f.type.value)}.fget(r, d)"
                    elif expr is None:
                        expr = f"{self.field_const(s, f)}.fget(r, d)"
                    self.out(f"a{i} = {expr}")
                    args.append(f"a{i}")
                else:
                    if k in ("string", "bytes"):
                        self.out("Fastwire.fcheck_str(r)")
                    elif k == "struct":
                        self.out(f"{self.plain_codec(f.type.value)}.fcheck(r, d)")
                    else:
                        self.out(f"{self.field_const(s, f)}.fcheck(r, d)")
                i += 1
            if method == "fget":
                self.out(f"{cls}.allocate._fw_set({', '.join(args)})" if args
                         else f"{cls}.allocate._fw_set")
            else:
                self.out("nil")
            self.level -= 1
            self.out("end")
        self.emit_fok(s, layout, fields)

    def fput_flush(self, pack: bool = False) -> None:
        if self._fp_vals:
            self.out(f"vals.push({', '.join(self._fp_vals)})")
        if self._fp_fmt:
            self.out(f'fmt << "{self._fp_fmt}"')
        self._fp_vals, self._fp_fmt = [], ""
        if pack:  # (pack with an empty format would make buf US-ASCII)
            self.out("vals.pack(fmt, buffer: buf) unless fmt.empty?")

    def fput_struct(self, ref: ir.TypeRef, var: str, chain: List[str]) -> None:
        """The struct in `var` (checked), inlined, or through its codec."""
        t = self.inlinable(ref, chain)
        if t is None:
            self.fput_flush(pack=True)
            self.out("vals.clear")
            self.out("fmt.clear")
            self.out(f"{self.plain_codec(ref)}.fput(buf, {var})")
            return
        cls = self.qualify(t.package, class_name(t.name))
        self.out(f'raise Fastwire::EncodeError.new("{t.name} expected, got #{{{var}.class}}", "wrong_type") '
                 f"unless {var}.is_a?({cls})")
        self.out()
        self.fput_fields(t, var, chain + [t.qualified_name])

    def fput_fields(self, s: ir.StructType, var: str, chain: List[str]) -> None:
        layout = self.model.struct(s.qualified_name)
        for f, fl in zip(s.all_fields, layout.fields):
            t = self._vok_tags
            self._vok_tags += 1
            w = fl.wire
            k = self.kind(w)
            a = attr_name(f.name)
            if k in ("string", "bytes"):
                self.out(f"s{t} = {var}.{a}")
                self.out(f'raise Fastwire::EncodeError.new("{s.name}.{f.name}: {k} expected", '
                         f'"wrong_type") unless s{t}.is_a?(String)')
                self.out()
                self._fp_vals += [f"s{t}.bytesize", f"s{t}"]
                self._fp_fmt += "Va*"
            elif k == "struct":
                self.out(f"y{t} = {var}.{a}")
                self.fput_struct(f.type.value, f"y{t}", chain)
            elif self.struct_optional(w):
                self.out(f"y{t} = {var}.{a}")
                self.fput_flush()
                self.out(f"if y{t}.nil?")
                self.out('  vals << 0')
                self.out('  fmt << "C"')
                self.out("else")
                self.level += 1
                self._fp_vals, self._fp_fmt = ["1"], "C"
                self.fput_struct(f.type.value, f"y{t}", chain)
                self.fput_flush()
                self.level -= 1
                self.out("end")
            elif self.struct_vector(w):
                self.out(f"y{t} = {var}.{a}")
                self.out(f'raise Fastwire::EncodeError.new("{s.name}.{f.name}: Array expected", '
                         f'"wrong_type") unless y{t}.is_a?(Array)')
                self.out()
                self._fp_vals.append(f"y{t}.size")
                self._fp_fmt += "V"
                self.fput_flush()
                self.out(f"j{t} = 0")
                self.out(f"while j{t} < y{t}.size")
                self.level += 1
                self.out(f"z{t} = y{t}[j{t}]")
                self.fput_struct(f.type.value, f"z{t}", chain)
                self.fput_flush()
                self.out(f"j{t} += 1")
                self.level -= 1
                self.out("end")
            elif k == "other":
                self.fput_flush(pack=True)
                self.out("vals.clear")
                self.out("fmt.clear")
                self.out(f"{self.qualify(s.package, self.field_const(s, f))}.fput(buf, {var}.{a})")
            else:
                self.out(f"x{t} = {var}.{a}")
                for line in self.check(f"x{t}", w, f"{s.name}.{f.name}"):
                    self.out(line)
                self._fp_vals.append(f"x{t}")
                self._fp_fmt += self.directive(w)

    def emit_fget(self, s: ir.StructType) -> None:
        """The final read: the position in a local, each fixed run read with the length of
        the string after it (one unpack), the structs it holds inlined (up to a few
        levels), r.pos written back once."""
        self.out()
        self.out("def fget(r, d)")
        self.level += 1
        start = len(self.lines)
        self.out("p = r.pos")
        self._vok_tags = 0
        self._inline_left = INLINE_FIELDS
        self.fget_struct(s, "d", [s.qualified_name], "value")
        body = "\n".join(self.lines[start:])
        head = (["buf = r.buf"] if re.search(r"\bbuf\b", body) else []) + \
            (["e = r.end_"] if re.search(r"\be\b", body) else [])
        self.lines[start:start] = ["    " * self.level + line for line in head]
        self.out("r.pos = p")
        self.out("value")
        self.level -= 1
        self.out("end")

    def fget_call_or_inline(self, ref: ir.TypeRef, d: str, chain: List[str], var: str) -> None:
        t = self.inlinable(ref, chain)
        if t is None:
            self.out("r.pos = p")
            self.out(f"{var} = {self.plain_codec(ref)}.fget(r, {d})")
            self.out("p = r.pos")
        else:
            self.fget_struct(t, d, chain + [t.qualified_name], var)

    def fget_struct(self, s: ir.StructType, d: str, chain: List[str], var: str) -> None:
        layout = self.model.struct(s.qualified_name)
        fields = list(zip(s.all_fields, layout.fields))
        t = "" if self._vok_tags == 0 else str(self._vok_tags)
        self._vok_tags += 1
        runs = {r.first: r for r in layout.final_runs}
        nested = any(self.kind(fl.wire) in ("struct", "other") for fl in layout.fields)
        self.out(f"Fastwire.too_deep! if {d} < 1")
        self.out()
        dc = f"d{t}_"
        if nested:
            self.out(f"{dc} = {d} - 1")
        args: List[str] = []
        i = 0
        while i < len(fields):
            f, fl = fields[i]
            w = fl.wire
            k = self.kind(w)
            a = f"a{t}_{i}"
            if i in runs:
                run = runs[i]
                fmt = "".join(self.read_directive(fields[j][1].wire) for j in run.indexes)
                nxt = i + run.count
                text = nxt < len(fields) and self.kind(fields[nxt][1].wire) in ("string", "bytes")
                if text:
                    fmt += "V"
                size = run.size + (4 if text else 0)
                self.out(f'Fastwire.fail!("truncated") if p + {size} > e')
                self.out()
                if run.count == 1 and not text:
                    self.out(f'{a} = buf.unpack1("{fmt}", offset: p)')
                    args.append(self.convert(a, w))
                else:
                    self.out(f'{a} = buf.unpack("{fmt}", offset: p)')
                    for n, j in enumerate(run.indexes):
                        args.append(self.convert(f"{a}[{n}]", fields[j][1].wire))
                self.out(f"p += {size}")
                if text:
                    self.emit_fget_text(f"{a}[{run.count}]", f"a{t}_{nxt}", fields[nxt][1].wire)
                    args.append(f"a{t}_{nxt}")
                    i = nxt + 1
                else:
                    i = nxt
                continue
            if k in ("string", "bytes"):
                self.out('Fastwire.fail!("truncated") if p + 4 > e')
                self.out()
                self.out('n = buf.unpack1("V", offset: p)')
                self.out("p += 4")
                self.emit_fget_text("n", a, w)
            elif k == "struct":
                self.fget_call_or_inline(f.type.value, dc, chain, a)
            elif self.struct_optional(w):
                self.out('Fastwire.fail!("truncated") if p >= e')
                self.out()
                self.out("if buf.getbyte(p) == 0")
                self.out("  p += 1")
                self.out(f"  {a} = nil")
                self.out("else")
                self.level += 1
                self.out("p += 1")
                self.fget_call_or_inline(f.type.value, dc, chain, a)
                self.level -= 1
                self.out("end")
            elif self.struct_vector(w) and w.element is not None and w.element.final_min > 0:
                cnt, jv = f"n{t}_{i}", f"j{t}_{i}"
                self.out('Fastwire.fail!("truncated") if p + 4 > e')
                self.out()
                self.out(f'{cnt} = buf.unpack1("V", offset: p)')
                self.out("p += 4")
                self.out(f'Fastwire.fail!("truncated") if {cnt} > (e - p) / {w.element.final_min}')
                self.out()
                self.out(f"{a} = []")
                self.out(f"{jv} = 0")
                self.out(f"while {jv} < {cnt}")
                self.level += 1
                self.fget_call_or_inline(f.type.value, dc, chain, f"y{t}_{i}")
                self.out(f"{a} << y{t}_{i}")
                self.out(f"{jv} += 1")
                self.level -= 1
                self.out("end")
            else:
                self.out("r.pos = p")
                self.out(f"{a} = {self.qualify(s.package, self.field_const(s, f))}.fget(r, {dc})")
                self.out("p = r.pos")
            args.append(a)
            i += 1
        cls = self.qualify(s.package, class_name(s.name))
        self.out(f"{var} = {cls}.allocate._fw_set({', '.join(args)})" if args
                 else f"{var} = {cls}.allocate._fw_set")

    def emit_fget_text(self, n: str, var: str, w: lower.WireType) -> None:
        """A string's (or bytes') length n was read, p is at its bytes."""
        self.out(f'Fastwire.fail!("truncated") if {n} > e - p')
        self.out()
        utf8 = ".force_encoding(Encoding::UTF_8)" if self.kind(w) == "string" else ""
        self.out(f"{var} = buf.byteslice(p, {n}){utf8}")
        self.out(f"p += {n}")

    def emit_fok(self, s: ir.StructType, layout: lower.StructLayout, fields: list) -> None:
        """verify()'s fast walk of a final struct at p: the position after it, or nil when
        malformed (the checked walk, fcheck, then says why). Fixed-size runs are skipped
        by arithmetic; a bounds check stands before each read."""
        runs = {r.first: r for r in layout.final_runs}
        nested = any(self.kind(fl.wire) in ("struct", "other") for fl in layout.fields)
        self.out()
        self.out("def fok(r, buf, p, e, d)")
        self.level += 1
        self.out("return nil if d < 1")
        self.out()
        if nested:
            self.out("d -= 1")
        acc = 0  # fixed bytes passed since p was last moved

        def at(extra: int) -> str:
            return f"p + {acc + extra}" if acc + extra else "p"

        i = 0
        while i < len(fields):
            f, fl = fields[i]
            w = fl.wire
            k = self.kind(w)
            if i in runs:
                run = runs[i]
                decs = [o for j, o in zip(run.indexes, run.offsets)
                        if self.kind(fields[j][1].wire) == "decimal"]
                if decs:
                    self.out(f"return nil if {at(run.size)} > e")
                    self.out()
                    for o in decs:
                        self.out(f"return nil if buf.getbyte({at(o + 14)}) > 28")
                        self.out()
                acc += run.size
                i += run.count
                continue
            if k in ("string", "bytes"):
                self.out(f"return nil if {at(4)} > e")
                self.out()
                self.out(f'p += {acc + 4} + buf.unpack1("V", offset: {at(0)})')
                acc = 0
            elif k == "struct":
                inner = self.plain_codec(f.type.value)
                self.out(f"return nil unless (p = {inner}.fok(r, buf, {at(0)}, e, d))")
                self.out()
                acc = 0
            elif self.struct_optional(w):
                inner = self.plain_codec(f.type.value)
                self.out(f"return nil if {at(0)} >= e")
                self.out()
                self.out(f"if buf.getbyte({at(0)}).zero?")
                self.out(f"  p += {acc + 1}")
                self.out(f"elsif !(p = {inner}.fok(r, buf, {at(1)}, e, d))")
                self.out("  return nil")
                self.out("end")
                acc = 0
            elif self.struct_vector(w) and w.element is not None and w.element.final_min > 0:
                inner = self.plain_codec(f.type.value)
                self.out(f"return nil if {at(4)} > e")
                self.out()
                self.out(f'n = buf.unpack1("V", offset: {at(0)})')
                self.out(f"p += {acc + 4}")
                self.out(f"return nil if n > (e - p) / {w.element.final_min}")
                self.out()
                self.out("while n.positive?")
                self.out(f"  return nil unless (p = {inner}.fok(r, buf, p, e, d))")
                self.out()
                self.out("  n -= 1")
                self.out("end")
                acc = 0
            else:
                # the runtime's codec, on the Reader (it raises DecodeError when malformed)
                self.out(f"r.pos = {at(0)}")
                self.out(f"{self.field_const(s, f)}.fcheck(r, d)")
                self.out("p = r.pos")
                acc = 0
            i += 1
        self.out(f"{at(0)} <= e ? {at(0)} : nil" if acc else "p")
        self.level -= 1
        self.out("end")


# A guard clause: a line that leaves the method (or raises) under a condition.
_GUARD = re.compile(r"^\s*(raise|return|next|break|fail)\b.* (if|unless) ")

INT_RANGES: Dict[str, tuple] = {
    "byte": (0, 0xFF), "char": (0, 0xFF), "uint8": (0, 0xFF), "int8": (-0x80, 0x7F),
    "wchar": (0, 0xFFFFFFFF), "int16": (-0x8000, 0x7FFF), "uint16": (0, 0xFFFF),
    "int32": (-0x80000000, 0x7FFFFFFF), "uint32": (0, 0xFFFFFFFF),
    "int64": (-0x8000000000000000, 0x7FFFFFFFFFFFFFFF), "uint64": (0, 0xFFFFFFFFFFFFFFFF),
}


def _directives(fmt: str) -> List[str]:
    """A pack format split into its directives ("l<VCV" -> ["l<", "V", "C", "V"])."""
    out: List[str] = []
    i = 0
    while i < len(fmt):
        if fmt[i] == "a":
            out.append(fmt[i:i + 3])
            i += 3
        elif i + 1 < len(fmt) and fmt[i + 1] == "<":
            out.append(fmt[i:i + 2])
            i += 2
        else:
            out.append(fmt[i])
            i += 1
    return out
