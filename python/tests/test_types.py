"""Every type of the schema language (schemas/everything.fbe) through both binary formats
and JSON, with extreme values; defaults; equality, hashing, ordering; the printout."""

from __future__ import annotations

import math
import time
import uuid
from decimal import Decimal

import everything_fbe as E
import proto_fbe as proto
import protoex_fbe as protoex
import pytest
from seeds import vector_text

import fastwire_runtime as rt
from fastwire_runtime import wire
from fastwire_runtime._format import json_double

U64 = 2 ** 64 - 1


def primitives_min() -> E.Primitives:
    return E.Primitives(
        f_bool=False, f_byte=0, f_char=0, f_wchar=0, f_int8=-128, f_uint8=0, f_int16=-32768,
        f_uint16=0, f_int32=-2 ** 31, f_uint32=0, f_int64=-2 ** 63, f_uint64=0,
        f_float=-3.4028234663852886e38, f_double=-1.7976931348623157e308,
        f_decimal=Decimal("-79228162514264337593543950335"), f_string="", f_bytes=b"",
        f_epoch=0, f_utc=0, f_ns=0, f_uuid0=uuid.UUID(int=0), f_uuid1=uuid.UUID(int=0),
        f_uuid4=uuid.UUID(int=0), f_uuid=uuid.UUID(int=0), password="", legacy=-2 ** 31)


def primitives_max() -> E.Primitives:
    return E.Primitives(
        f_bool=True, f_byte=255, f_char=255, f_wchar=0xFFFFFFFF, f_int8=127, f_uint8=255,
        f_int16=32767, f_uint16=65535, f_int32=2 ** 31 - 1, f_uint32=2 ** 32 - 1,
        f_int64=2 ** 63 - 1, f_uint64=U64, f_float=3.4028234663852886e38,
        f_double=1.7976931348623157e308, f_decimal=Decimal("0.0000000000000000000000000001"),
        f_string="\u00e9\u4e2d\U0001F600\x00\"\\\n", f_bytes=bytes(range(256)), f_epoch=U64,
        f_utc=U64, f_ns=U64, f_uuid0=uuid.UUID(int=2 ** 128 - 1), f_uuid1=uuid.uuid1(),
        f_uuid4=uuid.uuid4(), f_uuid=uuid.UUID("123e4567-e89b-12d3-a456-426655440000"),
        password="hunter2", legacy=2 ** 31 - 1)


def primitives_odd() -> E.Primitives:
    """Values whose text forms are tricky: NaN, infinities, tiny and huge numbers,
    negative zero, decimals that keep their scale, text that is not UTF-8."""
    return E.Primitives(f_float=float("inf"), f_double=float("nan"),
                        f_decimal=Decimal("-0.00"), f_string="bad \udcff\udcfe bytes",
                        f_utc=1, f_uuid1=uuid.UUID(int=1), f_uuid4=uuid.UUID(int=4))


def optionals_full() -> E.Optionals:
    return E.Optionals(f_bool=False, f_int32=-1, f_string="", f_decimal=Decimal("1.50"),
                       f_uuid=uuid.UUID(int=7), f_time=U64, f_enum=E.EnumByte.a3,
                       f_flags=E.Flags(0), f_struct=primitives_max(),
                       f_order=proto.Order(9, "X", proto.OrderSide.sell), f_reset=-2 ** 63,
                       f_resetReset=True)


def optionals_empty() -> E.Optionals:
    return E.Optionals(f_bool=None, f_int32=None, f_string=None, f_decimal=None, f_uuid=None,
                       f_time=None, f_enum=None, f_flags=None, f_struct=None, f_order=None,
                       f_reset=None)


