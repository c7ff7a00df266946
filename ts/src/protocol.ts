/**
 * Sender and Receiver (spec §5): messages as a byte stream, in either binary format, over
 * byte chunks of any size; Proxy (messages passed on as bytes) and Client (requests
 * matched to their responses by [id], each with its own timeout). Transport-agnostic:
 * `transport-node` carries them over `net` sockets, `websocket` over WebSockets.
 *
 *     const sender = new proto.Sender();            // generated per package
 *     sender.onSend = (bytes) => { socket.write(bytes); return bytes.length; };
 *     sender.send(new proto.Order({ uid: 1 }));
 *     class Printer extends proto.Receiver {
 *       override onOrder(o: proto.Order) { console.log(o); }
 *     }
 *     new Printer().receive(chunk);                 // any chunking
 *
 * Framing: each message is one root model, back to back: versioned
 * [u32 size][u32 8][u32 struct size][u32 type]…, final [u32 size][u32 type]….
 */
import { DecodeError, EncodeError } from "./errors.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import type { FinalModel, Model } from "./model.js";
import { Writer } from "./wire.js";

type AnyModel = Model<object> | FinalModel<object>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor = abstract new (...args: any[]) => object;

/** Serializes messages into a queue and offers the queued bytes to `onSend`. */
export class Sender {
  /** The queued bytes (all of them when nobody takes them: the whole stream). */
  readonly buffer = new Writer(1024);
  /** Called with every queued byte after each send; returns how many were taken. */
  onSend: ((data: Uint8Array) => number) | null = null;
  private readonly models = new Map<Constructor, AnyModel>();

  constructor(readonly final: boolean) {}

  /** Registers a message type (generated code). */
  protected register(cls: Constructor, model: AnyModel): void {
    this.models.set(cls, model);
  }

  /** True when this protocol sends values of the class. */
  sends(value: object): boolean {
    return this.models.has(value.constructor as Constructor);
  }

  /** Sends one message; returns its serialized size. Throws EncodeError for a value this
   * protocol does not send or that does not fit its schema. */
  send(value: object): number {
    const m = this.models.get(value.constructor as Constructor);
    if (m === undefined)
      throw new EncodeError(`${value.constructor.name} is not a message of this protocol`, "wrong_type");
    const n = m.serializeInto(this.buffer, value);
    if (this.onSend !== null) this.take(this.onSend(this.buffer.bytes()));
    return n;
  }

  /** The size `value` serializes to (without queuing it). */
  sizeOf(value: object): number {
    const m = this.models.get(value.constructor as Constructor);
    if (m === undefined)
      throw new EncodeError(`${value.constructor.name} is not a message of this protocol`, "wrong_type");
    const w = scratch;
    w.reset();
    return m.serializeInto(w, value);
  }

  /** Drops the first `n` queued bytes (they were sent). */
  take(n: number): void {
    const b = this.buffer;
    if (n <= 0) return;
    if (n >= b.len) b.len = 0;
    else {
      b.buf.copyWithin(0, n, b.len);
      b.len -= n;
    }
  }

  /** The queued bytes (a copy), leaving the queue empty. */
  drain(): Uint8Array {
    const out = this.buffer.buf.slice(0, this.buffer.len);
    this.buffer.len = 0;
    return out;
  }

  reset(): void {
    this.buffer.reset();
  }
}

const scratch = new Writer(1024);

interface Handler {
  model: AnyModel;
  hook: (value: object) => void;
}

/**
 * Reassembles messages from chunks of any size and dispatches them by type number. A
 * known type is deserialized (with every check) and passed to its hook (`on<Message>`);
 * an unknown type goes to `onUnknown(type, data)`; a malformed message, or a size that
 * cannot start one (below the header or above maxMessageSize), to `onError(error,
 * data)`, which throws by default. A bad size cannot be resynchronised from: what is
 * queued then is dropped. At most one incomplete message (≤ maxMessageSize) is buffered.
 */
export class Receiver {
  readonly limits: Limits;
  private readonly handlers = new Map<number, Handler>();
  private pend = new Uint8Array(0);
  private pendLen = 0;
  /** Bytes received since the start (for messages that name a stream offset). */
  offset = 0;
  /** Called for each message decoded, before its hook; true consumes it (Client). */
  intercept: ((value: object) => boolean) | null = null;

  constructor(
    readonly final: boolean,
    limits?: Limits,
  ) {
    this.limits = limits ?? DEFAULT_LIMITS;
  }

  /** Registers a message type (generated code). */
  protected handle<T extends object>(model: Model<T> | FinalModel<T>, hook: (value: T) => void): void {
    this.handlers.set(model.type, { model: model as unknown as AnyModel, hook: hook as (v: object) => void });
  }

