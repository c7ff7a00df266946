// Shared by the tests: the generated modules (build/ts/gen, from `make test-ts`) and the
// golden vectors of tests/vectors.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const GEN = process.env.FASTWIRE_TS_GEN ?? join(REPO, "build", "ts", "gen");

export async function gen(pkg) {
  return import(join(GEN, `${pkg}.js`));
}

export function vector(name) {
  const text = readFileSync(join(REPO, "tests", "vectors", name), "utf8");
  if (name.endsWith(".hex")) return Uint8Array.from(Buffer.from(text.replace(/\s+/g, ""), "hex"));
  return text.trim();
}

export function hex(b) {
  return Buffer.from(b).toString("hex");
}
