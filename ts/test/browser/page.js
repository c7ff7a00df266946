// Runs in the browser: receives the seed messages over a WebSocket, decodes them with
// the runtime (the generated JavaScript of schemas/service.fbe), shows them, places an
// order request, and leaves what it decoded in window.results for the test.
import * as rt from "@fastwire/runtime";
import { connectWebSocket } from "@fastwire/runtime/websocket";
import * as proto from "/gen/proto.js";
import * as service from "/gen/service.js";

const rows = document.getElementById("rows");
const status = document.getElementById("status");
const got = [];

function show(name, text) {
  const tr = document.createElement("tr");
  const a = document.createElement("td");
  a.textContent = name;
  const b = document.createElement("td");
  const code = document.createElement("code");
  code.textContent = text;
  b.appendChild(code);
  tr.append(a, b);
  rows.appendChild(tr);
}

class Shower extends service.Receiver {
  onOrderMessage(m) {
    got.push(m);
    show("OrderMessage", m.toJson());
  }
  onBalanceMessage(m) {
    got.push(m);
    show("BalanceMessage", m.toJson());
  }
  onAccountMessage(m) {
    got.push(m);
    show("AccountMessage", m.toJson());
  }
}

try {
  const client = new service.Client(new Shower());
  const link = await connectWebSocket(`ws://${location.host}/ws`, client);
  status.textContent = "receiving";
  while (got.length < 3) await new Promise((r) => setTimeout(r, 5));
  const q = new service.OrderRequest({ order: new proto.Order({ uid: 42, symbol: "EURUSD", price: 1.5, volume: 10 }) });
  const ack = await client.request(q);
  show("OrderAck", ack.toJson());
  const [order, balance, account] = got;
  window.results = {
    order: { uid: order.body.uid, symbol: order.body.symbol, price: order.body.price, volume: order.body.volume },
    balance: { currency: balance.body.currency, amount: balance.body.amount },
    account: {
      uid: account.body.uid,
      name: account.body.name,
      state: account.body.state,
      wallet: account.body.wallet.amount,
      asset: account.body.asset?.currency,
      orders: account.body.orders.map((o) => o.uid),
      json: account.body.toJson(),
    },
    big: { value: got[0].constructor === service.OrderMessage, decimal: rt.Decimal.parse("0.10").toString() },
    ack: { seq: ack.seq.toString(), sameId: ack.id === q.id, uid: ack.order.uid },
    versioned: Array.from(new proto.AccountModel().serialize(account.body)).length,
  };
  status.textContent = "done";
  link.close();
} catch (err) {
  status.textContent = "failed: " + err;
  window.results = { error: String((err && err.stack) || err) };
}