def collections_full() -> E.Collections:
    o = optionals_full()
    return E.Collections(
        f_array=[-1, 0, 2 ** 31 - 1], f_array_optional=[None, "x"],
        f_array_struct=[primitives_min(), primitives_max()], f_vector=[0, 1, 255],
        f_vector_optional=[None, E.EnumByte.a2, 77],  # type: ignore[list-item]  # 77: no member, kept
        f_vector_struct=[proto.Order(1), proto.Order(2, "Y")], f_list=["b", "a", "b"],
        f_list_optional=[None, o, optionals_empty()], f_set={-2 ** 63, 0, 2 ** 63 - 1},
        f_set_struct={proto.Balance("EUR", 1.0), proto.Balance("CHF")},
        f_map={3: "c", -1: "minus", 2 ** 31 - 1: ""}, f_map_optional={"b": None, "a": -0.0},
        f_map_enum_key={E.EnumByte.a3: o, E.EnumByte.a0: optionals_empty()},
        f_hash={uuid.UUID(int=9): b"\x00", uuid.UUID(int=1): b""},
        f_hash_optional={"z": None, "a": primitives_min()},
        f_hash_struct_key={proto.Order(5): o, proto.Order(4, "K"): optionals_empty()})


def collections_empty() -> E.Collections:
    return E.Collections(f_array_struct=[E.Primitives(f_utc=0), E.Primitives(f_utc=0)])


VALUES = [
    ("primitives default", lambda: E.Primitives()),
    ("primitives min", primitives_min),
    ("primitives max", primitives_max),
    ("primitives odd", primitives_odd),
    ("optionals default", lambda: E.Optionals()),
    ("optionals full", optionals_full),
    ("optionals empty", optionals_empty),
    ("collections full", collections_full),
    ("collections empty", collections_empty),
    ("fixed", lambda: E.Fixed(id=-5)),
    ("next", lambda: E.Next()),
    ("shifted", lambda: E.Shifted(amount=Decimal("79228162514264337593543950335"))),
    ("base", lambda: E.Base("b", -128)),
    ("derived", lambda: E.Derived("d", 3, serial=2 ** 31 - 1, weight=-0.5)),
    ("more derived", lambda: E.MoreDerived("m", 1, 7, 1e-300, last=True)),
    ("wallet", lambda: E.Wallet("USD", 1.0, reserved=Decimal("-12.3400"))),
    ("ex account", lambda: E.ExAccount(uid=3, orders=[protoex.Order(1, tp=1.0)],
                                       refs=E.EnumRefs.old, extra=protoex.State(0xFF))),
    ("ping request", lambda: E.PingRequest(note="\u2603")),
    ("notify", lambda: E.Notify(text="n")),
    ("empty", lambda: E.Empty()),
]


def models(value):
    name = type(value).__name__
    return getattr(E, name + "Model")(), getattr(E, name + "FinalModel")()


def same(a, b) -> bool:
    """Equality that also holds for NaN (the printout shows every field)."""
    return a == b or repr(a) == repr(b)


@pytest.mark.parametrize("label,make", VALUES, ids=[v[0] for v in VALUES])
def test_round_trip_every_type(label, make):
    value = make()
    model, final = models(value)
    data, fdata = model.serialize(value), final.serialize(value)
    assert model.validate(data) == len(data) and final.validate(fdata) == len(fdata)
    back, fback = model.deserialize(data), final.deserialize(fdata)
    assert same(back, value) and same(fback, value)
    assert type(back) is type(value)
    # Re-serializing what was read gives the same bytes in both formats.
    assert model.serialize(back) == data and final.serialize(fback) == fdata
    # JSON: text -> value -> the same text and the same bytes (text that is not UTF-8
    # has no JSON form: test_json_forms).
    text = value.to_json()
    if label == "primitives odd":
        return
    from_text = type(value).from_json(text)
    assert from_text.to_json() == text
    assert model.serialize(from_text) == model.serialize(value)


def test_collections_keep_their_kinds():
    c = E.CollectionsModel().deserialize(E.CollectionsModel().serialize(collections_full()))
    assert isinstance(c.f_set, set) and isinstance(c.f_list, list)
    assert isinstance(c.f_map, dict) and list(c.f_map) == [-1, 3, 2 ** 31 - 1]  # map: sorted
    assert list(c.f_hash) == [uuid.UUID(int=9), uuid.UUID(int=1)]  # hash: insertion order
    assert c.f_vector_optional == [None, E.EnumByte.a2, 77]
    assert type(c.f_vector_optional[2]) is int
    assert c.f_array_optional == [None, "x"]


