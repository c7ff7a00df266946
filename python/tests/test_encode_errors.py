"""A value that does not fit its schema: EncodeError names the field, the schema type and a
code, whichever writer found it (versioned, final, JSON, a Sender)."""

from __future__ import annotations

import uuid
from decimal import Decimal

import everything_fbe as E
import proto_fbe as proto
import protocol_fbe as protocol
import pytest

import fastwire_runtime as rt


def account(**changes):
    a = proto.Account(uid=1, name="Test", wallet=proto.Balance("USD", 1000.0),
                      orders=[proto.Order(1, "EURUSD"), proto.Order(2, "GBPUSD")])
    for name, value in changes.items():
        setattr(a, name, value)
    return a


def errors(value):
    """The EncodeError of each binary model (and of to_json when it fails) for value."""
    module = proto if isinstance(value, proto.Account) else E
    name = type(value).__name__
    out = []
    for model in (getattr(module, name + "Model")(), getattr(module, name + "FinalModel")()):
        with pytest.raises(rt.EncodeError) as info:
            model.serialize(value)
        out.append(info.value)
        buf = bytearray(b"kept")
        with pytest.raises(rt.EncodeError):
            model.serialize_into(buf, value)
        assert buf == b"kept"
    return out


# The three: each used to fail with an internal message and no field.
@pytest.mark.parametrize("field,value,code,path,expected,message", [
    ("uid", "one", "wrong_type", "Account.uid", "int32",
     "cannot serialize Account.uid: expected int32 (an int in -2147483648..2147483647), got "
     "str 'one'"),
    ("name", 1, "wrong_type", "Account.name", "string",
     "cannot serialize Account.name: expected string (a str), got int 1"),
    ("wallet", None, "wrong_type", "Account.wallet", "Balance",
     "cannot serialize Account.wallet: expected Balance (a proto_fbe.Balance), got NoneType None"),
    ("uid", 2 ** 31, "out_of_range", "Account.uid", "int32",
     "cannot serialize Account.uid: 2147483648 does not fit int32 (-2147483648..2147483647)"),
    ("state", 300, "out_of_range", "Account.state", "State",
     "cannot serialize Account.state: 300 does not fit State (0..255)"),
    ("asset", proto.Order(), "wrong_type", "Account.asset", "Balance", None),
    ("orders", {"a": 1}, "wrong_type", "Account.orders", "Order[]", None),
])
def test_account_fields(field, value, code, path, expected, message):
    for err in errors(account(**{field: value})):
        assert (err.code, err.path, err.expected) == (code, path, expected)
        if message:
            assert str(err) == message
        assert err.__cause__ is not None  # the original failure stays attached


def test_nested_paths():
    a = account()
    a.orders[1].price = None
    a.wallet.currency = b"USD"
    for err in errors(a):  # the first bad field in declaration order
        assert (err.code, err.path) == ("wrong_type", "Account.wallet.currency")
    a.wallet.currency = "USD"
    for err in errors(a):
        assert (err.code, err.path, err.expected) == ("wrong_type", "Account.orders[1].price",
                                                      "double")
    with pytest.raises(rt.EncodeError) as info:
        a.to_json()
    assert info.value.path == "Account.orders[1].price"


@pytest.mark.parametrize("value,code,path", [
    (E.Primitives(f_int8=128), "out_of_range", "Primitives.f_int8"),
    (E.Primitives(f_uint64=-1), "out_of_range", "Primitives.f_uint64"),
    (E.Primitives(f_string=5), "wrong_type", "Primitives.f_string"),  # type: ignore[arg-type]
    (E.Primitives(f_uuid="123"), "wrong_type", "Primitives.f_uuid"),  # type: ignore[arg-type]
    (E.Primitives(f_decimal=Decimal(2 ** 96)), "out_of_range", "Primitives.f_decimal"),
    (E.Primitives(f_decimal=1.5), "wrong_type", "Primitives.f_decimal"),  # type: ignore[arg-type]
    (E.Primitives(f_float=1e39), "out_of_range", "Primitives.f_float"),
    (E.Primitives(f_double="x"), "wrong_type", "Primitives.f_double"),  # type: ignore[arg-type]
    (E.Primitives(f_bytes="text"), "wrong_type", "Primitives.f_bytes"),  # type: ignore[arg-type]
    (E.Collections(f_array=[1, 2]), "wrong_length", "Collections.f_array"),
    (E.Collections(f_set={1, "a"}), "wrong_type", "Collections.f_set[1]"),  # type: ignore[arg-type]
])
def test_every_kind_of_field(value, code, path):
    for err in errors(value):
        assert (err.code, err.path.replace("[0]", "[1]")) == (code, path)
        assert err.code in rt.ENCODE_CODES


def test_sender_names_the_field():
    sender = protocol.Sender()
    with pytest.raises(rt.EncodeError) as info:
        sender.send(protocol.OrderMessage(protocol._proto.Order(uid="x")))
    assert (info.value.code, info.value.path) == ("wrong_type", "OrderMessage.body.uid")
    with pytest.raises(rt.EncodeError) as info:
        sender.send(proto.Order())
    assert info.value.code == "wrong_type"
    assert bytes(sender.buffer) == b""


def test_a_value_that_contains_itself():
    a = account()
    a.orders = [a]
    for err in errors(a):
        assert (err.code, err.path) == ("wrong_type", "Account.orders[0]")
    cyclic = []
    cyclic.append(cyclic)
    for err in errors(account(orders=cyclic)):
        assert err.code == "wrong_type"


def test_good_values_are_unaffected():
    a = account(uid=True, state=proto.State.good)  # bool is an int; enums are ints
    assert proto.AccountModel().deserialize(proto.AccountModel().serialize(a)).uid == 1
    E.PrimitivesModel().serialize(E.Primitives(f_uuid=uuid.uuid4(), f_decimal=5, f_double=1))
