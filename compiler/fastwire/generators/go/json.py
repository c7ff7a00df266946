"""JSON (docs/wire-format.md#json): MarshalJSON, AppendJSON, UnmarshalJSON and FwGetJSON,
from plan.json: written by each value's JSON form, read by its helper."""

from __future__ import annotations

from typing import Callable, Dict, Optional, Tuple

from ... import lower
from ..common.literals import c_string
from .literals import emit_default, needs_init
from .names import Scope, exported
from .types import INTEGERS, RANGE, compare_fn, convert, deref, entries, gotype, insert, orelse, sorted_set, table, vkey

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
        jput(g, layout.fields[jf.index].wire, f"s.{exported(layout.fields[jf.index].name)}")
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
                jget(g, fl.wire, f"s.{exported(fl.name)}")
                p.outdent()
            p.print("default:\n\tp.Skip()\n}")
    p.outdent()
    p.print("}")
    p.print()


# ---- write, by JSON form ----------------------------------------------------------------

def jput(g: Scope, w: lower.WireType, v: str) -> None:
    form = w.json.form
    if form in JPUT:
        JPUT[form](g, w, v)
    else:
        g.p.print("b = " + JSON_VALUE[vkey(w)].format(v=v))


def _nullable(g: Scope, w: lower.WireType, v: str) -> None:
    assert w.element is not None
    with g.p.block(f"if {v} == nil {{", "}"):
        g.p.print('b = append(b, "null"...)')
        orelse(g.p)
        jput(g, w.element, deref(w.element, v))


def _array(g: Scope, w: lower.WireType, v: str) -> None:
    assert w.element is not None
    src = sorted_set(g, w, v)
    i = g.var("i")
    g.p.print("b = append(b, '[')")
    with g.p.block(f"for {i} := range {src} {{", "}"):
        g.p.print(f"if {i} > 0 {{\n    b = append(b, ',')\n}}")
        jput(g, w.element, f"{src}[{i}]")
    g.p.print("b = append(b, ']')")


def _pairs(g: Scope, w: lower.WireType, v: str) -> None:
    """A struct-keyed map: [[key, value], ...]."""
    assert w.element is not None and w.key is not None
    p = g.p
    with entries(g, w, v, before=lambda: p.print("b = append(b, '[')")) as (key, val, i):
        p.print(f"if {i} > 0 {{\n    b = append(b, ',')\n}}\nb = append(b, '[')")
        jput(g, w.key, key)
        p.print("b = append(b, ',')")
        jput(g, w.element, val)
        p.print("b = append(b, ']')")
    p.print("b = append(b, ']')")


def _entries(g: Scope, w: lower.WireType, v: str) -> None:
    """An object keyed by the keys' text."""
    assert w.element is not None and w.key is not None
    p, first = g.p, [""]

    def before() -> None:
        first[0] = g.var("first")
        p.print(f"b = append(b, '{{')\n{first[0]} := true")

    with entries(g, w, v, before=before) as (key, val, _):
        p.print(f"if !{first[0]} {{\n    b = append(b, ',')\n}}\n{first[0]} = false")
        JSON_KEY.get(w.key.json.form, _quoted_key)(g, w.key, key)
        p.print("b = append(b, ':')")
        jput(g, w.element, val)
    p.print("b = append(b, '}')")


def _quoted_key(g: Scope, w: lower.WireType, v: str) -> None:
    g.p.print("b = append(b, '\"')")
    jput(g, w, v)
    g.p.print("b = append(b, '\"')")


def _key(call: str) -> Callable:
    return lambda g, w, v: g.p.print(call.format(v=v))


JPUT = {"nullable": _nullable, "array": _array, "pairs": _pairs, "entries": _entries,
        "string": _key("b = fw.AppendJSONString(b, {v})"),
        "base64": _key("b = fw.AppendJSONBytes(b, {v})"),
        "object": _key("b = {v}.AppendJSON(b)")}
JSON_VALUE = {
    "bool": "fw.AppendJSONBool(b, {v})", "decimal": "fw.AppendJSONDecimal(b, {v})",
    "uuid": "fw.AppendJSONUUID(b, {v})", "timestamp": "strconv.AppendUint(b, uint64({v}), 10)",
    "float": "fw.AppendDouble(b, float64({v}))", "double": "fw.AppendDouble(b, float64({v}))",
    **{s: "strconv.AppendInt(b, int64({v}), 10)" if s.startswith("int")
       else "strconv.AppendUint(b, uint64({v}), 10)" for s in INTEGERS},
    "wchar": "strconv.AppendUint(b, uint64(uint32({v})), 10)"}