def test_sets_and_maps_are_written_in_key_order():
    a = E.Collections(f_set={3, 1, 2}, f_map={2: "b", 1: "a"},
                      f_set_struct={proto.Balance("B"), proto.Balance("A")})
    b = E.Collections(f_set={2, 3, 1}, f_map={1: "a", 2: "b"},
                      f_set_struct={proto.Balance("A"), proto.Balance("B")})
    for x in (a, b):
        x.f_array_struct = [E.Primitives(f_utc=0, f_uuid1=uuid.UUID(int=0),
                                         f_uuid4=uuid.UUID(int=0))] * 2
    assert E.CollectionsModel().serialize(a) == E.CollectionsModel().serialize(b)
    assert E.CollectionsFinalModel().serialize(a) == E.CollectionsFinalModel().serialize(b)
    assert a.to_json() == b.to_json()
    assert '"f_set":[1,2,3]' in a.to_json()
    assert "f_set_struct=[2]{Balance(currency=\"A\"" in str(a)


def test_defaults():
    before = time.time_ns()
    p = E.Primitives()
    assert (p.f_bool, p.f_byte, p.f_char, p.f_wchar, p.f_int8, p.f_uint8) == \
        (True, 255, ord("!"), 0x20AC, -128, 255)
    assert (p.f_int16, p.f_uint16, p.f_int32, p.f_uint32, p.f_int64, p.f_uint64) == \
        (-32768, 65535, -123, 2 ** 32 - 1, -2 ** 63, U64)
    assert (p.f_float, p.f_double) == (1.5e10, -123.456e123)
    assert p.f_decimal == Decimal("123456.123456") and str(p.f_decimal) == "123456.123456"
    assert (p.f_string, p.f_bytes, p.f_epoch, p.f_ns) == ('Hello, "world"!\n', b"", 0, 10 ** 9)
    assert before <= p.f_utc <= time.time_ns()
    assert p.f_uuid0 == uuid.UUID(int=0) and p.f_uuid1.version == 1 and p.f_uuid4.version == 4
    assert p.f_uuid == uuid.UUID("123e4567-e89b-12d3-a456-426655440000")
    # Computed per object.
    q = E.Primitives()
    assert q.f_uuid4 != p.f_uuid4 and q.f_uuid1 != p.f_uuid1
    o = E.Optionals()
    assert (o.f_bool, o.f_int32, o.f_string, o.f_decimal) == (None, 42, "maybe", Decimal("-0.001"))
    assert o.f_uuid.version == 4 and o.f_time >= before
    assert o.f_enum is E.EnumByte.a2 and o.f_flags == E.Flags.a | E.Flags.c
    assert (o.f_struct, o.f_order, o.f_reset, o.f_resetReset) == (None, None, None, False)
    # None where a default is computed means "null" for optionals, "default" otherwise.
    assert E.Optionals(f_time=None, f_uuid=None).f_time is None
    c = E.Collections()
    assert c.f_array == [0, 0, 0] and c.f_array_optional == [None, None]
    assert len(c.f_array_struct) == 2 and c.f_array_struct[0] is not c.f_array_struct[1]
    assert (c.f_vector, c.f_set, c.f_map) == ([], set(), {})
    assert E.Collections().f_vector is not c.f_vector
    assert proto.Account().state == proto.State.initialized | proto.State.bad
    assert protoex.Account().state == protoex.State.initialized | protoex.State.bad | protoex.State.sad
    assert E.ExAccount().refs is E.EnumRefs.value10 and E.ExAccount().refs == 2
    assert E.Shifted().amount == Decimal("0.5") and E.Derived().weight == 0.25


def test_enum_values_follow_c():
    assert [(m.name, m.value) for m in E.EnumRefs] == [("value1", 1), ("value2", 2),
                                                       ("old", -5), ("secret", -4)]
    assert E.EnumRefs.value9 is E.EnumRefs.value1 and E.EnumRefs.value10 is E.EnumRefs.value2
    assert (E.EnumChar.c0, E.EnumChar.c1, E.EnumChar.c2, E.EnumChar.cz) == (48, 49, 50, 122)
    assert E.EnumWChar.w2 == 0x1F601 and E.EnumByte.a3 == 0xFF
    assert E.EnumUInt64.u1 == U64 and E.EnumInt64.i0 == -2 ** 63
    assert list(E.EnumEmpty) == [] and E.FlagsUInt64.all == 0x8000000000000001


