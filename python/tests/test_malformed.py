"""Untrusted input (fastwire's verification contract, python/README.md "Safety"):
every truncation and every single-byte change of each golden vector is either rejected
or read safely; crafted attacks are rejected quickly, without allocating more than a
small amount. Nothing but DecodeError is ever raised."""

from __future__ import annotations

import struct
import time
import tracemalloc

import hostile_fbe as hostile
import proto_fbe as proto
import pytest
from seeds import vector

import fastwire_runtime as rt

MODELS = {
    "account.fbe.hex": proto.AccountModel, "order.fbe.hex": proto.OrderModel,
    "balance.fbe.hex": proto.BalanceModel, "account.final.hex": proto.AccountFinalModel,
    "order.final.hex": proto.OrderFinalModel, "balance.final.hex": proto.BalanceFinalModel,
}
SLOW = 0.05  # seconds: far above what any input of these sizes needs


def check(model, data: bytes) -> bool:
    """verify() and deserialize() agree; an accepted value re-serializes to bytes that
    verify and read back to the same value; all of it in bounded time (an input that is
    slow is timed again: this machine may be busy). Returns whether it was accepted."""
    started = time.perf_counter()
    accepted = _check(model, data)
    if time.perf_counter() - started >= SLOW:
        started = time.perf_counter()
        _check(model, data)
        assert time.perf_counter() - started < SLOW
    return accepted


def _check(model, data: bytes) -> bool:
    ok = model.verify(data)
    try:
        value = model.deserialize(data)
    except rt.DecodeError:
        assert not ok, "verify() accepted what deserialize() rejects"
        accepted = False
    else:
        assert ok, "deserialize() accepted what verify() rejects"
        again = model.serialize(value)
        assert model.verify(again)
        assert repr(model.deserialize(again)) == repr(value)
        accepted = True
    return accepted


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_truncation(name):
    data, model = vector(name), MODELS[name]()
    for n in range(len(data)):
        assert not check(model, data[:n])
        # The same, with the size field saying the truncated length: the damage is then
        # inside the message, not at its header.
        if n >= 4:
            assert not check(model, struct.pack("<I", n) + data[4:n]) or n == len(data)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_single_byte_change(name):
    data, model = vector(name), MODELS[name]()
    accepted = 0
    for i in range(len(data)):
        mutant = bytearray(data)
        for b in range(256):
            if b == data[i]:
                continue
            mutant[i] = b
            accepted += check(model, bytes(mutant))
    assert accepted > 0  # changes to plain numbers are valid messages


def bounded(fn, code: str, limit: int = 64 * 1024, seconds: float = 0.001) -> None:
    """fn() raises DecodeError(code) in well under `seconds`, having allocated < limit."""
    tracemalloc.start()
    try:
        started = time.perf_counter()
        with pytest.raises(rt.DecodeError) as err:
            fn()
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert err.value.code == code
    assert peak < limit, f"{peak} bytes allocated"
    assert elapsed < seconds * 50  # tracemalloc slows Python down; the real bound is below
    best = float("inf")
    for _ in range(5):  # the best of a few runs: this machine may be busy
        started = time.perf_counter()
        with pytest.raises(rt.DecodeError):
            fn()
        best = min(best, time.perf_counter() - started)
    assert best < seconds


def patched(data: bytes, at: int, fmt: str, *values) -> bytes:
    out = bytearray(data)
    struct.pack_into("<" + fmt, out, at, *values)
    return bytes(out)


def test_four_billion_elements():
    model, fmodel = proto.AccountModel(), proto.AccountFinalModel()
    data = patched(vector("account.fbe.hex"), 104, "I", 0xFFFFFFFF)  # the orders count
    bounded(lambda: model.verify(data) or model.validate(data), "truncated")
    bounded(lambda: model.deserialize(data), "truncated")
    fdata = patched(vector("account.final.hex"), 52, "I", 0xFFFFFFFF)
    bounded(lambda: fmodel.deserialize(fdata), "truncated")
    bounded(lambda: fmodel.validate(fdata), "truncated")
    # The reference's 20-byte message that declares 4 294 967 295 elements.
    small = patched(bytes(20), 0, "IIIII", 20, 8, 12, 3, 0)
    assert not proto.OrderModel().verify(small)
    tiny = struct.pack("<IIIII", 20, 8, 12, 2, 12) + b""
    bounded(lambda: proto.BalanceModel().deserialize(tiny), "truncated")


def test_offsets_must_lead_forward():
    data = vector("account.fbe.hex")
    own = patched(data, 20, "I", 0)  # Account.name -> the Account body itself
    own = patched(own, 20, "I", 4)
    bounded(lambda: proto.AccountModel().deserialize(own), "bad_offset")
    back = patched(data, 0x22, "I", 8)  # Account.orders -> before its own slot
    bounded(lambda: proto.AccountModel().validate(back), "bad_offset")
    root = patched(data, 4, "I", 4)  # the root offset pointing at itself
    bounded(lambda: proto.AccountModel().deserialize(root), "bad_offset")
    null_struct = patched(data, 0x19, "I", 0)  # Account.wallet = 0
    bounded(lambda: proto.AccountModel().deserialize(null_struct), "bad_offset")
    set_null = patched(data, 0x1E, "I", 0)  # Account.asset: flag 1, offset 0
    bounded(lambda: proto.AccountModel().deserialize(set_null), "bad_offset")