# A map key, by its key form (integers: their number in quotes).
JSON_KEY = {
    "string": _key("b = fw.AppendJSONString(b, {v})"),
    "decimal": _key("b = fw.AppendJSONDecimal(b, {v})"),
    "uuid": _key("b = fw.AppendJSONUUID(b, {v})"),
    "float": _key("b = fw.AppendDoubleKey(b, float64({v}))"),
    "bool": _key('if {v} {{\n    b = append(b, `"true"`...)\n}} else {{\n'
                 '    b = append(b, `"false"`...)\n}}')}


# ---- read, by helper --------------------------------------------------------------------

# A value's parser call (a key's is p.Key<call>), and the Go type that needs no conversion.
PARSE: Dict[str, Tuple[str, Optional[str]]] = {
    "decimal": ("Decimal()", "fw.Decimal"), "uuid": ("UUID()", "fw.UUID"),
    "bool": ("Bool()", "bool"), "float": ("Float()", None), "double": ("Double()", None),
    "string": ("String()", "string"),
    **{s: (f"Int({RANGE[s][0]}, {RANGE[s][1]})" if s.startswith("int")
           else f"Uint({RANGE[s][1]})", None) for s in [*INTEGERS, "timestamp"]}}


def parse(g: Scope, w: lower.WireType, key: str = "") -> str:
    call, native = PARSE[vkey(w)]
    return convert(gotype(g, w), f"p.{key}{call}", native)


def jget(g: Scope, w: lower.WireType, dst: str) -> None:
    JGET[w.helper](g, w, dst)


def _get_optional(g: Scope, w: lower.WireType, dst: str) -> None:
    e = w.element
    assert e is not None
    with g.p.block("if p.Null() {", "}"):
        g.p.print(f"{dst} = nil")
        orelse(g.p)
        g.p.print(f"if {dst} == nil {{\n    {dst} = new({gotype(g, e)})\n}}")
        jget(g, e, deref(e, dst))


def _get_array(g: Scope, w: lower.WireType, dst: str) -> None:
    assert w.element is not None
    p, i = g.p, g.var("i")
    with p.block("if p.Array() {", "}"):
        p.print(f"{i} := 0")
        with p.block("for p.More() {", "}"):
            p.print(f"if {i} == {w.length} {{\n    {FAIL}\n    break\n}}")
            jget(g, w.element, f"{dst}[{i}]")
            p.print(f"{i}++")
        p.print(f"if {i} != {w.length} {{\n    {FAIL}\n}}")


def _get_sequence(g: Scope, w: lower.WireType, dst: str) -> None:
    e = w.element
    assert e is not None
    p, x = g.p, g.var("e")
    p.print(f"{dst} = {dst}[:0]")
    with p.block("if p.Array() {", "}"):
        with p.block("for p.More() {", "}"):
            p.print(f"var {x} {gotype(g, e)}")
            if needs_init(e):
                emit_default(g, x, e, None)
            jget(g, e, x)
            if e.final_size == 0:
                p.print("p.ChargeZero()")
            p.print(f"if p.Err != nil {{\n    break\n}}\n{dst} = append({dst}, {x})")
    if w.collection == "set":
        p.print(f"{dst} = fw.SortSet({dst}, {compare_fn(g, e)})")


def _get_map(g: Scope, w: lower.WireType, dst: str) -> None:
    assert w.element is not None and w.key is not None
    p = g.p
    key, val = g.var("k"), g.var("v")
    vt = gotype(g, w.element)
    if w.json.form != "pairs":
        p.print(f"{dst} = fw.ClearMap({dst}, 0)")
        with p.block("if p.Object() {", "}"), p.block("for p.NextKey() {", "}"):
            p.print(f"{key} := {parse(g, w.key, 'Key')}\nvar {val} {vt}")
            jget(g, w.element, val)
            p.print("if p.Err != nil {\n    break\n}")
            insert(g, w, dst, key, val)
        return
    kt = gotype(g, w.key)
    p.print(f"{dst} = {dst}[:0]")
    with p.block("if p.Array() {", "}"), p.block("for p.More() {", "}"):
        p.print(f"if !p.Array() || !p.More() {{\n    {FAIL}\n    break\n}}\n"
                f"var {key} {kt}\nvar {val} {vt}")
        jget(g, w.key, key)
        p.print(f"if !p.More() {{\n    {FAIL}\n    break\n}}")
        jget(g, w.element, val)
        p.print(f"if p.More() {{\n    {FAIL}\n}}\nif p.Err != nil {{\n    break\n}}")
        insert(g, w, dst, key, val)
    p.print(f"{dst} = fw.SortPairs({dst}, {compare_fn(g, w.key)})")


JGET = table(lambda g, w, dst: g.p.print(f"{dst} = {parse(g, w)}"),
             string=lambda g, w, dst: g.p.print(f"p.String(&{dst})"),
             bytes=lambda g, w, dst: g.p.print(f"p.Bytes(&{dst})"),
             struct=lambda g, w, dst: g.p.print(f"{dst}.FwGetJSON(p)"),
             optional=_get_optional, array=_get_array, sequence=_get_sequence, map=_get_map)