def test_enums_and_flags_on_the_wire():
    codec = E._E_FlagsInt8
    buf = bytearray(8)
    codec.vwrite(buf, 0, 0, -1)  # every bit of a signed flags type
    r = wire.Reader(bytes(buf), 100, 10)
    value = codec.vget_slot(r, 0, 0, 1)
    assert value == -1  # kept exactly, not folded to the members' bits
    assert E._E_EnumEmpty.of[5] == 5 and E._E_EnumEmpty.default() == 0
    assert E._E_FlagsEmpty.of[3] == 3


def test_equality_hash_and_order_by_key():
    a, b = proto.Order(1, "A", price=1.0), proto.Order(1, "B", price=2.0)
    # One rule (docs/schema-language.md): ==, hash and < by the [key] fields.
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1 and next(iter({a, b})).symbol == "A"  # the first stays
    assert E.Primitives(f_int32=1) != E.Primitives(f_int32=2)  # no keys: every field
    assert a == proto.Order(1, "A", price=1.0)
    assert sorted([proto.Order(3), proto.Order(1), proto.Order(2)]) == \
        [proto.Order(1), proto.Order(2), proto.Order(3)]
    d1, d2 = E.Derived("n", serial=1), E.Derived("n", serial=2)
    assert d1 < d2 and hash(d1) == hash(("n", 1))
    assert E.Base("n") != E.Derived("n")  # a derived value is not equal to its base
    with pytest.raises(TypeError):
        hash(E.Empty())  # no [key] fields: not hashable
    assert E.Empty() == E.Empty()
    assert {proto.Balance("X"): 1}[proto.Balance("X")] == 1
    assert proto.Order(1).__eq__("x") is NotImplemented


def test_printout_forms():
    p = primitives_max()
    text = str(p)
    assert text.startswith("Primitives(f_bool=true,f_byte=255,f_char='\u00ff',"
                           "f_wchar='U+FFFFFFFF',f_int8=127,")
    assert "f_float=3.40282e+38,f_double=1.79769e+308,f_decimal=0.0000000000000000000000000001," in text
    assert "f_bytes=bytes[256]" in text and "password=***" in text
    assert str(E.Primitives(f_wchar=ord("A"))).count("f_wchar='A'") == 1
    assert str(E.Derived("n", 1, 2, 0.5)) == 'Derived(Base(name="n",level=1),serial=2,weight=0.5)'
    assert str(E.MoreDerived("n", 1, 2, 0.5, True)) == \
        'MoreDerived(Derived(Base(name="n",level=1),serial=2,weight=0.5),last=true)'
    c = E.Collections(f_list=["a"], f_map={2: "b", 1: "a"}, f_hash={uuid.UUID(int=1): b"ab"},
                      f_set={2, 1}, f_vector_optional=[None, E.EnumByte.a1])
    t = str(c)
    assert 'f_list=[1]<"a">' in t and 'f_map=[2]<{1->"a"},{2->"b"}>' in t
    assert 'f_hash=[1][{"00000000-0000-0000-0000-000000000001"->bytes[2]}]' in t
    assert "f_set=[2]{1,2}" in t and "f_vector_optional=[2][null,a1]" in t
    assert "f_array=[3][0,0,0]" in t
    assert str(E.Optionals(f_flags=E.Flags.abc)).count("f_flags=a|b|c|ab|abc") == 1
    assert str(proto.Account(state=proto.State(0))).count("state=,") == 1
    assert str(E.Optionals(f_enum=E.EnumByte.a0)).count("f_enum=a0") == 1


