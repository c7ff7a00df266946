"""A struct's JSON in Kotlin: jfields writes each field of the JSON plan under its key (the
values Kotlin holds in primitives by their helper, the rest by the field's codec), jfield
reads one by its key."""

from __future__ import annotations

from ... import ir, lower
from ..printer import Printer
from .names import fcodec, field, kstring
from .types import codec

# A primitive written as its JSON form, by helper.
PUT = {
    "bool": "w.bool({v})", "byte": "w.integer({v}.toLong())", "uint8": "w.integer({v}.toLong())",
    "int8": "w.integer({v}.toLong())", "char": "w.integer({v}.code.toLong() and 0xFF)",
    "int16": "w.integer({v}.toLong())", "uint16": "w.integer({v}.toLong())",
    "int32": "w.integer({v}.toLong())", "uint32": "w.integer({v}.toLong())",
    "wchar": "w.integer({v}.toLong())", "int64": "w.integer({v})",
    "uint64": "w.unsigned({v}.toLong())", "timestamp": "w.unsigned({v})",
    "float": "w.number({v}.toDouble())", "double": "w.number({v})",
}


def json(p: Printer, schema: ir.Schema, pkg: ir.Package, s: ir.StructType, layout: lower.StructLayout) -> None:
    def field_codec(f: lower.FieldLayout) -> str:
        return codec(schema, pkg, f.wire) if f.wire.helper == "struct" else fcodec(s, f)
    with p.block(f"override fun jfields(w: dev.fastwire.JsonWriter, v: {s.name}) {{", "}"):
        for i, jf in enumerate(layout.plan.json.fields):
            f = layout.fields[jf.index]
            key = ("," if i else "") + '"' + jf.name + '":'
            p.value(f"w.key({kstring(key)})")
            v = "v." + field(f)
            p.value(PUT[f.wire.helper].format(v=v) if f.wire.helper in PUT else f"{field_codec(f)}.jput(w, {v})")
    p.value("")
    with p.block(f"override fun jfield(r: dev.fastwire.JsonReader, v: {s.name}): Boolean {{", "}"):
        with p.block("when (r.key) {", "}"):
            for jf in layout.plan.json.fields:
                f = layout.fields[jf.index]
                p.value(f"{kstring(jf.name)} -> v.{field(f)} = {field_codec(f)}.jget(r)")
            p.value("else -> return false")
        p.value("return true")
