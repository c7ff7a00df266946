// The golden vectors in both formats and JSON, versioning, and every truncation and
// single-byte change of each vector (verify and deserialize agree; what is accepted
// serializes again to bytes that verify).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as rt from "@fastwire/runtime";
import { gen, vector, hex } from "./helpers.mjs";

const proto = await gen("proto");
const protoex = await gen("protoex");

function seed() {
  return new proto.Account({
    uid: 1,
    name: "Test",
    state: proto.State.initialized | proto.State.calculated,
    wallet: new proto.Balance({ currency: "USD", amount: 1000.0 }),
    asset: new proto.Balance({ currency: "EUR", amount: 100.0 }),
    orders: [
      new proto.Order({
        uid: 1,
        symbol: "EURUSD",
        side: proto.OrderSide.buy,
        type: proto.OrderType.market,
        price: 1.23456,
        volume: 1000.0,
      }),
      new proto.Order({
        uid: 2,
        symbol: "EURUSD",
        side: proto.OrderSide.sell,
        type: proto.OrderType.limit,
        price: 1.0,
        volume: 100.0,
      }),
      new proto.Order({
        uid: 3,
        symbol: "EURUSD",
        side: proto.OrderSide.buy,
        type: proto.OrderType.stop,
        price: 1.5,
        volume: 10.0,
      }),
    ],
  });
}

const CASES = [
  ["account", proto.AccountModel, proto.AccountFinalModel, proto.Account],
  ["order", proto.OrderModel, proto.OrderFinalModel, proto.Order],
  ["balance", proto.BalanceModel, proto.BalanceFinalModel, proto.Balance],
];

test("the seed account serializes to the golden vectors", () => {
  assert.equal(hex(new proto.AccountModel().serialize(seed())), hex(vector("account.fbe.hex")));
  assert.equal(hex(new proto.AccountFinalModel().serialize(seed())), hex(vector("account.final.hex")));
  assert.equal(seed().toJson(), vector("account.json"));
});

for (const [name, Model, Final, Cls] of CASES) {
  test(`${name}: golden vectors read and write back in every format`, () => {
    const v = vector(`${name}.fbe.hex`),
      f = vector(`${name}.final.hex`),
      j = vector(`${name}.json`);
    const m = new Model(),
      fm = new Final();
    assert.ok(m.verify(v) && fm.verify(f));
    const a = m.deserialize(v),
      b = fm.deserialize(f),
      c = Cls.fromJson(j);
    for (const x of [a, b, c]) {
      assert.equal(hex(m.serialize(x)), hex(v));
      assert.equal(hex(fm.serialize(x)), hex(f));
      assert.equal(x.toJson(), j);
    }
    assert.ok(a.equals(b) && b.equals(c));
  });

  for (const [format, M] of [
    ["versioned", Model],
    ["final", Final],
  ]) {
    test(`${name} (${format}): every truncation is rejected, every byte change handled`, () => {
      const data = vector(`${name}.${format === "versioned" ? "fbe" : "final"}.hex`);
      const m = new M();
      for (let n = 0; n < data.length; n++) {
        const cut = data.slice(0, n);
        assert.equal(m.verify(cut), false, `truncated to ${n}`);
        assert.throws(() => m.deserialize(cut), rt.DecodeError);
        // a size that claims less than the message: rejected too, or re-serialized
        const sized = data.slice(0, n);
        if (n >= 4) new DataView(sized.buffer).setUint32(0, n, true);
        agree(m, sized);
      }
      for (let i = 0; i < data.length; i++) {
        for (const change of [0x00, 0xff, 0x01, 0x80, data[i] ^ 0x01, data[i] ^ 0x80, (data[i] + 1) & 0xff]) {
          const bad = data.slice();
          bad[i] = change;
          agree(m, bad);
        }
      }
    });
  }
}

/** verify and deserialize agree; an accepted message serializes again to one that verifies. */
function agree(m, bytes) {
  const ok = m.verify(bytes);
  let value, err;
  try {
    value = m.deserialize(bytes);
  } catch (e) {
    err = e;
  }
  if (!ok) {
    assert.ok(err instanceof rt.DecodeError, `rejected by verify, deserialize gave ${err}`);
    return;
  }
  assert.equal(err, undefined, `verify accepted, deserialize threw ${err}`);
  const again = m.serialize(value);
  assert.ok(m.verify(again));
  assert.equal(hex(m.serialize(m.deserialize(again))), hex(again));
}

test("versioning: an old reader reads new data and a new reader old data", () => {
  const old = seed();
  const data = new proto.AccountModel().serialize(old);
  const ex = new protoex.AccountModel().deserialize(data);
  assert.equal(ex.uid, 1);
  assert.equal(ex.name, "Test");
  assert.equal(ex.orders.length, 3);
  assert.equal(ex.orders[2].price, 1.5);
  const back = new proto.AccountModel().deserialize(new protoex.AccountModel().serialize(ex));
  assert.ok(back.equals(old));
  assert.equal(back.toJson(), old.toJson());
  // final data of another version is rejected
  const fin = new proto.AccountFinalModel().serialize(old);
  assert.equal(new protoex.AccountFinalModel().verify(fin), false);
});