def test_json_forms():
    assert E.Primitives(f_char=0xE9).to_json().count('"f_char":233') == 1  # no sign extension
    odd = primitives_odd().to_json()
    assert '"f_float":"Infinity","f_double":"NaN","f_decimal":"-0.00"' in odd
    assert '"f_string":"bad \\udcff\\udcfe bytes"' in odd
    # Control characters as RapidJSON escapes them: upper-case hex (as C++ json.h).
    assert proto.Balance("a\x01\x1f\t\"\\\u00e9").to_json() == \
        '{"currency":"a\\u0001\\u001F\\t\\"\\\\\u00e9","amount":0.0}'
    # Text that is not UTF-8 has no JSON form: its escapes are lone surrogates, which no
    # reader accepts (docs/wire-format.md#json); the rest of the value reads back.
    with pytest.raises(rt.DecodeError):
        E.Primitives.from_json(odd)
    back = E.Primitives.from_json(odd.replace("\\udcff\\udcfe", "\u00ff"))
    assert back.f_string == "bad \u00ff bytes" and math.isnan(back.f_double)
    assert str(back.f_decimal) == "-0.00"
    m = collections_full().to_json()
    assert '"f_map":{"-1":"minus","3":"c","2147483647":""}' in m
    assert '"f_map_enum_key":{"0":' in m and '"f_hash":{"00000000-0000-0000-0000-000000000009":"AA=="' in m
    # A struct key has no JSON text: such a map is an array of [key, value] pairs.
    assert '"f_hash_struct_key":[[{"uid":5,' in m
    assert '"f_hash_struct_key":[]' in E.Collections().to_json()
    back = E.Collections.from_json(m)
    assert list(back.f_hash_struct_key) == list(collections_full().f_hash_struct_key)
    assert back.to_json() == m
    for bad in ['{}', '[{}]', '[[{"uid":1}]]', '[[{"uid":1},{},{}]]', '[[1,{}]]',
                '[[{"uid":1},{}],[{"uid":1},5]]']:
        with pytest.raises(rt.DecodeError):
            E.Collections.from_json('{"f_hash_struct_key":' + bad + '}')
    assert '"f_vector_optional":[null,254,77]' in m
    assert E.Wallet("U", 1.0, Decimal("1E+3")).to_json().endswith('"reserved":"1000"}')


