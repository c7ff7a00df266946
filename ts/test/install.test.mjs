// What ts/README.md shows a user: a fresh npm project outside the repository installs the
// runtime from its folder, generates code for schemas/proto.fbe and round-trips the seed
// account (TypeScript, compiled with the project's own tsc: strict).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./helpers.mjs";

function run(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, ...env } });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

test("a fresh npm project installs the runtime, generates proto.fbe, round-trips the seed account", () => {
  const dir = mkdtempSync(join(tmpdir(), "fastwire-ts-user-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "user", private: true, type: "module" }));
    run("npm", ["install", "--no-audit", "--no-fund", "--offline", join(REPO, "ts")], dir);
    run(
      process.env.PYTHON ?? "python3",
      [
        "-m",
        "fastwire",
        "compile",
        join(REPO, "schemas", "proto.fbe"),
        "--lang",
        "typescript",
        "--final",
        "--json",
        "-o",
        join(dir, "gen"),
      ],
      dir,
      { PYTHONPATH: join(REPO, "compiler") },
    );
    writeFileSync(
      join(dir, "main.ts"),
      `
import { Account, AccountModel, AccountFinalModel, Balance, Order, OrderSide, OrderType, State } from "./gen/proto.js";
const account = new Account({ uid: 1, name: "Test", state: State.good,
  wallet: new Balance({ currency: "USD", amount: 1000 }), asset: new Balance({ currency: "EUR", amount: 100 }),
  orders: [new Order({ uid: 1, symbol: "EURUSD", side: OrderSide.buy, type: OrderType.market, price: 1.23456, volume: 1000 })] });
const bytes = new AccountModel().serialize(account);
const back: Account = new AccountModel().deserialize(bytes);
const fin = new AccountFinalModel().deserialize(new AccountFinalModel().serialize(account));
if (!back.equals(account) || !fin.equals(account) || Account.fromJson(account.toJson()).uid !== 1) throw new Error("no round trip");
console.log(bytes.length, back.toJson());
`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          outDir: "out",
          skipLibCheck: false,
          types: [],
        },
        include: ["main.ts", "gen/*.ts"],
      }),
    );
    run(join(REPO, "ts", "node_modules", ".bin", "tsc"), ["-p", "."], dir);
    const out = run("node", ["out/main.js"], dir);
    assert.match(out, /^156 \{"uid":1,"name":"Test","state":6,/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
