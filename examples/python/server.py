"""The service server in Python (asyncio): the same contract as examples/cpp/server.

    python3 examples/python/server.py HOST PORT [--final] [--tls CERT KEY]

Prints "listening HOST PORT" first; answers OrderRequest with OrderAck (or OrderReject
when the volume is not positive); echoes OrderMessage, BalanceMessage, AccountMessage;
logs connections to stderr; SIGINT/SIGTERM: stops cleanly, prints "stopped: …", exits 0.
"""

from __future__ import annotations

import asyncio
import signal
import ssl
import sys

from _setup import service  # noqa: I001 (generates the code first)

from fastwire_runtime.transport import Server


def handler(base):
    class Handler(base):
        handled = 0

        def __init__(self, peer):
            super().__init__()
            self.peer = peer
            self.accepted = 0

        def on_receive_order_request(self, q):
            Handler.handled += 1
            if q.order.volume > 0:
                self.accepted += 1
                self.peer.send(service.OrderAck(q.id, self.accepted, q.order))
            else:
                self.peer.send(service.OrderReject(q.id, "volume must be positive"))

        def _echo(self, m):
            Handler.handled += 1
            self.peer.send(m)

        on_receive_order_message = _echo
        on_receive_balance_message = _echo
        on_receive_account_message = _echo

    return Handler


async def main(host: str, port: int, final: bool, tls) -> int:
    context = None
    if tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*tls)
    h = handler(service.FinalReceiver if final else service.Receiver)
    server = Server(h, service.FinalSender if final else service.Sender, host, port,
                    ssl=context, log=lambda line: print(f"server: {line}", file=sys.stderr))
    await server.start()
    print(f"listening {host} {server.port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()
    print(f"stopped: {server.accepted} connections, {h.handled} messages", flush=True)
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit("usage: server.py HOST PORT [--final] [--tls CERT KEY]")
    tls = None
    if "--tls" in args:
        i = args.index("--tls")
        tls = (args[i + 1], args[i + 2])
    sys.exit(asyncio.run(main(args[0], int(args[1]), "--final" in args, tls)))
