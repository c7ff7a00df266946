"""A struct's JSON in Java: jfields writes each field of the JSON plan under its key (the
values Java holds in primitives by their helper, the rest by the field's codec), jfield
reads one by its key."""

from __future__ import annotations

from ... import ir, lower
from ..printer import Printer
from .names import fcodec, field, jstring
from .types import codec

# A primitive written as its JSON form, by helper (unsigned ones from their bits).
PUT = {"bool": "w.bool({v});", "float": "w.number({v});", "double": "w.number({v});",
       "byte": "w.integer({v} & 0xFF);", "char": "w.integer({v} & 0xFF);", "uint8": "w.integer({v} & 0xFF);",
       "uint16": "w.integer({v} & 0xFFFF);", "wchar": "w.integer({v} & 0xFFFFFFFFL);",
       "uint32": "w.integer({v} & 0xFFFFFFFFL);", "uint64": "w.unsigned({v});",
       "timestamp": "w.unsigned({v});", "int8": "w.integer({v});", "int16": "w.integer({v});",
       "int32": "w.integer({v});", "int64": "w.integer({v});"}


def field_codec(schema: ir.Schema, f: lower.FieldLayout) -> str:
    """A field's codec (a struct field: its type's CODEC)."""
    return codec(schema, f.wire) if f.wire.helper == "struct" else fcodec(f)


def json(p: Printer, schema: ir.Schema, n: str, layout: lower.StructLayout) -> None:
    p.value("@Override")
    with p.block(f"protected void jfields(dev.fastwire.JsonWriter w, {n} v) {{", "}"):
        for i, jf in enumerate(layout.plan.json.fields):
            f = layout.fields[jf.index]
            key = ("," if i else "") + '"' + jf.name + '":'
            p.value(f"w.key({jstring(key)});")
            v = "v." + field(f)
            p.value(PUT[f.wire.helper].format(v=v) if f.wire.helper in PUT
                    else f"{field_codec(schema, f)}.jput(w, {v});")
    p.value("")
    p.value("@Override")
    with p.block(f"protected boolean jfield(dev.fastwire.JsonReader r, {n} v) {{", "}"):
        with p.block("switch (r.key) {", "}"):
            for jf in layout.plan.json.fields:
                f = layout.fields[jf.index]
                p.value(f"case {jstring(jf.name)}: v.{field(f)} = {field_codec(schema, f)}.jget(r); return true;")
            p.value("default: return false;")
