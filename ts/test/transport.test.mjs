// The protocol over real loopback sockets (docs/transport.md): the C++ example server
// (FASTWIRE_CPP_SERVER) in both formats; a TypeScript server with many clients; a
// stream of mixed messages each received once, in order, equal; a garbage peer dropped
// with a logged reason; requests that time out by themselves; a graceful stop that
// loses no queued reply.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import * as net from "node:net";
import * as rt from "@fastwire/runtime";
import { NetClient, Server } from "@fastwire/runtime/node";
import { gen } from "./helpers.mjs";

const proto = await gen("proto");
const service = await gen("service");
const MESSAGES = Number(process.env.FASTWIRE_TS_MESSAGES ?? 100000);

function seedOrder(uid = 1, volume = 1000.0) {
  return new proto.Order({
    uid,
    symbol: "EURUSD",
    side: proto.OrderSide.buy,
    type: proto.OrderType.market,
    price: 1.23456,
    volume,
  });
}
function seedAccount() {
  return new proto.Account({
    uid: 1,
    name: "Test",
    state: proto.State.initialized | proto.State.calculated,
    wallet: new proto.Balance({ currency: "USD", amount: 1000.0 }),
    asset: new proto.Balance({ currency: "EUR", amount: 100.0 }),
    orders: [
      seedOrder(1),
      new proto.Order({ uid: 2, symbol: "EURUSD", side: 1, type: 1, price: 1.0, volume: 100.0 }),
      new proto.Order({ uid: 3, symbol: "EURUSD", side: 0, type: 2, price: 1.5, volume: 10.0 }),
    ],
  });
}

/** A Receiver subclass that queues what arrives, for `next()`. */
function collecting(Base) {
  return class extends Base {
    got = [];
    waiters = [];
    push(v) {
      this.got.push(v);
      const w = this.waiters.shift();
      if (w) w();
    }
    onOrderMessage(v) {
      this.push(v);
    }
    onBalanceMessage(v) {
      this.push(v);
    }
    onAccountMessage(v) {
      this.push(v);
    }
    async next() {
      while (this.got.length === 0) await new Promise((r) => this.waiters.push(r));
      return this.got.shift();
    }
  };
}

function startCpp(final) {
  const path = process.env.FASTWIRE_CPP_SERVER;
  assert.ok(path, "FASTWIRE_CPP_SERVER is not set (make test-ts sets it to the C++ example server)");
  assert.ok(existsSync(path), `the C++ example server is missing: ${path} (build it: make build)`);
  const child = spawn(path, ["127.0.0.1", "0", ...(final ? ["--final"] : [])], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /^listening (\S+) (\d+)/m.exec(out);
      if (m) resolve({ child, port: Number(m[2]), output: () => out });
    });
  });
}

for (const final of [false, true]) {
  test(`C++ example server (${final ? "final" : "versioned"}): echoes, request, reject`, async () => {
    const { child, port, output } = await startCpp(final);
    const Recv = collecting(final ? service.FinalReceiver : service.Receiver);
    const Cli = final ? service.FinalClient : service.Client;
    const receiver = new Recv();
    const conn = new NetClient(new Cli(receiver));
    await conn.connect("127.0.0.1", port);
    const sent = [
      new service.OrderMessage({ body: seedOrder() }),
      new service.BalanceMessage({ body: new proto.Balance({ currency: "EUR", amount: 100.0 }) }),
      new service.AccountMessage({ body: seedAccount() }),
    ];
    for (const m of sent) assert.ok(conn.send(m));
    for (const m of sent) {
      const echo = await receiver.next();
      assert.equal(echo.constructor, m.constructor);
      assert.equal(echo.toJson(), m.toJson());
    }
    const q = new service.OrderRequest({ order: seedOrder(7) });
    const ack = await conn.client.request(q);
    assert.ok(ack instanceof service.OrderAck);
    assert.equal(ack.id, q.id);
    assert.equal(ack.seq, 1n);
    assert.equal(ack.order.toJson(), q.order.toJson());
    await assert.rejects(conn.client.request(new service.OrderRequest({ order: seedOrder(8, 0) })), (e) => {
      assert.ok(e instanceof rt.RequestError);
      assert.equal(e.kind, "rejected");
      assert.equal(e.reject.reason, "volume must be positive");
      return true;
    });
    const ack2 = await conn.client.request(new service.OrderRequest({ order: seedOrder(9) }));
    assert.equal(ack2.seq, 2n);
    await conn.close();
    const code = await new Promise((r) => {
      child.on("exit", (c) => r(c));
      child.kill("SIGTERM");
    });
    assert.equal(code, 0);
    assert.match(output(), /stopped: 1 connections/);
  });
}

