"""Byte-exact agreement with the FBE reference: the golden vectors of tests/vectors were
produced by the reference's generated C++ (spec §7), not by fastwire."""

from __future__ import annotations

import proto_fbe as proto
import pytest
from seeds import seed_account, seed_balance, seed_order, vector, vector_text

SEED_TEXT = (
    'Account(uid=1,name="Test",state=initialized|calculated|good,'
    'wallet=Balance(currency="USD",amount=1000),asset=Balance(currency="EUR",amount=100),'
    'orders=[3][Order(uid=1,symbol="EURUSD",side=buy,type=market,price=1.23456,volume=1000),'
    'Order(uid=2,symbol="EURUSD",side=sell,type=limit,price=1,volume=100),'
    'Order(uid=3,symbol="EURUSD",side=buy,type=stop,price=1.5,volume=10)])')

CASES = [
    ("account", seed_account, proto.AccountModel, proto.AccountFinalModel, 252, 152),
    ("order", seed_order, proto.OrderModel, proto.OrderFinalModel, 52, 40),
    ("balance", seed_balance, proto.BalanceModel, proto.BalanceFinalModel, 35, 23),
]


@pytest.mark.parametrize("name,make,model,final,size,final_size", CASES)
def test_serializes_to_reference_bytes(name, make, model, final, size, final_size):
    data = model().serialize(make())
    assert len(data) == size
    assert data == vector(f"{name}.fbe.hex")
    fdata = final().serialize(make())
    assert len(fdata) == final_size
    assert fdata == vector(f"{name}.final.hex")


@pytest.mark.parametrize("name,make,model,final,size,final_size", CASES)
def test_reference_bytes_verify_and_deserialize(name, make, model, final, size, final_size):
    data, fdata = vector(f"{name}.fbe.hex"), vector(f"{name}.final.hex")
    assert model().verify(data) and model().validate(data) == size
    assert final().verify(fdata) and final().validate(fdata) == final_size
    value, fvalue = model().deserialize(data), final().deserialize(fdata)
    assert value == make() and fvalue == make()
    # Field by field too (== covers every field; this documents the values).
    assert str(value) == str(make())


def test_seed_account_fields():
    a = proto.AccountModel().deserialize(vector("account.fbe.hex"))
    assert (a.uid, a.name, a.state) == (1, "Test", proto.State.good)
    assert a.state == 6 and isinstance(a.state, proto.State)
    assert (a.wallet.currency, a.wallet.amount) == ("USD", 1000.0)
    assert (a.asset.currency, a.asset.amount) == ("EUR", 100.0)
    assert [(o.uid, o.side, o.type, o.price, o.volume) for o in a.orders] == [
        (1, proto.OrderSide.buy, proto.OrderType.market, 1.23456, 1000.0),
        (2, proto.OrderSide.sell, proto.OrderType.limit, 1.0, 100.0),
        (3, proto.OrderSide.buy, proto.OrderType.stop, 1.5, 10.0)]
    assert all(type(o.side) is proto.OrderSide for o in a.orders)


def test_printout_matches_the_cpp_output():
    assert str(seed_account()) == SEED_TEXT
    assert repr(seed_account()) == SEED_TEXT
    assert str(seed_order()) == \
        'Order(uid=1,symbol="EURUSD",side=buy,type=market,price=1.23456,volume=1000)'
    assert str(seed_balance()) == 'Balance(currency="USD",amount=1000)'


@pytest.mark.parametrize("name,make", [("account", seed_account), ("order", seed_order),
                                       ("balance", seed_balance)])
def test_json_matches_the_reference(name, make):
    # No fastwire correction applies to these values: the text is the reference's.
    text = vector_text(f"{name}.json")
    assert make().to_json() == text
    assert type(make()).from_json(text) == make()


def test_pretty_json_reads_too():
    assert proto.Account.from_json(vector_text("account.pretty.json")) == seed_account()


def test_models_read_models_that_follow_each_other():
    data = vector("order.fbe.hex") + vector("balance.fbe.hex")
    order, n = proto.OrderModel().deserialize_sized(data)
    assert order == seed_order() and n == 52
    assert proto.BalanceModel().deserialize(data, n) == seed_balance()
    assert proto.BalanceModel().validate(data, n) == 35
    assert proto.OrderModel().size(data) == 52


def test_serialize_into_appends():
    buf = bytearray(b"xyz")
    assert proto.OrderModel().serialize_into(buf, seed_order()) == 52
    assert bytes(buf) == b"xyz" + vector("order.fbe.hex")
    assert proto.OrderFinalModel().serialize_into(buf, seed_order()) == 40
    assert bytes(buf[55:]) == vector("order.final.hex")


def test_bytearray_and_memoryview_inputs():
    data = vector("account.fbe.hex")
    for form in (bytearray(data), memoryview(data)):
        assert proto.AccountModel().deserialize(form) == seed_account()
        assert proto.AccountModel().verify(form)
