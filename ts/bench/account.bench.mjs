// The seed account (tests/vectors) with tinybench, Node 20: serialize, deserialize and
// verify in both formats, and JSON; medians in ns. With FASTWIRE_CPP_BENCH set to
// fastwire_account_bench (cpp/bench), the C++ figures of the same session follow, for scale.
//   node bench/account.bench.mjs [--quick]
import { Bench } from "tinybench";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import * as rt from "@fastwire/runtime";
import { gen, vector } from "../test/helpers.mjs";

const quick = process.argv.includes("--quick");
const proto = await gen("proto");
const versioned = new proto.AccountModel();
const final = new proto.AccountFinalModel();
const vbytes = vector("account.fbe.hex");
const fbytes = vector("account.final.hex");
const json = vector("account.json");
const account = versioned.deserialize(vbytes);
const w = new rt.Writer(1024);
let sink = 0;

// Each sample runs the operation BATCH times (a timer call per operation would cost as
// much as the operation); the figures are a sample's median divided by BATCH.
const BATCH = 100;
const bench = new Bench({ time: quick ? 100 : 1000, warmupTime: quick ? 50 : 300 });
const ops = {
  "versioned serialize": () => { w.reset(); sink += versioned.serializeInto(w, account); },
  "versioned deserialize": () => { sink += versioned.deserialize(vbytes).uid; },
  "versioned verify": () => { sink += versioned.verify(vbytes) ? 1 : 0; },
  "final serialize": () => { w.reset(); sink += final.serializeInto(w, account); },
  "final deserialize": () => { sink += final.deserialize(fbytes).uid; },
  "final verify": () => { sink += final.verify(fbytes) ? 1 : 0; },
  "json serialize": () => { sink += account.toJson().length; },
  "json deserialize": () => { sink += proto.Account.fromJson(json).uid; },
};
for (const [name, op] of Object.entries(ops)) {
  bench.add(name, () => {
    for (let i = 0; i < BATCH; i++) op();
  });
}

await bench.run();
const rows = bench.tasks.map((t) => {
  const r = t.result;
  const median = ((r.latency?.p50 ?? r.median ?? r.mean) * 1e6) / BATCH; // ms -> ns, per operation
  return { name: t.name, median_ns: Math.round(median) };
});
console.log(`Node ${process.version}, tinybench; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.table(rows);

const cpp = process.env.FASTWIRE_CPP_BENCH;
if (cpp && existsSync(cpp)) {
  const out = execFileSync(cpp, ["--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true",
    "--benchmark_format=json", `--benchmark_min_time=${quick ? "0.05" : "0.2"}`], { encoding: "utf8", maxBuffer: 1 << 24 });
  const data = JSON.parse(out.slice(out.indexOf("{")));
  const med = data.benchmarks.filter((b) => b.aggregate_name === "median");
  console.log("fastwire C++, same session (google-benchmark medians of 5):");
  console.table(med.map((b) => ({ name: b.run_name, median_ns: Math.round(b.real_time * (b.time_unit === "us" ? 1000 : 1)) })));
}
if (sink === 42) console.log("");
