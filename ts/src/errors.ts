/**
 * The errors the runtime throws. Malformed input never throws anything else: a
 * `DecodeError` with a `code` named as the C++ runtime's `errc` (truncated, bad_offset, …).
 */

/** code -> what it means (the C++ runtime's wording). */
export const CODES: Readonly<Record<string, string>> = {
  truncated: "a size, offset or count reaches past the end",
  bad_offset: "an offset is zero where a value is required, or points backwards",
  bad_size: "a struct or model size is smaller than its header, or does not match",
  bad_type: "unexpected struct type number",
  bad_value: "a value outside its domain",
  too_deep: "structs nested beyond Limits.maxDepth",
  too_large: "message or element count exceeds its limit",
  over_budget: "blocks shared or reached repeatedly",
  invalid_argument: "malformed text",
  out_of_range: "value does not fit its type",
};

export type DecodeCode =
  | "truncated"
  | "bad_offset"
  | "bad_size"
  | "bad_type"
  | "bad_value"
  | "too_deep"
  | "too_large"
  | "over_budget"
  | "invalid_argument"
  | "out_of_range";

export type EncodeCode = "wrong_type" | "out_of_range" | "wrong_length" | "too_deep" | "invalid_argument";

/** Base class of the runtime's errors. */
export class FastwireError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Bytes or JSON text that do not hold a valid value of the expected type. */
export class DecodeError extends FastwireError {
  readonly detail: string;
  constructor(code: DecodeCode, detail = "") {
    super(code, `${code}: ${CODES[code] ?? code}` + (detail ? ` (${detail})` : ""));
    this.detail = detail;
  }
}

/** A value that cannot be serialized (a wrong type, a number out of range, an array of
 * the wrong length, a decimal beyond 96 bits). */
export class EncodeError extends FastwireError {
  constructor(message: string, code: EncodeCode = "invalid_argument") {
    super(code, message);
  }
}

/** Throws a DecodeError. */
export function fail(code: DecodeCode, detail = ""): never {
  throw new DecodeError(code, detail);
}
