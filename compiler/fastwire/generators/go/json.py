"""JSON (docs/wire-format.md#json): MarshalJSON, AppendJSON, UnmarshalJSON and FwGetJSON,
from plan.json: written by each value's JSON form, read by its helper."""

from __future__ import annotations

from typing import Dict, Optional, Tuple

from ... import lower
from ..common.literals import c_string
from .literals import emit_default, needs_init
from .names import Scope, field
from .types import (
    COMMA,
    INTEGERS,
    RANGE,
    W,
    allocated,
    appender,
    convert,
    entries,
    gotype,
    insert,
    items,
    nullable,
    says,
    sort_read,
    table,
    unless,
    vkey,
)

API = """
    // MarshalJSON is s as fastwire's JSON (docs/wire-format.md#json).
    func (s *$N$) MarshalJSON() ([]byte, error) {
        return s.AppendJSON(nil), nil
    }

    // AppendJSON appends s as JSON to b.
    func (s *$N$) AppendJSON(b []byte) []byte {
        b = append(b, '{')"""
API_GET = """
        return append(b, '}')
    }

    // UnmarshalJSON reads JSON text into s; missing fields take their defaults.
    func (s *$N$) UnmarshalJSON(data []byte) error {
        return s.UnmarshalJSONLimits(data, &fw.DefaultLimits)
    }

    // UnmarshalJSONLimits is UnmarshalJSON under other limits.
    func (s *$N$) UnmarshalJSONLimits(data []byte, lim *fw.Limits) error {
        p := fw.NewJSONParser(data, lim)
        s.FwGetJSON(p)
        return p.Finish()
    }

    // FwGetJSON reads an object into s (generated code).
    func (s *$N$) FwGetJSON(p *fw.JSONParser) {
        *s = New$N$()
        if !p.Object() {
            return
        }"""
FAIL = "p.Fail(fw.ErrInvalidArgument)"


def emit_json(g: Scope, name: str, layout: lower.StructLayout) -> None:
    p, fields = g.p, layout.plan.json.fields
    p.print(API, N=name)
    p.indent()
    for i, jf in enumerate(fields):
        key = ("," if i else "") + '"' + jf.name + '":'
        p.print(f"b = append(b, {c_string(key)}...)")
        jput(g, layout.fields[jf.index].wire, f"s.{field(layout.fields[jf.index].name)}")
    p.outdent()
    p.print(API_GET, N=name)
    p.indent()
    with p.block("for p.NextKey() {", "}"):
        if not fields:
            p.print("p.Skip()")
        else:
            p.print("switch string(p.Key) {")
            for jf in fields:
                fl = layout.fields[jf.index]
                p.print(f"case {c_string(jf.name)}:")
                p.indent()
                jget(g, fl.wire, f"s.{field(fl.name)}")
                p.outdent()
            p.print("default:\n\tp.Skip()\n}")
    p.outdent()
    p.print("}")
    p.print()


# ---- write, by JSON form ----------------------------------------------------------------

def jput(g: Scope, w: W, v: str) -> None:
    JPUT.get(w.json.form, _value)(g, w, v)


def _pairs(g, w, v):
    """A struct-keyed map: [[key, value], ...]."""
    with entries(g, w, v, before=lambda: g.p.print("b = append(b, '[')")) as (key, val, i):
        g.p.print(COMMA.replace("@", i) + "\nb = append(b, '[')")
        jput(g, w.key, key)
        g.p.print("b = append(b, ',')")
        jput(g, w.element, val)
        g.p.print("b = append(b, ']')")
    g.p.print("b = append(b, ']')")


def _entries(g, w, v):
    """An object keyed by the keys' text (a number's in quotes)."""
    first = []

    def before():
        first.append(g.var("first"))
        g.p.print(f"b = append(b, '{{')\n{first[0]} := true")

    with entries(g, w, v, before=before) as (key, val, _):
        g.p.print(f"if !{first[0]} {{\n    b = append(b, ',')\n}}\n{first[0]} = false")
        form = w.key.json.form
        g.p.print((JSON_KEY[form] if form in JSON_KEY else QUOTED.replace("%", JSON_VALUE[vkey(w.key)]))
                  .replace("@", key))
        g.p.print("b = append(b, ':')")
        jput(g, w.element, val)
    g.p.print("b = append(b, '}')")


def _value(g, w, v):
    g.p.print(JSON_VALUE[vkey(w)].replace("@", v))


JPUT = {"nullable": lambda g, w, v: nullable(g, w, v, jput),
        "array": lambda g, w, v: items(g, w, v, jput, lambda src: "b = append(b, '[')", "]"),
        "pairs": _pairs, "entries": _entries,
        "string": says("v")("b = fw.AppendJSONString(b, {v})"),
        "base64": says("v")("b = fw.AppendJSONBytes(b, {v})"), "object": says("v")("b = {v}.AppendJSON(b)")}
