// The fuzz target for Jazzer.js (`make fuzz-ts`): contract.cjs's checks over the CommonJS
// build of the runtime and the generated code (build/ts/cjs, made by jazzer-build.sh),
// which Jazzer.js instruments for coverage as `require` loads it.
"use strict";
const { join } = require("node:path");
const { makeTarget } = require("./contract.cjs");

const CJS = process.env.FASTWIRE_TS_CJS || join(__dirname, "..", "..", "build", "ts", "cjs");
const rt = require(join(CJS, "runtime", "index.js"));
const mods = {};
for (const pkg of ["proto", "protoex", "everything", "hostile", "service"])
  mods[pkg] = require(join(CJS, "gen", `${pkg}.js`));

const target = makeTarget(rt, mods);
exports.fuzz = target.fuzz; // (named so that Jazzer.js's import() sees it)
