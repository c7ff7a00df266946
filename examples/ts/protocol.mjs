// The protocol example (as examples/cpp/protocol): a Sender queues the seed's order,
// balance and account, logging each; a Receiver reads the queued bytes back, logging
// each message it gets.
//
//   node examples/ts/protocol.mjs gen/            (make test-ts runs it)
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2] ?? "build/ts/gen");
const proto = await import(pathToFileURL(join(dir, "proto.js")).href);

class LoggingSender extends proto.Sender {
  send(value) {
    console.log(`onSend: ${value}`);
    return super.send(value);
  }
}
class LoggingReceiver extends proto.Receiver {
  onOrder(v) { console.log(`onReceive: ${v}`); }
  onBalance(v) { console.log(`onReceive: ${v}`); }
  onAccount(v) { console.log(`onReceive: ${v}`); }
}

const order = new proto.Order({ uid: 1, symbol: "EURUSD", side: proto.OrderSide.buy, type: proto.OrderType.market, price: 1.23456, volume: 1000.0 });
const balance = new proto.Balance({ currency: "USD", amount: 1000.0 });
const account = new proto.Account({
  uid: 1, name: "Test", state: proto.State.good, wallet: new proto.Balance({ currency: "USD", amount: 1000.0 }),
  asset: new proto.Balance({ currency: "EUR", amount: 100.0 }),
  orders: [order,
    new proto.Order({ uid: 2, symbol: "EURUSD", side: proto.OrderSide.sell, type: proto.OrderType.limit, price: 1.0, volume: 100.0 }),
    new proto.Order({ uid: 3, symbol: "EURUSD", side: proto.OrderSide.buy, type: proto.OrderType.stop, price: 1.5, volume: 10.0 })],
});

const sender = new LoggingSender();       // its onSend takes nothing: the bytes stay queued
sender.send(order);
sender.send(balance);
sender.send(account);
new LoggingReceiver().receive(sender.drain());
