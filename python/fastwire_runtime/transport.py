"""The protocol over TCP (and TLS) on asyncio: the contract in docs/transport.md.

    class Handler(service.Receiver):                 # one per connection
        def __init__(self, peer):
            super().__init__()
            self.peer = peer
        def on_receive_order_request(self, q):
            self.peer.send(service.OrderAck(q.id, 1, q.order))   # to the client that asked

    server = Server(Handler, service.Sender, "0.0.0.0", 0)     # port 0: ephemeral
    await server.start()                                       # server.port
    client = Client(service.Receiver, service.Sender)          # or a Receiver subclass
    await client.connect("127.0.0.1", server.port)
    ack = await client.request(service.OrderRequest(order=o), service.OrderAck,
                               rejects=(service.OrderReject,))  # RequestError on timeout
    await client.close()
    await server.stop()

Every callback runs on the event loop; send() never blocks (see Options.overflow).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any, Callable, Dict, Optional, Tuple

from .errors import DecodeError
from .limits import Limits

LogFunction = Callable[[str], None]


@dataclasses.dataclass
class Options:
    """Every bound and timeout of a connection (seconds; 0: off). docs/transport.md."""

    max_queued_bytes: int = 8 << 20  # per connection, bytes not yet written
    overflow: str = "disconnect"  # or "fail"; "block" is send_wait()
    write_timeout: float = 10.0  # no write progress this long: drop
    message_timeout: float = 10.0  # a message begun must be whole within this: drop
    idle_timeout: float = 0.0  # nothing received this long: close
    shutdown_timeout: float = 5.0  # close()/stop(): longest wait for the flush
    connect_timeout: float = 5.0  # TCP connect + TLS handshake
    request_timeout: float = 10.0  # requests without their own timeout
    reconnect_delay: float = 0.0  # client: first retry after a drop (0: no reconnect)
    reconnect_max_delay: float = 5.0
    max_connections: int = 10000
    limits: Optional[Limits] = None


class TransportError(ConnectionError):
    """A connect, bind or handshake failure."""


class RequestError(Exception):
    """A request failed: kind is 'rejected', 'timeout', 'disconnected' or 'overflow'."""

    def __init__(self, kind: str, message: str, reject: Any = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.reject = reject


def _guarded(cls: Any) -> Any:  # a generated Receiver class, extended with attributes
    """A subclass of the Receiver `cls` that notices undecodable input (the connection
    then closes) and lets a Client intercept responses before the hooks."""
    cached = cls.__dict__.get("_fw_guarded")
    if cached is not None:
        return cached
    ns: Dict[str, Any] = {}

    def on_receive_error(self, error, data):
        if self._fw_failed is None:
            self._fw_failed = f"protocol error: {error}"
        try:
            cls.on_receive_error(self, error, data)
        except DecodeError:
            pass

    ns["on_receive_error"] = on_receive_error
    for _, hook in cls._fbe_handlers.values():
        original = getattr(cls, hook)

        def make(original):
            def intercepting(self, value):
                if self._fw_intercept is None or not self._fw_intercept(value):
                    original(self, value)
            return intercepting

        ns[hook] = make(original)
    guarded: Any = type(cls.__name__, (cls,), ns)
    guarded._fw_failed = None
    guarded._fw_intercept = None
    cls._fw_guarded = guarded
    return guarded


class _Out:
    """The generated Sender of one connection: bytes go to the connection's queue."""

    def __init__(self, sender_cls: type, link: "_Link") -> None:
        link_ref = link

        class Out(sender_cls):
            def on_send(self, data: bytes) -> int:
                self.ok = link_ref.write(data)
                return len(data)

        self.sender = Out()

    def send(self, value: Any) -> bool:
        self.sender.ok = False
        self.sender.send(value)
        return self.sender.ok


