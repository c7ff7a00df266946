"""A package's enums and classes (fields named as in the schema, defaults from the lowered
model, equality, ordering and hashing by the shared rule), the enum codecs, and one codec
class per struct (`Fbe.Account.Instance`): versioned, final, JSON and printout methods."""

from __future__ import annotations

from typing import List

from ... import ir
from . import final, versioned
from .names import RT, Scope, field_names, ident, string
from .types import enum_base, inlined, int_text, literal, parts, zero

_UNHASHED = ("vector", "list", "set", "map", "hash", "array", "bytes")  # left out of GetHashCode
_KV = "global::System.Collections.Generic.KeyValuePair<decimal, string>"
_SB = "global::System.Text.StringBuilder sb"
_OBSOLETE = "[global::System.Obsolete]"


def emit_enum(sc: Scope, t: ir.EnumType) -> None:
    p = sc.p
    base = enum_base(t.base)[0]
    sc.doc(t.doc)
    if t.kind == "flags":
        p.print("[global::System.Flags]")
    if t.deprecated:
        p.print(_OBSOLETE)
    with p.block("public enum $name$ : $base$\n{", "}", name=ident(t.name), base=base):
        for v in t.values:  # byte, sbyte, short and ushort values as they are
            sc.doc(v.doc)
            p.print("$n$ = $v$,", n=ident(v.name),
                    v=v.value if base in ("byte", "sbyte", "short", "ushort") else int_text(base, v.value))


def emit_enum_codecs(sc: Scope) -> None:
    p = sc.p
    with p.block("/// <summary>The codecs of package $pkg$'s enums and flags.</summary>\n"
                 "public static class FbeEnums\n{", "}", pkg=sc.pkg.name):
        for t in sc.pkg.types:
            if isinstance(t, ir.EnumType):
                et, (base, c) = sc.type_name(t.qualified_name), enum_base(t.base)[:2]
                p.print("""
                    public static readonly $ct$ $n$ = new $ct$($rt$.Codecs.$c$, x => ($et$)x, x => ($b$)x)
                    {
                        IsFlags = $flags$,
                        Names = new $kv$[] { $names$ },
                    };""", ct=f"{RT}.EnumCodec<{et}, {base}>", rt=RT, et=et, b=base,
                        n=ident(t.name), c=c, kv=_KV,
                        flags="true" if t.kind == "flags" else "false",
                        names=", ".join(f"new {_KV}({v.value}m, {string(v.name)})" for v in t.values))


def emit_class(sc: Scope, s: ir.StructType) -> None:
    p = sc.p
    layout = sc.model.struct(s.qualified_name)
    names = field_names(s)
    name = ident(s.name)
    mine = len(s.all_fields) - len(s.fields)  # this struct's own fields start here
    base = f" : {sc.type_name(s.base.qualified_name)}," if s.base else " :"
    ifaces = f"global::System.IEquatable<{name}>"
    if layout.keyed:
        ifaces += f", global::System.IComparable<{name}>, global::System.IComparable"
    sc.doc(s.doc)
    if s.deprecated:
        p.print(_OBSOLETE)
    with p.block("public partial class $name$$base$ $ifaces$\n{", "}", name=name, base=base, ifaces=ifaces):
        inits: List[str] = []
        for fl, f, lit in zip(layout.fields[mine:], s.fields, layout.defaults[mine:]):
            init = zero(sc, fl.wire) if lit is None else literal(sc, fl.wire, lit)
            sc.doc(f.doc)
            if f.deprecated:
                p.print(_OBSOLETE)
            p.value(f"public {parts(sc, fl.wire)[0]} {names[f.name]};")
            if init:
                inits.append(f"{names[f.name]} = {init};")
        sc.method(f"/// <summary>A value with the schema's defaults.</summary>\npublic {name}()"
                  + (" : base()" if s.base else ""), inits)
        p.blank()
        p.print("/// <summary>A value whose every field the caller sets (readers).</summary>")
        p.value(f"public {name}(global::Fastwire.Bare bare){' : base(bare)' if s.base else ''} {{ }}")
        p.blank()
        eq = [names[n] for n in layout.equality]
        cond = " && ".join(f"{RT}.Eq.Equal(this.{n}, o.{n})" for n in eq) or "true"
        p.print("""
            public override bool Equals(object obj) { return Equals(obj as $name$); }

            public bool Equals($name$ o)
            {
                if (ReferenceEquals(o, null)) return false;
                if (ReferenceEquals(o, this)) return true;
                return o.GetType() == GetType() && $cond$;
            }
        """, name=name, cond=cond)
        sc.method("public override int GetHashCode()", ["int h = 17;"] + [
            f"h = h * 31 + {RT}.Eq.Hash(this.{names[n]});" for n in layout.equality
            if layout.field(n).wire.helper not in _UNHASHED] + ["return h;"])
        if layout.keyed:
            p.blank()
            hides = "new " if s.base and sc.model.struct(s.base.qualified_name).keyed else ""
            p.value(f"public {hides}int CompareTo(object obj) {{ return CompareTo(obj as {name}); }}")
            sc.method(f"public int CompareTo({name} o)", ["if (ReferenceEquals(o, null)) return 1;", "int c;"] + [
                f"if ((c = {RT}.Eq.Compare(this.{n}, o.{n})) != 0) return c;" for n in eq] + ["return 0;"])
        c = sc.codec_name(s.qualified_name)
        new = "new " if s.base else ""
        if sc.options.json:
            p.blank()
            p.print("""
                /// <summary>The value as JSON text (docs/wire-format.md#json).</summary>
                public $new$string ToJson() { return $c$.Instance.ToJson(this); }

                /// <summary>A value from JSON text; FastwireException when it is not one.</summary>
                public static $new$$name$ FromJson(string text) { return $c$.Instance.FromJson(text); }

            """, new=new, name=name, c=c)
        p.blank()
        p.print("""
            /// <summary>The printout, as the C++ runtime prints: $name$(field=value,...).</summary>
            public override string ToString() { return $c$.Instance.Print(this); }
        """, name=name, c=c)


