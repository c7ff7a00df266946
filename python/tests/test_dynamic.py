"""The dynamic codec (fastwire_runtime.dynamic): any struct from the IR alone, read and
written exactly as the generated code does. The whole conformance suite runs it too
(testee `dynamic`); these are the API's own promises."""

from __future__ import annotations

import json
import os
import sys
import uuid
from decimal import Decimal

import pytest
from seeds import REPO, vector, vector_text

import fastwire_runtime as rt
from fastwire_runtime import dynamic

sys.path.insert(0, os.path.join(REPO, "compiler"))  # the compiler's model, for the IR

def _compile(name: str):
    """The schema's IR JSON document (the runtime reads the documented format only)."""
    from fastwire.diagnostics import Reporter
    from fastwire.ir_json import to_dict
    from fastwire.resolver import compile_schema
    schema = compile_schema(os.path.join(REPO, "schemas", name), Reporter())
    assert schema is not None
    return to_dict(schema)


@pytest.fixture(scope="module")
def proto() -> dynamic.Schema:
    return dynamic.Schema(_compile("proto.fbe"))


@pytest.fixture(scope="module")
def protoex() -> dynamic.Schema:
    return dynamic.Schema(_compile("protoex.fbe"))


@pytest.mark.parametrize("name", ["Account", "Order", "Balance"])
def test_seed_vectors_both_formats(proto, name):
    lower = name.lower()
    data, final = vector(f"{lower}.fbe.hex"), vector(f"{lower}.final.hex")
    value = proto.model(f"proto.{name}").deserialize(data)
    assert proto.to_json(name, value) == vector_text(f"{lower}.json")
    assert proto.model(name).serialize(value) == data
    assert proto.final_model(name).serialize(value) == final
    assert proto.final_model(name).deserialize(final) == value
    assert proto.model(name).serialize(proto.from_json(name, vector_text(f"{lower}.json"))) == data


def test_values_are_plain(proto):
    account = proto.model("proto.Account").deserialize(vector("account.fbe.hex"))
    assert isinstance(account, dict)
    assert account["orders"][0]["price"] == 1.23456
    assert account["state"] == 6 and type(account["state"]) is int
    assert account["asset"] == {"currency": "EUR", "amount": 100.0}
    # A plain dict (fields missing keep their defaults) writes as the record does.
    plain = json.loads(vector_text("account.json"))
    assert proto.model("Account").serialize(plain) == vector("account.fbe.hex")


def test_ir_json_file_and_document_agree(proto, tmp_path):
    path = tmp_path / "proto.ir.json"
    path.write_text(json.dumps(_compile("proto.fbe")))
    loaded = dynamic.Schema.load(str(path))
    data = vector("account.fbe.hex")
    assert loaded.model("Account").serialize(loaded.model("Account").deserialize(data)) == data
    assert loaded.layout("Account") == proto.layout("Account")


def test_defaults_from_the_ir(protoex):
    import protoex_fbe
    assert protoex.to_json("Account", protoex.new("protoex.Account")) == protoex_fbe.Account().to_json()
    order = protoex.new("Order")
    assert order["tp"] == 10.0 and order["sl"] == -10.0


def test_defaults_of_every_type_match_the_generated_code():
    import re

    import everything_fbe
    schema = dynamic.Schema(_compile("everything.fbe"))
    # utc, uuid1, uuid4: made anew for each value, so left out of the comparison
    computed = {f["name"] for q in schema.structs for f in schema.layout(q)["fields"]
                if (f["default"] or {}).get("kind") == "computed"}
    assert computed
    made = re.compile('"(%s)":("[^"]*"|[0-9]+)' % "|".join(computed))
    checked = 0
    for q in schema.structs:
        pkg, name = q.split(".")
        if pkg != "everything":
            continue
        ours = made.sub("", schema.to_json(q, schema.new(q)))
        assert ours == made.sub("", getattr(everything_fbe, name)().to_json()), q
        checked += 1
    assert checked > 10


def test_older_writer_newer_reader(proto, protoex):
    # proto's Account (old) read as protoex's (new): new fields keep their defaults.
    data = vector("account.fbe.hex")
    account = protoex.model("protoex.Account").deserialize(data)
    assert account["uid"] == 1 and account["orders"][2]["price"] == 1.5
    assert account["orders"][0]["tp"] == 10.0
    # and back: the old reader skips the new fields
    again = proto.model("Account").deserialize(protoex.model("Account").serialize(account))
    assert proto.model("Account").serialize(again) == data


def test_keyed_records_hash_and_order_by_key(proto):
    order = proto.record_type("Order")
    a = order(uid=1, symbol="A", side=0, type=0, price=1.0, volume=1.0)
    b = order(uid=1, symbol="B", side=1, type=1, price=2.0, volume=2.0)
    c = order(uid=0, symbol="C", side=1, type=1, price=2.0, volume=2.0)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert sorted([a, c])[0] is c


def test_every_type(tmp_path):
    schema = dynamic.Schema(_compile("everything.fbe"))
    for name in schema.structs:
        value = schema.new(name)
        for model in (schema.model(name), schema.final_model(name)):
            data = model.serialize(value)
            assert model.serialize(model.deserialize(data)) == data
        text = schema.to_json(name, value)
        assert schema.to_json(name, schema.from_json(name, text)) == text


def test_malformed_input_raises_decode_error(proto):
    data = vector("account.fbe.hex")
    model = proto.model("Account")
    for n in range(len(data)):
        with pytest.raises(rt.DecodeError):
            model.deserialize(data[:n])
    with pytest.raises(rt.DecodeError):
        proto.from_json("Account", '{"uid": "one"}')


def test_encode_error_names_the_field(proto):
    account = proto.new("Account", uid=1)
    account["orders"] = [proto.new("Order", price="high")]
    with pytest.raises(rt.EncodeError) as err:
        proto.model("Account").serialize(account)
    assert err.value.path == "Account.orders[0].price"
    assert err.value.code == "wrong_type"
    with pytest.raises(rt.EncodeError) as err:
        proto.final_model("Account").serialize({"uid": 2 ** 40})
    assert err.value.path == "Account.uid"


def test_values_of_each_kind():
    schema = dynamic.Schema(_compile("everything.fbe"))
    names = [n for n in schema.structs if n.endswith(".Primitives")]
    assert names, list(schema.structs)
    value = schema.new(names[0])
    kinds = {type(v) for v in value.values()}
    assert Decimal in kinds and uuid.UUID in kinds


def test_bad_documents():
    with pytest.raises(dynamic.SchemaError):
        dynamic.Schema("{}")
    with pytest.raises(dynamic.SchemaError):
        dynamic.Schema('{"format": "fastwire-ir", "version": 1, "root": "x", "packages": []}')
    with pytest.raises(dynamic.SchemaError):
        dynamic.Schema("not json")
    with pytest.raises(dynamic.SchemaError, match="malformed IR document"):
        dynamic.Schema('{"format": "fastwire-ir", "version": 2, "root": "x", "packages": [{}]}')
    from fastwire.diagnostics import Reporter
    from fastwire.resolver import compile_schema
    model = compile_schema(os.path.join(REPO, "schemas", "proto.fbe"), Reporter())
    with pytest.raises(dynamic.SchemaError, match="^not a fastwire IR document$"):
        dynamic.Schema(model)  # the compiler's model: IR JSON only (fastwire.ir_json.to_dict)
    schema = dynamic.Schema(_compile("proto.fbe"))
    with pytest.raises(dynamic.SchemaError, match="unknown type 'Acount'"):
        schema.struct("Acount")
