"""The lowered wire model (fastwire/lower.py) and IR JSON version 2 (docs/ir.md).

The decisive test reads every golden vector of the FBE reference with nothing but the IR
JSON: a generic reader of both binary formats that takes every offset, slot size and
wire kind from the document, as a plugin in another language would.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys

import pytest

from fastwire import Reporter, compile_schema, ir, lower

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VECTORS = os.path.join(REPO, "tests", "vectors")

# Wire scalars as struct-module letters: the reader's own type table, not layout.
LETTERS = {"bool": "?", "byte": "B", "char": "B", "wchar": "I", "int8": "b", "uint8": "B",
           "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q",
           "uint64": "Q", "float": "f", "double": "d"}


def compiled(path: str) -> ir.Schema:
    reporter = Reporter()
    schema = compile_schema(os.path.join(REPO, path), reporter)
    assert schema is not None, [d.render() for d in reporter.diagnostics]
    return schema


@pytest.fixture(scope="module")
def ir_document(tmp_path_factory):
    """`fastwire compile schemas/everything.fbe --emit ir-json` and protocol.fbe, as dicts."""
    out = tmp_path_factory.mktemp("ir")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    docs = {}
    for schema in ("schemas/everything.fbe", "schemas/protocol.fbe"):
        done = subprocess.run([sys.executable, "-m", "fastwire", "compile", schema, "--emit",
                               "ir-json", "-q", "-o", str(out)], cwd=REPO, env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        name = os.path.basename(schema)[:-4]
        with open(out / f"{name}.ir.json", encoding="utf-8") as fh:
            docs[name] = json.load(fh)
    return docs


def vector(name: str) -> bytes:
    with open(os.path.join(VECTORS, name)) as fh:
        return bytes.fromhex("".join(fh.read().split()))


class JsonLayoutReader:
    """Both binary formats, read by the IR JSON's lowered model alone."""

    def __init__(self, doc: dict):
        assert doc["format"] == "fastwire-ir" and doc["version"] == 3
        self.structs = {}
        self.packages = {}
        for p in doc["packages"]:
            self.packages[p["name"]] = p["layout"]
            for t in p["types"]:
                if t["kind"] in ("struct", "message"):
                    self.structs[f"{p['name']}.{t['name']}"] = t

    def scalar(self, w: dict, buf: bytes, at: int):
        if w["kind"] in ("scalar", "enum", "flags"):
            return struct.unpack_from("<" + LETTERS[w["scalar"]], buf, at)[0]
        if w["kind"] == "timestamp":
            return struct.unpack_from("<Q", buf, at)[0]
        if w["kind"] == "uuid":
            return buf[at:at + 16].hex()
        raise AssertionError(w["kind"])  # decimal: not in the vectors

    # versioned: `base` is what offsets are relative to
    def vslot(self, w: dict, buf: bytes, at: int, base: int):
        kind = w["kind"]
        if kind in ("scalar", "enum", "flags", "timestamp", "uuid", "decimal"):
            return self.scalar(w, buf, at)
        off = struct.unpack_from("<I", buf, at)[0]
        if kind in ("string", "bytes"):
            n = struct.unpack_from("<I", buf, base + off)[0]
            data = buf[base + off + 4:base + off + 4 + n]
            return data.decode() if kind == "string" else data
        if kind == "struct":
            return self.vstruct(w["ref"], buf, base + off)
        if kind == "optional":
            if not buf[at]:
                return None
            block = base + struct.unpack_from("<I", buf, at + 1)[0]
            return self.vslot(w["element"], buf, block, block)
        if kind == "array":
            e = w["element"]
            return [self.vslot(e, buf, at + i * e["slot"], base) for i in range(w["length"])]
        if kind == "sequence":
            n = struct.unpack_from("<I", buf, base + off)[0]
            e = w["element"]
            return [self.vslot(e, buf, base + off + 4 + i * e["slot"], base) for i in range(n)]
        raise AssertionError(kind)

    def vstruct(self, name: str, buf: bytes, body: int) -> dict:
        t = self.structs[name]
        layout = t["layout"]
        size, number = struct.unpack_from("<II", buf, body)
        assert number == t["type_number"] and size == layout["body_size"]
        return {f["name"]: self.vslot(f["wire"], buf, body + f["offset"], body)
                for f in layout["fields"]}

    def versioned(self, name: str, buf: bytes) -> dict:
        full, root = struct.unpack_from("<II", buf, 0)
        assert full == len(buf)
        return self.vstruct(name, buf, root)

    # final
    def fvalue(self, w: dict, buf: bytes, at: int):
        kind = w["kind"]
        if w["final_size"] is not None and kind not in ("struct", "array"):
            return self.scalar(w, buf, at), at + w["final_size"]
        if kind in ("string", "bytes"):
            n = struct.unpack_from("<I", buf, at)[0]
            data = buf[at + 4:at + 4 + n]
            return (data.decode() if kind == "string" else data), at + 4 + n
        if kind == "struct":
            return self.ffields(w["ref"], buf, at)
        if kind == "optional":
            if not buf[at]:
                return None, at + 1
            return self.fvalue(w["element"], buf, at + 1)
        if kind in ("array", "sequence"):
            n = w["length"] if kind == "array" else struct.unpack_from("<I", buf, at)[0]
            at += 0 if kind == "array" else 4
            out = []
            for _ in range(n):
                v, at = self.fvalue(w["element"], buf, at)
                out.append(v)
            return out, at
        raise AssertionError(kind)

    def ffields(self, name: str, buf: bytes, at: int):
        layout = self.structs[name]["layout"]
        start, out = at, {}
        runs = {r["first"]: r for r in layout["final_runs"]}
        fields = layout["fields"]
        i = 0
        while i < len(fields):
            if i in runs:  # a run of fixed values: every offset from the model
                r = runs[i]
                for k in range(r["count"]):
                    f = fields[i + k]
                    out[f["name"]] = self.scalar(f["wire"], buf, at + r["offsets"][k])
                at += r["size"]
                i += r["count"]
                continue
            f = fields[i]
            if f["final_offset"] is not None:
                assert at - start == f["final_offset"]
            out[f["name"]], at = self.fvalue(f["wire"], buf, at)
            i += 1
        assert at - start >= layout["final_min"]
        return out, at

    def final(self, name: str, buf: bytes) -> dict:
        size, number = struct.unpack_from("<II", buf, 0)
        assert size == len(buf) and number == self.structs[name]["type_number"]
        value, end = self.ffields(name, buf, 8)
        assert end == len(buf)
        return value

    def stream(self, package: str, buf: bytes, final: bool) -> list:
        """Root models one after another, dispatched on the package's `sends`."""
        by_number = {self.structs[n]["type_number"]: n for n in self.packages[package]["sends"]}
        out, at = [], 0
        while at < len(buf):
            size = struct.unpack_from("<I", buf, at)[0]
            one = buf[at:at + size]
            if final:
                name = by_number[struct.unpack_from("<I", one, 4)[0]]
                out.append((name, self.final(name, one)))
            else:
                root = struct.unpack_from("<I", one, 4)[0]
                name = by_number[struct.unpack_from("<I", one, root + 4)[0]]
                out.append((name, self.versioned(name, one)))
            at += size
        return out


