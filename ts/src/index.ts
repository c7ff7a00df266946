/**
 * fastwire's runtime for TypeScript and JavaScript: the codecs generated code is built
 * on, the models (versioned and final), JSON, and the protocol. Node 20 and browsers
 * alike: only Uint8Array, DataView and TextEncoder/TextDecoder.
 */
export * from "./errors.js";
export * from "./limits.js";
export * from "./values.js";
export * from "./wire.js";
export * from "./json.js";
export * from "./codecs.js";
export * from "./model.js";
export * from "./protocol.js";
export * from "./print.js";
