"""The repository's schemas resolve to exactly the expected model."""

import os

import pytest

from fastwire import Reporter, compile_schema, ir

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(REPO, "schemas")


def load(name):
    reporter = Reporter()
    schema = compile_schema(os.path.join(SCHEMAS, name), reporter)
    assert [d.render() for d in reporter.diagnostics] == []
    assert schema is not None
    return schema


def fields(struct):
    return [(f.name, f.type.describe(), None if f.default is None else
             (f.default.kind, f.default.value)) for f in struct.all_fields]


def values(enum):
    return [(v.name, v.value) for v in enum.values]


@pytest.fixture(scope="module")
def proto():
    return load("proto.fbe")


@pytest.fixture(scope="module")
def everything():
    return load("everything.fbe")


def test_proto_package(proto):
    p = proto.root_package
    assert (p.name, p.domain, p.offset, p.version, p.imports) == \
        ("proto", "com.chronoxor", 0, None, ())
    assert [t.name for t in p.types] == ["OrderSide", "OrderType", "Order", "Balance", "State",
                                         "Account"]
    assert [(s.name, s.type_number) for s in p.structs] == [("Order", 1), ("Balance", 2),
                                                            ("Account", 3)]


def test_proto_enums_and_flags(proto):
    p = proto.root_package
    assert values(p.type("OrderSide")) == [("buy", 0), ("sell", 1)]
    assert values(p.type("OrderType")) == [("market", 0), ("limit", 1), ("stop", 2)]
    state = p.type("State")
    assert (state.kind, state.base) == ("flags", "byte")
    assert values(state) == [("unknown", 0), ("invalid", 1), ("initialized", 2),
                             ("calculated", 4), ("broken", 8), ("good", 6), ("bad", 9)]


def test_proto_account(proto):
    account = proto.root_package.type("Account")
    assert fields(account) == [
        ("uid", "int32", None),
        ("name", "string", None),
        ("state", "proto.State", ("flags", 11)),
        ("wallet", "proto.Balance", None),
        ("asset", "proto.Balance?", None),
        ("orders", "proto.Order[]", None),
    ]
    assert [f.name for f in account.key_fields] == ["uid"]
    assert account.all_fields[2].default.names == ("initialized", "bad")
    assert account.doc == "Account declaration"
    order = proto.root_package.type("Order")
    assert fields(order)[4:] == [("price", "double", ("float", 0.0)),
                                 ("volume", "double", ("float", 0.0))]
    assert order.location == ir.SourceRef(os.path.join(SCHEMAS, "proto.fbe"), 19, 8)


def test_protoex_extends_proto():
    schema = load("protoex.fbe")
    assert [p.name for p in schema.packages] == ["proto", "protoex"]
    p = schema.root_package
    assert (p.offset, p.imports) == (10, ("proto",))
    assert [(s.name, s.type_number, s.numbering) for s in p.structs] == [
        ("Order", 1, "fixed"), ("Balance", 2, "base"), ("Account", 3, "fixed")]
    balance = p.type("Balance")
    assert balance.base == ir.TypeRef("struct", "Balance", "proto")
    assert fields(balance) == [("currency", "string", None), ("amount", "double", ("float", 0.0)),
                               ("locked", "double", None)]
    assert [f.declared_in for f in balance.all_fields] == ["proto.Balance", "proto.Balance",
                                                           "protoex.Balance"]
    assert [f.name for f in balance.fields] == ["locked"]
    assert values(p.type("OrderSide")) == [("buy", 0), ("sell", 1), ("tell", 2)]
    assert values(p.type("State"))[-2:] == [("good", 22), ("bad", 41)]
    assert p.type("Account").all_fields[2].default == ir.Default(
        "flags", 43, "State.initialized | State.bad | State.sad", ("initialized", "bad", "sad"))
    assert fields(p.type("Order"))[-2:] == [("tp", "double", ("float", 10.0)),
                                           ("sl", "double", ("float", -10.0))]


def test_everything_type_numbers(everything):
    p = everything.root_package
    assert (p.domain, p.offset, p.version, p.imports) == \
        ("com.example.fastwire", 100, (1, 2), ("proto", "protoex"))
    assert [(s.name, s.type_number) for s in p.structs] == [
        ("Primitives", 110), ("Optionals", 111), ("Collections", 112), ("Fixed", 500),
        ("Next", 113), ("Shifted", 300), ("Base", 301), ("Derived", 302),
        ("MoreDerived", 303), ("Wallet", 2), ("ExAccount", 304), ("Ping", 305),
        ("Pong", 306), ("Refused", 307), ("Failure", 308), ("PingRequest", 309),
        ("Notify", 310), ("Empty", 311)]
    assert [s.name for s in p.messages] == ["Ping", "Pong", "Refused", "Failure",
                                            "PingRequest", "Notify", "Empty"]


