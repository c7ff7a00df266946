"""The codec plan (fastwire/plan.py) and the layouts it names (fastwire/layouts.py).

The decisive test reads the reference's golden vectors with nothing but IR JSON version
3's plan steps and `layouts` table: a reader that dispatches on step ops and helper names
and takes every width and position from the document, as a plugin would.
"""

from __future__ import annotations

import json
import os
import struct

import pytest
from test_lower import compiled, expected, vector

from fastwire import ir_json, layouts, lower, plan

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LETTERS = {"bool": "?", "byte": "B", "char": "B", "wchar": "I", "int8": "b", "uint8": "B",
           "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q",
           "uint64": "Q", "float": "f", "double": "d"}


@pytest.fixture(scope="module")
def everything():
    return compiled("schemas/everything.fbe")


@pytest.fixture(scope="module")
def document(everything):
    return json.loads(ir_json.to_json(everything))


class PlanReader:
    """Both binary formats, read by steps and helpers from IR JSON alone."""

    def __init__(self, doc: dict):
        assert doc["version"] == 3
        self.lay = doc["layouts"]
        self.structs = {f"{p['name']}.{t['name']}": t for p in doc["packages"]
                        for t in p["types"] if t["kind"] in ("struct", "message")}
        self.u32 = "<I"
        assert self.lay["offset"] == struct.calcsize(self.u32)

    def wires(self, name: str) -> dict:
        return {f["name"]: f["wire"] for f in self.structs[name]["layout"]["fields"]}

    def value(self, helper: str, w: dict, buf: bytes, at: int):
        if helper in ("enum", "flags"):
            helper = w["scalar"]
        if helper == "timestamp":
            helper = self.lay["timestamp"]["scalar"]
        if helper == "uuid":
            return buf[at:at + self.lay["uuid"]["size"]].hex()
        if helper == "decimal":
            d = self.lay["decimal"]
            n = int.from_bytes(buf[at:at + d["integer_size"]], "little")
            sign = -1 if buf[at + d["sign_at"]] & d["sign_mask"] else 1
            return sign * n, buf[at + d["scale_at"]]
        return struct.unpack_from("<" + LETTERS[helper], buf, at)[0]

    # versioned
    def vslot(self, w: dict, buf: bytes, at: int, base: int):
        h = _helper(w)
        if w["final_size"] is not None and h not in ("struct", "array"):
            return self.value(h, w, buf, at)
        if h == "optional":
            o = self.lay["optional"]
            if not buf[at + o["flag_at"]]:
                return None
            block = base + struct.unpack_from(self.u32, buf, at + o["offset_at"])[0]
            return self.vslot(w["element"], buf, block, block)
        if h == "array":
            e = w["element"]
            return [self.vslot(e, buf, at + i * e["slot"], base) for i in range(w["length"])]
        off = base + struct.unpack_from(self.u32, buf, at)[0]
        if h in ("string", "bytes"):
            n = struct.unpack_from(self.u32, buf, off)[0]
            start = off + self.lay["block"]["length_size"]
            data = buf[start:start + n]
            return data.decode() if h == "string" else data
        if h == "struct":
            return self.vstruct(w["ref"], buf, off)
        n = struct.unpack_from(self.u32, buf, off)[0]
        e = w["element"]
        first = off + self.lay["collection"]["count_size"]
        return [self.vslot(e, buf, first + i * e["slot"], base) for i in range(n)]

    def vstruct(self, name: str, buf: bytes, body: int) -> dict:
        t = self.structs[name]
        p = t["layout"]["plan"]["versioned"]
        s = self.lay["struct"]
        assert struct.unpack_from(self.u32, buf, body + s["size_at"])[0] == p["body_size"]
        assert struct.unpack_from(self.u32, buf, body + s["type_at"])[0] == t["type_number"]
        wires, out = self.wires(name), {}
        for step in p["steps"]:
            for f in step["fields"]:
                w = wires[f["name"]]
                if step["op"] == "values":
                    out[f["name"]] = self.value(f["helper"], w, buf, body + f["at"])
                else:
                    out[f["name"]] = self.vslot(w, buf, body + step["at"], body)
        return out

    def versioned(self, name: str, buf: bytes) -> dict:
        r = self.lay["root"]
        assert struct.unpack_from(self.u32, buf, r["size_at"])[0] == len(buf)
        return self.vstruct(name, buf, struct.unpack_from(self.u32, buf, r["body_offset_at"])[0])

    # final
    def fvalue(self, w: dict, buf: bytes, at: int):
        h = _helper(w)
        if w["final_size"] is not None and h not in ("struct", "array"):
            return self.value(h, w, buf, at), at + w["final_size"]
        if h in ("string", "bytes"):
            n = struct.unpack_from(self.u32, buf, at)[0]
            at += self.lay["block"]["length_size"]
            data = buf[at:at + n]
            return (data.decode() if h == "string" else data), at + n
        if h == "struct":
            return self.ffields(w["ref"], buf, at)
        if h == "optional":
            if not buf[at]:
                return None, at + self.lay["optional"]["flag_size"]
            return self.fvalue(w["element"], buf, at + self.lay["optional"]["flag_size"])
        if h == "array":
            n = w["length"]
        else:
            n = struct.unpack_from(self.u32, buf, at)[0]
            at += self.lay["collection"]["count_size"]
        out = []
        for _ in range(n):
            v, at = self.fvalue(w["element"], buf, at)
            out.append(v)
        return out, at

    def ffields(self, name: str, buf: bytes, at: int):
        p = self.structs[name]["layout"]["plan"]["final"]
        wires, start, out = self.wires(name), at, {}
        for step in p["steps"]:
            if step["at"] is not None:
                assert at - start == step["at"]
            if step["op"] == "values":
                for f in step["fields"]:
                    out[f["name"]] = self.value(f["helper"], wires[f["name"]], buf, at + f["at"])
                at += step["size"]
                continue
            (f,) = step["fields"]
            out[f["name"]], at = self.fvalue(wires[f["name"]], buf, at)
        assert at - start >= p["min_size"]
        return out, at

    def final(self, name: str, buf: bytes) -> dict:
        r = self.lay["root"]
        assert struct.unpack_from(self.u32, buf, r["size_at"])[0] == len(buf)
        assert struct.unpack_from(self.u32, buf, r["type_at"])[0] == \
            self.structs[name]["type_number"]
        value, end = self.ffields(name, buf, r["header_size"])
        assert end == len(buf)
        return value


