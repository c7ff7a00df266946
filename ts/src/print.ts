/**
 * The printout of a value, as the C++ runtime's operator<< writes it (and the Python
 * runtime's str()): `Account(uid=1,name="Test",state=initialized|calculated|good,…)`,
 * doubles as printf's %g, collections as `[N][…]` (list `[N]<…>`, set `[N]{…}`, map
 * `[N]<{k->v},…>`, hash `[N][{k->v},…]`).
 */
import {
  ArrayCodec,
  BoolCodec,
  BytesCodec,
  type Codec,
  DecimalCodec,
  EnumCodec,
  FloatCodec,
  IntCodec,
  MapCodec,
  OptionalCodec,
  SequenceCodec,
  StringCodec,
  StructCodec,
  UuidCodec,
  CHAR,
  WCHAR,
} from "./codecs.js";
import type { Decimal } from "./values.js";

/** printf("%g", x). */
export function formatG(x: number): string {
  if (x !== x) return x < 0 ? "-nan" : "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const exp = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(6)))));
  if (exp < -4 || exp >= 6) {
    let [m, e] = x.toExponential(5).split("e") as [string, string];
    if (m.includes(".")) m = m.replace(/0+$/, "").replace(/\.$/, "");
    const n = Number(e);
    return `${m}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  }
  let s = x.toFixed(Math.max(0, 5 - exp));
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s;
}

function char(c: number): string {
  return "'" + String.fromCodePoint(c) + "'";
}

/** The printout of `value` of the type `codec` describes. */
export function text<T>(codec: Codec<T>, value: T): string {
  const c = codec as Codec<unknown>;
  const v = value as unknown;
  if (c instanceof StructCodec) {
    const o = v as Record<string, unknown>;
    const name = c.name.slice(c.name.lastIndexOf(".") + 1);
    return name + "(" + c.fields.map((f) => f.name + "=" + text(f.codec, o[f.prop])).join(",") + ")";
  }
  if (c instanceof OptionalCodec) return v === null || v === undefined ? "null" : text(c.inner, v);
  if (c instanceof EnumCodec) return c.text(v as number);
  if (c === CHAR) return char(v as number);
  if (c === WCHAR)
    return (v as number) >= 0x20 && (v as number) < 0x7f
      ? char(v as number)
      : `'U+${(v as number).toString(16).toUpperCase()}'`;
  if (c instanceof BoolCodec) return v ? "true" : "false";
  if (c instanceof IntCodec) return String(v);
  if (c instanceof FloatCodec) return formatG(v as number);
  if (c instanceof DecimalCodec) return (v as Decimal).toString();
  if (c instanceof UuidCodec) return `"${v as string}"`;
  if (c instanceof StringCodec) return `"${v as string}"`;
  if (c instanceof BytesCodec) return `bytes[${(v as Uint8Array).length}]`;
  if (c instanceof ArrayCodec || c instanceof SequenceCodec) {
    const items = v as unknown[];
    const [open, close] =
      c instanceof SequenceCodec && c.kind === "list"
        ? ["<", ">"]
        : c instanceof SequenceCodec && c.kind === "set"
          ? ["{", "}"]
          : ["[", "]"];
    return `[${items.length}]${open}` + items.map((x) => text(c.elem, x)).join(",") + close;
  }
  if (c instanceof MapCodec) {
    const m = v as Map<unknown, unknown>;
    let entries = [...m.entries()];
    if (c.sorted) entries = entries.sort((a, b) => c.key.compare(a[0], b[0]));
    const [open, close] = c.sorted ? ["<", ">"] : ["[", "]"];
    return (
      `[${entries.length}]${open}` +
      entries.map(([k, x]) => "{" + text(c.key, k) + "->" + text(c.value, x) + "}").join(",") +
      close
    );
  }
  return String(v); // bigint codecs (int64, uint64, timestamp)
}