def test_everything_enum_values(everything):
    p = everything.root_package
    assert values(p.type("EnumDefault")) == [("zero", 0), ("one", 1), ("two", 2), ("three", 3)]
    assert values(p.type("EnumByte")) == [("a0", 0), ("a1", 1), ("a2", 254), ("a3", 255)]
    assert values(p.type("EnumChar")) == [("c0", 48), ("c1", 49), ("c2", 50), ("cz", 122)]
    assert values(p.type("EnumWChar")) == [("w0", 65), ("w1", 0x1F600), ("w2", 0x1F601)]
    assert values(p.type("EnumInt8")) == [("i0", -128), ("i1", -127), ("i2", 127)]
    assert values(p.type("EnumInt64")) == [("i0", -2 ** 63), ("i1", 2 ** 63 - 1)]
    assert values(p.type("EnumUInt64")) == [("u0", 0), ("u1", 2 ** 64 - 1)]
    refs = p.type("EnumRefs")
    # C semantics: after `value9 = value1`, value10 is value1 + 1 (spec §1.4).
    assert values(refs) == [("value1", 1), ("value2", 2), ("value9", 1), ("value10", 2),
                            ("old", -5), ("secret", -4)]
    assert [(v.deprecated, v.hidden) for v in refs.values[-2:]] == [(True, False), (False, True)]
    assert refs.doc == "Values referring to other values continue from them, as in C."
    assert values(p.type("EnumEmpty")) == []
    assert [e.base for e in p.enums] == ["int32", "byte", "char", "wchar", "int8", "uint8",
                                         "int16", "uint16", "int32", "uint32", "int64", "uint64",
                                         "int16", "int32"]


def test_everything_flags_values(everything):
    p = everything.root_package
    assert values(p.type("FlagsByte")) == [("none", 0), ("f1", 1), ("f2", 2), ("both", 3)]
    assert values(p.type("FlagsUInt64")) == [("f1", 1), ("top", 2 ** 63), ("all", 2 ** 63 + 1)]
    assert values(p.type("Flags")) == [("a", 1), ("b", 2), ("c", 4), ("ab", 3), ("abc", 7)]
    assert p.type("FlagsEmpty").deprecated and values(p.type("FlagsEmpty")) == []
    assert [f.base for f in p.flags] == ["byte", "int8", "uint8", "int16", "uint16", "int32",
                                         "uint32", "int64", "uint64", "int32", "int32"]


def test_everything_primitive_defaults(everything):
    prims = everything.root_package.type("Primitives")
    assert fields(prims) == [
        ("f_bool", "bool", ("bool", True)),
        ("f_byte", "byte", ("integer", 255)),
        ("f_char", "char", ("integer", 33)),
        ("f_wchar", "wchar", ("integer", 0x20AC)),
        ("f_int8", "int8", ("integer", -128)),
        ("f_uint8", "uint8", ("integer", 255)),
        ("f_int16", "int16", ("integer", -32768)),
        ("f_uint16", "uint16", ("integer", 65535)),
        ("f_int32", "int32", ("integer", -123)),
        ("f_uint32", "uint32", ("integer", 2 ** 32 - 1)),
        ("f_int64", "int64", ("integer", -2 ** 63)),
        ("f_uint64", "uint64", ("integer", 2 ** 64 - 1)),
        ("f_float", "float", ("float", 1.5e10)),
        ("f_double", "double", ("float", -1.23456e125)),
        ("f_decimal", "decimal", ("decimal", "123456.123456")),
        ("f_string", "string", ("string", 'Hello, "world"!\n')),
        ("f_bytes", "bytes", None),
        ("f_epoch", "timestamp", ("timestamp", 0)),
        ("f_utc", "timestamp", ("utc", None)),
        ("f_ns", "timestamp", ("timestamp", 10 ** 9)),
        ("f_uuid0", "uuid", ("uuid", "00000000-0000-0000-0000-000000000000")),
        ("f_uuid1", "uuid", ("uuid1", None)),
        ("f_uuid4", "uuid", ("uuid4", None)),
        ("f_uuid", "uuid", ("uuid", "123e4567-e89b-12d3-a456-426655440000")),
        ("password", "string", ("string", "secret")),
        ("legacy", "int32", ("integer", 0)),
    ]
    assert prims.field("password").hidden and prims.field("legacy").deprecated
    assert prims.numbering == "shift" and prims.doc == "Every primitive, with defaults of every kind."