def expected(name: str) -> dict:
    with open(os.path.join(VECTORS, name), encoding="utf-8") as fh:
        return json.load(fh)


@pytest.mark.parametrize("name,type_name", [("account", "proto.Account"),
                                            ("order", "proto.Order"),
                                            ("balance", "proto.Balance")])
def test_every_golden_vector_reads_with_the_ir_json_alone(ir_document, name, type_name):
    reader = JsonLayoutReader(ir_document["everything"])
    want = expected(f"{name}.json")
    assert reader.versioned(type_name, vector(f"{name}.fbe.hex")) == want
    assert reader.final(type_name, vector(f"{name}.final.hex")) == want


def test_protocol_streams_read_with_the_ir_json_alone(ir_document):
    reader = JsonLayoutReader(ir_document["protocol"])
    bodies = [expected(f"{n}.json") for n in ("order", "balance", "account")]
    names = ["protocol.OrderMessage", "protocol.BalanceMessage", "protocol.AccountMessage"]
    for final, file in ((False, "protocol.hex"), (True, "protocol.final.hex")):
        got = reader.stream("protocol", vector(file), final)
        assert [n for n, _ in got] == names
        assert [v["body"] for _, v in got] == bodies


def test_annotated_offsets_of_the_wire_format_doc():
    """docs/wire-format.md annotates the seed account: body 30 bytes, type 3, slots at
    +8 uid, +12 name, +16 state, +17 wallet, +21 asset (5 bytes), +26 orders."""
    model = lower.lower(compiled("schemas/proto.fbe"))
    account = model.struct("proto.Account")
    assert (account.body_size, account.type_number) == (30, 3)
    assert [(f.name, f.offset, f.slot) for f in account.fields] == [
        ("uid", 8, 4), ("name", 12, 4), ("state", 16, 1), ("wallet", 17, 4),
        ("asset", 21, 5), ("orders", 26, 4)]
    assert [f.wire.kind for f in account.fields] == [
        "scalar", "string", "flags", "struct", "optional", "sequence"]
    balance = model.struct("proto.Balance")
    assert balance.body_size == 0x14  # "wallet body: 14000000"
    assert account.depth == 2 and account.equality == ("uid",) and account.keyed
    order = model.struct("proto.Order")
    # uid | symbol | side type price volume: two runs of fixed values around the string
    assert [(r.first, r.count, r.size, r.offsets) for r in order.final_runs] == [
        (0, 1, 4, (0,)), (2, 4, 18, (0, 1, 2, 10))]
    assert order.final_min == 4 + 4 + 18


