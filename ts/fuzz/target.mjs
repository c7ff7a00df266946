// The fuzz target over the ES modules (the runtime's dist/ and build/ts/gen): the checks
// are contract.cjs's. `fuzz(data)` has Jazzer.js's signature; run.mjs drives it without
// coverage feedback, jazzer.cjs is the same target for Jazzer.js (see README).
import * as rt from "@fastwire/runtime";
import { gen } from "../test/helpers.mjs";
import contract from "./contract.cjs";

const mods = {};
for (const pkg of ["proto", "protoex", "everything", "hostile", "service"]) mods[pkg] = await gen(pkg);
const target = contract.makeTarget(rt, mods);

export const TARGETS = target.TARGETS;
export const fuzz = target.fuzz;
