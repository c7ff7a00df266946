"""The golden vectors and the seed values the tests compare them with."""

from __future__ import annotations

import binascii
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VECTORS = os.path.join(REPO, "tests", "vectors")


def vector(name: str) -> bytes:
    with open(os.path.join(VECTORS, name)) as fh:
        return binascii.unhexlify("".join(fh.read().split()))


def vector_text(name: str) -> str:
    with open(os.path.join(VECTORS, name), encoding="utf-8") as fh:
        return fh.read().strip()


def seed_account():
    import proto_fbe as proto
    return proto.Account(
        uid=1, name="Test", state=proto.State.good,
        wallet=proto.Balance("USD", 1000.0), asset=proto.Balance("EUR", 100.0),
        orders=[proto.Order(1, "EURUSD", proto.OrderSide.buy, proto.OrderType.market, 1.23456, 1000.0),
                proto.Order(2, "EURUSD", proto.OrderSide.sell, proto.OrderType.limit, 1.0, 100.0),
                proto.Order(3, "EURUSD", proto.OrderSide.buy, proto.OrderType.stop, 1.5, 10.0)])


def seed_order():
    import proto_fbe as proto
    return proto.Order(1, "EURUSD", proto.OrderSide.buy, proto.OrderType.market, 1.23456, 1000.0)


def seed_balance():
    import proto_fbe as proto
    return proto.Balance("USD", 1000.0)
