/**
 * Exact value types and text forms: Decimal (96-bit, scale 0..28), uuid text, UTF-8
 * that keeps bytes which are not UTF-8, Base64, and JSON doubles (docs/wire-format.md#json).
 * Only Uint8Array / DataView / TextEncoder: the same code runs in Node and in browsers.
 */
import { EncodeError, fail } from "./errors.js";

const MAX96 = (1n << 96n) - 1n;
const DECIMAL_TEXT = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/**
 * An exact decimal as FBE writes it: ±coefficient / 10^scale, coefficient < 2^96,
 * scale 0..28, and the sign kept for zero ("-0.00"). Immutable.
 *
 *     Decimal.parse("1.50").toString()   // "1.50"
 *     new Decimal(150n, 2)               // the same value
 */
export class Decimal {
  readonly coefficient: bigint;
  readonly scale: number;
  readonly negative: boolean;

  constructor(coefficient: bigint | number = 0n, scale = 0, negative = false) {
    let c = typeof coefficient === "bigint" ? coefficient : BigInt(coefficient);
    if (c < 0n) {
      c = -c;
      negative = !negative;
    }
    if (c > MAX96) throw new EncodeError(`decimal coefficient ${c} needs more than 96 bits`, "out_of_range");
    if (!Number.isInteger(scale) || scale < 0 || scale > 28) {
      throw new EncodeError(`decimal scale ${scale} is not 0..28`, "out_of_range");
    }
    this.coefficient = c;
    this.scale = scale;
    this.negative = negative;
  }

  static readonly ZERO = new Decimal(0n);

  /**
   * The decimal a text spells: `[+|-]digits[.digits][(e|E)[+|-]digits]`. The digits as
   * written must fit 96 bits and the scale (digits after the point minus the exponent)
   * 0..28 (a negative scale multiplies; zero stays zero). Work bounded by the length.
   * Throws DecodeError (invalid_argument, out_of_range).
   */
  static parse(text: string): Decimal {
    if (!DECIMAL_TEXT.test(text)) fail("invalid_argument", `${short(text)} is not a decimal`);
    let i = 0;
    let negative = false;
    if (text[0] === "-" || text[0] === "+") {
      negative = text[0] === "-";
      i = 1;
    }
    let e = text.length;
    const ePos = text.search(/[eE]/);
    let exponent = 0;
    if (ePos >= 0) {
      e = ePos;
      const et = text.slice(ePos + 1);
      const digits = et.replace(/^[+-]/, "").replace(/^0+/, "");
      const mag = digits.length > 12 ? 1e12 : Number(digits || "0");
      exponent = et[0] === "-" ? -mag : mag;
    }
    const mantissa = text.slice(i, e);
    const dot = mantissa.indexOf(".");
    const whole = dot >= 0 ? mantissa.slice(0, dot) : mantissa;
    const frac = dot >= 0 ? mantissa.slice(dot + 1) : "";
    const digits = (whole + frac).replace(/^0+/, "");
    if (digits.length > 29) fail("out_of_range", `decimal ${short(text)} needs more than 96 bits`);
    let n = digits ? BigInt(digits) : 0n;
    let scale = frac.length - exponent;
    if (scale < 0) {
      if (n !== 0n) {
        if (digits.length - scale > 29) fail("out_of_range", `decimal ${short(text)} needs more than 96 bits`);
        n *= 10n ** BigInt(-scale);
      }
      scale = 0;
    }
    if (n > MAX96) fail("out_of_range", `decimal ${short(text)} needs more than 96 bits`);
    if (scale > 28) fail("out_of_range", `decimal ${short(text)} has more than 28 decimal places`);
    return new Decimal(n, scale, negative);
  }

  /** Exact positional text keeping the scale: "1.50", "-0.00". */
  toString(): string {
    let s = this.coefficient.toString();
    if (this.scale > 0) {
      if (s.length <= this.scale) s = "0".repeat(this.scale - s.length + 1) + s;
      s = s.slice(0, s.length - this.scale) + "." + s.slice(s.length - this.scale);
    }
    return this.negative ? "-" + s : s;
  }

