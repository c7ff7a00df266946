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

from typing import Dict, List, Optional, Tuple

from ... import __version__, ir, lower
from ..common import docs, naming
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
INLINE = ("global::System.Runtime.CompilerServices.MethodImpl("
          "global::System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)")


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
            lst = ", true" if w.collection == "list" else ""
            return ctype, f"new {RT}.ListCodec<{et}>({ex}{lst})"
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
            for line in docs.comment_lines("csharp", text.strip()):
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
                names = ", ".join(
                    f"new global::System.Collections.Generic.KeyValuePair<decimal, string>({v.value}m, "
                    f"{cs_string(v.name)})" for v in t.values)
                p.print("public static readonly global::Fastwire.EnumCodec<$et$, $b$> $n$ = "
                        "new global::Fastwire.EnumCodec<$et$, $b$>(global::Fastwire.Codecs.$c$, "
                        "x => ($et$)x, x => ($b$)x)", et=et, b=base, n=cs_ident(t.name),
                        c=ENUM_BASE_CODEC[base])
                p.print("{")
                p.indent()
                p.value(f"IsFlags = {'true' if t.kind == 'flags' else 'false'},")
                p.value("Names = new global::System.Collections.Generic.KeyValuePair<decimal, string>[] { "
                        + names + " },")
                p.outdent()
                p.print("};")

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
            inits: List[Tuple[str, str]] = []
            for fl, f, lit in zip(layout.fields, s.all_fields, layout.defaults):
                if f.name not in own:
                    continue
                t = self.cs_type(fl.wire)
                init = self.zero(fl.wire) if lit is None else self.literal(fl.wire, lit)
                self.doc(f.doc)
                if f.deprecated:
                    p.print("[global::System.Obsolete]")
                p.value(f"public {t} {names[f.name]};")
                if init:
                    inits.append((names[f.name], init))
            p.blank()
            p.print("/// <summary>A value with the schema's defaults.</summary>")
            p.print(f"public {name}(){' : base()' if s.base else ''}\n{{")
            p.indent()
            for n, init in inits:
                p.value(f"{n} = {init};")
            p.outdent()
            p.print("}")
            p.blank()
            p.print("/// <summary>A value whose every field the caller sets (readers).</summary>")
            p.print(f"public {name}(global::Fastwire.Bare bare){' : base(bare)' if s.base else ''} {{ }}")
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

                """)
            p.blank()
            p.print(f"""
                /// <summary>The printout, as the C++ runtime prints: {name}(field=value,...).</summary>
                public override string ToString() {{ return {codec}.Instance.Print(this); }}
            """)

    # ---- codecs --------------------------------------------------------------------------
    # Hot paths are inlined: fixed-size values read and written in place (the final
    # format's runs with one bounds check each), strings, nested structs, optional structs
    # and vectors of structs through non-generic calls; everything else goes through the
    # runtime's composed codecs (fields F0, F1, ...).

    def inline_kind(self, w: lower.WireType) -> str:
        k = w.kind
        if k in ("scalar", "enum", "flags", "uuid", "decimal", "timestamp"):
            return "value"
        if k in ("string", "bytes"):
            return "text"
        if k == "struct":
            return "struct"
        if k == "optional" and w.element is not None and w.element.kind == "struct":
            return "optstruct"
        if (k == "sequence" and w.collection in ("vector", "list") and w.element is not None
                and w.element.kind == "struct"):
            return "structs"
        return "codec"

    def read_value(self, w: lower.WireType, at: str) -> str:
        """An expression reading the fixed-size value of wire type w at `at` (in b)."""
        k = w.kind
        if k == "uuid":
            return f"{RT}.Uuid.Read(b, {at})"
        if k == "decimal":
            return f"{RT}.Decimals.Read(b, {at})"
        if k == "timestamp":
            return f"new {RT}.Timestamp(r.U64({at}))"
        assert w.scalar is not None
        sc = w.scalar
        # Scalars through the reader's loads (positions the generated code has checked).
        raw = {
            "bool": f"r.U8({at}) != 0", "byte": f"r.U8({at})", "uint8": f"r.U8({at})",
            "char": f"(char)r.U8({at})", "int8": f"(sbyte)r.U8({at})",
            "int16": f"(short)r.U16({at})", "uint16": f"r.U16({at})",
            "int32": f"r.I32({at})", "uint32": f"r.U32({at})",
            "wchar": f"r.U32({at})", "int64": f"(long)r.U64({at})",
            "uint64": f"r.U64({at})", "float": f"r.F32({at})",
            "double": f"r.F64({at})"}[sc]
        if k in ("enum", "flags"):
            assert w.ref is not None
            if sc == "char":
                raw = f"r.U8({at})"
            return f"({self.type_name(w.ref)})({raw})"
        return raw

    def write_value(self, w: lower.WireType, at: str, v: str) -> str:
        """A statement writing value v of wire type w at `at` (in b)."""
        k = w.kind
        if k == "uuid":
            return f"{RT}.Uuid.Write(b, {at}, {v});"
        if k == "decimal":
            return f"{RT}.Decimals.Write(b, {at}, {v});"
        if k == "timestamp":
            return f"{RT}.Le.Put(b, {at}, {v}.Nanoseconds);"
        assert w.scalar is not None
        sc = w.scalar
        if sc == "bool":
            return f"b[{at}] = {v} ? (byte)1 : (byte)0;"
        if sc in ("byte", "uint8", "char", "int8"):
            return f"b[{at}] = (byte){v};"
        if sc in ("int16", "uint16"):
            return f"{RT}.Le.Put(b, {at}, (ushort){v});"
        if sc in ("int32", "uint32", "wchar"):
            return f"w.PutU32({at}, (uint){v});"
        if sc in ("int64", "uint64"):
            return f"w.PutU64({at}, (ulong){v});"
        if sc == "float":
            return f"{RT}.Le.PutF32(b, {at}, {v});"
        return f"w.PutF64({at}, {v});"

    def vput(self, fl: lower.FieldLayout, v: str) -> List[str]:
        """Statements writing a field's heap blocks and slot (not fixed-size values)."""
        w = fl.wire
        k = self.inline_kind(w)
        slot = f"pos + {fl.offset}"
        if k == "text":
            fn = "String" if w.kind == "string" else "Bytes"
            return [f"{RT}.Wire.VPut{fn}(w, {slot}, pos, {v});"]
        if k == "struct":
            assert w.ref is not None
            return [f"{self.codec_name(w.ref)}.VPutAt(w, {slot}, pos, {v});"]
        if k == "optstruct":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return [f"if ({v} != null)", "{",
                    "    int blk = w.Append(4);",
                    f"    w.Data[{slot}] = 1;",
                    f"    w.PutU32({slot} + 1, (uint)(blk - pos));",
                    f"    {c}.VPutAt(w, blk, blk, {v});", "}"]
        if k == "structs":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return ["{", f"    var list = {v};", "    int n = list.Count;",
                    "    int blk = w.Append(4 + 4 * n);",
                    "    w.PutU32(blk, (uint)n);",
                    f"    for (int i = 0; i < n; i++) {c}.VPutAt(w, blk + 4 + 4 * i, pos, list[i]);",
                    f"    w.PutU32({slot}, (uint)(blk - pos));", "}"]
        return [f"F{fl.index}.VPut(w, {slot}, pos, {v});"]

    def vget(self, fl: lower.FieldLayout, target: str) -> List[str]:
        w = fl.wire
        k = self.inline_kind(w)
        slot = f"pos + {fl.offset}"
        if k == "value":
            return [f"{target} = {self.read_value(w, slot)};"]
        if k == "text":
            fn = "String" if w.kind == "string" else "Bytes"
            return [f"{target} = {RT}.Wire.VGet{fn}(r, {slot}, pos);"]
        if k == "struct":
            assert w.ref is not None
            return [f"{target} = {self.codec_name(w.ref)}.VGetAt(r, {slot}, pos, d);"]
        if k == "optstruct":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return [f"if (r.U8({slot}) == 0) {target} = null;", "else", "{",
                    f"    int q = r.Optional(pos, r.U32({slot} + 1), {slot} + 5, 4);",
                    f"    {target} = {c}.VGetAt(r, q, q, d);", "}"]
        if k == "structs":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            t = self.cs_type(w)
            return ["{", f"    uint off = r.U32({slot});", f"    {t} list;",
                    f"    if (off == 0) list = new {t}();", "    else", "    {",
                    f"        int q = r.Count(pos, off, {slot} + 4, 4);", "        int n = r.Stored;",
                    f"        list = new {t}(n);",
                    f"        for (int i = 0; i < n; i++) list.Add({c}.VGetAt(r, q + 4 * i, pos, d));",
                    "    }", f"    {target} = list;", "}"]
        return [f"{target} = F{fl.index}.VGet(r, {slot}, pos, d);"]

    def vcheck(self, fl: lower.FieldLayout) -> List[str]:
        w = fl.wire
        k = self.inline_kind(w)
        slot = f"pos + {fl.offset}"
        if self.trivial(w):
            return []
        if k == "value":  # a decimal
            return [f"{RT}.Decimals.Check(b, {slot});"]
        if k == "text":
            return [f"{RT}.Wire.VCheckText(r, {slot}, pos);"]
        if k == "struct":
            assert w.ref is not None
            return [f"{self.codec_name(w.ref)}.VCheckAt(r, {slot}, pos, d);"]
        if k == "optstruct":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return [f"if (r.U8({slot}) != 0)", "{",
                    f"    int q = r.Optional(pos, r.U32({slot} + 1), {slot} + 5, 4);",
                    f"    {c}.VCheckAt(r, q, q, d);", "}"]
        if k == "structs":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return ["{", f"    uint off = r.U32({slot});", "    if (off != 0)", "    {",
                    f"        int q = r.Count(pos, off, {slot} + 4, 4);", "        int n = r.Stored;",
                    f"        for (int i = 0; i < n; i++) {c}.VCheckAt(r, q + 4 * i, pos, d);",
                    "    }", "}"]
        return [f"F{fl.index}.VCheck(r, {slot}, pos, d);"]

    def final_groups(self, layout: lower.StructLayout) -> List[Tuple[str, object]]:
        """("run", FinalRun) for the model's runs of fixed-size values, ("field", layout)
        for every other field, in order."""
        runs = {r.first: r for r in layout.final_runs}
        out: List[Tuple[str, object]] = []
        i = 0
        while i < len(layout.fields):
            if i in runs:
                out.append(("run", runs[i]))
                i += runs[i].count
            else:
                out.append(("field", layout.fields[i]))
                i += 1
        return out

    def fput(self, fl: lower.FieldLayout, v: str) -> List[str]:
        w = fl.wire
        k = self.inline_kind(w)
        if k == "text":
            fn = "String" if w.kind == "string" else "Bytes"
            return [f"{RT}.Wire.FPut{fn}(w, {v});"]
        if k == "struct":
            assert w.ref is not None
            return [f"{self.codec_name(w.ref)}.FPutAt(w, {v});"]
        if k == "optstruct":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return ["{", "    int at = w.Reserve(1);", f"    w.Data[at] = {v} != null ? (byte)1 : (byte)0;",
                    f"    if ({v} != null) {c}.FPutAt(w, {v});", "}"]
        if k == "structs":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return ["{", f"    var list = {v};", "    int at = w.Reserve(4);",
                    "    w.PutU32(at, (uint)list.Count);",
                    f"    for (int i = 0; i < list.Count; i++) {c}.FPutAt(w, list[i]);", "}"]
        return [f"F{fl.index}.FPut(w, {v});"]

    def fget(self, fl: lower.FieldLayout, target: str) -> List[str]:
        w = fl.wire
        k = self.inline_kind(w)
        if k == "text":
            fn = "String" if w.kind == "string" else "Bytes"
            return [f"{target} = {RT}.Wire.FGet{fn}At(r, p);", "p = r.Pos;"]
        if k == "struct":
            assert w.ref is not None
            return [f"{target} = {self.codec_name(w.ref)}.FGetAt(r, p, d);", "p = r.Pos;"]
        if k == "optstruct":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return ["r.Need(p, 1);", f"if (r.U8(p++) == 0) {target} = null;",
                    f"else {{ {target} = {c}.FGetAt(r, p, d); p = r.Pos; }}"]
        if k == "structs":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            t = self.cs_type(w)
            fmin = w.element.final_min
            return ["{", f"    int n = r.FinalCount(p, {fmin});", "    p += 4;",
                    f"    var list = new {t}({'n' if fmin else 'global::System.Math.Min(n, 1024)'});",
                    f"    for (int i = 0; i < n; i++) {{ list.Add({c}.FGetAt(r, p, d)); p = r.Pos; }}",
                    f"    {target} = list;", "}"]
        return [f"{target} = F{fl.index}.FGet(r, ref p, d);"]

    def fcheck(self, fl: lower.FieldLayout) -> List[str]:
        w = fl.wire
        k = self.inline_kind(w)
        if k == "text":
            return [f"p = {RT}.Wire.FSkipText(r, p);"]
        if k == "struct":
            assert w.ref is not None
            return [f"p = {self.codec_name(w.ref)}.FCheckAt(r, p, d);"]
        if k == "optstruct":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return ["r.Need(p, 1);", f"if (r.U8(p++) != 0) p = {c}.FCheckAt(r, p, d);"]
        if k == "structs":
            assert w.element is not None and w.element.ref is not None
            c = self.codec_name(w.element.ref)
            return ["{", f"    int n = r.FinalCount(p, {w.element.final_min});", "    p += 4;",
                    f"    for (int i = 0; i < n; i++) p = {c}.FCheckAt(r, p, d);", "}"]
        return [f"F{fl.index}.FCheck(r, ref p, d);"]

    def emit_codec(self, s: ir.StructType) -> None:
        p = self.p
        layout = self.model.struct(s.qualified_name)
        names = self.field_names(s)
        t = self.type_name(s.qualified_name)
        name = cs_ident(s.name)
        fields = list(zip(layout.fields, s.all_fields))
        attr = {fl.index: "v." + names[f.name] for fl, f in fields}
        body, type_number = layout.body_size, layout.type_number
        rt = RT
        with p.block(f"/// <summary>The codec of {s.qualified_name}: its root models, JSON, "
                     f"and its place in other types.</summary>\n"
                     f"public sealed class {name} : global::Fastwire.StructCodec<{t}>\n{{", "}"):
            p.print(f"public static readonly {name} Instance = new {name}();")
            for fl, _ in fields:  # for the generic paths (JSON, collections)
                if self.inline_kind(fl.wire) != "struct":
                    ct, cx = self.codec(fl.wire)
                    p.print(f"static readonly {ct} F{fl.index} = {cx};")
            p.blank()
            p.print(f'{name}() : base("{s.qualified_name}", {type_number}U, {body}, '
                    f'{layout.final_min}) {{ }}')
            p.blank()
            p.print(f"public override {t} New() {{ return new {t}(); }}")
            # versioned
            values = [fl for fl, _ in fields if self.inline_kind(fl.wire) == "value"]
            puts = [f"if (v == null) throw new {rt}.FastwireException({rt}.ErrorCode.WrongType, "
                    f'"{s.qualified_name} is null");',
                    f"int pos = w.Append({body});", "byte[] b = w.Data;",
                    f"w.PutU32(pos, {body}U);", f"w.PutU32(pos + 4, {type_number}U);"]
            puts += [self.write_value(fl.wire, f"pos + {fl.offset}", attr[fl.index]) for fl in values]
            if not any("b[" in x or "(b, " in x for x in puts):  # every store through w
                puts.remove("byte[] b = w.Data;")
            for fl, _ in fields:
                if self.inline_kind(fl.wire) != "value":
                    puts += self.vput(fl, attr[fl.index])
            puts.append("w.PutU32(slot, (uint)(pos - bas));")
            self.method(f"public static void VPutAt({rt}.WriteBuffer w, int slot, int bas, {t} v)", puts)
            full: List[str] = []
            older: List[str] = []
            for fl, _ in fields:
                lines = self.vget(fl, attr[fl.index])
                full += lines
                older.append(f"if (stored >= {fl.offset + fl.slot})")
                older += ["    " + lines[0]] if len(lines) == 1 else \
                    ["{"] + ["    " + x for x in lines] + ["}"]
            gets = [f"int pos = r.Enter(bas, r.U32(slot), slot + 4, {type_number}U, d);", "int stored = r.Stored;"]
            if fields:
                uses_b = any("b[" in x or "(b," in x for x in full)
                gets += (["byte[] b = r.B;"] if uses_b else []) + ["d -= 1;", f"{t} v;", f"if (stored >= {body})", "{",
                         f"    v = new {t}({rt}.Bare.Value);"] + ["    " + x for x in full] + \
                        ["}", "else", "{", f"    v = new {t}();"] + ["    " + x for x in older] + \
                        ["}", "return v;"]
            else:
                gets = [f"r.Enter(bas, r.U32(slot), slot + 4, {type_number}U, d);",
                        f"return new {t}();"]
            self.method(f"public static {t} VGetAt({rt}.Reader r, int slot, int bas, int d)", gets)
            checks = [f"int pos = r.Enter(bas, r.U32(slot), slot + 4, {type_number}U, d);", "int stored = r.Stored;"]
            body_checks: List[str] = []
            for fl, _ in fields:
                lines = self.vcheck(fl)
                if not lines:
                    continue
                cond = [] if fl.offset + fl.slot <= 8 else [f"if (stored >= {fl.offset + fl.slot})"]
                body_checks += cond + (lines if len(lines) == 1 else ["{"] + ["    " + x for x in lines] + ["}"])
            if body_checks:
                uses_b = any("b[" in x or "(b," in x for x in body_checks)
                checks += (["byte[] b = r.B;"] if uses_b else []) + ["d -= 1;"] + body_checks
            else:
                checks = [f"r.Enter(bas, r.U32(slot), slot + 4, {type_number}U, d);"]
            self.method(f"public static void VCheckAt({rt}.Reader r, int slot, int bas, int d)", checks,
                        inline=self.inline_check(s.qualified_name) is not None)
            fast = self.vfast_root(layout)
            if fast:
                self.method(f"public override bool VFast({rt}.Reader r, int d)", fast)
            # final
            fputs = [f"if (v == null) throw new {rt}.FastwireException({rt}.ErrorCode.WrongType, "
                     f'"{s.qualified_name} is null");']
            fgets = [f"if (d < 1) throw new {rt}.FastwireException({rt}.ErrorCode.TooDeep);", "d -= 1;",
                     f"var v = new {t}({rt}.Bare.Value);"]
            fchecks = [f"if (d < 1) throw new {rt}.FastwireException({rt}.ErrorCode.TooDeep);", "d -= 1;"]
            for kind, item in self.final_groups(layout):
                if kind == "run":
                    run = item
                    assert isinstance(run, lower.FinalRun)
                    decl = len(fputs) + 2
                    fputs += ["{", f"    int at = w.Reserve({run.size});", "    byte[] b = w.Data;"]
                    fgets += ["{", f"    r.Need(p, {run.size});"]
                    if any(layout.fields[j].wire.kind in ("uuid", "decimal") for j in run.indexes):
                        fgets.append("    byte[] b = r.B;")
                    fchecks += [f"r.Need(p, {run.size});"]
                    decimals = []
                    for j, off in zip(run.indexes, run.offsets):
                        fl = layout.fields[j]
                        fputs.append("    " + self.write_value(fl.wire, f"at + {off}", attr[j]))
                        fgets.append(f"    {attr[j]} = {self.read_value(fl.wire, f'p + {off}')};")
                        if fl.wire.kind == "decimal":
                            decimals.append(f"{rt}.Decimals.Check(r.B, p + {off});")
                    fchecks += decimals + [f"p += {run.size};"]
                    fputs.append("}")
                    if not any("b[" in x or "(b, " in x for x in fputs[decl + 1:]):
                        del fputs[decl]  # every store of the run through w
                    fgets += [f"    p += {run.size};", "}"]
                else:
                    assert isinstance(item, lower.FieldLayout)
                    fputs += self.fput(item, attr[item.index])
                    fgets += self.fget(item, attr[item.index])
                    fchecks += self.fcheck(item)
            fgets += ["r.Pos = p;", "return v;"]
            fchecks.append("return p;")
            self.method(f"public static void FPutAt({rt}.WriteBuffer w, {t} v)", fputs)
            # The final readers take the position by value and give back where they stopped
            # (FCheckAt returns it, FGetAt leaves it in r.Pos): Mono keeps a `ref int` in memory.
            self.method(f"public static {t} FGetAt({rt}.Reader r, int p, int d)", fgets)
            # Not marked for inlining: the seed account's final verify took 57 ns with its
            # leaves' FCheckAt inlined and 50 ns without (fewer instructions, yet slower:
            # the position, a chain of dependent loads, went through the stack).
            self.method(f"public static int FCheckAt({rt}.Reader r, int p, int d)", fchecks)
            ffast = self.ffast_root(layout)
            if ffast:
                self.method(f"public override int FFast({rt}.Reader r, int d)", ffast)
            p.blank()
            p.print(f"""
                public override void VPut({rt}.WriteBuffer w, int slot, int bas, {t} v) {{ VPutAt(w, slot, bas, v); }}
                public override {t} VGet({rt}.Reader r, int slot, int bas, int d) {{ return VGetAt(r, slot, bas, d); }}
                public override void VCheck({rt}.Reader r, int slot, int bas, int d) {{ VCheckAt(r, slot, bas, d); }}
                public override void FPut({rt}.WriteBuffer w, {t} v) {{ FPutAt(w, v); }}
                public override {t} FGet({rt}.Reader r, ref int p, int d)
                {{ {t} v = FGetAt(r, p, d); p = r.Pos; return v; }}
                public override void FCheck({rt}.Reader r, ref int p, int d) {{ p = FCheckAt(r, p, d); }}
            """)
            # json
            jputs: List[str] = []
            sep = "{"
            for fl, f in fields:
                jputs.append(f"sb.Append({cs_string(sep + cs_json_key(f.name) + ':')});")
                jputs.append(f"{self.json_codec(fl)}.JPut(sb, {attr[fl.index]});")
                sep = ","
            jputs.append("sb.Append('}');" if fields else 'sb.Append("{}");')
            self.method("protected override void JPutFields(global::System.Text.StringBuilder sb, "
                        f"{t} v)", jputs)
            texts = [f'sb.Append("{s.name}(");']
            own = {f.name for f in s.fields}
            first = True
            if s.base is not None:
                texts.append(f"{self.codec_name(s.base.qualified_name)}.Instance.Text(sb, v);")
                first = False
            for fl, f in fields:
                if f.name not in own:
                    continue
                label = ("" if first else ",") + f.name + "="
                first = False
                if f.hidden:
                    texts.append(f"sb.Append({cs_string(label + '***')});")
                    continue
                texts.append(f"sb.Append({cs_string(label)});")
                texts.append(f"{self.json_codec(fl)}.Text(sb, {attr[fl.index]});")
            texts.append("sb.Append(')');")
            self.method("protected override void TextFields(global::System.Text.StringBuilder sb, "
                        f"{t} v)", texts)
            jgets = ["switch (key)", "{"]
            for fl, f in fields:
                jgets.append(f"    case {cs_string(f.name)}: {attr[fl.index]} = "
                             f"{self.json_codec(fl)}.JGet(j, s); return true;")
            jgets += ["    default: return false;", "}"]
            self.method("protected override bool JGetField(string key, global::Fastwire.JsonNode j, "
                        f"global::Fastwire.JsonState s, {t} v)",
                        jgets if fields else ["return false;"])

    def json_codec(self, fl: lower.FieldLayout) -> str:
        if self.inline_kind(fl.wire) == "struct":
            return self.codec(fl.wire)[1]
        return f"F{fl.index}"

    @staticmethod
    def trivial(w: lower.WireType) -> bool:
        if w.kind in ("scalar", "uuid", "timestamp", "enum", "flags"):
            return True
        if w.kind == "array":
            assert w.element is not None
            return _Package.trivial(w.element)
        return False

    INLINE_LINES = 64

    def inline_check(self, name: str, seen: Tuple[str, ...] = ()) -> Optional[int]:
        """The size (lines) of struct `name`'s versioned verify with the checks of the
        structs it enters inlined, when that is small enough to mark its VCheckAt
        AggressiveInlining; None when it is too big or recursive. Mono inlines such a
        method into its parent (saving a call, its register saves and a safepoint per
        struct: the seed account's versioned verify went from 100 to 79 ns); the bound
        keeps every inlined body, nested ones included, under INLINE_LINES lines."""
        if name in seen:
            return None
        size = 0
        for fl in self.model.struct(name).fields:
            size += len(self.vcheck(fl))
            k = self.inline_kind(fl.wire)
            ref = fl.wire.ref if k == "struct" else (
                fl.wire.element.ref if k in ("optstruct", "structs") and fl.wire.element else None)
            if ref is not None:
                sub = self.inline_check(ref, seen + (name,))
                if sub is None:
                    return None
                size += sub
        return size if size <= self.INLINE_LINES else None

    # The fast path of versioned verify (root models). A struct whose checks the generator
    # can spell out (values, decimals, strings, bytes, structs of these, optional structs
    # and vectors/lists of structs, nothing recursive) gets VFast: the whole usual message
    # checked in one straight method with the budget and the message's end in locals
    # (Mono keeps the reader's fields in memory, and Enter/Count/... store to them at
    # every step). Model.Validate calls it first; it returns true only when the general
    # walk (VCheck) accepts the message, and false, with nothing recorded, on anything
    # unusual: a body older (smaller) than this version's, the depth limit below the
    # schema's nesting, any failed check. The general walk then runs from the same state
    # and reports the precise error, so results are identical on every input. It charges
    # what the general walk charges and looks at the budget at the end (charges are never
    # negative, so a total within the budget is within it at every step), and in each
    # loop pass (which keeps the sum bounded). Every load is at a position its checks
    # have proven inside the message, as in the general walk.
    FAST_LINES = 400

    def vfast_ok(self, w: lower.WireType, seen: Tuple[str, ...] = ()) -> bool:
        k = self.inline_kind(w)
        if self.trivial(w) or k in ("value", "text"):
            return True
        ref = w.ref if k == "struct" else (w.element.ref if k in ("optstruct", "structs") and w.element else None)
        if ref is None or ref in seen:
            return False
        leaf = self.model.struct(ref)
        return leaf.depth > 0 and all(self.vfast_ok(fl.wire, seen + (ref,)) for fl in leaf.fields)

    def vfast_root(self, layout: lower.StructLayout) -> List[str]:
        if layout.depth <= 0 or not all(self.vfast_ok(fl.wire) for fl in layout.fields) or \
                all(self.trivial(fl.wire) for fl in layout.fields):
            return []
        self.fast_n = 0
        lines = [f"if (d < {layout.depth}) return false;", "uint size = (uint)r.End;", "long left = r.Budget;"]
        lines += self.vfast_body(layout, "4", "0", "4 + 4")
        lines += ["if (left < 0) return false;", "r.Budget = left;", "return true;"]
        return lines if len(lines) <= self.FAST_LINES else []

    def fast_var(self, stem: str) -> str:
        self.fast_n += 1
        return f"{stem}{self.fast_n}"

    def vfast_body(self, layout: lower.StructLayout, slot: str, bas: str, slot_end: str) -> List[str]:
        """The struct body the offset at `slot` (relative to `bas`) leads to: header, charge, fields."""
        u, pos, n = self.fast_var("u"), self.fast_var("pos"), self.fast_var("n")
        out = [f"uint {u} = (uint)({bas}) + r.U32({slot});",
               f"if ({u} < (uint)({slot_end}) || (ulong){u} + 8 > size) return false;",
               f"int {pos} = (int){u};",
               f"uint {n} = r.U32({pos});",
               f"if ({n} < {layout.body_size} || {n} > size - {u} || r.U32({pos} + 4) != "
               f"{layout.type_number}U) return false;",
               f"left -= {n};"]
        for fl in layout.fields:
            out += self.vfast_field(fl.wire, f"{pos} + {fl.offset}", pos)
        return out

    def vfast_field(self, w: lower.WireType, at: str, pos: str) -> List[str]:
        """The checks of the slot at `at` in the body at `pos` (its offsets' base)."""
        k = self.inline_kind(w)
        if self.trivial(w):
            return []
        if k == "value":  # a decimal: its scale byte
            return [f"if (r.U8({at} + 14) > 28) return false;"]
        if k == "text":
            o, q, n = self.fast_var("o"), self.fast_var("q"), self.fast_var("n")
            return [f"uint {o} = r.U32({at});", f"if ({o} != 0)", "{",
                    f"    uint {q} = (uint){pos} + {o};",
                    f"    if ({q} < (uint)({at} + 4) || (ulong){q} + 4 > size) return false;",
                    f"    uint {n} = r.U32((int){q});",
                    f"    if ({n} > size - {q} - 4) return false;",
                    f"    left -= 4 + (long){n};", "}"]
        assert w.ref is not None or (w.element is not None and w.element.ref is not None)
        if k == "struct":
            assert w.ref is not None
            return self.vfast_body(self.model.struct(w.ref), at, pos, f"{at} + 4")
        assert w.element is not None and w.element.ref is not None
        leaf = self.model.struct(w.element.ref)
        if k == "optstruct":
            q = self.fast_var("q")
            inner = self.vfast_body(leaf, q, q, f"{q} + 4")
            return [f"if (r.U8({at}) != 0)", "{",
                    f"    uint {q}u = (uint){pos} + r.U32({at} + 1);",
                    f"    if ({q}u < (uint)({at} + 5) || (ulong){q}u + 4 > size) return false;",
                    f"    int {q} = (int){q}u;",
                    "    left -= 4;"] + ["    " + x for x in inner] + ["}"]
        # a vector or list of structs: [u32 count][count x 4-byte slots]
        o, q, n, e, i = (self.fast_var(x) for x in ("o", "q", "n", "e", "i"))
        inner = self.vfast_body(leaf, e, pos, f"{e} + 4")
        return [f"uint {o} = r.U32({at});", f"if ({o} != 0)", "{",
                f"    uint {q} = (uint){pos} + {o};",
                f"    if ({q} < (uint)({at} + 4) || (ulong){q} + 4 > size) return false;",
                f"    uint {n} = r.U32((int){q});",
                f"    if ((ulong){n} * 4 > size - {q} - 4) return false;",
                f"    left -= 4 + (long){n} * 4;",
                f"    int {e} = (int){q} + 4;",
                f"    for (uint {i} = 0; {i} < {n}; {i}++, {e} += 4)", "    {"] + \
            ["        " + x for x in inner] + ["        if (left < 0) return false;", "    }", "}"]

    # The fast path of final verify (root models), as VFast for the versioned format:
    # FFast checks the usual message in one method with the position and the end in
    # locals, returns where it stopped, or -1 (nothing recorded) on anything else (the
    # depth limit below the schema's nesting, any failed check, a field it cannot spell
    # out) and FinalModel.Validate runs the general walk from the start.
    def ffast_fields_ok(self, layout: lower.StructLayout, seen: Tuple[str, ...]) -> bool:
        for kind, item in self.final_groups(layout):
            if kind == "run":
                continue
            assert isinstance(item, lower.FieldLayout)
            w = item.wire
            k = self.inline_kind(w)
            if k == "text":
                continue
            ref = w.ref if k == "struct" else (w.element.ref if k in ("optstruct", "structs") and w.element else None)
            if ref is None or ref in seen:
                return False
            if k == "structs" and (w.element is None or w.element.final_min <= 0):
                return False
            leaf = self.model.struct(ref)
            if leaf.depth <= 0 or not self.ffast_fields_ok(leaf, seen + (ref,)):
                return False
        return True

    def ffast_root(self, layout: lower.StructLayout) -> List[str]:
        if layout.depth <= 0 or not self.ffast_fields_ok(layout, (layout.name,)):
            return []
        self.fast_n = 0
        lines = [f"if (d < {layout.depth}) return -1;", "int end = r.End;", "int p = 8;"]
        body = self.ffast_body(layout)
        if not body:  # no fields: nothing to gain
            return []
        lines += body
        lines.append("return p;")
        return lines if len(lines) <= self.FAST_LINES else []

    def ffast_body(self, layout: lower.StructLayout) -> List[str]:
        """The fields of a final struct body at p. Fixed-size runs are not added to p at
        once: `pend` bytes are pending, checked together with what follows them (a run
        and the next string's length in one test) and added before any branch or loop."""
        out: List[str] = []
        pend = 0
        unchecked = False  # pending bytes no test has covered yet

        def at(extra: int = 0) -> str:
            return "p" if pend + extra == 0 else f"p + {pend + extra}"

        def flush() -> None:
            nonlocal pend, unchecked
            if unchecked:
                out.append(f"if (p > end - {pend}) return -1;")
            if pend:
                out.append(f"p += {pend};")
            pend, unchecked = 0, False

        for kind, item in self.final_groups(layout):
            if kind == "run":
                run = item
                assert isinstance(run, lower.FinalRun)
                decimals = [off for j, off in zip(run.indexes, run.offsets)
                            if layout.fields[j].wire.kind == "decimal"]
                if decimals:  # loaded at once: the run's bytes tested first
                    out.append(f"if (p > end - {pend + run.size}) return -1;")
                    out += [f"if (r.U8({at(off + 14)}) > 28) return -1;" for off in decimals]
                unchecked = not decimals
                pend += run.size
                continue
            assert isinstance(item, lower.FieldLayout)
            w = item.wire
            k = self.inline_kind(w)
            if k == "text":
                n = self.fast_var("n")
                out += [f"if (p > end - {pend + 4}) return -1;", f"uint {n} = r.U32({at()});",
                        f"if ({n} > (uint)(end - p - {pend + 4})) return -1;", f"p += {pend + 4} + (int){n};"]
                pend, unchecked = 0, False
                continue
            if k == "struct":
                assert w.ref is not None
                flush()
                out += self.ffast_body(self.model.struct(w.ref))
                continue
            assert w.element is not None and w.element.ref is not None
            inner = ["    " + x for x in self.ffast_body(self.model.struct(w.element.ref))]
            if k == "optstruct":
                out += [f"if (p > end - {pend + 1}) return -1;", f"bool {self.fast_var('has')} = r.U8({at()}) != 0;"]
                has = f"has{self.fast_n}"
                pend, unchecked = pend + 1, False
                flush()
                out += [f"if ({has})", "{"] + inner + ["}"]
                continue
            n, i = self.fast_var("n"), self.fast_var("i")
            out += [f"if (p > end - {pend + 4}) return -1;", f"uint {n} = r.U32({at()});",
                    f"if ({n} > (uint)(end - p - {pend + 4}) / {w.element.final_min}U) return -1;",
                    f"p += {pend + 4};", f"for (uint {i} = 0; {i} < {n}; {i}++)", "{"] + inner + ["}"]
            pend, unchecked = 0, False
        flush()
        return out

    def method(self, signature: str, lines: List[str], inline: bool = False) -> None:
        p = self.p
        p.blank()
        if inline:
            p.print(f"[{INLINE}]")
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
        self.emit_proxy(sends)
        self.emit_client(sends)

    def emit_proxy(self, sends: List[ir.StructType]) -> None:
        """The Proxy: each message verified, then handed on as bytes, not deserialized."""
        p = self.p
        p.blank()
        p.print("""
            /// <summary>
            /// Reassembles package $pkg$'s messages and hands each one, verified but not
            /// deserialized, to the OnProxy overload of its type (the codec says which), e.g.
            /// to forward it. A message that does not verify raises FastwireException.
            /// </summary>
            public class Proxy : global::Fastwire.ReceiverBase
            {
                public Proxy(bool final = false, global::Fastwire.Limits limits = null) : base(final, limits) { }

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
            p.print(f"case {self.model.struct(s.qualified_name).type_number}U: Verify({n}.Instance, "
                    f"buffer, offset, size); OnProxy({n}.Instance, type, buffer, offset, size); "
                    "return true;")
        p.print("default: return false;")
        p.outdent()
        p.print("}")
        p.outdent()
        p.print("}")
        for s in sends:
            p.blank()
            p.print(f"protected virtual void OnProxy({cs_ident(s.name)} codec, uint type, byte[] buffer, "
                    "int offset, int size) { }")
        p.outdent()
        p.print("}")

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
