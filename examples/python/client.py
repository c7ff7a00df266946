"""A Python client of the service server (examples/cpp/server or examples/python/server.py):
the same exchange as examples/cpp/client.

    python3 examples/python/client.py HOST PORT [--final] [--tls CA]

Needs the code generated from schemas/service.fbe on sys.path (FASTWIRE_GENERATED, or
it is generated into a temporary folder) and python/ (the runtime).
"""

from __future__ import annotations

import asyncio
import ssl
import sys

from _setup import proto, service  # noqa: I001 (generates the code first)

from fastwire_runtime.transport import Client, RequestError


def printer(base):
    class Printer(base):
        echoes = 0

        def _print(self, value):
            print(f"echo: {value}", flush=True)
            Printer.echoes += 1

        on_receive_order_message = _print
        on_receive_balance_message = _print
        on_receive_account_message = _print

    return Printer


async def main(host: str, port: int, final: bool, ca: str) -> int:
    receiver = printer(service.FinalReceiver if final else service.Receiver)
    sender = service.FinalSender if final else service.Sender
    context = None
    if ca:
        context = ssl.create_default_context(cafile=ca)
    client = Client(receiver, sender, ssl=context, server_hostname=host if ca else None)
    await client.connect(host, port)
    account = proto.Account(
        uid=1, name="Test", state=proto.State.good,
        wallet=proto.Balance("USD", 1000.0), asset=proto.Balance("EUR", 100.0),
        orders=[proto.Order(1, "EURUSD", proto.OrderSide.buy,
                                    proto.OrderType.market, 1.23456, 1000.0),
                proto.Order(2, "EURUSD", proto.OrderSide.sell,
                                    proto.OrderType.limit, 1.0, 100.0),
                proto.Order(3, "EURUSD", proto.OrderSide.buy,
                                    proto.OrderType.stop, 1.5, 10.0)])
    client.send(service.OrderMessage(account.orders[0]))
    client.send(service.BalanceMessage(account.wallet))
    client.send(service.AccountMessage(account))
    failures = 0
    good = service.OrderRequest(order=account.orders[1])
    ack = await client.request(good, service.OrderAck, rejects=(service.OrderReject,))
    print(f"ack: {ack}", flush=True)
    failures += 0 if ack.id == good.id and ack.order.uid == 2 else 1
    bad = service.OrderRequest(order=proto.Order(3, "EURUSD", volume=0.0))
    try:
        await client.request(bad, service.OrderAck, rejects=(service.OrderReject,))
        failures += 1
    except RequestError as err:
        print(f"reject: {err}", flush=True)
        failures += 0 if err.kind == "rejected" else 1
    await client.close()
    failures += 0 if receiver.echoes == 3 else 1
    print("ok" if failures == 0 else "FAILED", flush=True)
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit("usage: client.py HOST PORT [--final] [--tls CA]")
    ca = args[args.index("--tls") + 1] if "--tls" in args else ""
    sys.exit(asyncio.run(main(args[0], int(args[1]), "--final" in args, ca)))
