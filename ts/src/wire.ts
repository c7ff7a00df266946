/**
 * The buffers: a growable Writer (reused across messages) and the Reader of one message
 * (its bytes, the visit budget of the versioned format and the zero-size element
 * allowance of the final format).
 */

/** A growable output buffer. `bytes()` views what was written (valid until the next write). */
export class Writer {
  buf: Uint8Array;
  view: DataView;
  len = 0;

  constructor(capacity = 256) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  /** Forgets what was written, keeping the memory. */
  reset(): void {
    this.len = 0;
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    const need = this.len + n;
    if (need > this.buf.length) this.grow(need);
  }

  private grow(need: number): void {
    if (need > 0xffffffff) throw new RangeError("a message larger than 4 GiB - 1");
    let cap = this.buf.length * 2;
    if (cap < need) cap = need;
    const b = new Uint8Array(cap);
    b.set(this.buf.subarray(0, this.len));
    this.buf = b;
    this.view = new DataView(b.buffer);
  }

  /** Appends `n` zero bytes; returns their position. */
  reserve(n: number): number {
    const pos = this.len;
    const need = pos + n;
    if (need > this.buf.length) this.grow(need);
    else this.buf.fill(0, pos, need);
    this.len = need;
    return pos;
  }

  u8(v: number): void {
    if (this.len + 1 > this.buf.length) this.grow(this.len + 1);
    this.buf[this.len++] = v;
  }

  u32(v: number): void {
    if (this.len + 4 > this.buf.length) this.grow(this.len + 4);
    this.view.setUint32(this.len, v, true);
    this.len += 4;
  }

  append(b: Uint8Array): void {
    if (this.len + b.length > this.buf.length) this.grow(this.len + b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** The bytes written so far (a view: copy it to keep it past the next write). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

/** One message being read or verified. Positions are from the message's first byte. */
export class Reader {
  /** the final format's cursor */
  p = 0;
  constructor(
    public buf: Uint8Array,
    public view: DataView,
    public end: number,
    public budget: number,
    public zcap: number,
  ) {}

  u32(pos: number): number {
    return this.view.getUint32(pos, true);
  }
}