  /** Bytes received that do not complete a message yet. */
  get pending(): number {
    return this.pendLen;
  }

  reset(): void {
    this.pendLen = 0;
    this.pend = new Uint8Array(0);
  }

  /** Feeds received bytes; returns the number of complete messages handled. */
  receive(chunk: Uint8Array): number {
    let handled = 0;
    const data = chunk;
    let pos = 0;
    if (this.pendLen > 0) {
      // complete the buffered message first
      const need = this.frameSize();
      if (need < 0) {
        const old = this.pendLen;
        this.append(chunk);
        const all = this.pend.slice(0, this.pendLen);
        this.pendLen = 0;
        this.offset -= old;
        return this.receive(all);
      }
      const missing = need - this.pendLen;
      if (chunk.length < missing) {
        this.append(chunk);
        this.offset += chunk.length;
        return 0;
      }
      this.append(chunk.subarray(0, missing));
      const message = this.pend.slice(0, need);
      this.pendLen = 0;
      this.offset += missing;
      pos = missing;
      handled++;
      this.dispatch(message, 0, need);
      this.pend = this.pend.length > 65536 ? new Uint8Array(0) : this.pend;
    }
    const min = this.final ? 8 : 16;
    while (data.length - pos >= 4) {
      const size = (data[pos]! | (data[pos + 1]! << 8) | (data[pos + 2]! << 16) | (data[pos + 3]! << 24)) >>> 0;
      if (size < min || size > this.limits.maxMessageSize) {
        const junk = data.slice(pos);
        const at = this.offset;
        this.offset += data.length - pos;
        this.onError(
          new DecodeError(size < min ? "bad_size" : "too_large", `bad message size ${size} at stream offset ${at}`),
          junk,
        );
        return handled;
      }
      if (data.length - pos < size) break;
      this.offset += size;
      handled++;
      this.dispatch(data, pos, size);
      pos += size;
    }
    if (pos < data.length) {
      this.append(data.subarray(pos));
      this.offset += data.length - pos;
      if (this.pendLen >= 4) {
        const size = this.frameSize();
        if (size < min || size > this.limits.maxMessageSize) {
          const junk = this.pend.slice(0, this.pendLen);
          this.pendLen = 0;
          this.onError(
            new DecodeError(
              size < min ? "bad_size" : "too_large",
              `bad message size ${size} at stream offset ${this.offset - junk.length}`,
            ),
            junk,
          );
        }
      }
    }
    return handled;
  }

  private frameSize(): number {
    if (this.pendLen < 4) return -1;
    const b = this.pend;
    return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  }

  private append(bytes: Uint8Array): void {
    const need = this.pendLen + bytes.length;
    if (need > this.pend.length) {
      const b = new Uint8Array(Math.max(need, this.pend.length * 2, 256));
      b.set(this.pend.subarray(0, this.pendLen));
      this.pend = b;
    }
    this.pend.set(bytes, this.pendLen);
    this.pendLen = need;
  }

  /** The type number of the complete message of `size` bytes at `pos`, or -1 when its
   * root offset is bad. */
  typeOf(buf: Uint8Array, pos = 0, size = buf.length - pos): number {
    const u32 = (p: number) => (buf[p]! | (buf[p + 1]! << 8) | (buf[p + 2]! << 16) | (buf[p + 3]! << 24)) >>> 0;
    if (this.final) return u32(pos + 4);
    const root = u32(pos + 4);
    if (root > size - 8) return -1;
    return u32(pos + root + 4);
  }

  /** Handles the complete message of `size` bytes at `pos`. */
  protected dispatch(buf: Uint8Array, pos: number, size: number): void {
    const type = this.typeOf(buf, pos, size);
    if (type < 0) {
      this.onError(new DecodeError("truncated", "root offset"), buf.slice(pos, pos + size));
      return;
    }
    const h = this.handlers.get(type);
    if (h === undefined) {
      this.onUnknown(type, buf.slice(pos, pos + size));
      return;
    }
    let value: object;
    try {
      value = h.model.deserialize(buf, pos);
    } catch (err) {
      if (err instanceof DecodeError) {
        this.onError(err, buf.slice(pos, pos + size));
        return;
      }
      throw err;
    }
    if (this.intercept !== null && this.intercept(value)) return;
    h.hook(value);
  }

  /** A message whose type this protocol does not declare (skipped). */
  onUnknown(type: number, data: Uint8Array): void {
    void type;
    void data;
  }

  /** A malformed message or stream. Throws `error` unless overridden. */
  onError(error: DecodeError, data: Uint8Array): void {
    void data;
    throw error;
  }
}

/** Passes messages on as bytes (after checking those of known types): `onMessage(type,
 * data)` for each; unknown types go to onUnknown, malformed ones to onError. */