def emit_codec(sc: Scope, s: ir.StructType) -> None:
    p = sc.p
    layout = sc.model.struct(s.qualified_name)
    names = field_names(s)
    t = sc.type_name(s.qualified_name)
    name = ident(s.name)
    attr = {fl.index: "v." + names[fl.name] for fl in layout.fields}
    mine = len(s.all_fields) - len(s.fields)
    with p.block("/// <summary>The codec of $q$: its root models, JSON, and its place in other types."
                 "</summary>\npublic sealed class $name$ : global::Fastwire.StructCodec<$t$>\n{", "}",
                 q=s.qualified_name, name=name, t=t):
        p.value(f"public static readonly {name} Instance = new {name}();")
        codecs = {}  # each field's codec for the generic paths (JSON, collections)
        for fl in layout.fields:
            if inlined(fl.wire) == "struct":  # nested structs through their codec's Instance
                codecs[fl.index] = parts(sc, fl.wire)[2]
            else:
                codecs[fl.index] = f"F{fl.index}"
                _, ct, cx = parts(sc, fl.wire)
                p.value(f"static readonly {ct} F{fl.index} = {cx};")
        p.blank()
        p.value(f'{name}() : base("{s.qualified_name}", {layout.type_number}U, '
                f'{layout.plan.versioned.body_size}, {layout.plan.final.min_size}) {{ }}')
        p.blank()
        p.value(f"public override {t} New() {{ return new {t}(); }}")
        versioned.emit(sc, layout, t, attr)
        final.emit(sc, layout, t, attr)
        p.blank()
        p.print("""
            public override void VPut($rt$.WriteBuffer w, int slot, int bas, $t$ v) { VPutAt(w, slot, bas, v); }
            public override $t$ VGet($rt$.Reader r, int slot, int bas, int d) { return VGetAt(r, slot, bas, d); }
            public override void VCheck($rt$.Reader r, int slot, int bas, int d) { VCheckAt(r, slot, bas, d); }
            public override void FPut($rt$.WriteBuffer w, $t$ v) { FPutAt(w, v); }
            public override $t$ FGet($rt$.Reader r, ref int p, int d)
            { $t$ v = FGetAt(r, p, d); p = r.Pos; return v; }
            public override void FCheck($rt$.Reader r, ref int p, int d) { p = FCheckAt(r, p, d); }
        """, rt=RT, t=t)
        # JSON, then the printout, field by field through the codecs (docs/wire-format.md#json)
        jfields = layout.plan.json.fields
        puts = []
        for i, f in enumerate(jfields):
            key = ("," if i else "{") + '"' + f.name + '":'
            puts += [f"sb.Append({string(key)});", f"{codecs[f.index]}.JPut(sb, {attr[f.index]});"]
        sc.method(f"protected override void JPutFields({_SB}, {t} v)",
                  puts + ["sb.Append('}');" if jfields else 'sb.Append("{}");'])
        texts = [f'sb.Append("{s.name}(");']
        if s.base is not None:
            texts.append(f"{sc.codec_name(s.base.qualified_name)}.Instance.Text(sb, v);")
        for i, (fl, fd) in enumerate(zip(layout.fields[mine:], s.fields)):
            label = ("" if i == 0 and s.base is None else ",") + fd.name + "="
            if fd.hidden:
                texts.append(f"sb.Append({string(label + '***')});")
            else:
                texts += [f"sb.Append({string(label)});", f"{codecs[fl.index]}.Text(sb, {attr[fl.index]});"]
        sc.method(f"protected override void TextFields({_SB}, {t} v)", texts + ["sb.Append(')');"])
        gets = [f"    case {string(f.name)}: {attr[f.index]} = {codecs[f.index]}.JGet(j, s); return true;"
                for f in jfields]
        sc.method("protected override bool JGetField(string key, global::Fastwire.JsonNode j, "
                  f"global::Fastwire.JsonState s, {t} v)", ["switch (key)", "{", *gets,
                  "    default: return false;", "}"] if jfields else ["return false;"])
