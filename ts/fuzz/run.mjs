// Drives the fuzz target for a bounded time without Jazzer.js: mutations (byte changes,
// insertions, deletions, splices, sizes and counts set to edge values) of a corpus made
// of the golden vectors and messages of every conformance type, as libFuzzer's default
// mutators do, without coverage feedback. Findings are written to build/ts/fuzz/ and
// replayed from ts/fuzz/regressions/ on every run.
//   node fuzz/run.mjs SECONDS [SEED]
//   node fuzz/run.mjs --corpus DIR       (writes the seed corpus for Jazzer.js)
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fuzz, TARGETS } from "./target.mjs";
import { REPO } from "../test/helpers.mjs";

const seconds = Number(process.argv[2] ?? 10);
let seed = Number(process.argv[3] ?? Date.now() % 1e9) || 1;
const startSeed = seed;
function rand(n) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}

const corpus = [];
const vectors = join(REPO, "tests", "vectors");
for (const f of readdirSync(vectors).filter((f) => f.endsWith(".hex"))) {
  const b = Buffer.from(readFileSync(join(vectors, f), "utf8").replace(/\s+/g, ""), "hex");
  for (let k = 0; k < TARGETS.length; k += 7)
    corpus.push(Uint8Array.from([k | (f.includes("final") ? 0x80 : 0), ...b]));
}
TARGETS.forEach((t, k) => {
  const v = t.codec.zero();
  corpus.push(Uint8Array.from([k, ...t.model.serialize(v)]));
  corpus.push(Uint8Array.from([k | 0x80, ...t.final.serialize(v)]));
  corpus.push(Uint8Array.from([k, ...new TextEncoder().encode(t.codec.toJson(v))]));
});
// `--corpus DIR`: writes these seeds to DIR (Jazzer.js's starting corpus) and stops
const corpusAt = process.argv.indexOf("--corpus");
if (corpusAt > 0) {
  const dir = process.argv[corpusAt + 1];
  mkdirSync(dir, { recursive: true });
  corpus.forEach((b, k) => writeFileSync(join(dir, `seed-${k}`), b));
  console.log(`fuzz: ${corpus.length} seeds in ${dir}`);
  process.exit(0);
}
const regressions = join(REPO, "ts", "fuzz", "regressions");
if (existsSync(regressions)) for (const f of readdirSync(regressions)) fuzz(readFileSync(join(regressions, f)));

const EDGES = [0, 1, 4, 8, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0xffffffff];
function mutate(input) {
  let b = Uint8Array.from(input);
  const rounds = 1 + rand(4);
  for (let k = 0; k < rounds; k++) {
    const at = b.length > 1 ? 1 + rand(b.length - 1) : 0;
    switch (rand(7)) {
      case 0:
        b[at] = rand(256);
        break;
      case 1:
        b[at] ^= 1 << rand(8);
        break;
      case 2:
        b = b.subarray(0, at);
        break;
      case 3: {
        const ins = Uint8Array.from({ length: 1 + rand(8) }, () => rand(256));
        b = Uint8Array.from([...b.subarray(0, at), ...ins, ...b.subarray(at)]);
        break;
      }
      case 4:
        if (at + 4 <= b.length) new DataView(b.buffer).setUint32(at, EDGES[rand(EDGES.length)] >>> 0, true);
        break;
      case 5: {
        const o = corpus[rand(corpus.length)];
        const from = rand(o.length);
        b = Uint8Array.from([...b.subarray(0, at), ...o.subarray(from, from + 1 + rand(64))]);
        break;
      }
      default:
        b = Uint8Array.from([...b.subarray(0, at), ...b.subarray(at + 1 + rand(4))]);
    }
  }
  return b;
}

const end = Date.now() + seconds * 1000;
let runs = 0;
while (Date.now() < end) {
  for (let k = 0; k < 200; k++) {
    const input = mutate(corpus[rand(corpus.length)]);
    try {
      fuzz(input);
    } catch (err) {
      const dir = join(REPO, "build", "ts", "fuzz");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `crash-${startSeed}-${runs}`);
      writeFileSync(file, input);
      console.error(`fuzz: finding after ${runs} runs (seed ${startSeed}): ${err.stack}\ninput: ${file}`);
      process.exit(1);
    }
    runs++;
    if (runs % 5000 === 0 && corpus.length < 4096) corpus.push(input);
  }
}
console.log(`fuzz: ${runs} runs in ${seconds} s, ${TARGETS.length} types, seed ${startSeed}: no finding`);