def _helper(w: dict) -> str:
    if w["kind"] == "scalar":
        return w["scalar"]
    return w.get("collection") if w["kind"] in ("sequence", "map") else w["kind"]


@pytest.mark.parametrize("name,type_name", [("account", "proto.Account"),
                                            ("order", "proto.Order"),
                                            ("balance", "proto.Balance")])
def test_golden_vectors_read_by_the_plan_alone(document, name, type_name):
    reader = PlanReader(document)
    want = expected(f"{name}.json")
    assert reader.versioned(type_name, vector(f"{name}.fbe.hex")) == want
    assert reader.final(type_name, vector(f"{name}.final.hex")) == want


def test_account_plan_steps():
    account = lower.lower(compiled("schemas/proto.fbe")).struct("proto.Account").plan

    def rows(steps):
        return [(s.op, s.at, s.size, [(f.name, f.at, f.helper) for f in s.fields])
                for s in steps]

    assert account.versioned.body_size == 30
    assert rows(account.versioned.steps) == [
        ("values", 8, 4, [("uid", 8, "int32")]),
        ("string", 12, 4, [("name", 12, "string")]),
        ("values", 16, 1, [("state", 16, "flags")]),
        ("struct", 17, 4, [("wallet", 17, "struct")]),
        ("optional", 21, 5, [("asset", 21, "optional")]),
        ("vector", 26, 4, [("orders", 26, "vector")])]
    assert rows(account.final.steps) == [
        ("values", 0, 4, [("uid", 0, "int32")]),
        ("string", 4, None, [("name", None, "string")]),
        ("values", None, 1, [("state", 0, "flags")]),
        ("struct", None, None, [("wallet", None, "struct")]),
        ("optional", None, None, [("asset", None, "optional")]),
        ("vector", None, None, [("orders", None, "vector")])]
    assert [(f.name, f.form) for f in account.json.fields] == [
        ("uid", plan.JsonForm("integer")), ("name", plan.JsonForm("string")),
        ("state", plan.JsonForm("integer")), ("wallet", plan.JsonForm("object")),
        ("asset", plan.JsonForm("nullable", plan.JsonForm("object"))),
        ("orders", plan.JsonForm("array", plan.JsonForm("object")))]


