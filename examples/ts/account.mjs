// The FBE README's first example in TypeScript/JavaScript: build the seed account,
// serialize it (versioned format, 252 bytes, byte-identical to the reference), verify
// the bytes, read them back and print the value (as examples/cpp/account does).
//
//   fastwire compile schemas/proto.fbe --lang javascript --final --json -o gen/
//   node examples/ts/account.mjs gen/            (make test-ts runs it)
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2] ?? "build/ts/gen");
const proto = await import(pathToFileURL(join(dir, "proto.js")).href);

const account = new proto.Account({
  uid: 1, name: "Test", state: proto.State.good,
  wallet: new proto.Balance({ currency: "USD", amount: 1000.0 }),
  asset: new proto.Balance({ currency: "EUR", amount: 100.0 }),
});
account.orders.push(new proto.Order({ uid: 1, symbol: "EURUSD", side: proto.OrderSide.buy, type: proto.OrderType.market, price: 1.23456, volume: 1000.0 }));
account.orders.push(new proto.Order({ uid: 2, symbol: "EURUSD", side: proto.OrderSide.sell, type: proto.OrderType.limit, price: 1.0, volume: 100.0 }));
account.orders.push(new proto.Order({ uid: 3, symbol: "EURUSD", side: proto.OrderSide.buy, type: proto.OrderType.stop, price: 1.5, volume: 10.0 }));

const model = new proto.AccountModel();
const bytes = model.serialize(account);
if (!model.verify(bytes)) throw new Error("the serialized account does not verify");
console.log(`FBE size: ${bytes.length}`);
const back = model.deserialize(bytes);
if (!back.equals(account)) throw new Error("the account does not read back");
console.log();
console.log(readmeLayout(back.toString()));

// The FBE README lays the account out over lines: one per field of the root struct,
// and one per element of a collection field (as examples/cpp/account.cpp re-flows it).
function readmeLayout(text) {
  let out = "";
  const broken = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i], prev = i > 0 ? text[i - 1] : "";
    if (quoted || c === '"') {
      if (c === '"') quoted = !quoted;
      out += c;
    } else if ("([{<".includes(c)) {
      const split = broken.length === 0 || (broken.length === 1 && c === "[" && prev === "]");
      broken.push(split);
      out += c + (split ? "\n" : "");
    } else if (")]}>".includes(c) && !(c === ">" && prev === "-") && broken.length) {
      if (broken.pop()) out += "\n";
      out += c;
    } else if (c === "," && broken.length && broken[broken.length - 1]) out += ",\n";
    else out += c;
  }
  return out;
}