test("exact values: 64-bit integers, decimals, NaN payloads", () => {
  const d = rt.Decimal.parse("-79228162514264337593543950335");
  assert.equal(d.toString(), "-79228162514264337593543950335");
  assert.equal(rt.Decimal.parse("1.50").toString(), "1.50");
  assert.equal(rt.Decimal.parse("1.5e3").toString(), "1500");
  assert.throws(() => rt.Decimal.parse("1e999999999"), rt.DecodeError);
  assert.equal(rt.jsonDouble(1e21), "1e21");
  assert.equal(rt.jsonDouble(1e20), "100000000000000000000.0");
  assert.equal(rt.jsonDouble(0.000001), "0.000001");
  assert.equal(rt.jsonDouble(1e-7), "1e-7");
  assert.equal(rt.jsonDouble(Math.fround(123.456)), "123.45600128173828");
  const w = new rt.Writer();
  w.reserve(8);
  rt.INT64.write(w, 0, -(1n << 63n));
  assert.equal(rt.INT64.toJson(-(1n << 63n)), "-9223372036854775808");
  assert.equal(rt.UINT64.fromJson(new rt.JsonNumber("18446744073709551615", true)), (1n << 64n) - 1n);
});

test("errors are DecodeErrors with a code, never a RangeError", () => {
  const m = new proto.AccountModel();
  for (const bytes of [new Uint8Array(0), new Uint8Array(3), Uint8Array.of(255, 255, 255, 255, 8, 0, 0, 0)]) {
    try {
      m.deserialize(bytes);
      assert.fail("accepted");
    } catch (e) {
      assert.ok(e instanceof rt.DecodeError);
      assert.ok(["truncated", "too_large", "bad_size"].includes(e.code), e.code);
    }
  }
});

test("a reused writer serializes many messages", () => {
  const m = new proto.AccountModel();
  const w = new rt.Writer(16);
  let total = 0;
  for (let i = 0; i < 100; i++) total += m.serializeInto(w, seed());
  assert.equal(total, 252 * 100);
  assert.equal(w.len, total);
  assert.ok(m.verify(w.bytes(), 252 * 99));
});

test("a buffer that grows while a nested body is written (regression)", () => {
  const a = seed();
  a.name = "y".repeat(5000);
  a.wallet.currency = "z".repeat(3000);
  for (const M of [proto.AccountModel, proto.AccountFinalModel]) {
    const m = new M();
    const w = new rt.Writer(1);
    m.serializeInto(w, a);
    const back = m.deserialize(w.bytes());
    assert.equal(back.toJson(), a.toJson());
  }
});

test("a leading U+FEFF is kept in strings; JSON text that starts with one is rejected", async () => {
  const b = new proto.Balance({ currency: "\ufeffUSD", amount: 1.0 });
  for (const M of [proto.BalanceModel, proto.BalanceFinalModel]) {
    const m = new M();
    assert.equal(m.deserialize(m.serialize(b)).currency, "\ufeffUSD");
  }
  const utf8 = (s) => new TextEncoder().encode(s);
  assert.equal(rt.fromJson(proto.BalanceCodec, utf8('{"currency":"\ufeffX"}')).currency, "\ufeffX");
  assert.equal(rt.fromJson(proto.BalanceCodec, utf8('{"currency":"\ufeff"}')).currency, "\ufeff");
  for (const text of ['\ufeff{"currency":"X"}', '{"currency":"X"}\ufeff']) {
    assert.throws(() => rt.fromJson(proto.BalanceCodec, utf8(text)), rt.DecodeError, text);
    assert.throws(() => rt.fromJson(proto.BalanceCodec, text), rt.DecodeError, text);
  }
});

test("repeated JSON keys: a field's last value wins whole, a map's first stays, every value is checked", async () => {
  const everything = await gen("everything");
  const c = rt.fromJson(everything.CollectionsCodec, '{"f_map":{"7":"a","7":"b"}}');
  assert.deepEqual([...c.f_map], [[7, "a"]]);
  const a = rt.fromJson(proto.AccountCodec, '{"wallet":{"currency":"X","amount":2.0},"wallet":{"amount":5.0}}');
  assert.deepEqual([a.wallet.currency, a.wallet.amount], ["", 5.0]);
  for (const text of [
    '{"f_map":{"7":5,"7":"a"}}',
    '{"f_map":{"7":"a","7":5}}',
    '{"f_vector_struct":[{"uid":"x","uid":1}]}',
  ]) {
    assert.throws(() => rt.fromJson(everything.CollectionsCodec, text), rt.DecodeError, text);
  }
  assert.throws(() => rt.fromJson(proto.OrderCodec, '{"side":"sell"}'), rt.DecodeError);
});

test("bytes in JSON: standard Base64 with its padding, nothing else", async () => {
  const hostile = await gen("hostile");
  const blob = (text) => Buffer.from(rt.fromJson(hostile.BagCodec, `{"blob":"${text}"}`).blob).toString("latin1");
  for (const [text, bytes] of [
    ["QQ==", "A"],
    ["QR==", "A"],
    ["QUI=", "AB"],
    ["QUJ=", "AB"],
    ["QUJD", "ABC"],
    ["", ""],
    ["+/+/", "\xfb\xff\xbf"],
  ]) {
    assert.equal(blob(text), bytes, text);
  }
  for (const text of [
    "NaN",
    "QQ",
    "QQ=",
    "Q===",
    "====",
    "=",
    "QQ==QQ==",
    "Q=Q=",
    "-_-_",
    "QU JD",
    "QUJD\\n",
    "QUJ*",
    "QUJ\\u00e9",
  ]) {
    assert.throws(() => blob(text), rt.DecodeError, text);
  }
});
