"""A struct codec's JSON and printout methods (JPutFields, TextFields, JGetField), from the
plan's JSON fields: each value through its field's codec, which writes the field's JSON form
(docs/wire-format.md#json)."""

from __future__ import annotations

from typing import Dict

from ... import ir
from ...lower import StructLayout
from .names import Scope, string
from .types import inlined, parts

SB = "global::System.Text.StringBuilder sb"


def emit(sc: Scope, s: ir.StructType, layout: StructLayout, t: str, attr: Dict[int, str]) -> None:
    wires = {f.index: f.wire for f in layout.fields}

    def field_codec(index: int) -> str:  # nested structs through their codec's Instance
        w = wires[index]
        return parts(sc, w)[2] if inlined(w) == "struct" else f"F{index}"

    jfields = layout.plan.json.fields
    puts = []
    sep = "{"
    for f in jfields:
        key = string(sep + '"' + f.name + '":')
        puts.append(f"sb.Append({key});")
        puts.append(f"{field_codec(f.index)}.JPut(sb, {attr[f.index]});")
        sep = ","
    puts.append("sb.Append('}');" if jfields else 'sb.Append("{}");')
    sc.method(f"protected override void JPutFields({SB}, {t} v)", puts)

    texts = [f'sb.Append("{s.name}(");']
    first = s.base is None
    if s.base is not None:
        texts.append(f"{sc.codec_name(s.base.qualified_name)}.Instance.Text(sb, v);")
    own = {f.name for f in s.fields}
    for fl, field in zip(layout.fields, s.all_fields):
        if field.name not in own:
            continue
        label = ("" if first else ",") + field.name + "="
        first = False
        if field.hidden:
            texts.append(f"sb.Append({string(label + '***')});")
            continue
        texts.append(f"sb.Append({string(label)});")
        texts.append(f"{field_codec(fl.index)}.Text(sb, {attr[fl.index]});")
    texts.append("sb.Append(')');")
    sc.method(f"protected override void TextFields({SB}, {t} v)", texts)

    gets = ["switch (key)", "{"]
    for f in jfields:
        gets.append(f"    case {string(f.name)}: {attr[f.index]} = {field_codec(f.index)}.JGet(j, s); "
                    "return true;")
    gets += ["    default: return false;", "}"]
    sc.method("protected override bool JGetField(string key, global::Fastwire.JsonNode j, "
              f"global::Fastwire.JsonState s, {t} v)", gets if jfields else ["return false;"])
