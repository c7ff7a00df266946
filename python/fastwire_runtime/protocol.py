"""Sender and Receiver (spec §5): messages as a byte stream, in either binary format.

The generated module of each package derives `Sender`, `Receiver`, `FinalSender` and
`FinalReceiver` from these classes and fills in its message types (and those of the
packages it imports). Only `message` declarations are sendable.

    class Printer(protocol.Receiver):
        def on_receive_order_message(self, value):        # one hook per message type
            print(value)

    sender = protocol.Sender()                          # on_send() keeps bytes queued
    sender.send(protocol.OrderMessage(body=order))
    receiver = Printer()
    receiver.receive(sender.buffer[:10])                # any chunking
    receiver.receive(sender.buffer[10:])                # -> prints the message

Framing: each message is one root model, back to back, no extra framing: versioned
[u32 size][u32 8][u32 struct size][u32 type]…, final [u32 size][u32 type]….
"""

from __future__ import annotations

import struct
from typing import Any, ClassVar, Dict, Optional, Tuple

from .errors import DecodeError, EncodeError
from .limits import DEFAULT_LIMITS, Limits
from .model import _ModelBase

_u32_from = struct.Struct("<I").unpack_from


class Sender:
    """Serializes messages into `buffer` and offers the queued bytes to on_send().

    `send(value)` appends the message and calls `on_send(all queued bytes)`; the number
    of bytes on_send() returns is dropped from the queue, the rest stays queued for the
    next send. The default on_send() takes nothing, so `buffer` holds the whole stream.
    """

    _fbe_models: ClassVar[Dict[type, _ModelBase]] = {}

    def __init__(self) -> None:
        self.buffer = bytearray()

    def send(self, value: Any) -> int:
        """Sends one message; returns its serialized size."""
        model = self._fbe_models.get(type(value))
        if model is None:
            raise EncodeError(f"{type(value).__name__} is not a message of this protocol",
                              "wrong_type", type(value).__name__)
        n = model.serialize_into(self.buffer, value)
        if type(self).on_send is not Sender.on_send:  # (the default takes nothing)
            taken = self.on_send(bytes(self.buffer))
            if taken:
                del self.buffer[:taken]
        return n

    def on_send(self, data: bytes) -> int:
        """Called with every byte still queued; returns how many were sent."""
        return 0

    def reset(self) -> None:
        self.buffer.clear()


class Receiver:
    """Reassembles messages from chunks of any size and dispatches them by type number.

    For each complete message: a known type is deserialized (with every check) and
    passed to its `on_receive_<snake_case_name>` hook; an unknown type goes to
    `on_receive_unknown(type, data)`; a malformed message, or a size field that cannot
    start a message (below the header size or above Limits.max_message_size), goes to
    `on_receive_error(error, data)`, which raises by default. A bad size field cannot be
    resynchronised from, so the bytes queued at that point are dropped.
    """

    _fbe_handlers: ClassVar[Dict[int, Tuple[_ModelBase, str]]] = {}
    _fbe_final: ClassVar[bool] = False

    def __init__(self, limits: Optional[Limits] = None) -> None:
        self.limits = limits or DEFAULT_LIMITS
        self._pending = bytearray()
        # The class's models, with this receiver's limits.
        self._handlers = {t: (type(m)(self.limits), hook)
                          for t, (m, hook) in self._fbe_handlers.items()}

    @property
    def pending(self) -> int:
        """Bytes received that do not complete a message yet."""
        return len(self._pending)

    def reset(self) -> None:
        self._pending.clear()

    def receive(self, data: Any) -> int:
        """Feeds received bytes; returns the number of complete messages handled."""
        pending = self._pending
        pending += data
        minimum = 8 if self._fbe_final else 16
        handled = 0
        while len(pending) >= 4:
            size = _u32_from(pending, 0)[0]
            if size < minimum or size > self.limits.max_message_size:
                junk = bytes(pending)
                pending.clear()
                self.on_receive_error(DecodeError(
                    "bad_size" if size < minimum else "too_large",
                    f"message size {size}"), junk)
                break
            if len(pending) < size:
                break
            message = bytes(pending[:size])
            del pending[:size]
            handled += 1
            self._dispatch(message)
        return handled

    def _type_of(self, message: bytes) -> Optional[int]:
        if self._fbe_final:
            return _u32_from(message, 4)[0]
        root = _u32_from(message, 4)[0]
        if root > len(message) - 8:
            return None
        return _u32_from(message, root + 4)[0]

    def _dispatch(self, message: bytes) -> None:
        type_number = self._type_of(message)
        if type_number is None:
            self.on_receive_error(DecodeError("truncated", "root offset"), message)
            return
        entry = self._handlers.get(type_number)
        if entry is None:
            self.on_receive_unknown(type_number, message)
            return
        model, hook = entry
        try:
            value = model.deserialize(message)
        except DecodeError as err:
            self.on_receive_error(err, message)
            return
        getattr(self, hook)(value)

    def on_receive_unknown(self, type_number: int, data: bytes) -> None:
        """A message whose type no package of this protocol declares (skipped)."""

    def on_receive_error(self, error: DecodeError, data: bytes) -> None:
        """A malformed message or stream. Raises `error` unless overridden."""
        raise error


class FinalSender(Sender):
    """Sender in the final format."""


class FinalReceiver(Receiver):
    """Receiver in the final format."""

    _fbe_final = True


__all__ = ["Sender", "Receiver", "FinalSender", "FinalReceiver"]