JSON_VALUE = {
    "bool": "b = fw.AppendJSONBool(b, @)", "decimal": "b = fw.AppendJSONDecimal(b, @)",
    "uuid": "b = fw.AppendJSONUUID(b, @)", "timestamp": "b = strconv.AppendUint(b, uint64(@), 10)",
    "float": "b = fw.AppendDouble(b, float64(@))", "double": "b = fw.AppendDouble(b, float64(@))",
    **appender(lambda call: "b = " + call), "wchar": "b = strconv.AppendUint(b, uint64(uint32(@)), 10)"}
# A map key by its key form (else a number: % in quotes).
QUOTED = "b = append(b, '\"')\n%\nb = append(b, '\"')"
JSON_KEY = {"string": "b = fw.AppendJSONString(b, @)", "decimal": "b = fw.AppendJSONDecimal(b, @)",
            "uuid": "b = fw.AppendJSONUUID(b, @)", "float": "b = fw.AppendDoubleKey(b, float64(@))",
            "bool": 'if @ {\n    b = append(b, `"true"`...)\n} else {\n    b = append(b, `"false"`...)\n}'}


# ---- read, by helper --------------------------------------------------------------------

# A value's parser call (a key's is p.Key<call>), and the Go type that needs no conversion.
PARSE: Dict[str, Tuple[str, Optional[str]]] = {
    "decimal": ("Decimal()", "fw.Decimal"), "uuid": ("UUID()", "fw.UUID"), "bool": ("Bool()", "bool"),
    "float": ("Float()", None), "double": ("Double()", None), "string": ("String()", "string"),
    **{s: (f"Int({RANGE[s][0]}, {RANGE[s][1]})" if s.startswith("int") else f"Uint({RANGE[s][1]})", None)
       for s in [*INTEGERS, "timestamp"]}}


def parse(g: Scope, w: W, key: str = "") -> str:
    call, native = PARSE[vkey(w)]
    return convert(gotype(g, w), f"p.{key}{call}", native)


def jget(g: Scope, w: W, dst: str) -> None:
    JGET[w.helper](g, w, dst)


def _get_optional(g, w, dst):
    with unless(g.p, "p.Null()", f"{dst} = nil"):
        jget(g, w.element, allocated(g, w.element, dst))


def _get_array(g, w, dst):
    """Exactly w.length items, each read by a closure over its index."""
    i = g.var("i")
    with g.p.block(f"p.ReadArray({w.length}, func({i} int) {{", "})"):
        jget(g, w.element, f"{dst}[{i}]")


def _get_sequence(g, w, dst):
    """A vector, list or set: each element read in place by a closure (a struct's from its defaults)."""
    e, x = w.element, g.var("e")
    zero = "true" if e.final_size == 0 else "false"
    with g.p.block(f"{dst} = fw.ReadSlice(p, {dst}, {zero}, func({x} *{gotype(g, e)}) {{", "})"):
        if needs_init(e):
            emit_default(g, f"(*{x})", e, None)
        jget(g, e, f"(*{x})")
    sort_read(g, w, dst)


def _get_map(g, w, dst):
    p, key, val = g.p, g.var("k"), g.var("v")
    vt = gotype(g, w.element)
    if w.json.form != "pairs":
        p.print(f"{dst} = fw.ClearMap({dst}, 0)")
        with p.block("if p.Object() {", "}"), p.block("for p.NextKey() {", "}"):
            p.print(f"{key} := {parse(g, w.key, 'Key')}\nvar {val} {vt}")
            jget(g, w.element, val)
            p.print("if p.Err != nil {\n    break\n}")
            insert(g, w, dst, key, val)
        return
    p.print(f"{dst} = {dst}[:0]")
    with p.block("if p.Array() {", "}"), p.block("for p.More() {", "}"):
        p.print(f"if !p.Array() || !p.More() {{\n    {FAIL}\n    break\n}}\nvar {key} {gotype(g, w.key)}\n"
                f"var {val} {vt}")
        jget(g, w.key, key)
        p.print(f"if !p.More() {{\n    {FAIL}\n    break\n}}")
        jget(g, w.element, val)
        p.print(f"if p.More() {{\n    {FAIL}\n}}\nif p.Err != nil {{\n    break\n}}")
        insert(g, w, dst, key, val)
    sort_read(g, w, dst)


JGET = table(lambda g, w, dst: g.p.print(f"{dst} = {parse(g, w)}"), string=says("dst")("p.String(&{dst})"),
             bytes=says("dst")("p.Bytes(&{dst})"), struct=says("dst")("{dst}.FwGetJSON(p)"),
             optional=_get_optional, array=_get_array, sequence=_get_sequence, map=_get_map)
