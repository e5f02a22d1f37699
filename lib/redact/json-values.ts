/**
 * Data held as JSON, and a tool's text: every key, string and number is handed to the
 * visitor and replaced by what it answers. A replaced number becomes a string (its hash).
 */
import { isObject, type Json, type JsonObject } from "../trace/json.js";
import { lines } from "./text.js";
import type { Visitor } from "./visitor.js";

/** `doc` as data: the visitor sees it whole, then each of its leaves. */
export function documentValues(doc: Json, v: Visitor): Json {
  v.document(doc);
  return leaves(doc, v);
}

/** `v` with each key, string and number the visitor replaces swapped for its replacement. */
export function leaves(doc: Json, v: Visitor): Json {
  if (typeof doc === "string") return v.value(doc) ?? doc;
  if (typeof doc === "number") return v.value(String(doc)) ?? doc;
  if (Array.isArray(doc)) return doc.map((item) => leaves(item, v));
  if (!isObject(doc)) return doc;
  const out: JsonObject = {};
  for (const [k, child] of Object.entries(doc)) {
    // Defined, not assigned: a key named `__proto__` is data like any other.
    Object.defineProperty(out, v.value(k) ?? k, { value: leaves(child, v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The JSON object or array `text` holds, or undefined when it holds something else. */
export function jsonContainer(text: string): Json | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof parsed === "object" && parsed !== null ? (parsed as Json) : undefined;
}

/**
 * A tool's text: a JSON object or array is rewritten value by value and written back
 * compactly; any other text is rewritten a whole line at a time (a line of a plain-text
 * result is one value, such as an id).
 */
export function toolText(text: string, v: Visitor): string {
  const doc = jsonContainer(text);
  if (doc !== undefined) return JSON.stringify(documentValues(doc, v));
  return lines(text)
    .map((line) => v.value(line) ?? line)
    .join("\n");
}