/** The example server's behaviour, in TypeScript. */
let handled = 0;
function tsServer(o = {}, log = null, final = false) {
  const Base = final ? service.FinalReceiver : service.Receiver;
  class Handler extends Base {
    constructor(peer) {
      super();
      this.peer = peer;
      this.n = 0n;
    }
    onOrderRequest(q) {
      if (q.order.volume > 0) this.peer.send(new service.OrderAck({ id: q.id, seq: ++this.n, order: q.order }));
      else this.peer.send(new service.OrderReject({ id: q.id, reason: "volume must be positive" }));
    }
    onOrderMessage(m) {
      this.peer.send(m);
    }
    onBalanceMessage(m) {
      this.peer.send(m);
    }
    onAccountMessage(m) {
      handled++;
      this.peer.send(m);
    }
  }
  return new Server(
    (peer) => new Handler(peer),
    () => (final ? new service.FinalSender() : new service.Sender()),
    o,
    log,
  );
}

test(`loopback: ${MESSAGES} mixed messages, each received once, in order, equal`, async () => {
  const server = tsServer();
  const port = await server.listen("127.0.0.1", 0);
  const Recv = collecting(service.Receiver);
  const receiver = new Recv();
  const conn = new NetClient(new service.Client(receiver));
  await conn.connect("127.0.0.1", port);
  const make = (i) =>
    i % 3 === 0
      ? new service.OrderMessage({ body: seedOrder(i) })
      : i % 3 === 1
        ? new service.BalanceMessage({ body: new proto.Balance({ currency: "C" + i, amount: i }) })
        : new service.AccountMessage({ body: new proto.Account({ uid: i, name: "a" + i, orders: [seedOrder(i)] }) });
  let received = 0;
  const done = new Promise((resolve, reject) => {
    receiver.push = (v) => {
      const want = make(received);
      if (v.constructor !== want.constructor || v.toJson() !== want.toJson())
        reject(new Error(`message ${received} differs`));
      if (++received === MESSAGES) resolve();
    };
  });
  // keep the queue bounded: send in windows
  let sent = 0;
  while (sent < MESSAGES) {
    const upTo = Math.min(MESSAGES, sent + 2000);
    for (; sent < upTo; sent++) assert.ok(conn.send(make(sent)));
    while (received < sent - 4000) await new Promise((r) => setTimeout(r, 1));
  }
  await done;
  assert.equal(received, MESSAGES);
  await conn.close();
  await server.stop();
});

test("many clients at once, each answered on its own connection; IPv6 any address", async () => {
  const server = tsServer();
  const port = await server.listen("::", 0);
  const clients = await Promise.all(
    Array.from({ length: 50 }, async () => {
      const c = new NetClient(new service.Client());
      await c.connect("127.0.0.1", port);
      return c;
    }),
  );
  await Promise.all(
    clients.map(async (c, k) => {
      for (let i = 1; i <= 10; i++) {
        const ack = await c.client.request(new service.OrderRequest({ order: seedOrder(k * 100 + i) }));
        assert.equal(ack.seq, BigInt(i));
        assert.equal(ack.order.uid, k * 100 + i);
      }
    }),
  );
  assert.equal(server.connections, 50);
  await Promise.all(clients.map((c) => c.close()));
  await server.stop();
});

test("a garbage peer is dropped with a logged reason; the others go on", async () => {
  const lines = [];
  const server = tsServer({}, (l) => lines.push(l));
  const port = await server.listen("127.0.0.1", 0);
  const good = new NetClient(new service.Client());
  await good.connect("127.0.0.1", port);
  const bad = net.connect(port, "127.0.0.1");
  await new Promise((r) => bad.once("connect", r));
  bad.write(Buffer.alloc(4096, 0xab));
  await new Promise((r) => bad.once("close", r));
  assert.ok(
    lines.some((l) => /closed: protocol error: bad message size 2880154539 at stream offset 0/.test(l)),
    lines.join("\n"),
  );
  const ack = await good.client.request(new service.OrderRequest({ order: seedOrder(1) }));
  assert.equal(ack.seq, 1n);
  // a message that does not verify closes the connection too
  const bad2 = net.connect(port, "127.0.0.1");
  await new Promise((r) => bad2.once("connect", r));
  const frame = new service.Sender();
  frame.send(new service.OrderMessage({ body: seedOrder() }));
  const bytes = frame.drain();
  bytes[bytes.length - 1] = 0xff; // the order's volume: still valid; break an offset instead
  new DataView(bytes.buffer).setUint32(4, 0xfff0, true);
  bad2.write(bytes);
  await new Promise((r) => bad2.once("close", r));
  assert.ok(
    lines.some((l) => /connection 3 .* closed: protocol error/.test(l)),
    lines.join("\n"),
  );
  await good.close();
  await server.stop();
});