def test_everything_optionals_and_reset(everything):
    opt = everything.root_package.type("Optionals")
    assert fields(opt) == [
        ("f_bool", "bool?", ("null", None)),
        ("f_int32", "int32?", ("integer", 42)),
        ("f_string", "string?", ("string", "maybe")),
        ("f_decimal", "decimal?", ("decimal", "-0.001")),
        ("f_uuid", "uuid?", ("uuid4", None)),
        ("f_time", "timestamp?", ("utc", None)),
        ("f_enum", "everything.EnumByte?", ("enum", 254)),
        ("f_flags", "everything.Flags?", ("flags", 5)),
        ("f_struct", "everything.Primitives?", None),
        ("f_order", "proto.Order?", None),
        ("f_reset", "int64?", None),
        ("f_resetReset", "bool", None),
    ]
    assert opt.field("f_resetReset").reset_of == "f_reset"


def test_everything_collections(everything):
    coll = everything.root_package.type("Collections")
    assert [(f.name, f.type.describe()) for f in coll.all_fields] == [
        ("f_array", "int32[3]"), ("f_array_optional", "string?[2]"),
        ("f_array_struct", "everything.Primitives[2]"), ("f_vector", "byte[]"),
        ("f_vector_optional", "everything.EnumByte?[]"), ("f_vector_struct", "proto.Order[]"),
        ("f_list", "string()"), ("f_list_optional", "everything.Optionals?()"),
        ("f_set", "int64!"), ("f_set_struct", "proto.Balance!"), ("f_map", "string<int32>"),
        ("f_map_optional", "double?<string>"),
        ("f_map_enum_key", "everything.Optionals<everything.EnumByte>"),
        ("f_hash", "bytes{uuid}"), ("f_hash_optional", "everything.Primitives?{string}"),
        ("f_hash_struct_key", "everything.Optionals{proto.Order}"),
    ]
    m = coll.field("f_map").type
    assert (m.container, m.key, m.value) == ("map", ir.TypeRef("primitive", "int32"),
                                             ir.TypeRef("primitive", "string"))
    assert coll.field("f_array").type.size == 3


def test_everything_inheritance(everything):
    p = everything.root_package
    more = p.type("MoreDerived")
    assert [(f.name, f.declared_in) for f in more.all_fields] == [
        ("name", "everything.Base"), ("level", "everything.Base"),
        ("serial", "everything.Derived"), ("weight", "everything.Derived"),
        ("last", "everything.MoreDerived")]
    assert [f.name for f in more.key_fields] == ["name", "serial"]
    ex = p.type("ExAccount")
    assert [f.name for f in ex.all_fields] == ["uid", "name", "state", "wallet", "asset",
                                               "orders", "refs", "extra"]
    assert ex.field("refs").default == ir.Default("enum", 2, "EnumRefs.value10", ("value10",))
    assert ex.field("extra").default.value == 22 | 32
    wallet = p.type("Wallet")
    assert (wallet.type_number, wallet.base.qualified_name) == (2, "proto.Balance")


def test_everything_request_response(everything):
    p = everything.root_package
    req = p.type("PingRequest")
    assert req.request and req.response == ir.TypeRef("struct", "Pong", "everything")
    assert [(r.type.name, r.global_) for r in req.rejects] == [("Failure", True),
                                                               ("Refused", False)]
    assert req.id_field.name == "id" and req.id_field.key
    notify = p.type("Notify")
    assert notify.request and notify.response is None
    assert p.type("Next").id_field.default.kind == "uuid1"



def test_struct_depth(proto, tmp_path):
    """Schema.struct_depth: the deepest struct nesting, 0 where a struct recurs."""
    pkg = proto.root_package
    assert [(s.name, proto.struct_depth(s)) for s in pkg.structs] == [
        ("Order", 1), ("Balance", 1), ("Account", 2)]
    path = tmp_path / "nest.fbe"
    path.write_text("""package nest
struct Leaf { [key] int32 v; }
struct Mid { [key] int32 k; Leaf? a; Leaf[2] b; }
struct Keyed { int32<Mid> byMid; }
struct Node { int32 v; Node[] children; }
struct Forest { Node root; Leaf leaf; }
struct Ping { Pong[] next; }
struct Pong { Ping? back; }
""")
    reporter = Reporter()
    schema = compile_schema(str(path), reporter)
    assert [d.render() for d in reporter.diagnostics] == []
    assert [(s.name, schema.struct_depth(s)) for s in schema.root_package.structs] == [
        ("Leaf", 1), ("Mid", 2), ("Keyed", 3), ("Node", 0), ("Forest", 0), ("Ping", 0), ("Pong", 0)]
