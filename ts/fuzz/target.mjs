// The fuzz target: bytes in, the verify contract checked (docs/security.md). The first
// byte picks a type and a format among the conformance schemas' structs; the rest is the
// message. verify and deserialize must agree; what is accepted must serialize again to a
// message that verifies and reads back to the same bytes; nothing but DecodeError may be
// thrown. The same bytes also go through the JSON reader and a protocol Receiver.
// `fuzz(data)` has Jazzer.js's signature; run.mjs drives it without Jazzer.js (see README).
import * as rt from "@fastwire/runtime";
import { gen } from "../test/helpers.mjs";

const targets = [];
for (const pkg of ["proto", "protoex", "everything", "hostile", "service"]) {
  const mod = await gen(pkg);
  for (const [name, codec] of Object.entries(mod)) {
    if (!(codec instanceof rt.StructCodec) || !name.endsWith("Codec")) continue;
    const base = name.slice(0, -5);
    // everything's computed defaults (utc, uuid1) make no difference to what is checked
    targets.push({ name: `${pkg}.${base}`, codec, model: new mod[`${base}Model`](), final: new mod[`${base}FinalModel`]() });
  }
}
const service = await gen("service");

export const TARGETS = targets;

function check(model, bytes) {
  const ok = model.verify(bytes);
  let value;
  try {
    value = model.deserialize(bytes);
  } catch (err) {
    if (!(err instanceof rt.DecodeError)) throw err;
    if (ok) throw new Error(`verify accepted, deserialize threw ${err.message}`);
    return;
  }
  if (!ok) throw new Error("verify rejected what deserialize accepted");
  const again = model.serialize(value);
  if (!model.verify(again)) throw new Error("a re-serialized value does not verify");
  const third = model.serialize(model.deserialize(again));
  if (third.length !== again.length || !third.every((b, i) => b === again[i])) throw new Error("not stable");
}

export function fuzz(data) {
  if (data.length < 1) return;
  const bytes = new Uint8Array(data.buffer ? data.buffer.slice(data.byteOffset, data.byteOffset + data.length) : data);
  const t = targets[bytes[0] % targets.length];
  const msg = bytes.subarray(1);
  check(bytes[0] & 0x80 ? t.final : t.model, msg);
  // JSON text
  try {
    const v = rt.fromJson(t.codec, msg);
    const text = t.codec.toJson(v);
    const back = rt.fromJson(t.codec, text);
    if (t.codec.toJson(back) !== text) throw new Error("JSON not stable");
  } catch (err) {
    if (!(err instanceof rt.DecodeError) && !(err instanceof rt.EncodeError)) throw err;
  }
  // a receiver, fed in two pieces
  const r = new service.Receiver();
  r.onError = () => {};
  const cut = msg.length >> 1;
  r.receive(msg.subarray(0, cut));
  r.receive(msg.subarray(cut));
}