class _Link(asyncio.Protocol):
    """One connection: reading into a receiver, the bounded queue, the timeouts."""

    def __init__(self, options: Options, log: Optional[LogFunction], name: str,
                 keep_reading_on_close: bool) -> None:
        self.options = options
        self.log = log
        self.name = name
        self.transport: Optional[asyncio.Transport] = None
        self.receiver: Any = None
        self.closed = asyncio.get_running_loop().create_future()
        self.state = "connecting"
        self.reason = ""
        self.keep_reading = keep_reading_on_close
        self.partial_since: Optional[float] = None
        self.last_read = time.monotonic()
        self.last_size = 0
        self.last_progress = time.monotonic()
        self.deadline = 0.0
        self.discard = False
        self.on_open: Optional[Callable[[], None]] = None
        self.on_close: Optional[Callable[[str], None]] = None
        self.on_tick: Optional[Callable[[], None]] = None
        timeouts = [t for t in (options.write_timeout, options.message_timeout,
                                options.idle_timeout) if t > 0]
        self.tick = max(0.005, min([0.25] + [t / 4 for t in timeouts]))
        self._timer: Optional[asyncio.TimerHandle] = None

    # asyncio.Protocol
    def connection_made(self, transport) -> None:
        self.transport = transport
        self.state = "open"
        self.last_read = self.last_progress = time.monotonic()
        self._timer = asyncio.get_running_loop().call_later(self.tick, self._on_tick)
        if self.on_open:
            self.on_open()

    def data_received(self, data: bytes) -> None:
        if self.state == "closed" or self.discard:
            return
        self.last_read = time.monotonic()
        receiver = self.receiver
        try:
            receiver.receive(data)
        except Exception as err:  # a hook raised: the connection cannot go on
            return self.abort(f"handler error: {err!r}")
        if receiver._fw_failed is not None:
            why, receiver._fw_failed = receiver._fw_failed, None
            return self.abort(why)
        if receiver.pending == 0:
            self.partial_since = None
        elif self.partial_since is None:
            self.partial_since = self.last_read

    def eof_received(self) -> bool:
        held = 0 if self.discard else self.receiver.pending
        if held:
            self.abort("peer closed the connection in the middle of a message "
                       f"({held} bytes received)")
            return False
        if self.state == "closing":
            self.abort(self.reason)
            return False
        # The peer sends no more: flush what is queued, then close.
        self.begin_close("peer closed the connection", False)
        return True  # keep the transport open for the flush

    def connection_lost(self, exc) -> None:
        if self.state != "closed":
            why = self.reason if self.state == "closing" else (
                f"connection lost: {exc}" if exc else "peer closed the connection")
            self._finish(why)

    # the queue
    def queued(self) -> int:
        return self.transport.get_write_buffer_size() if self.transport else 0

    def write(self, data: bytes) -> bool:
        if self.state != "open":
            return False
        queued = self.queued()
        if queued + len(data) > self.options.max_queued_bytes:
            if self.options.overflow == "disconnect":
                self.abort(f"send queue full ({queued} bytes queued, {len(data)} more, "
                           f"limit {self.options.max_queued_bytes})")
            return False
        if queued == 0:
            self.last_progress = time.monotonic()
        assert self.transport is not None  # an open link has its transport
        self.transport.write(data)
        return True

    # closing
    def begin_close(self, reason: str, keep_reading: bool) -> None:
        if self.state != "open":
            return
        self.state = "closing"
        self.reason = reason
        self.discard = not keep_reading
        self.deadline = time.monotonic() + self.options.shutdown_timeout
        transport = self.transport
        assert transport is not None  # an open link has its transport
        if transport.can_write_eof() and keep_reading:
            transport.write_eof()  # after the queued bytes; the peer's close ends it
        else:
            transport.close()  # flushes the queue first

    def abort(self, reason: str) -> None:
        if self.state == "closed":
            return
        if self.transport is not None:
            self.transport.abort()
        self._finish(reason)

    def _finish(self, reason: str) -> None:
        self.state = "closed"
        if self._timer:
            self._timer.cancel()
        if self.log is not None:
            self.log(f"{self.name} closed: {reason}")
        if self.on_close:
            self.on_close(reason)
        if not self.closed.done():
            self.closed.set_result(reason)

    def _on_tick(self) -> None:
        if self.state == "closed":
            return
        now = time.monotonic()
        o = self.options
        size = self.queued()
        if size < self.last_size or size == 0:
            self.last_progress = now
        self.last_size = size
        if self.partial_since is not None and o.message_timeout > 0 and \
                now - self.partial_since > o.message_timeout:
            return self.abort(f"message incomplete after {int((now - self.partial_since) * 1000)} "
                              f"ms ({self.receiver.pending} bytes received)")
        if size and o.write_timeout > 0 and now - self.last_progress > o.write_timeout:
            return self.abort(f"peer not reading: no write progress for "
                              f"{int((now - self.last_progress) * 1000)} ms ({size} bytes queued)")
        if self.state == "open" and o.idle_timeout > 0 and now - self.last_read > o.idle_timeout:
            self.begin_close(f"idle for {int((now - self.last_read) * 1000)} ms", False)
        if self.state == "closing" and now > self.deadline:
            return self.abort(f"{self.reason}; shutdown timed out with {size} bytes unsent")
        if self.on_tick:
            self.on_tick()
        self._timer = asyncio.get_running_loop().call_later(self.tick, self._on_tick)