test("requests time out by themselves; a drop fails what is pending", async () => {
  const silent = net.createServer((s) => s.on("data", () => {}));
  await new Promise((r) => silent.listen(0, "127.0.0.1", r));
  const conn = new NetClient(new service.Client(), { requestTimeout: 100 });
  await conn.connect("127.0.0.1", silent.address().port);
  const t0 = Date.now();
  await assert.rejects(
    conn.client.request(new service.OrderRequest({ order: seedOrder() })),
    (e) => e.kind === "timeout",
  );
  const took = Date.now() - t0;
  assert.ok(took >= 90 && took < 1000, `${took} ms`);
  await assert.rejects(
    conn.client.request(new service.OrderRequest({ order: seedOrder() }), 30),
    (e) => e.kind === "timeout",
  );
  const pending = conn.client.request(new service.OrderRequest({ order: seedOrder() }), 5000);
  for (const s of await new Promise((r) => silent.getConnections(() => r([])))) s.destroy();
  silent.close();
  await conn.close();
  await assert.rejects(pending, (e) => e.kind === "disconnected");
  await assert.rejects(
    conn.client.request(new service.OrderRequest({ order: seedOrder() })),
    (e) => e.kind === "disconnected",
  );
});

test("back-pressure: overflow fail refuses, disconnect closes", async () => {
  const silent = net.createServer({ pauseOnConnect: true }, () => {});
  await new Promise((r) => silent.listen(0, "127.0.0.1", r));
  const big = new service.AccountMessage({ body: new proto.Account({ name: "x".repeat(60000) }) });
  const fail = new NetClient(new service.Client(), { maxQueuedBytes: 1 << 20, overflow: "fail" });
  await fail.connect("127.0.0.1", silent.address().port);
  let accepted = 0;
  while (fail.send(big)) accepted++;
  assert.ok(accepted > 0 && fail.queued <= 1 << 20 && fail.connected);
  const lines = [];
  const drop = new NetClient(new service.Client(), { maxQueuedBytes: 1 << 20 }, (l) => lines.push(l));
  await drop.connect("127.0.0.1", silent.address().port);
  while (drop.send(big));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(drop.connected, false);
  assert.ok(
    lines.some((l) => /closed: send queue full/.test(l)),
    lines.join("\n"),
  );
  fail.close();
  silent.close();
});

test("graceful stop: every reply queued before the stop reaches its client", async () => {
  const server = tsServer({}, process.env.FASTWIRE_TS_LOG ? console.error : null);
  const port = await server.listen("127.0.0.1", 0);
  const Recv = collecting(service.Receiver);
  const receiver = new Recv();
  // a raw client that stops reading, so the server's echoes stay queued
  const sock = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
  await new Promise((r) => sock.once("connect", r));
  sock.pause();
  const N = 2000;
  const out = new service.Sender();
  handled = 0;
  for (let i = 0; i < N; i++)
    out.send(new service.AccountMessage({ body: new proto.Account({ uid: i, name: "y".repeat(2000) }) }));
  sock.write(out.drain());
  while (handled < N) await new Promise((r) => setTimeout(r, 1));
  const stopped = server.stop();
  assert.equal(receiver.got.length, 0);
  sock.on("data", (d) => receiver.receive(new Uint8Array(d.buffer, d.byteOffset, d.length)));
  sock.on("end", () => sock.end());
  sock.resume();
  await stopped;
  await new Promise((r) => (sock.closed ? r() : sock.once("close", r)));
  assert.equal(receiver.got.length, N);
  receiver.got.forEach((m, i) => assert.equal(m.body.uid, i));
});

test("WebSocket in Node: a ws server and client exchange messages and a request", async () => {
  const { WebSocketServer, WebSocket } = await import("ws");
  const { serveWebSocket, connectWebSocket } = await import("@fastwire/runtime/websocket");
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((r) => wss.once("listening", r));
  let n = 0n;
  wss.on("connection", (ws) => {
    class Handler extends service.Receiver {
      constructor(link) {
        super();
        this.link = link;
      }
      onOrderRequest(q) {
        this.link.send(new service.OrderAck({ id: q.id, seq: ++n, order: q.order }));
      }
      onAccountMessage(m) {
        this.link.send(m);
      }
    }
    serveWebSocket(ws, (link) => new Handler(link), new service.Sender());
  });
  const Recv = collecting(service.Receiver);
  const receiver = new Recv();
  const client = new service.Client(receiver);
  const link = await connectWebSocket(`ws://127.0.0.1:${wss.address().port}/`, client, {}, (u) => new WebSocket(u));
  const m = new service.AccountMessage({ body: seedAccount() });
  assert.ok(link.send(m));
  assert.equal((await receiver.next()).toJson(), m.toJson());
  const ack = await client.request(new service.OrderRequest({ order: seedOrder(5) }));
  assert.equal(ack.seq, 1n);
  link.close();
  await assert.rejects(
    client.request(new service.OrderRequest({ order: seedOrder(6) })),
    (e) => e.kind === "disconnected",
  );
  await new Promise((r) => wss.close(r));
});
