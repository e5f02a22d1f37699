/**
 * JSON values as the trace library handles them, and the text it derives from them.
 *
 * Where the trace library *derives* text from a message (an id's key, a result's content
 * when it has no text, the "known" text of turn inference) it writes compact JSON with
 * object keys sorted by code point. That text does not depend on the order a server happened
 * to send keys in, so the same message always gives the same Episode, and Episodes match
 * those made by other readers of these logs that serialize the same way (a Rust reader
 * using serde_json without `preserve_order` does). Values carried through (a call's
 * `arguments`) keep the order they were sent in.
 */
import { isObject as isPlainObject } from "../util/is-object.js";

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** Whether a value is a JSON object (`isObject` of lib/util, typed for these values). */
export const isObject = isPlainObject as (v: unknown) => v is JsonObject;

/** `v[key]` when `v` is an object that has that key (even with a null value). */
export function field(v: unknown, key: string): Json | undefined {
  if (!isObject(v)) return undefined;
  const x = v[key];
  // Only Object.prototype's members are inherited: functions, and `__proto__`.
  if (x === undefined || (typeof x !== "function" && key !== "__proto__")) return x;
  return Object.prototype.hasOwnProperty.call(v, key) ? x : undefined;
}

/**
 * {@link field} for a key the caller reads by name, on every message of a log:
 * `own(v, "params", v["params"])` where `v` is an object. The read at the call site is a
 * named load, which V8 caches per site for the few shapes messages have; `field`'s
 * `v[key]` is one lookup shared by every key and every shape, so it stays generic and
 * costs several times more. The result is `field(v, key)`'s for any key but `__proto__`.
 */
export function own(v: JsonObject, key: string, x: unknown): Json | undefined {
  return typeof x !== "function" || Object.prototype.hasOwnProperty.call(v, key) ? (x as Json | undefined) : undefined;
}

/** The value at `path` of nested objects, like serde's `pointer` over object keys. */
export function at(v: unknown, ...path: string[]): Json | undefined {
  let cur: Json | undefined = v as Json;
  for (const key of path) {
    cur = field(cur, key);
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** A string at `path`, else undefined. */
export function stringAt(v: unknown, ...path: string[]): string | undefined {
  const s = at(v, ...path);
  return typeof s === "string" ? s : undefined;
}

/** Compact JSON with keys sorted by code point, as serde_json writes it. */
export function jsonText(v: Json): string {
  switch (typeof v) {
    case "string":
      return JSON.stringify(v);
    case "number":
      // What JSON.stringify writes for a number (`null` for one that is not finite), without a
      // call into the runtime: every call of a live session is shown by its id's text.
      return Number.isFinite(v) ? String(v) : "null";
    case "boolean":
      return v ? "true" : "false";
    default:
      break;
  }
  if (v === null) return "null";
  if (Array.isArray(v)) {
    let out = "[";
    for (let i = 0; i < v.length; i++) out += (i === 0 ? "" : ",") + jsonText(v[i]!);
    return out + "]";
  }
  const keys = sortedKeys(v);
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    out += (i === 0 ? "" : ",") + JSON.stringify(k) + ":" + jsonText(v[k]!);
  }
  return out + "}";
}

/** Up to this many keys (most objects), the keys are sorted in place by insertion: `sort()` copies the array to sort it. */
const FEW_KEYS = 16;

/** Keys in code point order (UTF-16 order differs only once surrogates meet U+E000–U+FFFF). */
export function sortedKeys(o: JsonObject): string[] {
  const keys = Object.keys(o);
  const n = keys.length;
  if (n < 2) return keys;
  for (let i = 0; i < n; i++) if (hasHighChar(keys[i]!)) return keys.sort(compareCodePoints);
  if (n > FEW_KEYS) return keys.sort();
  // `<` on strings is UTF-16 order, the order `sort()` gives; keys are distinct, so no ties.
  for (let i = 1; i < n; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

function hasHighChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0xd800) return true;
  return false;
}

/** Orders strings by code point, as Rust orders `String`s (byte order of their UTF-8). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate stands for a code point above every BMP character.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Deep equality of JSON values; object key order does not matter (serde's `Value` `==`). */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
}

/** How many Unicode scalar values `s` holds (Rust's `chars().count()`), up to `limit`. */
export function charCount(s: string, limit: number): number {
  let n = 0;
  for (let i = 0; i < s.length && n < limit; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return n;
}

/**
 * Whether a JSON line could hold `text` in one of its strings or keys: JSON writes a string
 * as it is unless it escapes something, so a line with neither `text` nor a backslash
 * cannot. Lets a reader pass over lines it has no use for without parsing them.
 */
export function mayHoldText(line: Uint8Array, text: string): boolean {
  const bytes = Buffer.isBuffer(line) ? line : Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  let needle = needles.get(text);
  if (needle === undefined) needles.set(text, (needle = Buffer.from(text, "utf8")));
  return bytes.includes(needle) || bytes.includes(BACKSLASH);
}
const BACKSLASH = 0x5c;
/** The texts looked for, as bytes (a handful, asked again and again). */
const needles = new Map<string, Buffer>();