def _name(transport) -> str:
    peer = transport.get_extra_info("peername")
    if not peer:
        return "?"
    host, port = peer[0], peer[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class Peer:
    """The sending side of one server connection (handlers keep it)."""

    def __init__(self, sender_cls: type, link: _Link, id_: int, remote: str) -> None:
        self._out = _Out(sender_cls, link)
        self._link = link
        self.id = id_
        self.remote = remote

    def send(self, value: Any) -> bool:
        """Queues one message; False when not queued (closed, or the queue is full and the
        overflow policy applied)."""
        return self._out.send(value)

    async def send_wait(self, value: Any) -> bool:
        """The 'block' policy: waits for room (up to write_timeout), then sends."""
        return await _send_wait(self._link, self._out, value)

    def close(self, reason: str = "closed by the server") -> None:
        """Flushes what is queued, then closes."""
        self._link.begin_close(reason, False)

    @property
    def queued(self) -> int:
        return self._link.queued()


async def _send_wait(link: _Link, out: _Out, value: Any) -> bool:
    end = time.monotonic() + (link.options.write_timeout or 1.0)
    while link.state == "open" and link.queued() >= link.options.max_queued_bytes // 2:
        if time.monotonic() > end:
            link.abort(f"peer not reading: no room for {link.options.write_timeout} s")
            return False
        await asyncio.sleep(0.005)
    return out.send(value)


class Server:
    """Accepts on host:port (IPv4 or IPv6; port 0: ephemeral) and gives each connection a
    Peer and a handler made as handler(peer): a subclass of a generated Receiver."""

    def __init__(self, handler: Callable[[Peer], Any], sender: type, host: str, port: int, *,
                 options: Optional[Options] = None, ssl=None,
                 log: Optional[LogFunction] = None) -> None:
        self.handler = handler
        self.sender = sender
        self.host, self.requested_port = host, port
        self.options = options or Options()
        self.ssl = ssl
        self.log = log
        self.links: Dict[int, _Link] = {}
        self.accepted = 0
        self._server: Optional[asyncio.base_events.Server] = None
        self.port = 0

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            self._server = await loop.create_server(
                self._make, self.host, self.requested_port, ssl=self.ssl, backlog=4096,
                ssl_handshake_timeout=self.options.connect_timeout if self.ssl else None)
        except OSError as err:
            raise TransportError(f"cannot listen on {self.host}:{self.requested_port}: {err}") from err
        self.port = self._server.sockets[0].getsockname()[1]

    def _make(self) -> _Link:
        self.accepted += 1
        id_ = self.accepted
        link = _Link(self.options, self.log, f"connection {id_}", False)

        def opened():
            link.name = f"connection {id_} {_name(link.transport)}"
            if len(self.links) >= self.options.max_connections:
                if self.log is not None:
                    self.log(f"{link.name} refused: {len(self.links)} connections open "
                             "(max_connections)")
                link.state = "closed"
                link.transport.abort()
                return
            self.links[id_] = link
            peer = Peer(self.sender, link, id_, _name(link.transport))
            link.receiver = _guarded(self.handler)(peer)
            if self.log is not None:
                self.log(f"{link.name} accepted")

        link.on_open = opened
        def closed(_reason: str) -> None:
            self.links.pop(id_, None)

        link.on_close = closed
        return link

    async def stop(self) -> None:
        """Stops accepting and handling input, flushes every queue, closes; returns when
        every connection is closed (at most shutdown_timeout + a tick)."""
        if self._server is None:
            return
        self._server.close()
        links = list(self.links.values())
        for link in links:
            link.begin_close("server stopping", False)
        if links:
            await asyncio.wait([link.closed for link in links],
                               timeout=self.options.shutdown_timeout + 1.0)
        for link in links:
            link.abort("server stopped")
        await self._server.wait_closed()
        self._server = None

    @property
    def connections(self) -> int:
        return len(self.links)


def guard(receiver_cls: type) -> type:
    """The class a Server or Client instantiates for a generated Receiver subclass (it
    notices undecodable input and lets the Client match responses)."""
    return _guarded(receiver_cls)


class Client:
    """One connection to a server, with requests matched on their `id` field."""

    def __init__(self, receiver: type, sender: type, *, options: Optional[Options] = None,
                 ssl=None, server_hostname: Optional[str] = None,
                 log: Optional[LogFunction] = None) -> None:
        self.options = options or Options()
        self.ssl = ssl
        self.server_hostname = server_hostname
        self.log = log
        self.handler = _guarded(receiver)(self.options.limits) if self.options.limits \
            else _guarded(receiver)()
        self.handler._fw_intercept = self._intercept
        self._sender_cls = sender
        self._link: Optional[_Link] = None
        self._out: Optional[_Out] = None
        self._pending: Dict[Any, Tuple[asyncio.Future, type, tuple, float]] = {}
        self._closing = False
        self.connects = 0
        self.on_disconnect: Optional[Callable[[str], None]] = None
        self._host, self._port = "", 0
        self._reconnect: Optional[asyncio.Task] = None

    async def connect(self, host: str, port: int) -> None:
        """Connects (at most connect_timeout); raises TransportError."""
        self._host, self._port, self._closing = host, port, False
        await self._connect()

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        target = f"{self._host}:{self._port}"
        link = _Link(self.options, self.log, f"connection to {target}", True)
        link.receiver = self.handler
        try:
            await asyncio.wait_for(loop.create_connection(
                lambda: link, self._host, self._port, ssl=self.ssl,
                server_hostname=self.server_hostname if self.ssl else None),
                self.options.connect_timeout)
        except asyncio.TimeoutError:
            raise TransportError(f"cannot connect to {target}: timed out after "
                                 f"{int(self.options.connect_timeout * 1000)} ms") from None
        except OSError as err:
            raise TransportError(f"cannot connect to {target}: {err}") from err
        self.handler.reset()
        link.on_close = lambda reason: self._dropped(link, reason)
        link.on_tick = self._watchdog
        self._link = link
        self._out = _Out(self._sender_cls, link)
        self.connects += 1

    @property
    def connected(self) -> bool:
        return self._link is not None and self._link.state == "open"

    @property
    def queued(self) -> int:
        return self._link.queued() if self._link else 0

    def send(self, value: Any) -> bool:
        """Queues one message; False when not queued (not connected, or the queue is full
        and the overflow policy applied)."""
        if self._out is None or not self.connected:
            return False
        return self._out.send(value)

    async def send_wait(self, value: Any) -> bool:
        """The 'block' policy: waits for room (up to write_timeout), then sends."""
        if self._out is None or self._link is None or not self.connected:
            return False
        return await _send_wait(self._link, self._out, value)

    async def request(self, value: Any, response: type, rejects: tuple = (),
                      timeout: Optional[float] = None) -> Any:
        """Sends the request `value` and returns the `response` message with the same id;
        raises RequestError: rejected (a `rejects` message with that id), timeout (after
        `timeout`, default Options.request_timeout), disconnected, overflow."""
        if not self.connected or self._out is None:
            raise RequestError("disconnected", f"request {value.id} failed: not connected")
        future = asyncio.get_running_loop().create_future()
        deadline = time.monotonic() + (timeout or self.options.request_timeout)
        self._pending[value.id] = (future, response, tuple(rejects), deadline)
        if not self._out.send(value):
            self._pending.pop(value.id, None)
            kind = "overflow" if self.connected else "disconnected"
            raise RequestError(kind, f"request {value.id} failed: "
                               + ("send queue full" if kind == "overflow" else "not connected"))
        return await future

    def _intercept(self, value: Any) -> bool:
        key = getattr(value, "id", None)
        entry = self._pending.get(key) if key is not None else None
        if entry is None:
            return False
        future, response, rejects, _ = entry
        if isinstance(value, response):
            del self._pending[key]
            if not future.done():
                future.set_result(value)
            return True
        if isinstance(value, rejects):
            del self._pending[key]
            if not future.done():
                future.set_exception(RequestError("rejected", str(value), value))
            return True
        return False

    def _watchdog(self) -> None:
        now = time.monotonic()
        for key in [k for k, e in self._pending.items() if e[3] <= now]:
            future = self._pending.pop(key)[0]
            if not future.done():
                future.set_exception(RequestError("timeout", f"request {key} timed out"))

    def _fail_pending(self, why: str) -> None:
        pending, self._pending = self._pending, {}
        for key, entry in pending.items():
            if not entry[0].done():
                entry[0].set_exception(RequestError("disconnected", f"request {key} failed: {why}"))

    def _dropped(self, link: _Link, reason: str) -> None:
        if link is not self._link:
            return
        if self.on_disconnect:  # first, as in C++: the hook runs before pending requests fail
            self.on_disconnect(reason)
        self._fail_pending(f"connection closed ({reason})")
        if not self._closing and self.options.reconnect_delay > 0:
            self._reconnect = asyncio.get_running_loop().create_task(self._reconnect_loop())

    async def _reconnect_loop(self) -> None:
        delay = self.options.reconnect_delay
        while not self._closing:
            await asyncio.sleep(delay)
            if self._closing:
                return
            try:
                await self._connect()
                if self.log is not None:
                    self.log(f"reconnected to {self._host}:{self._port}")
                return
            except TransportError as err:
                if self.log is not None:
                    self.log(f"{err}; retrying")
                delay = min(delay * 2, self.options.reconnect_max_delay)

    async def close(self) -> None:
        """Flushes what is queued, waits for the server to close its side (answers to
        requests in flight still arrive), then closes; no reconnect."""
        self._closing = True
        if self._reconnect is not None:
            self._reconnect.cancel()
        link = self._link
        if link is None or link.state == "closed":
            return
        link.begin_close("closed by the client", True)
        await asyncio.wait([link.closed], timeout=self.options.shutdown_timeout + 1.0)
        link.abort("closed by the client")


__all__ = ["Options", "Server", "Client", "Peer", "RequestError", "TransportError", "guard"]