@pytest.mark.parametrize("value,text", [
    (0.0, "0.0"), (-0.0, "-0.0"), (1.0, "1.0"), (1000.0, "1000.0"), (1.23456, "1.23456"),
    (0.1, "0.1"), (1e-5, "0.00001"), (1e-6, "0.000001"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"),
    (1e16, "10000000000000000.0"), (1e20, "100000000000000000000.0"), (1e21, "1e21"),
    (1.5e21, "1.5e21"),
    (1.5e300, "1.5e300"), (-1.23456e125, "-1.23456e125"), (123.45600128173828, "123.45600128173828"),
    (5e-324, "5e-324"), (float("nan"), '"NaN"'), (float("inf"), '"Infinity"'),
    (float("-inf"), '"-Infinity"'), (2.0 ** 63, "9223372036854776000.0"),
])
def test_json_doubles_as_rapidjson_writes_them(value, text):
    assert json_double(value) == text


def test_json_float_is_a_float():
    # A float field is widened to double for JSON, as the reference does (123.456f).
    v = E.Primitives(f_float=123.456)
    assert '"f_float":123.45600128173828' in v.to_json()
    assert E.Primitives.from_json('{"f_float": 123.456}').f_float == 123.45600128173828


def test_json_reading_is_checked():
    bad = ['{"f_int8": 128}', '{"f_bool": 1}', '{"f_uint64": -1}', '{"f_string": 5}',
           '{"f_int32": 1.5}', '{"f_decimal": "1e-30"}', '{"f_bytes": "***"}',
           '{"f_uuid": "nope"}', '{"f_float": 1e39}', '{"f_double": "x"}', "[1]", "{",
           '{"f_char": true}', "\xff"]
    for text in bad:
        with pytest.raises(rt.DecodeError):
            E.Primitives.from_json(text)
    with pytest.raises(rt.DecodeError):
        E.Collections.from_json('{"f_array": [1, 2]}')  # an array needs exactly 3
    with pytest.raises(rt.DecodeError):
        E.Collections.from_json('{"f_map": {"x": "a"}}')  # int32 keys
    with pytest.raises(rt.DecodeError):
        proto.Account.from_json('{"orders": [' * 100000 + "]" * 100000 + "}")
    # Missing fields keep their defaults; unknown keys are ignored; ints are exact.
    p = E.Primitives.from_json('{"f_uint64": 18446744073709551615, "other": 1}')
    assert p.f_uint64 == U64 and p.f_int32 == -123
    assert E.Primitives.from_json(b'{"f_decimal": 1.10}').f_decimal == Decimal("1.10")
    assert str(E.Primitives.from_json('{"f_decimal": 1.10}').f_decimal) == "1.10"
    with pytest.raises(rt.DecodeError):  # a bare NaN is not JSON: the string "NaN" is
        E.Primitives.from_json('{"f_double": NaN}')
    assert math.isnan(E.Primitives.from_json('{"f_double": "NaN"}').f_double)
    assert E.Primitives.from_json('{"f_double": 3}').f_double == 3.0


@pytest.mark.parametrize("line", vector_text("decimal_samples.txt").splitlines())
def test_decimal_samples(line):
    """The reference's decimal wire bytes (from its double -> decimal conversion) read
    back as exact decimals that are the doubles it reports, and write back unchanged."""
    _, rest = line.split(" -> ")
    hexpart, _, tail = rest.partition("  (reads back as ")
    raw = bytes.fromhex(hexpart.replace(" ", ""))
    expected = tail.split(";")[0]
    value = wire.decimal_of(raw)
    assert float(value) == float(expected)
    assert wire.decimal_bytes(value) == raw


def test_decimal_range_and_scale():
    top = Decimal(2 ** 96 - 1)
    assert wire.decimal_of(wire.decimal_bytes(top)) == top
    assert wire.decimal_of(wire.decimal_bytes(top.copy_negate())) == top.copy_negate()
    assert wire.decimal_bytes(Decimal("1.000000000000000000000000000000")) == \
        wire.decimal_bytes(Decimal("1.0000000000000000000000000000"))  # 30 -> 28 places
    for bad in (Decimal(2 ** 96), Decimal("1E-29"), Decimal("NaN"), Decimal("Infinity"), 1.5,
                "1"):
        with pytest.raises(rt.EncodeError):
            wire.decimal_bytes(bad)
    assert wire.decimal_bytes(5) == wire.decimal_bytes(Decimal(5))
    neg_zero = wire.decimal_bytes(Decimal("-0"))
    assert neg_zero[15] == 0x80 and str(wire.decimal_of(neg_zero)) == "-0"
    with pytest.raises(rt.DecodeError):
        wire.decimal_of(bytes(14) + b"\x1d\x00")  # scale 29


@pytest.mark.parametrize("value", [
    # Values of the wrong type on purpose (what the type checker would refuse).
    E.Primitives(f_int8=128), E.Primitives(f_uint64=-1),
    E.Primitives(f_string=5),  # type: ignore[arg-type]
    E.Primitives(f_uuid="123"),  # type: ignore[arg-type]
    E.Primitives(f_decimal=Decimal(2 ** 96)), E.Primitives(f_float=1e39),
    E.Collections(f_array=[1, 2]),
    E.Collections(f_set={1, "a"}),  # type: ignore[arg-type]
    E.Optionals(f_order=proto.Balance()),  # type: ignore[arg-type]
    E.Primitives(f_bytes="text"),  # type: ignore[arg-type]
])
def test_values_that_do_not_fit_raise_encode_error(value):
    model, final = models(value)
    with pytest.raises(rt.EncodeError):
        model.serialize(value)
    with pytest.raises(rt.EncodeError):
        final.serialize(value)


def test_limits_are_configurable():
    a = proto.Account(orders=[proto.Order(1)])
    data = proto.AccountModel().serialize(a)
    assert proto.AccountModel(rt.Limits(max_depth=2)).verify(data)
    assert not proto.AccountModel(rt.Limits(max_depth=1)).verify(data)
    assert not proto.AccountModel(rt.Limits(max_message_size=len(data) - 1)).verify(data)
    fdata = proto.AccountFinalModel().serialize(a)
    assert not proto.AccountFinalModel(rt.Limits(max_depth=1)).verify(fdata)
    with pytest.raises(rt.DecodeError) as err:
        proto.AccountFinalModel(rt.Limits(max_message_size=10)).deserialize(fdata)
    assert err.value.code == "too_large"
