/**
 * Codecs: how each schema type sits in the versioned format, in the final format and in
 * JSON. One codec object per schema type; collections, optionals and structs compose
 * them, and generated code declares each struct's fields over them.
 *
 * Versioned (positions from the message's start; `base` is where offsets count from;
 * `d` the struct levels that may still be entered):
 *   vput(w, pos, base, v)   appends v's heap blocks, then writes its slot at pos
 *   vget(r, pos, base, d)   the checked read of the slot at pos
 *   vcheck(r, pos, base, d) verify: the same checks, nothing built
 * Final (r.p is the cursor): fput(w, v), fget(r, d), fcheck(r, d).
 * JSON: toJson(v) text, fromJson(parsed); map keys: keyText(v), fromKey(text).
 *
 * The checks follow fastwire's contract (docs/security.md): every offset leads forward
 * to a block inside the message; counts fit the bytes that remain; every block reached
 * is charged to a budget of the message size; struct sizes >= 8 and type numbers must
 * match; nesting is bounded; decimal scales <= 28.
 */
import { DecodeError, EncodeError, fail } from "./errors.js";
import { isObject, JsonNumber, type JsonValue, repeatedMembers } from "./json.js";
import {
  base64Decode,
  base64Encode,
  Decimal,
  hasLoneSurrogate,
  jsonDouble,
  jsonString,
  NIL_UUID,
  short,
  utf8Decode,
  utf8Encode,
  utf8Encoder,
  uuidBytes,
  uuidText,
} from "./values.js";
import { Reader, Writer } from "./wire.js";

/** What every codec does; see the module comment. */
export abstract class Codec<T> {
  abstract readonly name: string;
  /** bytes of its slot in a versioned body or collection block */
  slot = 4;
  /** fewest bytes in the final format */
  fmin = 4;
  /** bytes in the final format when fixed, else null */
  fsize: number | null = null;
  /** vcheck has nothing to check */
  vtrivial = false;
  /** keys of this codec are compared by value by a JS Map (number, bigint, string, boolean) */
  primitiveKey = true;

  abstract zero(): T;
  abstract vput(w: Writer, pos: number, base: number, v: T): void;
  abstract vget(r: Reader, pos: number, base: number, d: number): T;
  abstract vcheck(r: Reader, pos: number, base: number, d: number): void;
  abstract fput(w: Writer, v: T): void;
  abstract fget(r: Reader, d: number): T;
  abstract fcheck(r: Reader, d: number): void;
  abstract toJson(v: T): string;
  abstract fromJson(j: JsonValue): T;
  abstract compare(a: T, b: T): number;

  keyText(v: T): string {
    return this.toJson(v);
  }

  fromKey(s: string): T {
    void s;
    return fail("invalid_argument", `${this.name} cannot be a map key`);
  }

  /** A primitive that is equal for keys that are equal (Map and Set deduplication). */
  keyId(v: T): unknown {
    return v;
  }

  equals(a: T, b: T): boolean {
    return this.compare(a, b) === 0;
  }
}

/** A codec of any type (a struct's field table holds several). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCodec = Codec<any>;

export type CodecOf<C> = C extends Codec<infer T> ? T : never;

function wrongJson(name: string, j: JsonValue): never {
  const what =
    j === null
      ? "null"
      : j instanceof JsonNumber
        ? "a number"
        : Array.isArray(j)
          ? "an array"
          : isObject(j)
            ? "an object"
            : typeof j === "string"
              ? "a string"
              : typeof j;
  return fail("bad_value", `${name} expected, got ${what}`);
}

/** Claims `n` bytes at the final cursor; returns their position (truncated when absent). */
export function needFinal(r: Reader, n: number): number {
  const p = r.p;
  if (n > r.end - p) fail("truncated");
  r.p = p + n;
  return p;
}

// ---- scalars ---------------------------------------------------------------------------

abstract class Scalar<T> extends Codec<T> {
  override vtrivial = true;
  constructor(
    readonly name: string,
    size: number,
  ) {
    super();
    this.slot = this.fmin = size;
    this.fsize = size;
  }
  abstract read(r: Reader, pos: number): T;
  abstract write(w: Writer, pos: number, v: T): void;

  vput(w: Writer, pos: number, _base: number, v: T): void {
    this.write(w, pos, v);
  }
  vget(r: Reader, pos: number): T {
    return this.read(r, pos);
  }
  vcheck(_r: Reader, _pos: number, _base: number, _d: number): void {}
  fput(w: Writer, v: T): void {
    const pos = w.len;
    w.ensure(this.slot);
    w.len += this.slot;
    this.write(w, pos, v);
  }
  fget(r: Reader): T {
    return this.read(r, needFinal(r, this.slot));
  }
  fcheck(r: Reader, _d: number): void {
    needFinal(r, this.slot);
  }
}

export class BoolCodec extends Scalar<boolean> {
  constructor() {
    super("bool", 1);
  }
  zero(): boolean {
    return false;
  }
  read(r: Reader, pos: number): boolean {
    return r.buf[pos] !== 0;
  }
  write(w: Writer, pos: number, v: boolean): void {
    w.buf[pos] = v ? 1 : 0;
  }
  toJson(v: boolean): string {
    return v ? "true" : "false";
  }
  fromJson(j: JsonValue): boolean {
    if (j === true || j === false) return j;
    return wrongJson("bool", j);
  }
  override fromKey(s: string): boolean {
    if (s === "true") return true;
    if (s === "false") return false;
    return fail("invalid_argument", `map key ${short(s)} is not a bool`);
  }
  compare(a: boolean, b: boolean): number {
    return a === b ? 0 : a ? 1 : -1;
  }
}

function intKeyDigits(s: string, name: string): string {
  const neg = s.charCodeAt(0) === 45;
  const t = neg ? s.slice(1) : s;
  if (!/^[0-9]+$/.test(t)) fail("invalid_argument", `map key ${short(s)} is not an integer`);
  const digits = t.replace(/^0+/, "") || "0";
  if (digits.length > 20) fail("out_of_range", `map key ${short(s)} does not fit ${name}`);
  return neg ? "-" + digits : digits;
}