export class Proxy extends Receiver {
  protected override dispatch(buf: Uint8Array, pos: number, size: number): void {
    const message = buf.slice(pos, pos + size);
    const type = this.typeOf(message);
    if (type < 0) {
      this.onError(new DecodeError("truncated", "root offset"), message);
      return;
    }
    this.onMessage(type, message);
  }

  /** Called with each complete message's type and bytes. */
  onMessage(type: number, data: Uint8Array): void {
    void type;
    void data;
  }
}

// ---- requests --------------------------------------------------------------------------

export type RequestErrorKind = "rejected" | "timeout" | "disconnected" | "overflow";

/** A request that got no response: `kind` says why; `reject` holds the reject message. */
export class RequestError extends Error {
  constructor(
    readonly kind: RequestErrorKind,
    message: string,
    readonly reject: object | null = null,
  ) {
    super(message);
    this.name = "RequestError";
  }
}

/** A [request] message's answers (generated code describes each). */
export interface RequestSpec {
  readonly request: Constructor;
  readonly response: Constructor;
  readonly rejects: readonly Constructor[];
  /** the [id] field's property */
  readonly id: string;
}

interface Pending {
  resolve: (v: object) => void;
  reject: (e: RequestError) => void;
  timer: ReturnType<typeof setTimeout> | null;
  spec: RequestSpec;
}

/**
 * A client over byte chunks: a Sender and a Receiver with requests matched to their
 * responses by [id]. `request(q)` resolves with the response or rejects with a
 * RequestError: rejected, timeout (the request's own, or `requestTimeout` ms; a timer per
 * request, nothing to call), disconnected (`disconnect()` fails what is pending),
 * overflow (`canSend` refused it). A transport sets `sender.onSend` and calls
 * `receiver.receive`.
 */
export class Client<S extends Sender = Sender, R extends Receiver = Receiver> {
  requestTimeout = 10000;
  /** Whether a request may be sent now (a transport: connected, room in its queue). */
  canSend: (size: number) => RequestErrorKind | null = () => null;
  private readonly pending = new Map<string, Pending>();
  private readonly specs = new Map<Constructor, RequestSpec>();
  private readonly answers = new Map<Constructor, RequestSpec[]>();

  constructor(
    readonly sender: S,
    readonly receiver: R,
    requests: readonly RequestSpec[],
  ) {
    for (const s of requests) {
      this.specs.set(s.request, s);
      for (const c of [s.response, ...s.rejects]) {
        const list = this.answers.get(c) ?? [];
        list.push(s);
        this.answers.set(c, list);
      }
    }
    receiver.intercept = (value) => this.answer(value);
  }

  /** Requests waiting for their answer. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Sends a message that is not a request (or a request without waiting for it). */
  send(value: object): number {
    return this.sender.send(value);
  }

  /** Sends request `q`; resolves with its response. */
  call(q: object, timeoutMs?: number): Promise<object> {
    const spec = this.specs.get(q.constructor as Constructor);
    if (spec === undefined)
      return Promise.reject(new EncodeError(`${q.constructor.name} is not a request of this protocol`, "wrong_type"));
    const id = String((q as Record<string, unknown>)[spec.id]);
    return new Promise<object>((resolve, reject) => {
      const refused = this.canSend(this.sender.sizeOf(q));
      if (refused !== null) {
        reject(new RequestError(refused, refused === "overflow" ? "the send queue is full" : "not connected"));
        return;
      }
      const ms = timeoutMs ?? this.requestTimeout;
      const p: Pending = { resolve, reject, timer: null, spec };
      if (ms > 0 && Number.isFinite(ms)) {
        p.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new RequestError("timeout", `no answer to ${q.constructor.name} ${id} within ${ms} ms`));
        }, ms);
      }
      this.pending.set(id, p);
      try {
        this.sender.send(q);
      } catch (err) {
        this.pending.delete(id);
        if (p.timer !== null) clearTimeout(p.timer);
        reject(err as Error);
      }
    });
  }

  private answer(value: object): boolean {
    const specs = this.answers.get(value.constructor as Constructor);
    if (specs === undefined) return false;
    for (const spec of specs) {
      const id = String((value as Record<string, unknown>)[spec.id]);
      const p = this.pending.get(id);
      if (p === undefined || p.spec !== spec) continue;
      this.pending.delete(id);
      if (p.timer !== null) clearTimeout(p.timer);
      if (value.constructor === spec.response) p.resolve(value);
      else p.reject(new RequestError("rejected", `${value.constructor.name} for ${id}`, value));
      return true;
    }
    return false;
  }

  /** Fails every pending request with `disconnected` (a transport calls it on a drop). */
  disconnect(why = "disconnected"): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) {
      if (p.timer !== null) clearTimeout(p.timer);
      p.reject(new RequestError("disconnected", why));
    }
  }
}
