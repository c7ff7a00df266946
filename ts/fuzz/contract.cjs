// The fuzz target's checks, shared by the two ways it runs: target.mjs (the ES modules,
// driven by run.mjs) and jazzer.cjs (a CommonJS build, driven by Jazzer.js, which
// instruments what `require` loads). Bytes in, the verify contract checked
// (docs/security.md): the first byte picks a type and a format among the conformance
// schemas' structs, the rest is the message. verify and deserialize must agree; what is
// accepted must serialize again to a message that verifies and reads back to the same
// bytes; nothing but DecodeError may be thrown. The same bytes also go through the JSON
// reader and a protocol Receiver.
"use strict";

/** `rt`: the runtime; `mods`: the generated packages by name (proto, protoex, everything, hostile, service). */
function makeTarget(rt, mods) {
  const targets = [];
  for (const pkg of ["proto", "protoex", "everything", "hostile", "service"]) {
    const mod = mods[pkg];
    for (const [name, codec] of Object.entries(mod)) {
      if (!(codec instanceof rt.StructCodec) || !name.endsWith("Codec")) continue;
      const base = name.slice(0, -5);
      // everything's computed defaults (utc, uuid1) make no difference to what is checked
      targets.push({
        name: `${pkg}.${base}`,
        codec,
        model: new mod[`${base}Model`](),
        final: new mod[`${base}FinalModel`](),
      });
    }
  }
  const service = mods.service;

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

  function fuzz(data) {
    if (data.length < 1) return;
    const bytes = new Uint8Array(
      data.buffer ? data.buffer.slice(data.byteOffset, data.byteOffset + data.length) : data,
    );
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

  return { fuzz, TARGETS: targets };
}

module.exports = { makeTarget };