/** Integers of up to 32 bits, char and wchar (code units): JS numbers. */
export class IntCodec extends Scalar<number> {
  constructor(
    name: string,
    size: number,
    readonly lo: number,
    readonly hi: number,
    readonly read: (r: Reader, pos: number) => number,
    readonly write: (w: Writer, pos: number, v: number) => void,
  ) {
    super(name, size);
  }
  zero(): number {
    return 0;
  }
  toJson(v: number): string {
    return String(v);
  }
  fromJson(j: JsonValue): number {
    if (!(j instanceof JsonNumber) || !j.integer) return wrongJson(this.name, j);
    return this.inRange(j.text);
  }
  inRange(text: string): number {
    const x = text.length > 20 ? NaN : Number(text);
    if (!(x >= this.lo && x <= this.hi)) fail("out_of_range", `${short(text)} does not fit ${this.name}`);
    return x === 0 ? 0 : x;
  }
  override fromKey(s: string): number {
    return this.inRange(intKeyDigits(s, this.name));
  }
  override keyText(v: number): string {
    return String(v);
  }
  compare(a: number, b: number): number {
    return a < b ? -1 : a > b ? 1 : 0;
  }
}

/** 64-bit integers and timestamps (nanoseconds): bigint. */
export class BigIntCodec extends Scalar<bigint> {
  constructor(
    name: string,
    readonly lo: bigint,
    readonly hi: bigint,
    readonly signed: boolean,
  ) {
    super(name, 8);
  }
  zero(): bigint {
    return 0n;
  }
  read(r: Reader, pos: number): bigint {
    return this.signed ? r.view.getBigInt64(pos, true) : r.view.getBigUint64(pos, true);
  }
  write(w: Writer, pos: number, v: bigint): void {
    if (typeof v !== "bigint") throw new EncodeError(`${this.name} expects a bigint, got ${typeof v}`, "wrong_type");
    if (v < this.lo || v > this.hi) throw new EncodeError(`${v} does not fit ${this.name}`, "out_of_range");
    if (this.signed) w.view.setBigInt64(pos, v, true);
    else w.view.setBigUint64(pos, v, true);
  }
  toJson(v: bigint): string {
    return v.toString();
  }
  fromJson(j: JsonValue): bigint {
    if (!(j instanceof JsonNumber) || !j.integer) return wrongJson(this.name, j);
    return this.inRange(j.text);
  }
  inRange(text: string): bigint {
    const x = text.length > 21 ? this.hi + 1n : BigInt(text);
    if (x < this.lo || x > this.hi) fail("out_of_range", `${short(text)} does not fit ${this.name}`);
    return x;
  }
  override fromKey(s: string): bigint {
    return this.inRange(intKeyDigits(s, this.name));
  }
  override keyText(v: bigint): string {
    return v.toString();
  }
  compare(a: bigint, b: bigint): number {
    return a < b ? -1 : a > b ? 1 : 0;
  }
}

