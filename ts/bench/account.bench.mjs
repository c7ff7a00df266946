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

// Each operation is its own loop (a call site that sees one function, as a program's
// does): a sample runs it `n` times and the figure is a sample's median divided by n.
// Two passes: wall-clock time (performance.now, batches of 100) and the process's CPU
// time (process.cpuUsage, whose microseconds need batches of 2,000; on a shared machine
// it leaves out the time other programs hold the cores).
const ops = {
  "versioned serialize": (n) => {
    for (let i = 0; i < n; i++) {
      w.reset();
      sink += versioned.serializeInto(w, account);
    }
  },
  "versioned deserialize": (n) => {
    for (let i = 0; i < n; i++) sink += versioned.deserialize(vbytes).uid;
  },
  "versioned verify": (n) => {
    for (let i = 0; i < n; i++) sink += versioned.verify(vbytes) ? 1 : 0;
  },
  "final serialize": (n) => {
    for (let i = 0; i < n; i++) {
      w.reset();
      sink += final.serializeInto(w, account);
    }
  },
  "final deserialize": (n) => {
    for (let i = 0; i < n; i++) sink += final.deserialize(fbytes).uid;
  },
  "final verify": (n) => {
    for (let i = 0; i < n; i++) sink += final.verify(fbytes) ? 1 : 0;
  },
  "json serialize": (n) => {
    for (let i = 0; i < n; i++) sink += account.toJson().length;
  },
  "json deserialize": (n) => {
    for (let i = 0; i < n; i++) sink += proto.Account.fromJson(json).uid;
  },
};
const GOALS = {
  "versioned serialize": 400,
  "versioned deserialize": 600,
  "versioned verify": 100,
  "final serialize": 300,
  "final deserialize": 400,
  "final verify": 50,
};
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000; // ms
};

async function pass(now, batch) {
  const bench = new Bench({ time: quick ? 100 : 1000, warmupTime: quick ? 50 : 300, ...(now ? { now } : {}) });
  for (const [name, op] of Object.entries(ops)) {
    const n = name.startsWith("json") ? Math.max(1, batch / 20) : batch;
    bench.add(name, () => op(n));
  }
  await bench.run();
  const out = {};
  for (const t of bench.tasks) {
    const r = t.result;
    const n = t.name.startsWith("json") ? Math.max(1, batch / 20) : batch;
    out[t.name] = ((r.latency?.p50 ?? r.median ?? r.mean) * 1e6) / n; // ms -> ns, per operation
  }
  return out;
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const before = load();
const wall = await pass(null, 100);
const cpu = await pass(cpuNow, 2000);
console.log(`Node ${process.version}, tinybench medians; load average ${before} before, ${load()} after`);
console.table(
  Object.keys(ops).map((name) => ({
    name,
    "goal ns": GOALS[name] ?? "",
    "wall ns": Math.round(wall[name]),
    "cpu ns": Math.round(cpu[name]),
    meets: GOALS[name] === undefined ? "" : cpu[name] <= GOALS[name] ? "yes" : "no",
  })),
);

const cpp = process.env.FASTWIRE_CPP_BENCH;
if (cpp && existsSync(cpp)) {
  const out = execFileSync(
    cpp,
    [
      "--benchmark_repetitions=5",
      "--benchmark_report_aggregates_only=true",
      "--benchmark_format=json",
      `--benchmark_min_time=${quick ? "0.05" : "0.2"}`,
    ],
    { encoding: "utf8", maxBuffer: 1 << 24 },
  );
  const data = JSON.parse(out.slice(out.indexOf("{")));
  const med = data.benchmarks.filter((b) => b.aggregate_name === "median");
  console.log("fastwire C++, same session (google-benchmark medians of 5):");
  const ns = (t, unit) => Math.round(t * (unit === "us" ? 1000 : unit === "ms" ? 1e6 : 1));
  console.table(
    med.map((b) => ({
      name: b.run_name,
      "wall ns": ns(b.real_time, b.time_unit),
      "cpu ns": ns(b.cpu_time, b.time_unit),
    })),
  );
}
if (sink === 42) console.log("");