def test_wrong_types_sizes_and_scales():
    data, model = vector("account.fbe.hex"), proto.AccountModel()
    for at, value, code in [(12, 2, "bad_type"), (8, 7, "bad_size"), (8, 250, "truncated"),
                            (0, 12, "bad_size"), (0, 0xFFFFFFFF, "too_large")]:
        bad = patched(data, at, "I", value)
        bounded(lambda bad=bad: model.deserialize(bad), code)
    fmodel = proto.AccountFinalModel()
    wrong_type = patched(vector("account.final.hex"), 4, "I", 1)
    bounded(lambda: fmodel.deserialize(wrong_type), "bad_type")
    fdata = vector("account.final.hex") + b"\0"
    longer = patched(fdata, 0, "I", len(fdata))
    bounded(lambda: fmodel.deserialize(longer), "bad_size")  # fields must fill the model



def nested(depth: int) -> hostile.Node:
    node = hostile.Node(depth)
    for level in range(depth - 1, 0, -1):
        node = hostile.Node(level, [node])
    return node


@pytest.mark.parametrize("model_class", [hostile.NodeModel, hostile.NodeFinalModel])
def test_deep_nesting(model_class):
    deep = model_class(rt.Limits(max_depth=1000)).serialize(nested(100))
    # Rejected at level 64: what is allocated by then (Python frames and the values
    # built so far, for 64 levels) depends on Limits.max_depth, not on the message.
    bounded(lambda: model_class().deserialize(deep), "too_deep", 256 * 1024, seconds=0.005)
    bounded(lambda: model_class().validate(deep), "too_deep", 256 * 1024, seconds=0.005)
    assert model_class(rt.Limits(max_depth=100)).verify(deep)
    assert not model_class(rt.Limits(max_depth=99)).verify(deep)
    assert model_class(rt.Limits(max_depth=100)).deserialize(deep) == nested(100)
    # Far deeper than Python's recursion limit: rejected, not a RecursionError.
    import sys
    very = model_class(rt.Limits(max_depth=10 ** 6))
    if sys.getrecursionlimit() < 20000:
        with pytest.raises(rt.DecodeError):
            very.deserialize(_deep_bytes(model_class, 3000))


def _deep_bytes(model_class, depth: int) -> bytes:
    """A chain of `depth` nodes, built without recursion."""
    if model_class is hostile.NodeFinalModel:
        body = b"".join(struct.pack("<iI", i, 1) for i in range(depth)) + struct.pack("<iI", 0, 0)
        return struct.pack("<II", 8 + len(body), 1) + body
    out = bytearray(struct.pack("<II", 0, 8))
    for i in range(depth + 1):
        out += struct.pack("<IIiI", 16, 1, i, 16 if i < depth else 0)
        if i < depth:  # [count 1][slot -> next body, relative to this body]
            out += struct.pack("<II", 1, 24)
    struct.pack_into("<I", out, 0, len(out))
    return bytes(out)


def test_shared_blocks_exceed_the_budget():
    """Slots that all point at one big string would make the reader produce far more
    than the message holds: the budget (bytes visited <= message size) stops it."""
    bag = hostile.Bag(words=["x" * 1000] + [""] * 999)
    data = bytearray(hostile.BagModel().serialize(bag))
    body = 8
    words_slot = body + 8 + 4 + 4  # items, names, words
    block = body + struct.unpack_from("<I", data, words_slot)[0]
    first = struct.unpack_from("<I", data, block + 4)[0]
    for i in range(1000):
        struct.pack_into("<I", data, block + 4 + 4 * i, first)
    bounded(lambda: hostile.BagModel().deserialize(bytes(data)), "over_budget", seconds=0.01)
    assert hostile.BagModel().deserialize(hostile.BagModel().serialize(bag)) == bag


def test_zero_size_elements_are_capped():
    fmodel = hostile.BagFinalModel()
    ok = fmodel.serialize(hostile.Bag(items=[hostile.Nothing()] * 65536))
    assert len(fmodel.deserialize(ok).items) == 65536
    too_many = patched(ok, 8, "I", 65537)
    bounded(lambda: fmodel.deserialize(too_many), "too_large")
    huge = patched(ok, 8, "I", 0xFFFFFFFF)
    bounded(lambda: fmodel.validate(huge), "too_large")
    assert len(hostile.BagFinalModel(rt.Limits(max_zero_size_elements=10 ** 6)).deserialize(
        patched(ok, 8, "I", 65536)).items) == 65536


def test_allocation_is_bounded_by_the_message():
    """What a deserialize of a valid but dense message allocates is a bounded multiple
    of its size (Python objects cost more than their bytes; here < 100x)."""
    bag = hostile.Bag(names=[None] * 20000, words=[""] * 20000)
    data = hostile.BagModel().serialize(bag)
    tracemalloc.start()
    try:
        hostile.BagModel().deserialize(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * len(data)


def test_garbage_never_raises_anything_else():
    import random
    rng = random.Random(7)
    models = [proto.AccountModel(), proto.AccountFinalModel(), hostile.BagModel(),
              hostile.BagFinalModel(), hostile.NodeModel(), hostile.NodeFinalModel()]
    for _ in range(3000):
        n = rng.randrange(0, 80)
        data = bytearray(rng.getrandbits(8) for _ in range(n))
        if n >= 8 and rng.random() < 0.7:
            struct.pack_into("<I", data, 0, n)  # a plausible size
            if rng.random() < 0.5:
                struct.pack_into("<I", data, 4, 8)
        for m in models:
            check(m, bytes(data))