def test_order_final_runs_are_one_values_step():
    order = lower.lower(compiled("schemas/proto.fbe")).struct("proto.Order")
    steps = order.plan.final.steps
    assert [(s.op, s.at, s.size, [f.at for f in s.fields]) for s in steps] == [
        ("values", 0, 4, [0]), ("string", 4, None, [None]), ("values", None, 18, [0, 1, 2, 10])]


def test_every_plan_covers_every_field_once_in_order(everything):
    model = lower.lower(everything)
    for layout in model.structs.values():
        p = layout.plan
        for steps in (p.versioned.steps, p.final.steps):
            assert [f.index for s in steps for f in s.fields] == list(range(len(layout.fields)))
            for s in steps:
                assert s.op == "values" or len(s.fields) == 1
                assert s.op in plan.FIELD_HELPERS or s.op == "values"
                for f in s.fields:
                    assert f.helper in plan.HELPERS
                    assert (f.helper in plan.VALUE_HELPERS) == (s.op == "values")
        # versioned: the steps tile the body after its header
        at = layouts.STRUCT.header_size
        for s in p.versioned.steps:
            assert s.at == at
            at += s.size or 0
        assert at == p.versioned.body_size == layout.body_size
        # final: the values steps are the final-format runs
        runs = [s for s in p.final.steps if s.op == "values"]
        assert [(s.fields[0].index, len(s.fields), s.size, tuple(f.at for f in s.fields))
                for s in runs] == [(r.first, r.count, r.size, r.offsets)
                                   for r in layout.final_runs]
        assert [f.name for f in p.json.fields] == [f.name for f in layout.fields]


def test_json_forms_of_map_keys(everything):
    c = lower.lower(everything).struct("everything.Collections")
    forms = {f.name: f.form for f in c.plan.json.fields}
    assert forms["f_hash_struct_key"].form == "pairs"
    assert forms["f_hash_struct_key"].key == plan.JsonForm("object")
    entries = [f for f in forms.values() if f.form == "entries"]
    assert entries and all(f.key is not None and f.key.form in plan.JSON_KEY_FORMS
                           for f in entries)


def test_layouts_are_the_wire_format_facts():
    """docs/wire-format.md: decimal scale in bits 16-23 of the last word, sign in bit 31,
    scale 0..28; an optional's slot [u8 flag][u32 offset]; bodies [u32 size][u32 type]."""
    d = layouts.DECIMAL
    assert (d.size, d.integer_size, d.scale_at, d.sign_at, d.sign_mask, d.max_scale) == \
        (16, 12, 12 + 2, 12 + 3, 1 << 7, 28)
    o = layouts.OPTIONAL
    assert (o.flag_at, o.flag_size, o.offset_at, o.slot) == (0, 1, 1, 1 + layouts.OFFSET)
    assert (layouts.STRUCT.header_size, layouts.ROOT.header_size) == (8, 8)
    assert layouts.SCALAR_WIDTHS["wchar"] == 4 and layouts.TIMESTAMP.size == 8
    assert set(layouts.SCALAR_WIDTHS) == set(plan.SCALARS)
    doc = layouts.to_dict()
    assert doc["decimal"]["max_scale"] == 28 and doc["scalars"]["double"] == 8
