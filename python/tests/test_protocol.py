"""Sender/Receiver (spec §5) against the reference's protocol vectors.

schemas/protocol.fbe declares the three messages with the numbers the vectors carry
(1, 2, 3); the streams are OrderMessage, BalanceMessage, AccountMessage."""

from __future__ import annotations

import protocol_fbe as protocol
import pytest
from seeds import seed_account, seed_balance, seed_order, vector

import fastwire_runtime as rt

MESSAGES = [protocol.OrderMessage(seed_order()), protocol.BalanceMessage(seed_balance()),
            protocol.AccountMessage(seed_account())]

FAMILIES = [
    ("protocol.hex", protocol.Sender, protocol.Receiver, [64, 47, 264]),
    ("protocol.final.hex", protocol.FinalSender, protocol.FinalReceiver, [40, 23, 152]),
]


class Collect:
    """Mixin: records what the hooks receive."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.got = []
        self.unknown = []
        self.errors = []

    def on_receive_order_message(self, value):
        self.got.append(value)

    def on_receive_balance_message(self, value):
        self.got.append(value)

    def on_receive_account_message(self, value):
        self.got.append(value)

    def on_receive_unknown(self, type_number, data):
        self.unknown.append((type_number, data))

    def on_receive_error(self, error, data):
        self.errors.append(error.code)


def collector(receiver_class):
    return type("Collecting" + receiver_class.__name__, (Collect, receiver_class), {})


@pytest.mark.parametrize("name,sender_class,receiver_class,sizes", FAMILIES)
def test_sender_writes_the_reference_stream(name, sender_class, receiver_class, sizes):
    sender = sender_class()
    assert [sender.send(m) for m in MESSAGES] == sizes
    assert bytes(sender.buffer) == vector(name)


@pytest.mark.parametrize("name,sender_class,receiver_class,sizes", FAMILIES)
def test_on_send_takes_what_it_sends(name, sender_class, receiver_class, sizes):
    sent = []

    class Partial(sender_class):
        def on_send(self, data):
            sent.append(data[:5])
            return min(5, len(data))  # a slow socket: five bytes at a time

    sender = Partial()
    for m in MESSAGES:
        sender.send(m)
    stream = b"".join(sent) + bytes(sender.buffer)
    assert stream == vector(name)
    assert len(sender.buffer) == sum(sizes) - 15


@pytest.mark.parametrize("name,sender_class,receiver_class,sizes", FAMILIES)
def test_receiver_at_every_split(name, sender_class, receiver_class, sizes):
    """The stream cut in three at every pair of positions i <= j (as the reference's
    tests do); every cut delivers the same three messages."""
    stream = vector(name)
    cls = collector(receiver_class)
    n = len(stream)
    for i in range(n + 1):
        for j in range(i, n + 1):
            r = cls()
            handled = r.receive(stream[:i]) + r.receive(stream[i:j]) + r.receive(stream[j:])
            assert handled == 3
            assert r.got == MESSAGES, (i, j)
            assert not r.errors and not r.unknown and r.pending == 0


@pytest.mark.parametrize("name,sender_class,receiver_class,sizes", FAMILIES)
def test_byte_by_byte(name, sender_class, receiver_class, sizes):
    r = collector(receiver_class)()
    for b in vector(name):
        r.receive(bytes([b]))
    assert r.got == MESSAGES


def test_unknown_types_are_skipped_and_reported():
    # A receiver that knows none of the three types reports each as unknown. (proto's own
    # receiver knows its structs, by the protocol rule: docs/schema-language.md.)
    class Nothing(rt.Receiver):
        _fbe_handlers = {}  # knows no type

    r = collector(Nothing)()
    assert r.receive(vector("protocol.hex")) == 3
    assert r.got == [] and [t for t, _ in r.unknown] == [1, 2, 3]
    assert [len(d) for _, d in r.unknown] == [64, 47, 264]
    # A message of an unknown type between known ones does not disturb them.
    stream = vector("protocol.hex")
    alien = bytearray(stream[:64])
    alien[12] = 99  # the root struct's type
    r = collector(protocol.Receiver)()
    r.receive(bytes(alien) + stream)
    assert [t for t, _ in r.unknown] == [99] and r.got == MESSAGES


def test_malformed_messages_are_reported_and_skipped():
    stream = vector("protocol.hex")
    bad = bytearray(stream[:64])
    bad[16] = 0  # OrderMessage.body offset: 0 where a struct is required
    r = collector(protocol.Receiver)()
    r.receive(bytes(bad) + stream)
    assert r.errors == ["bad_offset"] and r.got == MESSAGES


def test_default_error_hook_raises():
    stream = bytearray(vector("protocol.final.hex"))
    stream[8] = 0xFF  # Order.uid... harmless; the string length is not:
    stream[12] = 0xFF
    with pytest.raises(rt.DecodeError):
        protocol.FinalReceiver().receive(bytes(stream))


@pytest.mark.parametrize("receiver_class,minimum", [(protocol.Receiver, 16),
                                                    (protocol.FinalReceiver, 8)])
def test_impossible_sizes_drop_the_stream(receiver_class, minimum):
    r = collector(receiver_class)()
    r.receive((minimum - 1).to_bytes(4, "little") + b"\0" * 40)
    assert r.errors == ["bad_size"] and r.pending == 0
    # A size above the limit is refused before anything is buffered for it.
    r = collector(receiver_class)(rt.Limits(max_message_size=1000))
    r.receive((1001).to_bytes(4, "little"))
    assert r.errors == ["too_large"] and r.pending == 0


def test_receiver_limits_apply_to_messages():
    r = collector(protocol.Receiver)(rt.Limits(max_depth=2))  # AccountMessage nests 3 deep
    r.receive(vector("protocol.hex"))
    assert len(r.got) == 2 and r.errors == ["too_deep"]


def test_only_messages_are_sendable():
    with pytest.raises(rt.EncodeError):
        protocol.Sender().send(seed_order())


def test_a_package_without_messages_sends_its_structs():
    import proto_fbe as proto
    sender = proto.Sender()
    sender.send(seed_order())
    assert set(proto.Receiver._fbe_handlers) == {1, 2, 3}
    got = []

    class Orders(proto.Receiver):
        def on_receive_order(self, value):
            got.append(value)

    Orders().receive(bytes(sender.buffer))
    assert got == [seed_order()]


def test_serialize_errors_leave_the_queue_as_it_was():
    sender = protocol.Sender()
    sender.send(MESSAGES[0])
    with pytest.raises(rt.EncodeError):
        sender.send(protocol.OrderMessage(protocol._proto.Order(uid="not a number")))
    assert bytes(sender.buffer) == vector("protocol.hex")[:64]


@pytest.mark.parametrize("name,sender_class,receiver_class,sizes", FAMILIES)
def test_damaged_streams(name, sender_class, receiver_class, sizes):
    """Every truncation, and five changes of every byte, of each stream: the receiver
    hands over only valid messages, reports the rest through its hooks, and never raises
    or stalls."""
    stream = vector(name)
    cls = collector(receiver_class)
    ends = [sum(sizes[:k + 1]) for k in range(3)]
    for n in range(len(stream)):
        r = cls()
        r.receive(stream[:n])
        assert r.got == MESSAGES[:sum(1 for e in ends if e <= n)]
        assert r.pending == n - max([0] + [e for e in ends if e <= n])
    for i, old in enumerate(stream):
        for new in {0x00, 0xFF, old ^ 0x01, old ^ 0x80, (old + 1) & 0xFF} - {old}:
            damaged = bytearray(stream)
            damaged[i] = new
            r = cls()
            r.receive(bytes(damaged))
            for value in r.got:
                assert type(value) in (protocol.OrderMessage, protocol.BalanceMessage,
                                       protocol.AccountMessage)
            # A damaged size field can split one message into two frames, no more.
            assert len(r.got) + len(r.errors) + len(r.unknown) <= 4