  /** Numeric comparison (1.5 equals 1.50; -0 equals 0). */
  compare(other: Decimal): number {
    const a = this.negative ? -this.coefficient : this.coefficient;
    const b = other.negative ? -other.coefficient : other.coefficient;
    const s = Math.max(this.scale, other.scale);
    const x = a * 10n ** BigInt(s - this.scale);
    const y = b * 10n ** BigInt(s - other.scale);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  equals(other: Decimal): boolean {
    return this.compare(other) === 0;
  }

  /** The value as a (rounded) number. */
  toNumber(): number {
    return Number(this.toString());
  }

  /** A key that is equal for numerically equal decimals (for maps and sets). */
  key(): string {
    if (this.coefficient === 0n) return "0";
    let c = this.coefficient;
    let s = this.scale;
    while (s > 0 && c % 10n === 0n) {
      c /= 10n;
      s--;
    }
    return (this.negative ? "-" : "") + c.toString() + "e-" + s;
  }
}

/** A value's text cut to a readable length for a message (hostile input can be huge). */
export function short(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 40)}... (${text.length} characters)`;
}

// ---- uuid ------------------------------------------------------------------------------

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push(i.toString(16).padStart(2, "0"));

/** The nil uuid's canonical text. */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/** The canonical lower-case text of 16 bytes at `p`. */
export function uuidText(b: Uint8Array, p: number): string {
  return (
    HEX[b[p]!]! +
    HEX[b[p + 1]!]! +
    HEX[b[p + 2]!]! +
    HEX[b[p + 3]!]! +
    "-" +
    HEX[b[p + 4]!]! +
    HEX[b[p + 5]!]! +
    "-" +
    HEX[b[p + 6]!]! +
    HEX[b[p + 7]!]! +
    "-" +
    HEX[b[p + 8]!]! +
    HEX[b[p + 9]!]! +
    "-" +
    HEX[b[p + 10]!]! +
    HEX[b[p + 11]!]! +
    HEX[b[p + 12]!]! +
    HEX[b[p + 13]!]! +
    HEX[b[p + 14]!]! +
    HEX[b[p + 15]!]!
  );
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Writes the 16 bytes of a uuid's text at `p`; false when the text is not a uuid
 * (36 characters, hex digits of either case, dashes at 8, 13, 18 and 23). */
export function uuidBytes(text: string, out: Uint8Array, p: number): boolean {
  if (typeof text !== "string" || text.length !== 36) return false;
  let n = 0;
  for (let i = 0; i < 36;) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (text.charCodeAt(i) !== 45) return false;
      i++;
      continue;
    }
    const hi = hexValue(text.charCodeAt(i));
    const lo = hexValue(text.charCodeAt(i + 1));
    if (hi < 0 || lo < 0) return false;
    out[p + n++] = hi * 16 + lo;
    i += 2;
  }
  return true;
}

/** The canonical (lower-case) text of a uuid given in any case; throws when not a uuid. */
export function uuid(text: string): string {
  const b = new Uint8Array(16);
  if (!uuidBytes(text, b, 0)) throw new EncodeError(`${short(String(text))} is not a uuid`, "invalid_argument");
  return uuidText(b, 0);
}

function randomBytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  globalThis.crypto.getRandomValues(b);
  return b;
}

/** A random (version 4) uuid. */
export function uuid4(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return uuidText(b, 0);
}

let v1Last = 0n;
const v1Node = randomBytes(8);
v1Node[0] = v1Node[0]! | 0x01; // multicast bit: not a MAC address (RFC 4122 §4.5)

/** A time-based (version 1) uuid with a random node id; strictly increasing in one process. */
export function uuid1(): string {
  // 100 ns intervals since 1582-10-15
  let t = BigInt(Date.now()) * 10000n + 0x01b21dd213814000n;
  if (t <= v1Last) t = v1Last + 1n;
  v1Last = t;
  const b = new Uint8Array(16);
  const low = Number(t & 0xffffffffn);
  const mid = Number((t >> 32n) & 0xffffn);
  const high = Number((t >> 48n) & 0x0fffn) | 0x1000;
  new DataView(b.buffer).setUint32(0, low);
  new DataView(b.buffer).setUint16(4, mid);
  new DataView(b.buffer).setUint16(6, high);
  b[8] = (v1Node[6]! & 0x3f) | 0x80;
  b[9] = v1Node[7]!;
  b.set(v1Node.subarray(0, 6), 10);
  return uuidText(b, 0);
}

/** Nanoseconds since the Unix epoch, now. */
export function utc(): bigint {
  const ms = Date.now();
  const perf = globalThis.performance;
  const sub = perf ? Math.floor((perf.now() % 1) * 1e6) : 0;
  return BigInt(ms) * 1000000n + BigInt(sub);
}

// ---- UTF-8 -----------------------------------------------------------------------------
// Strings are text; bytes that are not UTF-8 (a malformed message that verify accepts:
// strings are bytes on the wire) are kept as lone surrogates U+DC80..U+DCFF, one per byte,
// and written back as those bytes, so every accepted message re-serializes exactly.

// ignoreBOM: a string that starts with U+FEFF keeps it (TextDecoder drops it by default).
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

const fromCodes = String.fromCharCode;

/** Up to 8 ASCII bytes as a string: one call with the codes as arguments (much faster
 * than concatenation or apply for the short strings messages are full of). */
function ascii8(b: Uint8Array, p: number, n: number): string {
  const f = fromCodes;
  switch (n) {
    case 1:
      return f(b[p + 0]!);
    case 2:
      return f(b[p + 0]!, b[p + 1]!);
    case 3:
      return f(b[p + 0]!, b[p + 1]!, b[p + 2]!);
    case 4:
      return f(b[p + 0]!, b[p + 1]!, b[p + 2]!, b[p + 3]!);
    case 5:
      return f(b[p + 0]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!);
    case 6:
      return f(b[p + 0]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!);
    case 7:
      return f(b[p + 0]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!);
    case 8:
      return f(b[p + 0]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!);
    default:
      return "";
  }
}

/** The text of `n` UTF-8 bytes at `p`. */
export function utf8Decode(b: Uint8Array, p: number, n: number): string {
  if (n <= 24) {
    const end = p + n;
    let i = p;
    while (i < end && b[i]! < 0x80) i++;
    if (i === end) {
      if (n <= 8) return ascii8(b, p, n);
      if (n <= 16) return ascii8(b, p, 8) + ascii8(b, p + 8, n - 8);
      return ascii8(b, p, 8) + ascii8(b, p + 8, 8) + ascii8(b, p + 16, n - 16);
    }
  }
  try {
    return decoder.decode(b.subarray(p, p + n));
  } catch {
    return decodeLossless(b, p, n);
  }
}

function decodeLossless(b: Uint8Array, p: number, n: number): string {
  const out: number[] = [];
  const end = p + n;
  let i = p;
  while (i < end) {
    const c = b[i]!;
    let len = 0;
    let cp = 0;
    let min = 0;
    if (c < 0x80) {
      out.push(c);
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      len = 2;
      cp = c & 0x1f;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      cp = c & 0x0f;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      cp = c & 0x07;
      min = 0x10000;
    }
    let ok = len > 0 && i + len <= end;
    for (let k = 1; ok && k < len; k++) {
      const d = b[i + k]!;
      if ((d & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (d & 0x3f);
    }
    if (ok && (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (!ok) {
      out.push(0xdc00 + c); // the byte, escaped
      i++;
      continue;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else out.push(cp);
    i += len;
  }
  let s = "";
  for (let k = 0; k < out.length; k += 4096) s += String.fromCharCode(...out.slice(k, k + 4096));
  return s;
}

/** True when `s` holds a surrogate that is not part of a pair. */
export function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          continue;
        }
      }
      return true;
    }
  }
  return false;
}

/** The UTF-8 bytes of `s` (lone surrogates U+DC80..U+DCFF back to the bytes they hold). */
export function utf8Encode(s: string): Uint8Array {
  if (!hasLoneSurrogate(s)) return encoder.encode(s);
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
        continue;
      }
    }
    if (c >= 0xdc80 && c <= 0xdcff) out.push(c - 0xdc00);
    else if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Uint8Array.from(out);
}

export { encoder as utf8Encoder };

// ---- Base64 ----------------------------------------------------------------------------

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_VALUE[B64.charCodeAt(i)] = i;

/** Standard Base64 with `=` padding. */
export function base64Encode(b: Uint8Array): string {
  let s = "";
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    s += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  if (i + 1 === b.length) {
    const n = b[i]! << 16;
    s += B64[n >> 18]! + B64[(n >> 12) & 63]! + "==";
  } else if (i + 2 === b.length) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8);
    s += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + "=";
  }
  return s;
}

/** Standard Base64 (docs/wire-format.md#json): groups of four characters of the
 * standard alphabet, the last one padded with "=" or "=="; null when malformed. The unused
 * low bits of the last character are ignored ("QR==" reads as "QQ=="). */
export function base64Decode(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  let len = text.length;
  if (len > 0 && text.charCodeAt(len - 1) === 61) len--;
  if (len > 0 && text.charCodeAt(len - 1) === 61) len--;
  if (len % 4 === 1) return null;
  const out = new Uint8Array(Math.floor(len / 4) * 3 + (len % 4 === 0 ? 0 : (len % 4) - 1));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? B64_VALUE[c]! : -1;
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

// ---- JSON text -------------------------------------------------------------------------

/** A double as fastwire's JSON writes it (RapidJSON's layout of the shortest digits;
 * NaN and the infinities as the strings "NaN", "Infinity", "-Infinity"). */
export function jsonDouble(x: number): string {
  if (x !== x) return '"NaN"';
  if (x === Infinity) return '"Infinity"';
  if (x === -Infinity) return '"-Infinity"';
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  if (Number.isInteger(x) && x < 1e21 && x > -1e21) return String(x) + ".0";
  let sign = "";
  if (x < 0) {
    sign = "-";
    x = -x;
  }
  const t = x.toExponential(); // shortest digits: d.ddde±N
  const e = t.indexOf("e");
  const digits = t[0] + (e > 2 ? t.slice(2, e) : "");
  const exp = Number(t.slice(e + 1));
  const len = digits.length;
  const n = exp + 1; // digits before the point
  const k = n - len;
  let out: string;
  if (k >= 0 && n <= 21) out = digits + "0".repeat(k) + ".0";
  else if (n > 0 && n <= 21) out = digits.slice(0, n) + "." + digits.slice(n);
  else if (n > -6 && n <= 0) out = "0." + "0".repeat(-n) + digits;
  else if (len === 1) out = digits + "e" + (n - 1);
  else out = digits[0] + "." + digits.slice(1) + "e" + (n - 1);
  return sign + out;
}

// eslint-disable-next-line no-control-regex -- JSON escapes every control character
const ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string literal as RapidJSON writes it: UTF-8 as is; `"`, `\\`, the short
 * escapes and the other control characters as \u00XX (upper-case hex). Lone surrogates
 * (bytes kept from a string that was not UTF-8) are escaped as \udcXX. */
export function jsonString(s: string): string {
  if (!ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) out += '\\"';
    else if (c === 92) out += "\\\\";
    else if (c < 0x20) {
      if (c === 8) out += "\\b";
      else if (c === 12) out += "\\f";
      else if (c === 10) out += "\\n";
      else if (c === 13) out += "\\r";
      else if (c === 9) out += "\\t";
      else out += "\\u00" + HEX[c]!.toUpperCase();
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else out += "\\u" + c.toString(16);
    } else out += s[i];
  }
  return out + '"';
}
