"""Versioning (spec §2.5): proto (old) and protoex (new) read each other's data in all
four directions; fields an older writer did not send get their declared defaults."""

from __future__ import annotations

import proto_fbe as proto
import protoex_fbe as protoex
import pytest
from seeds import seed_account, vector

import fastwire_runtime as rt


def new_account() -> protoex.Account:
    return protoex.Account(
        uid=7, name="New", state=protoex.State.good | protoex.State.sad,
        wallet=protoex.Balance("USD", 1000.0, locked=50.0), asset=None,
        orders=[protoex.Order(1, "EURUSD", protoex.OrderSide.tell, protoex.OrderType.stoplimit,
                              1.5, 10.0, tp=2.0, sl=1.0),
                protoex.Order(2, "GBPUSD", protoex.OrderSide.sell, protoex.OrderType.limit,
                              1.25, 5.0)])


def test_old_to_old():
    assert proto.AccountModel().deserialize(vector("account.fbe.hex")) == seed_account()


def test_old_to_new_fills_declared_defaults():
    old = vector("account.fbe.hex")
    assert protoex.AccountModel().verify(old)
    a = protoex.AccountModel().deserialize(old)
    assert (a.uid, a.name, int(a.state)) == (1, "Test", 6)
    assert type(a.wallet) is protoex.Balance and (a.wallet.currency, a.wallet.amount,
                                                  a.wallet.locked) == ("USD", 1000.0, 0.0)
    assert (a.asset.currency, a.asset.amount, a.asset.locked) == ("EUR", 100.0, 0.0)
    assert [(o.uid, o.tp, o.sl) for o in a.orders] == [(1, 10.0, -10.0), (2, 10.0, -10.0),
                                                       (3, 10.0, -10.0)]
    assert a.orders[1].side is protoex.OrderSide.sell
    # As the reference's test_extending: re-written by the new model, 316 bytes.
    assert len(protoex.AccountModel().serialize(a)) == 316


def test_new_to_old_drops_what_it_does_not_know():
    data = protoex.AccountModel().serialize(new_account())
    assert proto.AccountModel().verify(data)
    a = proto.AccountModel().deserialize(data)
    assert (a.uid, a.name) == (7, "New")
    assert int(a.state) == 6 | 0x10 | 0x20  # bits the old flags type has no name for stay
    assert type(a.wallet) is proto.Balance and a.wallet == proto.Balance("USD", 1000.0)
    assert a.asset is None
    first, second = a.orders
    assert first.side == 2 and type(first.side) is int  # an unknown enum value, kept raw
    assert first.type == 3 and type(first.type) is int
    assert str(first) == ('Order(uid=1,symbol="EURUSD",side=<unknown>,type=<unknown>,'
                          'price=1.5,volume=10)')
    assert second == proto.Order(2, "GBPUSD", proto.OrderSide.sell, proto.OrderType.limit,
                                 1.25, 5.0)
    # Unknown values survive a round trip through the old reader.
    again = protoex.AccountModel().deserialize(proto.AccountModel().serialize(a))
    assert again.orders[0].side is protoex.OrderSide.tell
    assert again.orders[0].type is protoex.OrderType.stoplimit
    assert again.state == protoex.State.good | protoex.State.sad


def test_new_to_new():
    data = protoex.AccountModel().serialize(new_account())
    assert protoex.AccountModel().deserialize(data) == new_account()


def test_new_structs_keep_the_old_type_numbers():
    # Balance(base) : proto.Balance keeps number 2, Order(1) and Account(3) are fixed.
    assert (protoex.BalanceModel().type, protoex.OrderModel().type,
            protoex.AccountModel().type) == (2, 1, 3)


def test_final_format_does_not_version():
    """The final format has no sizes to skip by: a reader of another version rejects."""
    new = protoex.AccountFinalModel().serialize(new_account())
    with pytest.raises(rt.DecodeError):
        proto.AccountFinalModel().deserialize(new)
    assert not proto.AccountFinalModel().verify(new)
    assert not protoex.AccountFinalModel().verify(vector("account.final.hex"))


def test_older_version_respects_limits():
    old = vector("account.fbe.hex")
    with pytest.raises(rt.DecodeError) as err:
        protoex.AccountModel(rt.Limits(max_depth=1)).deserialize(old)
    assert err.value.code == "too_deep"
