/**
 * A strict JSON reader for untrusted text (RFC 8259): numbers are kept as their text so
 * 64-bit integers and decimals are read exactly; every array and object counts one level
 * against `maxDepth`; objects keep their keys in order (a repeated key keeps its first
 * place and its last value, its earlier values listed by `repeatedMembers`); strings are Unicode (a lone surrogate is rejected). Errors
 * are DecodeErrors (invalid_argument, too_deep).
 */
import { fail } from "./errors.js";
import { hasLoneSurrogate } from "./values.js";

/** A JSON number, as written. `integer`: no fraction and no exponent. */
export class JsonNumber {
  constructor(
    readonly text: string,
    readonly integer: boolean,
  ) {}
}

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;
export type JsonObject = Map<string, JsonValue>;

export function isObject(j: JsonValue): j is JsonObject {
  return j instanceof Map;
}

const repeated = new WeakMap<JsonObject, [string, JsonValue][]>();

/**
 * The values of an object's repeated keys that a later one replaced, in text order
 * (undefined when no key repeats): a struct reader still checks them, a map keeps each
 * key's first value (docs/wire-format.md#json, "Repeated keys").
 */
export function repeatedMembers(j: JsonObject): [string, JsonValue][] | undefined {
  return repeated.get(j);
}

/** Parses JSON text; `maxDepth` bounds the nesting of arrays and objects. */
export function parseJson(text: string, maxDepth: number): JsonValue {
  const p = new Parser(text, maxDepth);
  p.ws();
  const v = p.value(0);
  p.ws();
  if (p.i !== text.length) p.error("unexpected text after the value");
  return v;
}

class Parser {
  i = 0;
  constructor(
    readonly s: string,
    readonly maxDepth: number,
  ) {}

  error(what: string): never {
    fail("invalid_argument", `${what} at ${this.i}`);
  }

  ws(): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
    this.i = i;
  }

  value(depth: number): JsonValue {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === 123) return this.object(depth + 1);
    if (c === 91) return this.array(depth + 1);
    if (c === 34) return this.string();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    if (s.startsWith("true", this.i)) {
      this.i += 4;
      return true;
    }
    if (s.startsWith("false", this.i)) {
      this.i += 5;
      return false;
    }
    if (s.startsWith("null", this.i)) {
      this.i += 4;
      return null;
    }
    return this.error(this.i >= s.length ? "unexpected end" : "unexpected character");
  }

  object(depth: number): JsonObject {
    if (depth > this.maxDepth) fail("too_deep", `arrays and objects nested beyond ${this.maxDepth}`);
    this.i++;
    const out: JsonObject = new Map();
    this.ws();
    if (this.s.charCodeAt(this.i) === 125) {
      this.i++;
      return out;
    }
    for (;;) {
      if (this.s.charCodeAt(this.i) !== 34) this.error("a key expected");
      const k = this.string();
      this.ws();
      if (this.s.charCodeAt(this.i) !== 58) this.error("':' expected");
      this.i++;
      this.ws();
      const v = this.value(depth);
      const old = out.get(k);
      if (old !== undefined) {
        const list = repeated.get(out);
        if (list) list.push([k, old]);
        else repeated.set(out, [[k, old]]);
      }
      out.set(k, v);
      this.ws();
      const c = this.s.charCodeAt(this.i);
      this.i++;
      if (c === 44) {
        this.ws();
        continue;
      }
      if (c === 125) return out;
      this.i--;
      this.error("',' or '}' expected");
    }
  }

  array(depth: number): JsonValue[] {
    if (depth > this.maxDepth) fail("too_deep", `arrays and objects nested beyond ${this.maxDepth}`);
    this.i++;
    const out: JsonValue[] = [];
    this.ws();
    if (this.s.charCodeAt(this.i) === 93) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.ws();
      const c = this.s.charCodeAt(this.i);
      this.i++;
      if (c === 44) {
        this.ws();
        continue;
      }
      if (c === 93) return out;
      this.i--;
      this.error("',' or ']' expected");
    }
  }

  number(): JsonNumber {
    const s = this.s;
    const start = this.i;
    let i = start;
    let integer = true;
    if (s.charCodeAt(i) === 45) i++;
    let c = s.charCodeAt(i);
    if (c === 48) i++;
    else if (c >= 49 && c <= 57) {
      while ((c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
    } else {
      this.i = i;
      this.error("a digit expected");
    }
    if (s.charCodeAt(i) === 46) {
      integer = false;
      i++;
      const d = i;
      while ((c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
      if (i === d) {
        this.i = i;
        this.error("a digit expected");
      }
    }
    c = s.charCodeAt(i);
    if (c === 101 || c === 69) {
      integer = false;
      i++;
      c = s.charCodeAt(i);
      if (c === 43 || c === 45) i++;
      const d = i;
      while ((c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
      if (i === d) {
        this.i = i;
        this.error("a digit expected");
      }
    }
    this.i = i;
    return new JsonNumber(s.slice(start, i), integer);
  }

  string(): string {
    const s = this.s;
    let i = this.i + 1;
    let out = "";
    let run = i;
    let surrogates = false; // a surrogate seen (as an escape, or in text given as a string)
    for (;;) {
      if (i >= s.length) {
        this.i = i;
        this.error("unterminated string");
      }
      const c = s.charCodeAt(i);
      if (c === 34) {
        out += s.slice(run, i);
        // Strings must be Unicode, wherever they are (unknown keys' values too): a
        // surrogate must be one of a pair.
        if (surrogates && hasLoneSurrogate(out)) this.error("a lone surrogate in a string");
        this.i = i + 1;
        return out;
      }
      if (c < 0x20) {
        this.i = i;
        this.error("a control character in a string");
      }
      if (c !== 92) {
        if (c >= 0xd800 && c <= 0xdfff) surrogates = true;
        i++;
        continue;
      }
      out += s.slice(run, i);
      const e = s.charCodeAt(i + 1);
      i += 2;
      switch (e) {
        case 34:
          out += '"';
          break;
        case 92:
          out += "\\";
          break;
        case 47:
          out += "/";
          break;
        case 98:
          out += "\b";
          break;
        case 102:
          out += "\f";
          break;
        case 110:
          out += "\n";
          break;
        case 114:
          out += "\r";
          break;
        case 116:
          out += "\t";
          break;
        case 117: {
          const h = s.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(h)) {
            this.i = i;
            this.error("a \\u escape needs 4 hex digits");
          }
          const unit = parseInt(h, 16);
          if (unit >= 0xd800 && unit <= 0xdfff) surrogates = true;
          out += String.fromCharCode(unit);
          i += 4;
          break;
        }
        default:
          this.i = i - 2;
          this.error("an unknown escape");
      }
      run = i;
    }
  }
}
