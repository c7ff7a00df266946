"""A struct's Java class: public fields, a constructor setting the schema's defaults,
equals/hashCode (and compareTo with [key] fields) by the shared rule, toString as the C++
runtime prints, the fields' codecs, and its Codec (codec.py)."""

from __future__ import annotations

from typing import Dict, Optional

from ... import ir, lower, plan
from ..common.docs import line_comments
from ..jvm import names
from ..jvm.codec import codec_class
from ..jvm.syntax import block
from ..printer import Printer
from . import literals
from .names import fcodec, field, jstring
from .syntax import JavaSyntax
from .types import codec as field_codec
from .types import jtype

_EQUAL = {"==": "{a} == {b}", "objects": "java.util.Objects.equals({a}, {b})",
          "codec": "{fc}.equal({a}, {b})"}
# How a field is compared for equality, hashed and ordered, by helper (else by its codec).
EQUAL = {**{h: "==" for h in (*plan.SCALARS, "timestamp")},
         **{h: "objects" for h in ("enum", "flags", "string", "uuid")}}
COMPARE = {"byte": "Integer.compare({a} & 0xFF, {b} & 0xFF)", "wchar": "Integer.compareUnsigned({a}, {b})",
           "uint64": "Long.compareUnsigned({a}, {b})", "timestamp": "Long.compareUnsigned({a}, {b})",
           "decimal": None, "uuid": None}


def comparable_root(schema: ir.Schema, s: ir.StructType) -> Optional[ir.StructType]:
    """The base-most struct of s's chain that has [key] fields (it implements Comparable)."""
    chain = [s]
    while chain[-1].base is not None:
        b = schema.lookup(chain[-1].base)
        assert isinstance(b, ir.StructType)
        chain.append(b)
    return next((t for t in reversed(chain) if t.key_fields), None)


def doc(p: Printer, text: Optional[str]) -> None:
    for line in line_comments(text, "//", language="java"):
        p.value(line)


def struct(p: Printer, model: lower.WireModel, s: ir.StructType) -> None:
    schema = model.schema
    layout = model.struct(s.qualified_name)
    n = s.name
    base = schema.lookup(s.base) if s.base is not None else None
    assert base is None or isinstance(base, ir.StructType)
    own = layout.fields[len(base.all_fields) if base is not None else 0:]
    root = comparable_root(schema, s)
    doc(p, s.doc)
    ext = f" extends {names.qualified(schema, base.qualified_name)}" if base is not None else ""
    impl = f" implements Comparable<{names.qualified(schema, s.qualified_name)}>" if root is s else ""
    p.value(f"public class {n}{ext}{impl} {{")
    p.indent()
    p.value("public static final Codec CODEC = new Codec();")
    p.value(f"public static final int TYPE = {layout.type_number};")
    p.value("")
    irf = {f.name: f for f in s.all_fields}
    for f in own:
        doc(p, irf[f.name].doc)
        if irf[f.name].deprecated:
            p.value("@Deprecated")
        p.value(f"public {jtype(schema, f.wire)} {field(f)};")
    p.value("")
    p.value("/** A value with the schema's defaults. */")
    with block(p, f"public {n}()"):
        for f in own:
            p.value(f"{field(f)} = {literals.default(schema, f.wire, layout.defaults[f.index], fcodec(f))};")
    p.value("")
    equality(p, schema, s, layout, root)
    to_string(p, s, layout)
    p.value("/** The fields' codecs, made on first use (after every struct's CODEC exists). */")
    with block(p, "static final class Fields"):
        for f in layout.fields:
            p.value(f"static final dev.fastwire.Codec<{jtype(schema, f.wire, True)}> F_{f.name} = "
                    f"{field_codec(schema, f.wire)};")
    p.value("")
    codec_class(p, model, s, layout, JavaSyntax(schema))
    p.outdent()
    p.value("}")


def compare(schema: ir.Schema, f: lower.FieldLayout, a: str, b: str) -> str:
    h = f.wire.helper
    template = COMPARE.get(h, "{t}.compare({a}, {b})" if h in plan.SCALARS else None)
    return (template or "{fc}.comparator().compare({a}, {b})").format(
        a=a, b=b, fc=fcodec(f), t=jtype(schema, f.wire, True))


def equality(p: Printer, schema: ir.Schema, s: ir.StructType, layout: lower.StructLayout,
             root: Optional[ir.StructType]) -> None:
    n = s.name
    eq = [layout.field(name) for name in layout.equality]
    p.value("/** Equal by the [key] fields (every field when there is none), as in every language. */")
    p.value("@Override")
    with block(p, "public boolean equals(Object o)"):
        p.value("if (this == o) return true;")
        p.value("if (o == null || o.getClass() != getClass()) return false;")
        if eq:
            p.value(f"{n} other = ({n}) o;")
        conds = [_EQUAL[EQUAL.get(f.wire.helper, "codec")].format(a="this." + field(f), b="other." + field(f),
                                                         fc=fcodec(f))
                 for f in eq]
        p.value("return " + (" && ".join(conds) if conds else "true") + ";")
    p.value("")
    p.value("@Override")
    with block(p, "public int hashCode()"):
        p.value("int h = 17;")
        for f in eq:
            how = f"{jtype(schema, f.wire, True)}.hashCode(this.{field(f)})" \
                if EQUAL.get(f.wire.helper) == "==" else f"{fcodec(f)}.hash(this.{field(f)})"
            p.value(f"h = 31 * h + {how};")
        p.value("return h;")
    p.value("")
    if root is None:
        return
    rt = names.qualified(schema, root.qualified_name)
    p.value("/** Ordered by the [key] fields, in declaration order. */")
    p.value("@Override")
    with block(p, f"public int compareTo({rt} o)"):
        if root is not s:
            p.value(f"if (!(o instanceof {n})) return {rt}.CODEC.comparator().compare(this, o);")
        p.value(f"{n} other = ({n}) o;")
        p.value("int c;")
        for f in eq:
            p.value(f"if ((c = {compare(schema, f, 'this.' + field(f), 'other.' + field(f))}) != 0) return c;")
        p.value("return 0;")
    p.value("")


def to_string(p: Printer, s: ir.StructType, layout: lower.StructLayout) -> None:
    hidden: Dict[str, bool] = {f.name: f.hidden for f in s.all_fields}
    p.value("@Override")
    with block(p, "public String toString()"):
        p.value(f"StringBuilder sb = new StringBuilder({jstring(s.name + '(')});")
        for i, f in enumerate(layout.fields):
            sep = "," if i else ""
            if hidden[f.name]:
                p.value(f"sb.append({jstring(sep + f.name + '=***')});")
            else:
                p.value(f"sb.append({jstring(sep + f.name + '=')}).append({fcodec(f)}.text({field(f)}));")
        p.value("return sb.append(')').toString();")
    p.value("")
