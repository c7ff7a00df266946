/**
 * Models: one root struct as a self-contained message, in either binary format.
 *
 *     const model = new AccountModel();         // versioned; AccountFinalModel: final
 *     const bytes = model.serialize(account);   // a copy; serializeInto(writer, v) reuses
 *     model.verify(bytes);                      // true / false
 *     const a = model.deserialize(bytes);       // checked: throws DecodeError
 *
 * Versioned: [u32 full size][u32 8][struct body][heap]. Final: [u32 size][u32 type][fields].
 * deserialize() makes every check verify() makes, as it reads; it never needs a prior
 * verify(), and throws nothing but DecodeError on any input.
 */
import { DecodeError, fail } from "./errors.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import { parseJson } from "./json.js";
import { startJsonRead, type StructCodec } from "./codecs.js";
import { Reader, Writer } from "./wire.js";

/** Turns what a read can throw besides DecodeError into one (a DataView bound, the stack). */
export function asDecodeError(err: unknown): DecodeError {
  if (err instanceof DecodeError) return err;
  if (err instanceof RangeError) {
    if (/call stack/i.test(err.message)) return new DecodeError("too_deep", "the stack");
    return new DecodeError("truncated", err.message);
  }
  throw err;
}

// The DataView of the last buffer read: reading many messages from one buffer (a
// benchmark, a receiver's chunk) makes one DataView, not one per message.
let lastBuf: Uint8Array | null = null;
let lastView: DataView | null = null;

/** `r` set to read the `size` bytes at `offset`: positions stay those of `buf`, the
 * message's root is read with its base at `offset`, and nothing past offset + size is read. */
function view(r: Reader, buf: Uint8Array, offset: number, size: number): Reader {
  let dv = lastView;
  if (buf !== lastBuf || dv === null) {
    dv = new DataView(buf.buffer, buf.byteOffset, buf.length);
    lastBuf = buf;
    lastView = dv;
  }
  r.buf = buf;
  r.view = dv;
  r.end = offset + size;
  r.budget = 0;
  r.zcap = 0;
  r.p = 0;
  return r;
}

const NOTHING = new Uint8Array(0);

abstract class ModelBase<T extends object> {
  readonly limits: Limits;
  private writer = new Writer(512);
  /** the reader of every read and verify (no allocation per message; not re-entrant) */
  protected readonly reader = new Reader(NOTHING, new DataView(NOTHING.buffer), 0, 0, 0);
  constructor(
    readonly codec: StructCodec<T>,
    limits?: Limits,
  ) {
    this.limits = limits ?? DEFAULT_LIMITS;
  }
  /** The root struct's type number. */
  get type(): number {
    return this.codec.type;
  }
  /** The size the model at `offset` declares (0 when fewer than 4 bytes remain). */
  size(buf: Uint8Array, offset = 0): number {
    if (buf.length - offset < 4) return 0;
    return (buf[offset]! | (buf[offset + 1]! << 8) | (buf[offset + 2]! << 16) | (buf[offset + 3]! << 24)) >>> 0;
  }
  /** Appends the value as one root model to `w`; returns its size. */
  abstract serializeInto(w: Writer, value: T): number;
  /** Checks the model at `offset`; returns its size or throws DecodeError. */
  abstract validate(buf: Uint8Array, offset?: number): number;
  /** Reads the model at `offset` (checked). Throws DecodeError on malformed input. */
  abstract deserialize(buf: Uint8Array, offset?: number): T;

  /** The value as one root model (a new Uint8Array). */
  serialize(value: T): Uint8Array {
    const w = this.writer;
    w.reset();
    this.serializeInto(w, value);
    return w.buf.slice(0, w.len);
  }
  /** The value as one root model in the model's own buffer: valid until its next call. */
  serializeView(value: T): Uint8Array {
    const w = this.writer;
    w.reset();
    this.serializeInto(w, value);
    return w.buf.subarray(0, w.len);
  }
  /** True when the model at `offset` is valid: deserialize() will succeed. */
  verify(buf: Uint8Array, offset = 0): boolean {
    try {
      this.validate(buf, offset);
      return true;
    } catch (err) {
      asDecodeError(err);
      return false;
    }
  }
}

/** A root struct in the versioned format (the default format). */
export class Model<T extends object> extends ModelBase<T> {
  serializeInto(w: Writer, value: T): number {
    const start = w.reserve(8);
    try {
      const at = this.codec.put(w, value);
      w.view.setUint32(start, w.len - start, true);
      w.view.setUint32(start + 4, at - start, true);
    } catch (err) {
      w.len = start;
      throw err;
    }
    return w.len - start;
  }

