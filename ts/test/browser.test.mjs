// A real browser: headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core;
// no browser is downloaded) loads a page served from loopback, receives the seed messages
// over a WebSocket from a small Node server, decodes them with the runtime, shows them and
// makes a request. The test asserts the decoded values and saves a screenshot under build/ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import { WebSocketServer } from "ws";
import { serveWebSocket } from "@fastwire/runtime/websocket";
import { GEN, REPO, gen } from "./helpers.mjs";

const proto = await gen("proto");
const service = await gen("service");
const CHROMIUM = process.env.FASTWIRE_CHROMIUM ?? "/usr/bin/chromium";
const ROUTES = [
  ["/runtime/", join(REPO, "ts", "dist")],
  ["/gen/", GEN],
  ["/", join(REPO, "ts", "test", "browser")],
];

function seed() {
  const order = new proto.Order({ uid: 1, symbol: "EURUSD", side: 0, type: 0, price: 1.23456, volume: 1000.0 });
  const account = new proto.Account({
    uid: 1,
    name: "Test",
    state: proto.State.initialized | proto.State.calculated,
    wallet: new proto.Balance({ currency: "USD", amount: 1000.0 }),
    asset: new proto.Balance({ currency: "EUR", amount: 100.0 }),
    orders: [
      order,
      new proto.Order({ uid: 2, symbol: "EURUSD", side: 1, type: 1, price: 1.0, volume: 100.0 }),
      new proto.Order({ uid: 3, symbol: "EURUSD", side: 0, type: 2, price: 1.5, volume: 10.0 }),
    ],
  });
  return [
    new service.OrderMessage({ body: order }),
    new service.BalanceMessage({ body: new proto.Balance({ currency: "EUR", amount: 100.0 }) }),
    new service.AccountMessage({ body: account }),
  ];
}

function serve() {
  const http = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const path = url.pathname === "/" ? "/index.html" : url.pathname;
    for (const [prefix, dir] of ROUTES) {
      if (!path.startsWith(prefix)) continue;
      const file = normalize(join(dir, path.slice(prefix.length)));
      if (!file.startsWith(dir) || !existsSync(file)) continue;
      const type = file.endsWith(".html")
        ? "text/html"
        : file.endsWith(".js")
          ? "text/javascript"
          : "application/octet-stream";
      res.writeHead(200, { "content-type": type + "; charset=utf-8" });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ server: http, path: "/ws" });
  wss.on("connection", (ws) => {
    let n = 0n;
    class Handler extends service.Receiver {
      constructor(link) {
        super();
        this.link = link;
      }
      onOrderRequest(q) {
        this.link.send(new service.OrderAck({ id: q.id, seq: ++n, order: q.order }));
      }
    }
    serveWebSocket(ws, (link) => new Handler(link), new service.Sender());
    // the seed messages as one stream, cut into WebSocket messages of 7 bytes: the page's
    // receiver reassembles them
    const s = new service.Sender();
    for (const m of seed()) s.send(m);
    const stream = s.drain();
    for (let i = 0; i < stream.length; i += 7) ws.send(stream.subarray(i, i + 7));
  });
  return new Promise((resolve) => http.listen(0, "127.0.0.1", () => resolve({ http, wss, port: http.address().port })));
}

test("headless Chromium decodes the seed messages received over a WebSocket", async (t) => {
  assert.ok(existsSync(CHROMIUM), `no browser at ${CHROMIUM} (Debian package chromium; scripts/bootstrap ts)`);
  const { chromium } = await import("playwright-core");
  const { http, wss, port } = await serve();
  const profile = mkdtempSync(join(tmpdir(), "fastwire-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  t.after(async () => {
    await context.close();
    wss.close();
    http.close();
    rmSync(profile, { recursive: true, force: true });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => window.results !== undefined, null, { timeout: 20000 });
  const r = await page.evaluate(() => window.results);
  assert.equal(r.error, undefined, r.error);
  assert.deepEqual(r.order, { uid: 1, symbol: "EURUSD", price: 1.23456, volume: 1000 });
  assert.deepEqual(r.balance, { currency: "EUR", amount: 100 });
  assert.equal(r.account.name, "Test");
  assert.equal(r.account.state, 6);
  assert.equal(r.account.wallet, 1000);
  assert.equal(r.account.asset, "EUR");
  assert.deepEqual(r.account.orders, [1, 2, 3]);
  assert.equal(r.account.json, readFileSync(join(REPO, "tests", "vectors", "account.json"), "utf8").trim());
  assert.equal(r.versioned, 252);
  assert.deepEqual(r.ack, { seq: "1", sameId: true, uid: 42 });
  assert.equal(await page.textContent("#status"), "done");
  assert.equal(await page.locator("#rows tr").count(), 4);
  assert.deepEqual(errors, []);
  mkdirSync(join(REPO, "build", "ts"), { recursive: true });
  await page.screenshot({ path: join(REPO, "build", "ts", "browser.png"), fullPage: true });
});
