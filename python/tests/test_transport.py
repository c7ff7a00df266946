"""fastwire_runtime.transport (asyncio) against docs/transport.md: replies, both formats,
IPv4 and IPv6, timeouts, drops, overflow, shutdown, TLS, misbehaving peers, load."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import socket
import ssl
import subprocess
import tempfile
import time

import proto_fbe as proto
import pytest
import service_fbe as service

from fastwire_runtime.transport import Client, Options, RequestError, Server, TransportError


def make_handler(base):
    class Handler(base):
        def __init__(self, peer):
            super().__init__()
            self.peer = peer
            self.accepted = 0

        def on_receive_order_request(self, q):
            if q.order.uid == -1:
                return
            if q.order.uid == -2:
                return self.peer.close("asked to")
            if q.order.volume > 0:
                self.accepted += 1
                self.peer.send(service.OrderAck(q.id, self.accepted, q.order))
            else:
                self.peer.send(service.OrderReject(q.id, "volume must be positive"))

        def _echo(self, m):
            self.peer.send(m)

        on_receive_order_message = _echo
        on_receive_balance_message = _echo
        on_receive_account_message = _echo

    return Handler


class Echoes(service.Receiver):
    def __init__(self, *args):
        super().__init__(*args)
        self.orders = []

    def on_receive_order_message(self, m):
        self.orders.append(m.body.uid)


def order(uid, volume=10.0):
    return proto.Order(uid, "EURUSD", proto.OrderSide.buy, proto.OrderType.limit, 1.25, volume)


def req(uid, volume=10.0):
    return service.OrderRequest(order=order(uid, volume))


async def ask(client, uid, volume=10.0, timeout=None):
    return await client.request(req(uid, volume), service.OrderAck,
                                rejects=(service.OrderReject,), timeout=timeout)


class Log(list):
    def __call__(self, line):
        self.append(line)

    async def wait(self, *parts, limit=10.0):
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if any(all(p in line for p in parts) for line in self):
                return True
            await asyncio.sleep(0.01)
        return False


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


@pytest.mark.parametrize("final,host", [(False, "127.0.0.1"), (True, "::1")])
def test_request_response_and_echo(final, host):
    async def go():
        rec, snd = (service.FinalReceiver, service.FinalSender) if final else \
            (service.Receiver, service.Sender)
        log = Log()
        server = Server(make_handler(rec), snd, host, 0, log=log)
        await server.start()
        client = Client(Echoes if not final else rec, snd)
        await client.connect(host, server.port)
        acks = await asyncio.gather(*[ask(client, i) for i in range(100)])
        assert [a.seq for a in acks] == list(range(1, 101))
        assert [a.order.uid for a in acks] == list(range(100))
        with pytest.raises(RequestError) as err:
            await ask(client, 5, volume=0.0)
        assert err.value.kind == "rejected" and "volume must be positive" in str(err.value)
        if not final:
            for i in range(1000):
                assert client.send(service.OrderMessage(order(i)))
        await client.close()  # the echoes arrive before close() returns
        if not final:
            assert client.handler.orders == list(range(1000))
        assert await log.wait("connection 1 ", "closed: peer closed the connection")
        await server.stop()
    run(go())


def test_timeouts_and_drops():
    async def go():
        server = Server(make_handler(service.Receiver), service.Sender, "127.0.0.1", 0)
        await server.start()
        client = Client(service.Receiver, service.Sender, options=Options(request_timeout=0.2))
        await client.connect("127.0.0.1", server.port)
        start = time.monotonic()
        with pytest.raises(RequestError) as err:
            await ask(client, -1)
        assert err.value.kind == "timeout" and 0.2 <= time.monotonic() - start < 1.5
        with pytest.raises(RequestError) as err:
            await ask(client, -1, timeout=0.05)
        assert err.value.kind == "timeout"
        assert (await ask(client, 3)).order.uid == 3
        waiting = asyncio.ensure_future(ask(client, -1, timeout=5))
        with pytest.raises(RequestError) as err:
            await ask(client, -2)
        assert err.value.kind == "disconnected"
        with pytest.raises(RequestError) as err:
            await waiting
        assert err.value.kind == "disconnected"
        with pytest.raises(RequestError) as err:
            await ask(client, 1)
        assert err.value.kind == "disconnected"
        assert not client.send(service.OrderMessage(order(1)))
        port = server.port
        await server.stop()
        with pytest.raises(TransportError, match="cannot connect"):
            await Client(service.Receiver, service.Sender).connect("127.0.0.1", port)
    run(go())


def test_reconnect():
    async def go():
        server = Server(make_handler(service.Receiver), service.Sender, "127.0.0.1", 0)
        await server.start()
        port = server.port
        client = Client(service.Receiver, service.Sender, options=Options(reconnect_delay=0.02))
        await client.connect("127.0.0.1", port)
        assert (await ask(client, 1)).seq == 1
        await server.stop()
        server = Server(make_handler(service.Receiver), service.Sender, "127.0.0.1", port)
        await server.start()
        for _ in range(500):
            if client.connects == 2 and client.connected:
                break
            await asyncio.sleep(0.01)
        assert (await ask(client, 2)).seq == 1
        await client.close()
        await server.stop()
    run(go())


def test_overflow_policies():
    async def go():
        deaf = socket.socket()
        deaf.bind(("127.0.0.1", 0))
        deaf.listen()
        port = deaf.getsockname()[1]
        big = service.AccountMessage(proto.Account(uid=1, orders=[order(i) for i in range(200)]))
        fail = Client(service.Receiver, service.Sender,
                      options=Options(max_queued_bytes=64 * 1024, overflow="fail"))
        await fail.connect("127.0.0.1", port)
        sent = 0
        while sent < 100000 and fail.send(big):
            sent += 1
        while fail.send(service.OrderMessage(order(1))):
            pass
        assert fail.connected and fail.queued <= 64 * 1024
        with pytest.raises(RequestError) as err:
            await ask(fail, 1)
        assert err.value.kind == "overflow"
        log = Log()
        drop = Client(service.Receiver, service.Sender, log=log,
                      options=Options(max_queued_bytes=64 * 1024))
        await drop.connect("127.0.0.1", port)
        while drop.send(big):
            pass
        assert await log.wait("closed: send queue full") and not drop.connected
        deaf.close()
    run(go())


def test_shutdown_flushes_everything_queued():
    async def go():
        server = Server(make_handler(service.Receiver), service.Sender, "127.0.0.1", 0)
        await server.start()
        client = Client(Echoes, service.Sender)
        await client.connect("127.0.0.1", server.port)
        for i in range(20000):
            assert client.send(service.OrderMessage(order(i)))
        await client.close()
        assert client.handler.orders == list(range(20000))
        # The server stops while its queue holds the echoes: they all arrive.
        client = Client(Echoes, service.Sender)
        await client.connect("127.0.0.1", server.port)
        for i in range(5000):
            client.send(service.OrderMessage(order(i)))
        assert (await ask(client, 1)).seq == 1
        await server.stop()
        for _ in range(500):
            if not client.connected:
                break
            await asyncio.sleep(0.01)
        assert client.handler.orders == list(range(5000))
    run(go())


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_tls():
    folder = tempfile.mkdtemp(prefix="fastwire-tls-")
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key,
                    "-out", cert], check=True, capture_output=True)

    async def go():
        sc = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        sc.load_cert_chain(cert, key)
        log = Log()
        server = Server(make_handler(service.Receiver), service.Sender, "127.0.0.1", 0, ssl=sc,
                        log=log)
        await server.start()
        cc = ssl.create_default_context(cafile=cert)
        client = Client(Echoes, service.Sender, ssl=cc, server_hostname="localhost")
        await client.connect("127.0.0.1", server.port)
        assert (await ask(client, 7)).order.uid == 7
        for i in range(1000):
            client.send(service.OrderMessage(order(i)))
        assert (await ask(client, 8)).seq == 2
        await client.close()
        assert client.handler.orders == list(range(1000))
        stranger = Client(service.Receiver, service.Sender, ssl=ssl.create_default_context(),
                          server_hostname="localhost")
        with pytest.raises((TransportError, ssl.SSLError)):
            await stranger.connect("127.0.0.1", server.port)
        await server.stop()
    try:
        run(go())
    finally:
        shutil.rmtree(folder, True)


def test_faults_are_dropped_while_others_are_served():
    async def go():
        log = Log()
        opts = Options(message_timeout=0.5, write_timeout=0.5, max_queued_bytes=256 * 1024)
        server = Server(make_handler(service.Receiver), service.Sender, "127.0.0.1", 0,
                        options=opts, log=log)
        await server.start()
        good = Client(service.Receiver, service.Sender)
        await good.connect("127.0.0.1", server.port)
        worst = [0.0]
        stop = asyncio.Event()

        async def steady():
            i = 0
            while not stop.is_set():
                start = time.monotonic()
                assert (await ask(good, i)).order.uid == i
                worst[0] = max(worst[0], time.monotonic() - start)
                i += 1
                await asyncio.sleep(0.001)
            return i
        task = asyncio.ensure_future(steady())

        def one(m):
            s = service.Sender()
            s.send(m)
            return bytes(s.buffer)

        async def peer():
            return await asyncio.open_connection("127.0.0.1", server.port)

        r, w = await peer()  # 2: garbage
        rng = random.Random(7)
        w.write(bytes(rng.randrange(128, 256) for _ in range(4096)))
        assert await log.wait("connection 2 ", "closed: protocol error")
        r, w = await peer()  # 3: a 4 GiB size prefix
        w.write(b"\xff\xff\xff\xff")
        assert await log.wait("connection 3 ", "closed: protocol error")
        r, w = await peer()  # 4: too slow
        for b in one(service.OrderMessage(order(1)))[:8]:
            w.write(bytes([b]))
            await asyncio.sleep(0.1)
        assert await log.wait("connection 4 ", "closed: message incomplete after")
        r, w = await peer()  # 5: never reads
        burst = one(service.AccountMessage(proto.Account(orders=[order(i) for i in range(200)])))
        for _ in range(3000):
            w.write(burst)
            try:
                await asyncio.wait_for(w.drain(), 1.0)
            except (asyncio.TimeoutError, ConnectionError):
                break
            if any("connection 5 " in line and "closed" in line for line in log):
                break
        assert await log.wait("connection 5 ", "closed: ")
        r, w = await peer()  # 6: leaves in the middle of a message
        w.write(one(service.OrderMessage(order(1)))[:20])
        await w.drain()
        w.close()
        assert await log.wait("connection 6 ", "closed: peer closed the connection in the middle")
        stop.set()
        answered = await task
        assert answered > 10 and worst[0] < 1.0
        assert not any(line.startswith("connection 1 ") and "closed" in line for line in log)
        await good.close()
        await server.stop()
    run(go())


def test_load():
    clients = int(os.environ.get("FASTWIRE_LOAD_CLIENTS", "200"))
    rounds = int(os.environ.get("FASTWIRE_LOAD_ROUNDS", "10"))

    async def go():
        server = Server(make_handler(service.Receiver), service.Sender, "127.0.0.1", 0)
        await server.start()
        cs = [Client(Echoes, service.Sender, options=Options(request_timeout=30))
              for _ in range(clients)]
        await asyncio.gather(*[c.connect("127.0.0.1", server.port) for c in cs])
        start = time.monotonic()
        for r in range(rounds):
            for c in cs:
                c.send(service.OrderMessage(order(r)))
            acks = await asyncio.gather(*[ask(c, n * 100000 + r) for n, c in enumerate(cs)])
            assert [a.order.uid for a in acks] == [n * 100000 + r for n in range(clients)]
            assert all(a.seq == r + 1 for a in acks)
        await asyncio.gather(*[c.close() for c in cs])
        assert all(c.handler.orders == list(range(rounds)) for c in cs)
        took = time.monotonic() - start
        print(f"python load: {clients} clients x {rounds} rounds, lost 0, {took:.2f} s")
        await server.stop()
    run(go())