  private root(buf: Uint8Array, offset: number): Reader {
    const avail = buf.length - offset;
    if (offset < 0 || avail < 8) fail("truncated");
    const full = this.size(buf, offset);
    if (full > this.limits.maxMessageSize) fail("too_large", `${full} bytes`);
    if (full > avail) fail("truncated");
    if (full < 16) fail("bad_size");
    const r = view(this.reader, buf, offset, full);
    r.budget = full - 8;
    r.zcap = this.limits.maxZeroSizeElements;
    return r;
  }

  validate(buf: Uint8Array, offset = 0): number {
    const r = this.root(buf, offset);
    try {
      this.codec.checkAt(r, offset, r.u32(offset + 4), offset + 8, this.limits.maxDepth);
    } catch (err) {
      throw asDecodeError(err);
    }
    return r.end - offset;
  }

  deserialize(buf: Uint8Array, offset = 0): T {
    const r = this.root(buf, offset);
    try {
      return this.codec.getAt(r, offset, r.u32(offset + 4), offset + 8, this.limits.maxDepth);
    } catch (err) {
      throw asDecodeError(err);
    }
  }
}

/** A root struct in the final (compact) format. */
export class FinalModel<T extends object> extends ModelBase<T> {
  serializeInto(w: Writer, value: T): number {
    const start = w.reserve(8);
    try {
      this.codec.fput(w, value);
      w.view.setUint32(start, w.len - start, true);
      w.view.setUint32(start + 4, this.codec.type, true);
    } catch (err) {
      w.len = start;
      throw err;
    }
    return w.len - start;
  }

  private root(buf: Uint8Array, offset: number): Reader {
    const avail = buf.length - offset;
    if (offset < 0 || avail < 8) fail("truncated");
    const size = this.size(buf, offset);
    if (size > this.limits.maxMessageSize) fail("too_large", `${size} bytes`);
    if (size > avail) fail("truncated");
    if (size < 8) fail("bad_size");
    const r = view(this.reader, buf, offset, size);
    const found = r.u32(offset + 4);
    if (found !== this.codec.type) fail("bad_type", `${found} where ${this.codec.type} was expected`);
    r.zcap = this.limits.maxZeroSizeElements;
    r.p = offset + 8;
    return r;
  }

  validate(buf: Uint8Array, offset = 0): number {
    const r = this.root(buf, offset);
    try {
      this.codec.fcheck(r, this.limits.maxDepth);
    } catch (err) {
      throw asDecodeError(err);
    }
    if (r.p !== r.end) fail(r.p > r.end ? "truncated" : "bad_size");
    return r.end - offset;
  }

  deserialize(buf: Uint8Array, offset = 0): T {
    const r = this.root(buf, offset);
    let v: T;
    try {
      v = this.codec.fget(r, this.limits.maxDepth);
    } catch (err) {
      throw asDecodeError(err);
    }
    if (r.p !== r.end) fail(r.p > r.end ? "truncated" : "bad_size");
    return v;
  }
}

// ignoreBOM: a leading U+FEFF is text like any other (without it TextDecoder drops it),
// so JSON text that starts with a BOM is rejected, as in every language.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The JSON text of a value (fastwire's JSON rules, docs/wire-format.md#json). */
export function toJson<T extends object>(codec: StructCodec<T>, value: T): string {
  return codec.toJson(value);
}

/**
 * A value from JSON text (a string, or UTF-8 bytes). Missing fields keep their defaults;
 * unknown keys are ignored. Hostile text is bounded as binary input is: its length by
 * maxMessageSize, the nesting of arrays and objects by maxDepth, elements of zero final
 * size by maxZeroSizeElements. Throws DecodeError.
 */
export function fromJson<T extends object>(
  codec: StructCodec<T>,
  text: string | Uint8Array,
  limits: Limits = DEFAULT_LIMITS,
): T {
  let s: string;
  if (typeof text === "string") {
    s = text;
    // (UTF-8 takes at most 3 bytes per UTF-16 unit: most texts need no encoding to know)
    if (
      s.length > limits.maxMessageSize ||
      (s.length * 3 > limits.maxMessageSize && new TextEncoder().encode(s).length > limits.maxMessageSize)
    ) {
      fail("too_large", "JSON text longer than maxMessageSize");
    }
  } else {
    if (text.length > limits.maxMessageSize) fail("too_large", "JSON text longer than maxMessageSize");
    try {
      s = utf8.decode(text);
    } catch {
      fail("invalid_argument", "JSON text that is not UTF-8");
    }
  }
  try {
    const j = parseJson(s, limits.maxDepth);
    startJsonRead(limits.maxZeroSizeElements);
    return codec.fromJson(j);
  } catch (err) {
    throw asDecodeError(err);
  }
}