const FLOAT_KEY = /^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** float (widened to double in JSON) and double. */
export class FloatCodec extends Scalar<number> {
  constructor(readonly single: boolean) {
    super(single ? "float" : "double", single ? 4 : 8);
  }
  zero(): number {
    return 0;
  }
  read(r: Reader, pos: number): number {
    return this.single ? r.view.getFloat32(pos, true) : r.view.getFloat64(pos, true);
  }
  write(w: Writer, pos: number, v: number): void {
    if (this.single) w.view.setFloat32(pos, v, true);
    else w.view.setFloat64(pos, v, true);
  }
  toJson(v: number): string {
    return jsonDouble(this.single ? Math.fround(v) : v);
  }
  fromJson(j: JsonValue): number {
    let x: number;
    if (j instanceof JsonNumber) {
      x = Number(j.text);
      if (x === Infinity || x === -Infinity) fail("out_of_range", `${short(j.text)} does not fit ${this.name}`);
    } else if (j === "NaN") x = NaN;
    else if (j === "Infinity") x = Infinity;
    else if (j === "-Infinity") x = -Infinity;
    else return wrongJson(this.name, j);
    if (this.single) {
      const y = Math.fround(x);
      if ((y === Infinity || y === -Infinity) && x !== y) fail("out_of_range", `${x} does not fit float`);
      x = y;
    }
    return x;
  }
  override keyText(v: number): string {
    const t = this.toJson(v);
    return t.charCodeAt(0) === 34 ? t.slice(1, -1) : t;
  }
  override fromKey(s: string): number {
    if (s === "NaN" || s === "Infinity" || s === "-Infinity") return this.fromJson(s);
    if (!FLOAT_KEY.test(s)) fail("invalid_argument", `map key ${short(s)} is not a number`);
    return this.fromJson(new JsonNumber(s, false));
  }
  compare(a: number, b: number): number {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  override equals(a: number, b: number): boolean {
    return a === b || (a !== a && b !== b);
  }
}

export class DecimalCodec extends Scalar<Decimal> {
  override vtrivial = false;
  override primitiveKey = false;
  constructor() {
    super("decimal", 16);
  }
  zero(): Decimal {
    return Decimal.ZERO;
  }
  read(r: Reader, pos: number): Decimal {
    const v = r.view;
    const flags = v.getUint32(pos + 12, true);
    const scale = (flags >>> 16) & 0xff;
    if (scale > 28) fail("bad_value", `decimal scale ${scale}`);
    const lo = v.getUint32(pos, true);
    const mid = v.getUint32(pos + 4, true);
    const hi = v.getUint32(pos + 8, true);
    const c =
      hi === 0 && mid < 0x200000
        ? BigInt(mid * 4294967296 + lo)
        : (BigInt(hi) << 64n) | (BigInt(mid) << 32n) | BigInt(lo);
    return new Decimal(c, scale, flags >>> 31 === 1);
  }
  write(w: Writer, pos: number, d: Decimal): void {
    if (!(d instanceof Decimal)) throw new EncodeError("decimal expects a Decimal", "wrong_type");
    const c = d.coefficient;
    const v = w.view;
    v.setUint32(pos, Number(c & 0xffffffffn), true);
    v.setUint32(pos + 4, Number((c >> 32n) & 0xffffffffn), true);
    v.setUint32(pos + 8, Number(c >> 64n), true);
    v.setUint32(pos + 12, ((d.scale << 16) | (d.negative ? 0x80000000 : 0)) >>> 0, true);
  }
  override vcheck(r: Reader, pos: number, _base = 0, _d = 0): void {
    if (r.buf[pos + 14]! > 28) fail("bad_value", "decimal scale above 28");
  }
  override fcheck(r: Reader): void {
    const p = needFinal(r, 16);
    if (r.buf[p + 14]! > 28) fail("bad_value", "decimal scale above 28");
  }
  toJson(v: Decimal): string {
    return '"' + v.toString() + '"';
  }
  fromJson(j: JsonValue): Decimal {
    if (typeof j === "string") return Decimal.parse(j);
    if (j instanceof JsonNumber) return Decimal.parse(j.text);
    return wrongJson("decimal", j);
  }
  override keyText(v: Decimal): string {
    return v.toString();
  }
  override fromKey(s: string): Decimal {
    return Decimal.parse(s);
  }
  override keyId(v: Decimal): unknown {
    return v.key();
  }
  compare(a: Decimal, b: Decimal): number {
    return a.compare(b);
  }
}

/** uuid: its canonical lower-case text. */
export class UuidCodec extends Scalar<string> {
  constructor() {
    super("uuid", 16);
  }
  zero(): string {
    return NIL_UUID;
  }
  read(r: Reader, pos: number): string {
    return uuidText(r.buf, pos);
  }
  write(w: Writer, pos: number, v: string): void {
    if (!uuidBytes(v, w.buf, pos)) throw new EncodeError(`${short(String(v))} is not a uuid`, "invalid_argument");
  }
  toJson(v: string): string {
    return '"' + v + '"';
  }
  fromJson(j: JsonValue): string {
    if (typeof j !== "string") return wrongJson("uuid", j);
    return this.fromKey(j);
  }
  override keyText(v: string): string {
    return v;
  }
  override fromKey(s: string): string {
    const b = new Uint8Array(16);
    if (!uuidBytes(s, b, 0)) fail("invalid_argument", `${short(s)} is not a uuid`);
    return uuidText(b, 0);
  }
  compare(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
  }
}

/** Enums and flags: their underlying integer (values without a name are kept). */
export class EnumCodec<T extends number | bigint> extends Scalar<T> {
  readonly names: ReadonlyMap<T, string>;
  constructor(
    name: string,
    readonly base: Scalar<T>,
    readonly members: Readonly<Record<string, T>>,
    readonly flags = false,
  ) {
    super(name, base.slot);
    const names = new Map<T, string>();
    for (const [k, v] of Object.entries(members)) if (!names.has(v)) names.set(v, k);
    this.names = names;
  }
  zero(): T {
    return this.base.zero();
  }
  read(r: Reader, pos: number): T {
    return this.base.read(r, pos);
  }
  write(w: Writer, pos: number, v: T): void {
    this.base.write(w, pos, v);
  }
  toJson(v: T): string {
    return this.base.toJson(v);
  }
  fromJson(j: JsonValue): T {
    return this.base.fromJson(j);
  }
  override keyText(v: T): string {
    return this.base.keyText(v);
  }
  override fromKey(s: string): T {
    return this.base.fromKey(s);
  }
  compare(a: T, b: T): number {
    return this.base.compare(a, b);
  }
  /** The member's name, flags as "a|b"; "<unknown>" for an enum value without one. */
  text(v: T): string {
    if (!this.flags) return this.names.get(v) ?? "<unknown>";
    const parts: string[] = [];
    for (const [k, m] of Object.entries(this.members)) {
      if (typeof v === "bigint") {
        const bm = m as bigint;
        if (bm !== 0n && (v & bm) === bm) parts.push(k);
      } else if ((m as number) !== 0 && ((v as number) & (m as number)) >>> 0 === (m as number) >>> 0) parts.push(k);
    }
    return parts.join("|");
  }
}

const I = (size: number, get: (v: DataView, p: number) => number, set: (v: DataView, p: number, x: number) => void) =>
  [size, (r: Reader, p: number) => get(r.view, p), (w: Writer, p: number, x: number) => set(w.view, p, x)] as const;

function intCodec(name: string, lo: number, hi: number, spec: ReturnType<typeof I>): IntCodec {
  return new IntCodec(name, spec[0], lo, hi, spec[1], spec[2]);
}

const U8 = I(
  1,
  (v, p) => v.getUint8(p),
  (v, p, x) => v.setUint8(p, x),
);
const U32 = I(
  4,
  (v, p) => v.getUint32(p, true),
  (v, p, x) => v.setUint32(p, x, true),
);

export const BOOL = new BoolCodec();
export const BYTE = intCodec("byte", 0, 0xff, U8);
export const CHAR = intCodec("char", 0, 0xff, U8);
export const WCHAR = intCodec("wchar", 0, 0xffffffff, U32);
export const INT8 = intCodec(
  "int8",
  -0x80,
  0x7f,
  I(
    1,
    (v, p) => v.getInt8(p),
    (v, p, x) => v.setInt8(p, x),
  ),
);
export const UINT8 = intCodec("uint8", 0, 0xff, U8);
export const INT16 = intCodec(
  "int16",
  -0x8000,
  0x7fff,
  I(
    2,
    (v, p) => v.getInt16(p, true),
    (v, p, x) => v.setInt16(p, x, true),
  ),
);
export const UINT16 = intCodec(
  "uint16",
  0,
  0xffff,
  I(
    2,
    (v, p) => v.getUint16(p, true),
    (v, p, x) => v.setUint16(p, x, true),
  ),
);
export const INT32 = intCodec(
  "int32",
  -0x80000000,
  0x7fffffff,
  I(
    4,
    (v, p) => v.getInt32(p, true),
    (v, p, x) => v.setInt32(p, x, true),
  ),
);
export const UINT32 = intCodec("uint32", 0, 0xffffffff, U32);
export const INT64 = new BigIntCodec("int64", -(1n << 63n), (1n << 63n) - 1n, true);
export const UINT64 = new BigIntCodec("uint64", 0n, (1n << 64n) - 1n, false);
export const TIMESTAMP = new BigIntCodec("timestamp", 0n, (1n << 64n) - 1n, false);
export const FLOAT = new FloatCodec(true);
export const DOUBLE = new FloatCodec(false);
export const DECIMAL = new DecimalCodec();
export const UUID = new UuidCodec();

export function enumOf<T extends number | bigint>(
  name: string,
  base: Codec<T>,
  members: Readonly<Record<string, T>>,
): EnumCodec<T> {
  return new EnumCodec(name, base as Scalar<T>, members, false);
}

export function flagsOf<T extends number | bigint>(
  name: string,
  base: Codec<T>,
  members: Readonly<Record<string, T>>,
): EnumCodec<T> {
  return new EnumCodec(name, base as Scalar<T>, members, true);
}

// ---- blocks: strings, bytes, collections -----------------------------------------------

/** Finds a [u32 length][length bytes] block; returns the payload position (length in r.p). */
export function vblock(r: Reader, base: number, off: number, slotEnd: number): number {
  const pos = base + off;
  const end = r.end;
  if (pos > end) fail("truncated");
  if (pos < slotEnd) fail("bad_offset");
  if (pos + 4 > end) fail("truncated");
  const n = r.u32(pos);
  if (n > end - pos - 4) fail("truncated");
  const budget = r.budget - 4 - n;
  if (budget < 0) fail("over_budget");
  r.budget = budget;
  r.p = n;
  return pos + 4;
}

/** Finds a [u32 count][count x elemSlot] block; returns the first element (count in r.p). */
export function vcount(r: Reader, base: number, off: number, slotEnd: number, elemSlot: number): number {
  const pos = base + off;
  const end = r.end;
  if (pos > end) fail("truncated");
  if (pos < slotEnd) fail("bad_offset");
  if (pos + 4 > end) fail("truncated");
  const n = r.u32(pos);
  if (elemSlot > 0 ? n > Math.floor((end - pos - 4) / elemSlot) : false) fail("truncated");
  const budget = r.budget - 4 - n * elemSlot;
  if (budget < 0) fail("over_budget");
  r.budget = budget;
  r.p = n;
  return pos + 4;
}

/** Reads a final-format count and checks it against the bytes left. */
export function fcount(r: Reader, elemMin: number): number {
  const p = needFinal(r, 4);
  const n = r.u32(p);
  if (elemMin > 0) {
    if (n * elemMin > r.end - p - 4) fail("truncated"); // (exact: below 2^53)
  } else {
    zeroSized(r, n);
  }
  return n;
}

/** The final-format count at `p` (generated fskip's cursor), checked as fcount checks it;
 * the elements follow at p + 4. */
export function fcountAt(r: Reader, p: number, elemMin: number): number {
  if (4 > r.end - p) fail("truncated");
  const n = r.view.getUint32(p, true);
  if (elemMin > 0) {
    if (n * elemMin > r.end - p - 4) fail("truncated");
  } else {
    zeroSized(r, n);
  }
  return n;
}

/** Charges `n` elements of zero final size to the message's allowance. */
export function zeroSized(r: Reader, n: number): void {
  r.zcap -= n;
  if (r.zcap < 0) fail("over_budget", `${n} elements of zero size`);
}

/** Appends [u32 length][UTF-8]; returns the block's position. */
export function putText(w: Writer, s: string): number {
  if (typeof s !== "string") throw new EncodeError(`string expected, got ${typeof s}`, "wrong_type");
  const pos = w.len;
  const n = s.length;
  w.ensure(4 + n * 3);
  const buf = w.buf;
  let o = pos + 4;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    buf[o++] = c;
  }
  if (i < n) {
    const rest = i === 0 ? s : s.slice(i);
    if (hasLoneSurrogate(rest)) {
      const b = utf8Encode(rest);
      buf.set(b, o);
      o += b.length;
    } else o += utf8Encoder.encodeInto(rest, buf.subarray(o)).written;
  }
  w.view.setUint32(pos, o - pos - 4, true);
  w.len = o;
  return pos;
}

