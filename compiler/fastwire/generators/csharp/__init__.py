"""The C# generator: one file per package, `<package>.cs`, on the runtime in csharp/Fastwire.

    fastwire compile schemas/proto.fbe --lang csharp --final --json --proto -o gen/
    fastwire --csharp --input=schemas/proto.fbe --output=gen/          # fbec's flags

A package becomes the namespace `<domain>.<package>` (or `<package>` without a domain)
holding its enums (`[Flags]` for flags), one class per struct or message (fields named
as in the schema, defaults from the lowered model, equality, ordering and hashing by the
shared rule), and the namespace `<...>.Fbe` holding one codec per struct
(`Fbe.Account.Instance`: its `Model`, `FinalModel`, `ToJson`, `FromJson`), the enum
codecs, the package's struct list and, with --proto, its Sender and Receiver. Every
offset, slot and size comes from fastwire.lower; nothing of the layout is computed here.
C# 6 as Debian's Mono compiler (mcs) accepts it; see csharp/README.md.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

from ... import __version__, ir, lower
from ..common import naming
from ..options import Options
from ..printer import Printer

SCALAR = {
    "bool": ("bool", "Bool", "BoolCodec"), "byte": ("byte", "Byte", "ByteCodec"),
    "char": ("char", "Char", "CharCodec"), "wchar": ("uint", "WChar", "UInt32Codec"),
    "int8": ("sbyte", "Int8", "SByteCodec"), "uint8": ("byte", "UInt8", "ByteCodec"),
    "int16": ("short", "Int16", "Int16Codec"), "uint16": ("ushort", "UInt16", "UInt16Codec"),
    "int32": ("int", "Int32", "Int32Codec"), "uint32": ("uint", "UInt32", "UInt32Codec"),
    "int64": ("long", "Int64", "Int64Codec"), "uint64": ("ulong", "UInt64", "UInt64Codec"),
    "float": ("float", "Float", "FloatCodec"), "double": ("double", "Double", "DoubleCodec"),
    "decimal": ("decimal", "Decimal", "DecimalCodec"),
    "timestamp": ("global::Fastwire.Timestamp", "Timestamp", "TimestampCodec"),
    "uuid": ("global::System.Guid", "Uuid", "UuidCodec"),
    "string": ("string", "String", "StringCodec"), "bytes": ("byte[]", "Bytes", "BytesCodec"),
}
# Enum underlying types (C# has no char enums: char is a byte, wchar a uint).
ENUM_BASE = {"byte": "byte", "char": "byte", "wchar": "uint", "int8": "sbyte",
             "uint8": "byte", "int16": "short", "uint16": "ushort", "int32": "int",
             "uint32": "uint", "int64": "long", "uint64": "ulong"}
ENUM_BASE_CODEC = {"byte": "Byte", "sbyte": "Int8", "short": "Int16", "ushort": "UInt16",
                   "int": "Int32", "uint": "UInt32", "long": "Int64", "ulong": "UInt64"}
VALUE_TYPES = {"bool", "byte", "char", "uint", "sbyte", "short", "ushort", "int", "long",
               "ulong", "float", "double", "decimal", "global::Fastwire.Timestamp",
               "global::System.Guid"}
# Members of the generated classes a field must not be named as.
MEMBERS = {"Equals", "GetHashCode", "CompareTo", "ToString", "ToJson", "FromJson", "GetType",
           "MemberwiseClone", "Finalize", "ReferenceEquals"}
RT = "global::Fastwire"


def generate(schema: ir.Schema, options: Options) -> Dict[str, str]:
    model = lower.lower(schema)
    return {naming.file_name("csharp", p.name, "module"): _Package(schema, p, options, model).render()
            for p in schema.packages}


def cs_ident(name: str) -> str:
    return naming.ident("csharp", name)


def cs_string(text: str) -> str:
    out = []
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        c = data[i] | data[i + 1] << 8
        ch = chr(c) if c < 0xD800 or c > 0xDFFF else ""
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif 0x20 <= c < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\u{c:04X}")
    return '"' + "".join(out) + '"'


class _Package:
    def __init__(self, schema: ir.Schema, pkg: ir.Package, options: Options,
                 model: lower.WireModel) -> None:
        self.schema = schema
        self.pkg = pkg
        self.options = options
        self.model = model
        self.p = Printer(indent=options.indent or 4, tabs=options.tabs)

    # ---- names ---------------------------------------------------------------------------
    def namespace(self, package: str) -> str:
        p = self.schema.package(package)
        parts = (p.domain.split(".") if p.domain else []) + [p.name]
        return ".".join(cs_ident(x) for x in parts)

    def type_name(self, qualified: str) -> str:
        package, _, name = qualified.partition(".")
        return f"global::{self.namespace(package)}.{cs_ident(name)}"

    def codec_name(self, qualified: str) -> str:
        package, _, name = qualified.partition(".")
        return f"global::{self.namespace(package)}.Fbe.{cs_ident(name)}"

    def enum_codec(self, qualified: str) -> str:
        package, _, name = qualified.partition(".")
        return f"global::{self.namespace(package)}.Fbe.FbeEnums.{cs_ident(name)}"

    def lookup(self, qualified: str) -> ir.NamedType:
        package, _, name = qualified.partition(".")
        t = self.schema.package(package).type(name)
        assert t is not None
        return t

    @staticmethod
    def field_names(s: ir.StructType) -> Dict[str, str]:
        taken = {s.name}
        out: Dict[str, str] = {}
        for f in s.all_fields:
            n = cs_ident(f.name)
            while n in taken or n in MEMBERS:
                n += "_"
            out[f.name] = n
            taken.add(n)
        return out

    # ---- types ---------------------------------------------------------------------------
    def cs_type(self, w: lower.WireType) -> str:
        k = w.kind
        if k == "scalar":
            assert w.scalar is not None
            return SCALAR[w.scalar][0]
        if k in ("decimal", "uuid", "timestamp", "string", "bytes"):
            return SCALAR[k][0]
        if k in ("enum", "flags", "struct"):
            assert w.ref is not None
            return self.type_name(w.ref)
        assert w.element is not None
        e = self.cs_type(w.element)
        if k == "optional":
            return e + "?" if e in VALUE_TYPES or w.element.kind in ("enum", "flags") else e
        if k == "array":
            return e + "[]"
        if k == "sequence":
            if w.collection == "set":
                return f"global::System.Collections.Generic.SortedSet<{e}>"
            return f"global::System.Collections.Generic.List<{e}>"
        assert w.key is not None
        key = self.cs_type(w.key)
        if w.collection == "map":
            return f"global::System.Collections.Generic.SortedDictionary<{key}, {e}>"
        return f"global::System.Collections.Generic.Dictionary<{key}, {e}>"

    def is_value(self, w: lower.WireType) -> bool:
        return w.kind in ("scalar", "decimal", "uuid", "timestamp", "enum", "flags") or (
            w.kind == "optional")

    def codec(self, w: lower.WireType) -> Tuple[str, str]:
        """(C# type of the codec, expression creating or naming it)."""
        k = w.kind
        if k in ("scalar", "decimal", "uuid", "timestamp", "string", "bytes"):
            name = w.scalar if k == "scalar" else k
            assert name is not None
            _, field, cls = SCALAR[name]
            return f"{RT}.{cls}", f"{RT}.Codecs.{field}"
        if k in ("enum", "flags"):
            assert w.ref is not None and w.scalar is not None
            base = ENUM_BASE[w.scalar]
            return (f"{RT}.EnumCodec<{self.type_name(w.ref)}, {base}>", self.enum_codec(w.ref))
        if k == "struct":
            assert w.ref is not None
            return self.codec_name(w.ref), self.codec_name(w.ref) + ".Instance"
        assert w.element is not None
        et = self.cs_type(w.element)
        _, ex = self.codec(w.element)
        t = self.cs_type(w)
        ctype = f"{RT}.Codec<{t}>"
        if k == "optional":
            if t.endswith("?"):
                return ctype, f"new {RT}.OptionalValueCodec<{et}>({ex})"
            return ctype, f"new {RT}.OptionalRefCodec<{et}>({ex})"
        if k == "array":
            return ctype, f"new {RT}.ArrayCodec<{et}>({ex}, {w.length})"
        if k == "sequence":
            if w.collection == "set":
                return ctype, f"new {RT}.SetCodec<{et}>({ex})"
            return ctype, f"new {RT}.ListCodec<{et}>({ex})"
        assert w.key is not None
        kt = self.cs_type(w.key)
        _, kx = self.codec(w.key)
        pairs = "true" if w.key.kind == "struct" else "false"
        cls = "MapCodec" if w.collection == "map" else "HashCodec"
        return ctype, f"new {RT}.{cls}<{kt}, {et}>({kx}, {ex}, {pairs})"

    def zero(self, w: lower.WireType) -> str:
        """A new value's expression for a field without a default."""
        k = w.kind
        t = self.cs_type(w)
        if k == "string":
            return '""'
        if k == "bytes":
            return "new byte[0]"
        if k == "struct":
            return f"new {t}()"
        if k in ("sequence", "map"):
            assert w.element is not None
            order = self.order(w.element if k == "sequence" else w.key)
            if w.collection in ("set", "map") and order:
                return f"new {t}({order})"
            return f"new {t}()"
        if k == "array":
            assert w.element is not None
            e = w.element
            if e.kind in ("string", "bytes", "struct", "sequence", "map", "array"):
                return (f"{RT}.Arrays.New<{self.cs_type(e)}>({w.length}, () => "
                        f"{self.zero(e)})")
            return f"new {self.cs_type(e)}[{w.length}]"
        return ""  # value types and optionals: C#'s default

    def order(self, w: lower.WireType | None) -> str:
        if w is None:
            return ""
        if w.kind == "string":
            return f"{RT}.StringOrder.Instance"
        if w.kind == "uuid":
            return f"{RT}.UuidOrder.Instance"
        return ""

    def literal(self, w: lower.WireType, lit: lower.Literal) -> str:
        if w.kind == "optional":
            assert w.element is not None
            if lit.kind == "null":
                return "null"
            return self.literal(w.element, lit)
        k = lit.kind
        if k == "bool":
            return "true" if lit.value else "false"
        if k == "computed":
            return {"utc": f"{RT}.Timestamp.Now", "uuid1": f"{RT}.Uuid.NewTimeBased()",
                    "uuid4": "global::System.Guid.NewGuid()"}[str(lit.value)]
        if k == "string":
            return cs_string(str(lit.value))
        if k == "uuid":
            return f'new global::System.Guid("{lit.value}")'
        if k == "decimal":
            c = lit.coefficient
            lo, mid, hi = c & 0xFFFFFFFF, (c >> 32) & 0xFFFFFFFF, c >> 64
            parts = [f"unchecked((int)0x{x:08X})" if x >= 0x80000000 else str(x) for x in (lo, mid, hi)]
            neg = "true" if lit.negative else "false"
            return f"new decimal({', '.join(parts)}, {neg}, {lit.scale})"
        if k == "float":
            x = float(str(lit.value)) if not isinstance(lit.value, float) else lit.value
            single = lit.bits == 32
            t = "float" if single else "double"
            if x != x:
                return f"{t}.NaN"
            if x in (float("inf"), float("-inf")):
                return f"{t}.{'PositiveInfinity' if x > 0 else 'NegativeInfinity'}"
            text = repr(x)
            if "e" not in text and "." not in text:
                text += ".0"
            return text + ("f" if single else "d")
        assert k == "integer", k
        value = int(str(lit.value)) if not isinstance(lit.value, int) else lit.value
        if w.kind in ("enum", "flags"):
            assert w.ref is not None
            t = self.type_name(w.ref)
            if lit.names:
                return " | ".join(f"{t}.{cs_ident(n)}" for n in lit.names)
            base = ENUM_BASE[w.scalar or "int32"]
            return f"({t})({self.int_text(base, value)})"
        if w.kind == "timestamp":
            return f"new {RT}.Timestamp({value}UL)"
        assert w.scalar is not None
        return self.int_text(SCALAR[w.scalar][0], value)

    @staticmethod
    def int_text(t: str, v: int) -> str:
        if t == "long" and v == -(1 << 63):
            return "long.MinValue"
        if t == "int" and v == -(1 << 31):
            return "int.MinValue"
        suffix = {"uint": "U", "long": "L", "ulong": "UL"}.get(t, "")
        if t in ("byte", "sbyte", "short", "ushort", "char"):
            return f"({t})({v})" if v < 0 or t == "char" else f"({t}){v}"
        return f"{v}{suffix}"

    # ---- the file ------------------------------------------------------------------------
    def render(self) -> str:
        p = self.p
        p.print("""
            // Generated by fastwire $version$ from package $pkg$: do not edit.
            // The runtime is csharp/Fastwire (docs: csharp/README.md).
            #pragma warning disable 612, 618, 1591
        """, version=__version__, pkg=self.pkg.name)
        ns = self.namespace(self.pkg.name)
        layout = self.model.package(self.pkg.name)
        p.blank()
        with p.block("namespace $ns$\n{", "}", ns=ns):
            first = True
            for t in self.pkg.types:
                if isinstance(t, ir.EnumType):
                    if not first:
                        p.blank()
                    first = False
                    self.emit_enum(t)
            for q in layout.emission_order:
                s = self.lookup(q)
                assert isinstance(s, ir.StructType)
                if not first:
                    p.blank()
                first = False
                self.emit_class(s)
        p.blank()
        with p.block("namespace $ns$.Fbe\n{", "}", ns=ns):
            self.emit_enum_codecs()
            for q in layout.emission_order:
                s = self.lookup(q)
                assert isinstance(s, ir.StructType)
                p.blank()
                self.emit_codec(s)
            p.blank()
            structs = ", ".join(f"{cs_ident(self.lookup(q).name)}.Instance.Info"
                                for q in layout.emission_order)
            p.print("""
                /// <summary>The structs of package $pkg$, for tools and testees.</summary>
                public static class FbePackage
                {
                    public static global::Fastwire.StructInfo[] Structs
                    {
                        get { return new global::Fastwire.StructInfo[] { $structs$ }; }
                    }
                }
            """, pkg=self.pkg.name, structs=structs)
            if self.options.proto:
                p.blank()
                self.emit_protocol(layout)
        return p.text()

    def doc(self, text: str | None) -> None:
        if text:
            for line in text.strip().splitlines():
                self.p.value("/// " + line.strip().replace("&", "&amp;").replace("<", "&lt;"))

    # ---- enums ---------------------------------------------------------------------------
    def emit_enum(self, t: ir.EnumType) -> None:
        p = self.p
        base = ENUM_BASE[t.base]
        self.doc(t.doc)
        if t.kind == "flags":
            p.print("[global::System.Flags]")
        if t.deprecated:
            p.print("[global::System.Obsolete]")
        with p.block("public enum $name$ : $base$\n{", "}", name=cs_ident(t.name), base=base):
            taken = {t.name}
            for v in t.values:
                n = cs_ident(v.name)
                self.doc(v.doc)
                p.print("$n$ = $v$,", n=n, v=self.int_text(base, v.value)
                        if base not in ("byte", "sbyte", "short", "ushort") else str(v.value))
                taken.add(n)

    def emit_enum_codecs(self) -> None:
        enums = [t for t in self.pkg.types if isinstance(t, ir.EnumType)]
        p = self.p
        with p.block("/// <summary>The codecs of package $pkg$'s enums and flags.</summary>\n"
                     "public static class FbeEnums\n{", "}", pkg=self.pkg.name):
            for t in enums:
                base = ENUM_BASE[t.base]
                et = self.type_name(t.qualified_name)
                p.print("public static readonly global::Fastwire.EnumCodec<$et$, $b$> $n$ = "
                        "new global::Fastwire.EnumCodec<$et$, $b$>(global::Fastwire.Codecs.$c$, "
                        "x => ($et$)x, x => ($b$)x);", et=et, b=base, n=cs_ident(t.name),
                        c=ENUM_BASE_CODEC[base])

    # ---- classes -------------------------------------------------------------------------
    def emit_class(self, s: ir.StructType) -> None:
        p = self.p
        layout = self.model.struct(s.qualified_name)
        names = self.field_names(s)
        name = cs_ident(s.name)
        own = {f.name for f in s.fields}
        base = f" : {self.type_name(s.base.qualified_name)}," if s.base else " :"
        ifaces = f"global::System.IEquatable<{name}>"
        if layout.keyed:
            ifaces += f", global::System.IComparable<{name}>, global::System.IComparable"
        self.doc(s.doc)
        if s.deprecated:
            p.print("[global::System.Obsolete]")
        with p.block(f"public partial class {name}{base} {ifaces}\n{{", "}"):
            computed: List[Tuple[str, str]] = []
            for fl, f, lit in zip(layout.fields, s.all_fields, layout.defaults):
                if f.name not in own:
                    continue
                t = self.cs_type(fl.wire)
                init = self.zero(fl.wire) if lit is None else self.literal(fl.wire, lit)
                self.doc(f.doc)
                if f.deprecated:
                    p.print("[global::System.Obsolete]")
                if lit is not None and lit.kind == "computed":
                    computed.append((names[f.name], init))
                    init = ""
                p.value(f"public {t} {names[f.name]}{' = ' + init if init else ''};")
            p.blank()
            p.print(f"public {name}()\n{{")
            p.indent()
            for n, init in computed:
                p.value(f"{n} = {init};")
            p.outdent()
            p.print("}")
            p.blank()
            eq = layout.equality
            wires = {fl.name: fl.wire for fl in layout.fields}
            cond = " && ".join(f"{RT}.Eq.Equal({names[n]}, o.{names[n]})" for n in eq) or "true"
            p.print(f"""
                public override bool Equals(object obj) {{ return Equals(obj as {name}); }}

                public bool Equals({name} o)
                {{
                    if (ReferenceEquals(o, null)) return false;
                    if (ReferenceEquals(o, this)) return true;
                    return o.GetType() == GetType() && {cond};
                }}
            """)
            hashed = [n for n in eq if wires[n].kind not in ("sequence", "map", "array", "bytes")]
            p.blank()
            p.print("public override int GetHashCode()\n{")
            p.indent()
            p.print("int h = 17;")
            for n in hashed:
                p.print(f"h = h * 31 + {RT}.Eq.Hash({names[n]});")
            p.print("return h;")
            p.outdent()
            p.print("}")
            if layout.keyed:
                p.blank()
                hides = "new " if s.base and self.model.struct(s.base.qualified_name).keyed else ""
                p.print(f"public {hides}int CompareTo(object obj) {{ return CompareTo(obj as {name}); }}")
                p.blank()
                p.print(f"public int CompareTo({name} o)\n{{")
                p.indent()
                p.print("if (ReferenceEquals(o, null)) return 1;")
                p.print("int c;")
                for n in eq:
                    p.print(f"if ((c = {RT}.Eq.Compare({names[n]}, o.{names[n]})) != 0) return c;")
                p.print("return 0;")
                p.outdent()
                p.print("}")
            codec = self.codec_name(s.qualified_name)
            new = "new " if s.base else ""
            if self.options.json:
                p.blank()
                p.print(f"""
                    /// <summary>The value as JSON text (docs/wire-format.md#json).</summary>
                    public {new}string ToJson() {{ return {codec}.Instance.ToJson(this); }}

                    /// <summary>A value from JSON text; FastwireException when it is not one.</summary>
                    public static {new}{name} FromJson(string text) {{ return {codec}.Instance.FromJson(text); }}

                    public override string ToString() {{ return ToJson(); }}
                """)

    # ---- codecs --------------------------------------------------------------------------
    def emit_codec(self, s: ir.StructType) -> None:
        p = self.p
        layout = self.model.struct(s.qualified_name)
        names = self.field_names(s)
        t = self.type_name(s.qualified_name)
        name = cs_ident(s.name)
        fields = list(zip(layout.fields, s.all_fields))
        with p.block(f"/// <summary>The codec of {s.qualified_name}: its root models, JSON, "
                     f"and its place in other types.</summary>\n"
                     f"public sealed class {name} : global::Fastwire.StructCodec<{t}>\n{{", "}"):
            p.print(f"public static readonly {name} Instance = new {name}();")
            for fl, _ in fields:
                ct, cx = self.codec(fl.wire)
                p.print(f"static readonly {ct} F{fl.index} = {cx};")
            p.blank()
            p.print(f'{name}() : base("{s.qualified_name}", {layout.type_number}U, '
                    f'{layout.body_size}, {layout.final_min}) {{ }}')
            p.blank()
            p.print(f"public override {t} New() {{ return new {t}(); }}")
            # versioned
            self.method("protected override void VPutFields(global::Fastwire.WriteBuffer w, "
                        f"int pos, {t} v)",
                        [f"F{fl.index}.VPut(w, pos + {fl.offset}, pos, v.{names[f.name]});"
                         for fl, f in fields])
            full = [f"v.{names[f.name]} = F{fl.index}.VGet(r, pos + {fl.offset}, pos, d);"
                    for fl, f in fields]
            older = [f"if (stored >= {fl.offset + fl.slot}) v.{names[f.name]} = "
                     f"F{fl.index}.VGet(r, pos + {fl.offset}, pos, d);" for fl, f in fields]
            body = []
            if fields:
                body = [f"if (stored >= {layout.body_size})", "{"] + ["    " + x for x in full] + \
                       ["}", "else", "{"] + ["    " + x for x in older] + ["}"]
            self.method("protected override void VGetFields(global::Fastwire.Reader r, int pos, "
                        f"int stored, int d, {t} v)", body)
            checks = [f"if (stored >= {fl.offset + fl.slot}) F{fl.index}.VCheck(r, pos + "
                      f"{fl.offset}, pos, d);" for fl, f in fields if not self.trivial(fl.wire)]
            self.method("protected override void VCheckFields(global::Fastwire.Reader r, int pos, "
                        "int stored, int d)", checks)
            # final
            self.method(f"protected override void FPutFields(global::Fastwire.WriteBuffer w, {t} v)",
                        [f"F{fl.index}.FPut(w, v.{names[f.name]});" for fl, f in fields])
            self.method("protected override void FGetFields(global::Fastwire.Reader r, ref int p, "
                        f"int d, {t} v)",
                        [f"v.{names[f.name]} = F{fl.index}.FGet(r, ref p, d);" for fl, f in fields])
            self.method("protected override void FCheckFields(global::Fastwire.Reader r, ref int p, "
                        "int d)", [f"F{fl.index}.FCheck(r, ref p, d);" for fl, f in fields])
            # json
            puts: List[str] = []
            sep = "{"
            for fl, f in fields:
                puts.append(f"sb.Append({cs_string(sep + cs_json_key(f.name) + ':')});")
                puts.append(f"F{fl.index}.JPut(sb, v.{names[f.name]});")
                sep = ","
            puts.append("sb.Append('}');" if fields else 'sb.Append("{}");')
            self.method("protected override void JPutFields(global::System.Text.StringBuilder sb, "
                        f"{t} v)", puts)
            gets = ["switch (key)", "{"]
            for fl, f in fields:
                gets.append(f"    case {cs_string(f.name)}: v.{names[f.name]} = "
                            f"F{fl.index}.JGet(j, s); return true;")
            gets += ["    default: return false;", "}"]
            self.method("protected override bool JGetField(string key, global::Fastwire.JsonNode j, "
                        f"global::Fastwire.JsonState s, {t} v)",
                        gets if fields else ["return false;"])

    @staticmethod
    def trivial(w: lower.WireType) -> bool:
        if w.kind in ("scalar", "uuid", "timestamp", "enum", "flags"):
            return True
        if w.kind == "array":
            assert w.element is not None
            return _Package.trivial(w.element)
        return False

    def method(self, signature: str, lines: List[str]) -> None:
        p = self.p
        p.blank()
        p.print(signature)
        p.print("{")
        p.indent()
        for line in lines:
            p.value(line)
        p.outdent()
        p.print("}")

    # ---- protocol ------------------------------------------------------------------------
    def emit_protocol(self, layout: lower.PackageLayout) -> None:
        p = self.p
        sends = [t for t in (self.lookup(q) for q in layout.sends) if isinstance(t, ir.StructType)]
        p.print("""
            /// <summary>
            /// What package $pkg$'s protocol sends: each message as a root model of its own
            /// (versioned, or final with a FinalSender); a stream is models one after another.
            /// </summary>
            public class Sender : global::Fastwire.SenderBase
            {
                public Sender(global::Fastwire.ISink sink, bool final = false) : base(sink, final) { }
        """, pkg=self.pkg.name)
        p.indent()
        for s in sends:
            n = cs_ident(s.name)
            p.print(f"public bool Send({self.type_name(s.qualified_name)} value) "
                    f"{{ return SendValue({n}.Instance, value); }}")
        p.outdent()
        p.print("}")
        p.blank()
        p.print("""
            /// <summary>
            /// Reassembles package $pkg$'s messages from any chunking and dispatches them by
            /// type number to OnReceive overloads (override them); unknown types go to
            /// OnUnknown. Malformed input raises FastwireException from Receive.
            /// </summary>
            public class Receiver : global::Fastwire.ReceiverBase
            {
                public Receiver(bool final = false, global::Fastwire.Limits limits = null) : base(final, limits) { }

                protected override bool Dispatch(uint type, byte[] buffer, int offset, int size)
                {
                    switch (type)
                    {
        """, pkg=self.pkg.name)
        p.indent()
        p.indent()
        p.indent()
        for s in sends:
            n = cs_ident(s.name)
            p.print(f"case {self.model.struct(s.qualified_name).type_number}U: {{ var m = "
                    f"Read({n}.Instance, buffer, offset, size); if (!Intercept(m)) OnReceive(m); "
                    "return true; }")
        p.print("default: return false;")
        p.outdent()
        p.print("}")
        p.outdent()
        p.print("}")
        for s in sends:
            p.blank()
            p.print(f"protected virtual void OnReceive({self.type_name(s.qualified_name)} value) {{ }}")
        p.outdent()
        p.print("}")
        self.emit_client(sends)

    def emit_client(self, sends: List[ir.StructType]) -> None:
        """The Client: a Receiver that matches responses and rejects to its requests."""
        p = self.p
        sent = {s.qualified_name for s in sends}
        requests = [s for s in sends if s.request and s.response is not None
                    and s.response.qualified_name in sent and s.id_field is not None]
        if not requests:
            return
        answers: List[ir.StructType] = []
        p.blank()
        p.print("""
            /// <summary>
            /// A Receiver that answers Request(): responses and rejects are matched to their
            /// request by [id] (other messages go to the OnReceive hooks). Attach a sink (a
            /// transport client does) to send.
            /// </summary>
            public class Client : Receiver, global::Fastwire.IRequester
            {
                readonly global::Fastwire.RequestTracker requests = new global::Fastwire.RequestTracker();
                public global::Fastwire.RequestTracker Requests { get { return requests; } }
                public Sender Sender { get; private set; }

                public Client(bool final = false, global::Fastwire.Limits limits = null) : base(final, limits) { }

                public void Attach(global::Fastwire.ISink sink) { Sender = new Sender(sink, Final); }
        """)
        p.indent()
        for q in requests:
            assert q.response is not None and q.id_field is not None
            resp = self.lookup(q.response.qualified_name)
            assert isinstance(resp, ir.StructType)
            rejects = [self.lookup(r.type.qualified_name) for r in q.rejects
                       if r.type.qualified_name in sent]
            for t in [resp, *rejects]:
                if isinstance(t, ir.StructType) and t.id_field is not None and t not in answers:
                    answers.append(t)
            types = ", ".join(f"typeof({self.type_name(r.qualified_name)})" for r in rejects)
            qid = self.field_names(q)[q.id_field.name]
            p.blank()
            resp_t = self.type_name(resp.qualified_name)
            p.print("""
                /// <summary>Sends the request; the task completes with its response, or fails
                /// with a RequestException.</summary>
                public global::System.Threading.Tasks.Task<$resp$> Request(
                    $req$ request, global::System.TimeSpan? timeout = null)
                {
                    var sender = Sender;
                    if (sender == null)
                        throw new global::Fastwire.RequestException(
                            global::Fastwire.RequestErrorKind.Disconnected, "not connected");
                    return requests.Start<$resp$>(request.$qid$,
                        new global::System.Type[] { $types$ }, () => sender.Send(request), timeout);
                }
            """, resp=resp_t, req=self.type_name(q.qualified_name), qid=qid, types=types)
        p.blank()
        p.print("protected override bool Intercept(object message)\n{")
        p.indent()
        p.print("var type = message.GetType();")
        for t in answers:
            assert t.id_field is not None
            tn = self.type_name(t.qualified_name)
            tid = self.field_names(t)[t.id_field.name]
            p.print(f"if (type == typeof({tn})) return requests.Complete((({tn})message).{tid}, message);")
        p.print("return false;")
        p.outdent()
        p.print("}")
        p.outdent()
        p.print("}")


def cs_json_key(name: str) -> str:
    """A field name as a JSON key (names are identifiers: nothing to escape)."""
    return '"' + name + '"'