def test_wire_kinds_and_sizes_of_every_construct():
    model = lower.lower(compiled("schemas/everything.fbe"))
    c = model.struct("everything.Collections")
    kinds = {f.name: (f.wire.kind, f.wire.collection, f.slot) for f in c.fields}
    assert kinds["f_array"] == ("array", "array", 12)
    assert kinds["f_array_optional"] == ("array", "array", 10)
    assert kinds["f_list"] == ("sequence", "list", 4)
    assert kinds["f_set_struct"] == ("sequence", "set", 4)
    assert kinds["f_hash_struct_key"] == ("map", "hash", 4)
    assert c.body_size == 8 + sum(f.slot for f in c.fields)
    for s in model.structs.values():
        assert {f.wire.kind for f in s.fields} <= set(lower.WIRE_KINDS)
        offsets = [f.offset for f in s.fields] + [s.body_size]
        assert offsets == sorted(offsets)


def test_defaults_are_normalised_literals():
    schema = compiled("schemas/everything.fbe")
    model = lower.lower(schema)
    p = model.struct("everything.Primitives")
    lits = {f.name: d for f, d in zip(p.fields, p.defaults)}
    kinds = {d.kind for d in lits.values() if d is not None}
    assert {"integer", "float", "decimal", "string", "uuid", "computed"} <= kinds
    for name, d in lits.items():
        if d is not None and d.kind == "float":
            fmt = "<f" if d.bits == 32 else "<d"
            int_fmt = "<I" if d.bits == 32 else "<Q"
            assert struct.unpack(int_fmt, struct.pack(fmt, d.value))[0] == d.raw, name
        if d is not None and d.kind == "decimal":
            sign = "-" if d.negative else ""
            digits = str(d.coefficient).rjust(d.scale + 1, "0")
            text = digits[:len(digits) - d.scale] + ("." + digits[-d.scale:] if d.scale else "")
            assert sign + text == d.value.lstrip("+") or d.value.startswith("+"), name


def test_protocol_rule_in_the_model():
    model = lower.lower(compiled("schemas/proto.fbe"))
    assert model.package("proto").sends == ("proto.Order", "proto.Balance", "proto.Account")
    model = lower.lower(compiled("schemas/protocol.fbe"))
    assert model.package("protocol").sends == (
        "protocol.OrderMessage", "protocol.BalanceMessage", "protocol.AccountMessage")
    assert model.package("protocol").imports == ("proto",)


def test_ir_json_round_trip_of_version_2(ir_document):
    from fastwire import ir_json
    schema = ir_json.from_dict(ir_document["everything"])
    assert ir_json.to_dict(schema) == ir_document["everything"]