function putBytes(w: Writer, b: Uint8Array): number {
  if (!(b instanceof Uint8Array)) throw new EncodeError("bytes expects a Uint8Array", "wrong_type");
  const pos = w.len;
  w.u32(b.length);
  w.append(b);
  return pos;
}

/** Code point order (UTF-8 byte order), as C++ and Python sort strings. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/** The string whose offset is at `pos` (generated code calls these directly). */
export function vgetString(r: Reader, pos: number, base: number): string {
  const off = r.view.getUint32(pos, true);
  if (off === 0) return "";
  const p = vblock(r, base, off, pos + 4);
  return utf8Decode(r.buf, p, r.p);
}

/** Checks the string or bytes block whose offset is at `pos`. */
export function vcheckText(r: Reader, pos: number, base: number): void {
  const off = r.view.getUint32(pos, true);
  if (off !== 0) vblock(r, base, off, pos + 4);
}

/** The string at the final cursor. */
export function fgetString(r: Reader): string {
  const n = r.view.getUint32(needFinal(r, 4), true);
  return utf8Decode(r.buf, needFinal(r, n), n);
}

/** Checks the string or bytes at the final cursor. */
export function fcheckText(r: Reader): void {
  needFinal(r, r.view.getUint32(needFinal(r, 4), true));
}

/** Skips the string or bytes at `p` (generated fskip's cursor); returns the position after it. */
export function fskipText(r: Reader, p: number): number {
  const end = r.end;
  if (4 > end - p) fail("truncated");
  const n = r.view.getUint32(p, true) + 4;
  if (n > end - p) fail("truncated");
  return p + n;
}

export class StringCodec extends Codec<string> {
  readonly name = "string";
  zero(): string {
    return "";
  }
  vput(w: Writer, pos: number, base: number, v: string): void {
    const at = putText(w, v);
    w.view.setUint32(pos, at - base, true);
  }
  vget(r: Reader, pos: number, base: number): string {
    const off = r.u32(pos);
    if (off === 0) return "";
    const p = vblock(r, base, off, pos + 4);
    return utf8Decode(r.buf, p, r.p);
  }
  vcheck(r: Reader, pos: number, base: number): void {
    const off = r.u32(pos);
    if (off !== 0) vblock(r, base, off, pos + 4);
  }
  fput(w: Writer, v: string): void {
    putText(w, v);
  }
  fget(r: Reader): string {
    const n = r.u32(needFinal(r, 4));
    return utf8Decode(r.buf, needFinal(r, n), n);
  }
  fcheck(r: Reader): void {
    needFinal(r, r.u32(needFinal(r, 4)));
  }
  toJson(v: string): string {
    return jsonString(v);
  }
  fromJson(j: JsonValue): string {
    if (typeof j !== "string") return wrongJson("string", j);
    return this.fromKey(j);
  }
  override keyText(v: string): string {
    return v;
  }
  override fromKey(s: string): string {
    if (hasLoneSurrogate(s)) fail("invalid_argument", "a string holds a lone surrogate (not valid UTF-8)");
    return s;
  }
  compare(a: string, b: string): number {
    return compareStrings(a, b);
  }
}

