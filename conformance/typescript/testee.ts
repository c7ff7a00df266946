/**
 * The TypeScript conformance testee: answers the runner's requests on stdin/stdout
 * (conformance/README.md). `node build/conformance/typescript/testee.js`; the generated
 * modules of the conformance schemas sit beside it (conformance/typescript/build.py).
 */
import * as rt from "@fastwire/runtime";

const VERSIONED = 1, FINAL = 2, JSON_ = 3;
const OK = 0, PARSE_ERROR = 1, VERIFY_ERROR = 2, SERIALIZE_ERROR = 3, UNSUPPORTED = 4, INTERNAL_ERROR = 5;

interface Entry {
  codec: rt.StructCodec<object>;
  model: rt.Model<object>;
  final: rt.FinalModel<object>;
}

const modules = new Map<string, Record<string, unknown>>();
const types = new Map<string, Entry>();

async function resolve(name: string): Promise<Entry | undefined> {
  const known = types.get(name);
  if (known) return known;
  const dot = name.indexOf(".");
  if (dot < 0) return undefined;
  const pkg = name.slice(0, dot);
  const struct = name.slice(dot + 1);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(pkg)) return undefined;
  let mod = modules.get(pkg);
  if (!mod) {
    try {
      mod = (await import(`./${pkg}.js`)) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    modules.set(pkg, mod);
  }
  const codec = mod[`${struct}Codec`];
  const Model = mod[`${struct}Model`] as (new () => rt.Model<object>) | undefined;
  const Final = mod[`${struct}FinalModel`] as (new () => rt.FinalModel<object>) | undefined;
  if (!(codec instanceof rt.StructCodec) || !Model || !Final) return undefined;
  const e = { codec: codec as rt.StructCodec<object>, model: new Model(), final: new Final() };
  types.set(name, e);
  return e;
}

const text = new TextEncoder();

async function handle(req: Uint8Array): Promise<[number, Uint8Array]> {
  const view = new DataView(req.buffer, req.byteOffset, req.length);
  const version = req[0]!, fin = req[1]!, fout = req[2]!;
  const n = view.getUint16(3, true);
  if (version !== 1) return [UNSUPPORTED, text.encode(`protocol version ${version}`)];
  const name = new TextDecoder().decode(req.subarray(5, 5 + n));
  const payload = req.subarray(5 + n);
  const t = await resolve(name);
  if (!t) return [UNSUPPORTED, text.encode(`unknown type ${name}`)];
  let value: object;
  try {
    if (fin === JSON_) value = rt.fromJson(t.codec, payload);
    else if (fin === VERSIONED || fin === FINAL) {
      const m = fin === VERSIONED ? t.model : t.final;
      try {
        m.validate(payload);
      } catch (err) {
        if (err instanceof rt.DecodeError) return [VERIFY_ERROR, text.encode(err.message)];
        throw err;
      }
      value = m.deserialize(payload);
    } else return [UNSUPPORTED, text.encode(`input format ${fin}`)];
  } catch (err) {
    if (err instanceof rt.DecodeError) return [PARSE_ERROR, text.encode(err.message)];
    throw err;
  }
  try {
    if (fout === VERSIONED) return [OK, t.model.serialize(value)];
    if (fout === FINAL) return [OK, t.final.serialize(value)];
    if (fout === JSON_) return [OK, text.encode(t.codec.toJson(value))];
  } catch (err) {
    if (err instanceof rt.EncodeError) return [SERIALIZE_ERROR, text.encode(err.message)];
    throw err;
  }
  return [UNSUPPORTED, text.encode(`output format ${fout}`)];
}

// Input not yet answered: the chunks as they came, and their total length. A request is
// copied out once, when all of its bytes are here, so the work is linear in the input
// (copying everything on every chunk made a 50 MB request take 44 s).
const chunks: Uint8Array[] = [];
let buffered = 0;
let busy = Promise.resolve();

function answer(status: number, body: Uint8Array): void {
  const out = new Uint8Array(5 + body.length);
  new DataView(out.buffer).setUint32(0, 1 + body.length, true);
  out[4] = status;
  out.set(body, 5);
  process.stdout.write(out);
}

/** Removes the next `n` buffered bytes (n <= buffered) and returns them as one array. */
function take(n: number): Uint8Array {
  const first = chunks[0]!;
  let out: Uint8Array;
  if (first.length >= n) {
    out = first.subarray(0, n);
    if (first.length === n) chunks.shift();
    else chunks[0] = first.subarray(n);
  } else {
    out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const c = chunks[0]!;
      const k = Math.min(c.length, n - at);
      out.set(c.subarray(0, k), at);
      at += k;
      if (k === c.length) chunks.shift();
      else chunks[0] = c.subarray(k);
    }
  }
  buffered -= n;
  return out;
}

let size = -1; // of the request being received, once its 4 size bytes are here

async function drain(): Promise<void> {
  for (;;) {
    if (size < 0) {
      if (buffered < 4) return;
      const head = take(4);
      size = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, true);
    }
    if (buffered < size) return;
    const req = take(size);
    size = -1;
    let status: number, body: Uint8Array;
    try {
      [status, body] = await handle(req);
    } catch (err) {
      status = INTERNAL_ERROR;
      body = text.encode(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    }
    answer(status, body);
  }
}

process.stdin.on("data", (chunk: Buffer) => {
  chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
  buffered += chunk.length;
  busy = busy.then(drain);
});