export class BytesCodec extends Codec<Uint8Array> {
  readonly name = "bytes";
  override primitiveKey = false;
  zero(): Uint8Array {
    return new Uint8Array(0);
  }
  vput(w: Writer, pos: number, base: number, v: Uint8Array): void {
    const at = putBytes(w, v);
    w.view.setUint32(pos, at - base, true);
  }
  vget(r: Reader, pos: number, base: number): Uint8Array {
    const off = r.u32(pos);
    if (off === 0) return new Uint8Array(0);
    const p = vblock(r, base, off, pos + 4);
    return r.buf.slice(p, p + r.p);
  }
  vcheck(r: Reader, pos: number, base: number): void {
    const off = r.u32(pos);
    if (off !== 0) vblock(r, base, off, pos + 4);
  }
  fput(w: Writer, v: Uint8Array): void {
    putBytes(w, v);
  }
  fget(r: Reader): Uint8Array {
    const n = r.u32(needFinal(r, 4));
    const p = needFinal(r, n);
    return r.buf.slice(p, p + n);
  }
  fcheck(r: Reader): void {
    needFinal(r, r.u32(needFinal(r, 4)));
  }
  toJson(v: Uint8Array): string {
    return '"' + base64Encode(v) + '"';
  }
  fromJson(j: JsonValue): Uint8Array {
    if (typeof j !== "string") return wrongJson("bytes (Base64)", j);
    const b = base64Decode(j);
    if (b === null) fail("invalid_argument", "malformed Base64");
    return b;
  }
  override keyText(v: Uint8Array): string {
    return base64Encode(v);
  }
  override keyId(v: Uint8Array): unknown {
    return base64Encode(v);
  }
  compare(a: Uint8Array, b: Uint8Array): number {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
}

export const STRING = new StringCodec();
export const BYTES = new BytesCodec();

// ---- JSON reading state: the zero-size element allowance of one read --------------------

let jsonZeroLeft = 1 << 16;

/** Sets the allowance of zero-size elements for the JSON read that starts. */
export function startJsonRead(zeroSizeElements: number): void {
  jsonZeroLeft = zeroSizeElements;
}

function chargeZeroSize(n: number): void {
  jsonZeroLeft -= n;
  if (jsonZeroLeft < 0) fail("over_budget", "elements of zero size beyond maxZeroSizeElements");
}

// ---- optional --------------------------------------------------------------------------

/** The value block of the set optional whose slot is at `pos` ([u8 flag][u32 offset]),
 * `need` bytes long, checked and charged to the budget (generated code calls it). */
export function voptional(r: Reader, base: number, pos: number, need: number): number {
  const off = r.view.getUint32(pos + 1, true);
  if (off === 0) fail("bad_offset", "a set optional with offset 0");
  const at = base + off;
  const end = r.end;
  if (at > end) fail("truncated");
  if (at < pos + 5) fail("bad_offset");
  if (at + need > end) fail("truncated");
  const budget = r.budget - need;
  if (budget < 0) fail("over_budget");
  r.budget = budget;
  return at;
}

/** T?: versioned [u8 flag][u32 offset] -> a block of slot(T) bytes holding the value (the
 * base moves to the block); final [u8 flag] and the value when set. null when absent. */
export class OptionalCodec<T> extends Codec<T | null> {
  readonly name: string;
  constructor(readonly inner: Codec<T>) {
    super();
    this.name = inner.name + "?";
    this.slot = 5;
    this.fmin = 1;
    this.primitiveKey = inner.primitiveKey;
  }
  zero(): T | null {
    return null;
  }
  vput(w: Writer, pos: number, base: number, v: T | null): void {
    if (v === null || v === undefined) {
      w.buf[pos] = 0;
      w.view.setUint32(pos + 1, 0, true);
      return;
    }
    const block = w.reserve(this.inner.slot);
    this.inner.vput(w, block, block, v);
    w.buf[pos] = 1;
    w.view.setUint32(pos + 1, block - base, true);
  }
  private find(r: Reader, base: number, pos: number): number {
    const off = r.u32(pos + 1);
    if (off === 0) fail("bad_offset", "a set optional with offset 0");
    const need = this.inner.slot;
    const at = base + off;
    const end = r.end;
    if (at > end) fail("truncated");
    if (at < pos + 5) fail("bad_offset");
    if (at + need > end) fail("truncated");
    const budget = r.budget - need;
    if (budget < 0) fail("over_budget");
    r.budget = budget;
    return at;
  }
  vget(r: Reader, pos: number, base: number, d: number): T | null {
    if (r.buf[pos] === 0) return null; // a null optional's offset is ignored (reference bug B1)
    const at = this.find(r, base, pos);
    return this.inner.vget(r, at, at, d);
  }
  vcheck(r: Reader, pos: number, base: number, d: number): void {
    if (r.buf[pos] === 0) return;
    const at = this.find(r, base, pos);
    this.inner.vcheck(r, at, at, d);
  }
  fput(w: Writer, v: T | null): void {
    if (v === null || v === undefined) w.u8(0);
    else {
      w.u8(1);
      this.inner.fput(w, v);
    }
  }
  fget(r: Reader, d: number): T | null {
    const p = needFinal(r, 1);
    return r.buf[p] ? this.inner.fget(r, d) : null;
  }
  fcheck(r: Reader, d: number): void {
    const p = needFinal(r, 1);
    if (r.buf[p]) this.inner.fcheck(r, d);
  }
  toJson(v: T | null): string {
    return v === null || v === undefined ? "null" : this.inner.toJson(v);
  }
  fromJson(j: JsonValue): T | null {
    return j === null ? null : this.inner.fromJson(j);
  }
  compare(a: T | null, b: T | null): number {
    if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
    return this.inner.compare(a, b);
  }
  override keyId(v: T | null): unknown {
    return v === null ? null : this.inner.keyId(v);
  }
}

// ---- array -----------------------------------------------------------------------------

/** T[N]: N element slots inline (versioned), N elements inline (final). A JS array. */
export class ArrayCodec<T> extends Codec<T[]> {
  readonly name: string;
  constructor(
    readonly elem: Codec<T>,
    readonly n: number,
  ) {
    super();
    this.name = `${elem.name}[${n}]`;
    this.slot = n * elem.slot;
    this.fmin = n * elem.fmin;
    this.fsize = elem.fsize === null ? null : n * elem.fsize;
    this.vtrivial = elem.vtrivial;
    this.primitiveKey = false;
  }
  zero(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.n; i++) out.push(this.elem.zero());
    return out;
  }
  private items(v: T[]): T[] {
    if (!Array.isArray(v) || v.length !== this.n) {
      throw new EncodeError(`${this.name} needs exactly ${this.n} elements`, "wrong_length");
    }
    return v;
  }
  vput(w: Writer, pos: number, base: number, v: T[]): void {
    const items = this.items(v);
    const e = this.elem;
    const step = e.slot;
    for (let i = 0; i < this.n; i++) e.vput(w, pos + i * step, base, items[i]!);
  }
  vget(r: Reader, pos: number, base: number, d: number): T[] {
    const e = this.elem;
    const step = e.slot;
    const out: T[] = new Array(this.n);
    for (let i = 0; i < this.n; i++) out[i] = e.vget(r, pos + i * step, base, d);
    return out;
  }
  vcheck(r: Reader, pos: number, base: number, d: number): void {
    if (this.vtrivial) return;
    const e = this.elem;
    for (let i = 0; i < this.n; i++) e.vcheck(r, pos + i * e.slot, base, d);
  }
  fput(w: Writer, v: T[]): void {
    const items = this.items(v);
    for (let i = 0; i < this.n; i++) this.elem.fput(w, items[i]!);
  }
  fget(r: Reader, d: number): T[] {
    const out: T[] = new Array(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.elem.fget(r, d);
    return out;
  }
  fcheck(r: Reader, d: number): void {
    for (let i = 0; i < this.n; i++) this.elem.fcheck(r, d);
  }
  toJson(v: T[]): string {
    return "[" + v.map((x) => this.elem.toJson(x)).join(",") + "]";
  }
  fromJson(j: JsonValue): T[] {
    if (!Array.isArray(j)) return wrongJson(this.name, j);
    if (j.length !== this.n) fail("bad_value", `${this.name} expects ${this.n} elements, got ${j.length}`);
    if (this.elem.fmin === 0) chargeZeroSize(j.length);
    return j.map((x) => this.elem.fromJson(x));
  }
  compare(a: T[], b: T[]): number {
    return compareSeq(this.elem, a, b);
  }
  override keyId(v: T[]): unknown {
    return JSON.stringify(v.map((x) => String(this.elem.keyId(x))));
  }
}

function compareSeq<T>(e: Codec<T>, a: T[], b: T[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = e.compare(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** Sorted, the first of equal elements kept (as std::set inserts). */
function sortUnique<T>(e: Codec<T>, items: T[]): T[] {
  const idx = items.map((_, i) => i);
  idx.sort((i, j) => e.compare(items[i]!, items[j]!) || i - j);
  const out: T[] = [];
  for (const i of idx) {
    const x = items[i]!;
    if (out.length === 0 || e.compare(out[out.length - 1]!, x) !== 0) out.push(x);
  }
  return out;
}

// ---- vector, list, set -----------------------------------------------------------------

/** vector T[], list T() and set T!: an offset to [u32 count][count x slot(T)] (versioned)
 * or [u32 count][elements] (final). A JS array; a set is written sorted and without
 * duplicates (as std::set holds it), and read so. */
export class SequenceCodec<T> extends Codec<T[]> {
  readonly name: string;
  readonly isSet: boolean;
  constructor(
    readonly elem: Codec<T>,
    readonly kind: "vector" | "list" | "set",
  ) {
    super();
    this.isSet = kind === "set";
    this.name = elem.name + (kind === "vector" ? "[]" : kind === "list" ? "()" : "!");
    this.primitiveKey = false;
  }
  zero(): T[] {
    return [];
  }
  vput(w: Writer, pos: number, base: number, v: T[]): void {
    if (!Array.isArray(v)) throw new EncodeError(`${this.name} expects an array`, "wrong_type");
    const items = this.isSet ? sortUnique(this.elem, v) : v;
    const n = items.length;
    const e = this.elem;
    const step = e.slot;
    const at = w.reserve(4 + n * step);
    w.view.setUint32(at, n, true);
    let p = at + 4;
    for (let i = 0; i < n; i++, p += step) e.vput(w, p, base, items[i]!);
    w.view.setUint32(pos, at - base, true);
  }
  vget(r: Reader, pos: number, base: number, d: number): T[] {
    const off = r.u32(pos);
    if (off === 0) return [];
    const e = this.elem;
    const step = e.slot;
    let p = vcount(r, base, off, pos + 4, step);
    const n = r.p;
    const out: T[] = new Array(n);
    for (let i = 0; i < n; i++, p += step) out[i] = e.vget(r, p, base, d);
    return this.isSet ? sortUnique(e, out) : out;
  }
  vcheck(r: Reader, pos: number, base: number, d: number): void {
    const off = r.u32(pos);
    if (off === 0) return;
    const e = this.elem;
    const step = e.slot;
    let p = vcount(r, base, off, pos + 4, step);
    if (e.vtrivial) return;
    const n = r.p;
    for (let i = 0; i < n; i++, p += step) e.vcheck(r, p, base, d);
  }
  fput(w: Writer, v: T[]): void {
    if (!Array.isArray(v)) throw new EncodeError(`${this.name} expects an array`, "wrong_type");
    const items = this.isSet ? sortUnique(this.elem, v) : v;
    w.u32(items.length);
    for (const x of items) this.elem.fput(w, x);
  }
  fget(r: Reader, d: number): T[] {
    const e = this.elem;
    const n = fcount(r, e.fmin);
    const out: T[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = e.fget(r, d);
    return this.isSet ? sortUnique(e, out) : out;
  }
  fcheck(r: Reader, d: number): void {
    const e = this.elem;
    const n = fcount(r, e.fmin);
    if (e.fsize !== null && e.vtrivial) {
      needFinal(r, n * e.fsize);
      return;
    }
    for (let i = 0; i < n; i++) e.fcheck(r, d);
  }
  toJson(v: T[]): string {
    const items = this.isSet ? sortUnique(this.elem, v) : v;
    return "[" + items.map((x) => this.elem.toJson(x)).join(",") + "]";
  }
  fromJson(j: JsonValue): T[] {
    if (!Array.isArray(j)) return wrongJson(this.name, j);
    if (this.elem.fmin === 0) chargeZeroSize(j.length);
    const out = j.map((x) => this.elem.fromJson(x));
    return this.isSet ? sortUnique(this.elem, out) : out;
  }
  compare(a: T[], b: T[]): number {
    return compareSeq(this.elem, a, b);
  }
  override keyId(v: T[]): unknown {
    return JSON.stringify(v.map((x) => String(this.elem.keyId(x))));
  }
}

// ---- map, hash -------------------------------------------------------------------------

/** map V<K> and hash V{K}: an offset to [u32 count][count x (slot(K) slot(V))]
 * (versioned) or [u32 count][key value …] (final). A JS Map: a map is written in key
 * order, a hash in the Map's order; reading keeps the first of duplicate keys. JSON: an
 * object keyed by the key's text, or [[key, value], …] when the key is a struct. */
export class MapCodec<K, V> extends Codec<Map<K, V>> {
  readonly name: string;
  readonly sorted: boolean;
  readonly pairs: boolean;
  private readonly pair: number;
  constructor(
    readonly key: Codec<K>,
    readonly value: Codec<V>,
    readonly kind: "map" | "hash",
  ) {
    super();
    this.sorted = kind === "map";
    this.name = this.sorted ? `${value.name}<${key.name}>` : `${value.name}{${key.name}}`;
    this.pairs = key instanceof StructCodec;
    this.pair = key.slot + value.slot;
    this.primitiveKey = false;
  }
  zero(): Map<K, V> {
    return new Map();
  }
  private items(m: Map<K, V>): [K, V][] {
    if (!(m instanceof Map)) throw new EncodeError(`${this.name} expects a Map`, "wrong_type");
    const items = [...m.entries()];
    if (this.sorted) items.sort((a, b) => this.key.compare(a[0], b[0]));
    return items;
  }
  private builder(): (out: Map<K, V>, k: K, v: V) => void {
    const key = this.key;
    if (key.primitiveKey) {
      return (out, k, v) => {
        if (!out.has(k)) out.set(k, v);
      };
    }
    const seen = new Set<unknown>();
    return (out, k, v) => {
      const id = key.keyId(k);
      if (!seen.has(id)) {
        seen.add(id);
        out.set(k, v);
      }
    };
  }
  vput(w: Writer, pos: number, base: number, m: Map<K, V>): void {
    const items = this.items(m);
    const n = items.length;
    const at = w.reserve(4 + n * this.pair);
    w.view.setUint32(at, n, true);
    let p = at + 4;
    const ks = this.key.slot;
    for (const [k, v] of items) {
      this.key.vput(w, p, base, k);
      this.value.vput(w, p + ks, base, v);
      p += this.pair;
    }
    w.view.setUint32(pos, at - base, true);
  }
  vget(r: Reader, pos: number, base: number, d: number): Map<K, V> {
    const out = new Map<K, V>();
    const off = r.u32(pos);
    if (off === 0) return out;
    let p = vcount(r, base, off, pos + 4, this.pair);
    const n = r.p;
    const add = this.builder();
    const ks = this.key.slot;
    for (let i = 0; i < n; i++, p += this.pair) {
      const k = this.key.vget(r, p, base, d);
      const v = this.value.vget(r, p + ks, base, d);
      add(out, k, v);
    }
    return out;
  }
  vcheck(r: Reader, pos: number, base: number, d: number): void {
    const off = r.u32(pos);
    if (off === 0) return;
    let p = vcount(r, base, off, pos + 4, this.pair);
    if (this.key.vtrivial && this.value.vtrivial) return;
    const n = r.p;
    const ks = this.key.slot;
    for (let i = 0; i < n; i++, p += this.pair) {
      this.key.vcheck(r, p, base, d);
      this.value.vcheck(r, p + ks, base, d);
    }
  }
  fput(w: Writer, m: Map<K, V>): void {
    const items = this.items(m);
    w.u32(items.length);
    for (const [k, v] of items) {
      this.key.fput(w, k);
      this.value.fput(w, v);
    }
  }
  fget(r: Reader, d: number): Map<K, V> {
    const n = fcount(r, this.key.fmin + this.value.fmin);
    const out = new Map<K, V>();
    const add = this.builder();
    for (let i = 0; i < n; i++) {
      const k = this.key.fget(r, d);
      const v = this.value.fget(r, d);
      add(out, k, v);
    }
    return out;
  }
  fcheck(r: Reader, d: number): void {
    const n = fcount(r, this.key.fmin + this.value.fmin);
    for (let i = 0; i < n; i++) {
      this.key.fcheck(r, d);
      this.value.fcheck(r, d);
    }
  }
  toJson(m: Map<K, V>): string {
    const items = this.items(m);
    if (this.pairs) {
      return "[" + items.map(([k, v]) => "[" + this.key.toJson(k) + "," + this.value.toJson(v) + "]").join(",") + "]";
    }
    return "{" + items.map(([k, v]) => jsonString(this.key.keyText(k)) + ":" + this.value.toJson(v)).join(",") + "}";
  }
  fromJson(j: JsonValue): Map<K, V> {
    const out = new Map<K, V>();
    const add = this.builder();
    if (this.pairs) {
      if (!Array.isArray(j)) return wrongJson(`${this.name} ([key, value] pairs)`, j);
      if (this.key.fmin + this.value.fmin === 0) chargeZeroSize(j.length);
      for (const pair of j) {
        if (!Array.isArray(pair) || pair.length !== 2) fail("bad_value", `${this.name} expects [key, value] pairs`);
        add(out, this.key.fromJson(pair[0]!), this.value.fromJson(pair[1]!));
      }
      return out;
    }
    if (!isObject(j)) return wrongJson(this.name, j);
    const earlier = repeatedMembers(j);
    let first: Map<string, JsonValue> | undefined;
    if (earlier) {
      // The same key text twice: the first value stays, every one must be valid.
      first = new Map();
      for (const [k, v] of earlier) {
        this.value.fromJson(v);
        if (!first.has(k)) first.set(k, v);
      }
    }
    for (const [k, v] of j) {
      const key = this.key.fromKey(k);
      let value = this.value.fromJson(v);
      const kept = first?.get(k);
      if (kept !== undefined) value = this.value.fromJson(kept);
      add(out, key, value);
    }
    return out;
  }
  compare(a: Map<K, V>, b: Map<K, V>): number {
    const x = this.items(a);
    const y = this.items(b);
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n; i++) {
      const c = this.key.compare(x[i]![0], y[i]![0]) || this.value.compare(x[i]![1], y[i]![1]);
      if (c !== 0) return c;
    }
    return x.length - y.length;
  }
}

// ---- structs ---------------------------------------------------------------------------

/** One field of a struct: its schema name, its property, its codec and its slot's offset. */
export interface Field {
  readonly name: string;
  readonly prop: string;
  readonly codec: Codec<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly offset: number;
  /** a [key] field: equality, ordering and hashing use the key fields (else every field) */
  readonly key?: boolean;
}

/** A generated struct: its fields over their codecs; usable in collections and optionals. */
export class StructCodec<T extends object> extends Codec<T> {
  fields: readonly Field[] = [];
  private byName?: Map<string, Field>;
  body = 8;
  equality: readonly Field[] = [];
  constructor(
    readonly cls: new () => T,
    readonly name: string,
    readonly type: number,
  ) {
    super();
    this.slot = 4;
    this.fmin = 0;
    this.primitiveKey = false;
  }

  /** Binds the fields (called once, after every struct of the package exists). */
  define(body: number, fmin: number, fsize: number | null, fields: readonly Field[]): this {
    this.fields = fields;
    this.body = body;
    this.fmin = fmin;
    this.fsize = fsize;
    const keys = fields.filter((f) => f.key === true);
    this.equality = keys.length > 0 ? keys : fields;
    return this;
  }

  zero(): T {
    return new this.cls();
  }

  /** Appends the body and the fields' blocks; returns the body's position. */
  put(w: Writer, v: T): number {
    if (!(v instanceof this.cls)) {
      if (v === null || typeof v !== "object") throw new EncodeError(`${this.name} expected`, "wrong_type");
    }
    const body = this.body;
    const at = w.reserve(body);
    w.view.setUint32(at, body, true);
    w.view.setUint32(at + 4, this.type, true);
    const o = v as Record<string, unknown>;
    for (const f of this.fields) f.codec.vput(w, at + f.offset, at, o[f.prop]);
    return at;
  }

  vput(w: Writer, pos: number, base: number, v: T): void {
    const at = this.put(w, v);
    w.view.setUint32(pos, at - base, true);
  }

  /** Finds and checks a body; returns its position (its stored size in r.p). */
  enter(r: Reader, base: number, off: number, slotEnd: number, d: number): number {
    if (off === 0) fail("bad_offset");
    const pos = base + off;
    const end = r.end;
    if (pos > end) fail("truncated");
    if (pos < slotEnd) fail("bad_offset");
    if (pos + 8 > end) fail("truncated");
    const stored = r.u32(pos);
    if (stored < 8) fail("bad_size");
    if (stored > end - pos) fail("truncated");
    const found = r.u32(pos + 4);
    if (found !== this.type) fail("bad_type", `${found} where ${this.type} was expected`);
    if (d < 1) fail("too_deep");
    const budget = r.budget - stored;
    if (budget < 0) fail("over_budget");
    r.budget = budget;
    r.p = stored;
    return pos;
  }

  vget(r: Reader, pos: number, base: number, d: number): T {
    return this.getAt(r, base, r.view.getUint32(pos, true), pos + 4, d);
  }

  getAt(r: Reader, base: number, off: number, slotEnd: number, d: number): T {
    const at = this.enter(r, base, off, slotEnd, d);
    return this.getOlder(r, at, r.p, d);
  }

  /** The fields of a body at `at` of `stored` bytes (fields beyond it keep defaults). */
  getOlder(r: Reader, at: number, stored: number, d: number): T {
    const v = new this.cls() as Record<string, unknown>;
    for (const f of this.fields) {
      if (f.offset + f.codec.slot > stored) break; // an older writer: defaults from here on
      v[f.prop] = f.codec.vget(r, at + f.offset, at, d - 1);
    }
    return v as T;
  }

  vcheck(r: Reader, pos: number, base: number, d: number): void {
    this.checkAt(r, base, r.view.getUint32(pos, true), pos + 4, d);
  }

  checkAt(r: Reader, base: number, off: number, slotEnd: number, d: number): void {
    const at = this.enter(r, base, off, slotEnd, d);
    this.checkOlder(r, at, r.p, d);
  }

  checkOlder(r: Reader, at: number, stored: number, d: number): void {
    for (const f of this.fields) {
      if (f.offset + f.codec.slot > stored) break;
      f.codec.vcheck(r, at + f.offset, at, d - 1);
    }
  }

  fput(w: Writer, v: T): void {
    const o = v as Record<string, unknown>;
    for (const f of this.fields) f.codec.fput(w, o[f.prop]);
  }

  fget(r: Reader, d: number): T {
    if (d < 1) fail("too_deep");
    const v = new this.cls() as Record<string, unknown>;
    for (const f of this.fields) v[f.prop] = f.codec.fget(r, d - 1);
    return v as T;
  }

  /** Checks the body at final position `p`; returns where it ends (generated code
   * replaces this and fcheck with straight-line code that keeps the cursor in a local). */
  fskip(r: Reader, p: number, d: number): number {
    r.p = p;
    this.fcheck(r, d);
    return r.p;
  }

  fcheck(r: Reader, d: number): void {
    if (d < 1) fail("too_deep");
    for (const f of this.fields) f.codec.fcheck(r, d - 1);
  }

  toJson(v: T): string {
    const o = v as Record<string, unknown>;
    let s = "{";
    let first = true;
    for (const f of this.fields) {
      if (!first) s += ",";
      first = false;
      s += jsonString(f.name) + ":" + f.codec.toJson(o[f.prop]);
    }
    return s + "}";
  }

  fromJson(j: JsonValue): T {
    if (!isObject(j)) return wrongJson(`${this.name} (an object)`, j);
    const v = new this.cls() as Record<string, unknown>;
    for (const f of this.fields) {
      const x = j.get(f.name);
      if (x !== undefined) v[f.prop] = f.codec.fromJson(x);
    }
    const earlier = repeatedMembers(j);
    if (earlier) {
      // A field's earlier values are replaced by its last one, but must be valid too.
      this.byName ??= new Map(this.fields.map((f) => [f.name, f]));
      for (const [k, x] of earlier) this.byName.get(k)?.codec.fromJson(x);
    }
    return v as T;
  }

  compare(a: T, b: T): number {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const f of this.equality) {
      const c = f.codec.compare(x[f.prop], y[f.prop]);
      if (c !== 0) return c;
    }
    return 0;
  }

  override equals(a: T, b: T): boolean {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const f of this.equality) if (!f.codec.equals(x[f.prop], y[f.prop])) return false;
    return true;
  }

  override keyId(v: T): unknown {
    const o = v as Record<string, unknown>;
    return JSON.stringify(this.equality.map((f) => String(f.codec.keyId(o[f.prop]))));
  }
}

/** Passed to a generated class's constructor by readers: no defaults are computed (every
 * field is assigned next, in declaration order). */
export const RAW: object = Object.freeze({});

// ---- constructors for generated code ---------------------------------------------------

export function optional<T>(inner: Codec<T>): OptionalCodec<T> {
  return new OptionalCodec(inner);
}
export function array<T>(elem: Codec<T>, n: number): ArrayCodec<T> {
  return new ArrayCodec(elem, n);
}
export function vector<T>(elem: Codec<T>): SequenceCodec<T> {
  return new SequenceCodec(elem, "vector");
}
export function list<T>(elem: Codec<T>): SequenceCodec<T> {
  return new SequenceCodec(elem, "list");
}
export function set<T>(elem: Codec<T>): SequenceCodec<T> {
  return new SequenceCodec(elem, "set");
}
export function map<K, V>(key: Codec<K>, value: Codec<V>): MapCodec<K, V> {
  return new MapCodec(key, value, "map");
}
export function hash<K, V>(key: Codec<K>, value: Codec<V>): MapCodec<K, V> {
  return new MapCodec(key, value, "hash");
}

export { DecodeError };
