/**
 * The source paths of a flow's bindings: how a tool's
 * output is read as JSON, the paths a value is found at (`$`, `$.key`, `$.items[*].id`),
 * and the string values at a path, each with its siblings.
 *
 * Objects are walked in key order (code point order), not in the order the server sent
 * them: "document order" is that order. The path a value is learned at and the candidate
 * that comes first both depend on it, so learning and serving must walk outputs the same
 * way whatever key order a server sends; flows learned by a Rust learner (serde_json
 * without `preserve_order` holds objects sorted) then pick the same values here.
 */
import { isObject, jsonText, sortedKeys, type Json, type JsonObject } from "../../trace/json.js";

/** One string value at a path, with the other string values of its parent object. */
export interface Found {
  value: string;
  siblings: string[];
}

/**
 * A tool's output as JSON: the text parsed when it is JSON; else, when it has more than one
 * non-empty trimmed line, the array of those lines (a listing, bound at `$[*]`); else the
 * text as one string.
 */
export function parseOutput(content: string): Json {
  try {
    if (mayBeJson(content)) return JSON.parse(content) as Json;
  } catch {
    // Not JSON after all: read as lines below.
  }
  const lines = content
    .split("\n")
    .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l).trim())
    .filter((l) => l !== "");
  return lines.length > 1 ? lines : content;
}

/**
 * Whether `text` may be JSON: its first character past JSON's whitespace can begin a value.
 * Most outputs that are not JSON (an id, a sentence) fail here, without the error a failed
 * `JSON.parse` throws (its stack trace costs more than the parse).
 */
export function mayBeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    // { [ " - 0-9 t f n
    return c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
  }
  return false;
}

/** A value as text for comparing with what was passed: a string as is, else compact JSON. */
export function valueText(v: Json): string {
  return typeof v === "string" ? v : jsonText(v);
}

/** Every path at which `target` is a string value of `v`, array indices written `[*]`. */
export function findPaths(v: Json, target: string, path = "$", out: string[] = []): string[] {
  // The learner looks for every value passed in every earlier output: a path's text is
  // written only where the target is, from the segments walked to it.
  collectPaths(v, target, path, [], out, Number.POSITIVE_INFINITY);
  return out;
}

/** The first path (in document order) at which `target` is a string value of `v`: `findPaths(v, target)[0]`, the walk stopped there. */
export function firstPath(v: Json, target: string): string | undefined {
  const out: string[] = [];
  collectPaths(v, target, "$", [], out, 1);
  return out[0];
}

/** Walks `v` for `target`, writing each path found to `out` until it holds `limit`; whether it does. */
function collectPaths(v: Json, target: string, root: string, segments: string[], out: string[], limit: number): boolean {
  if (typeof v === "string") {
    if (v === target) out.push(root + segments.join(""));
  } else if (Array.isArray(v)) {
    segments.push("[*]");
    for (const item of v) if (collectPaths(item, target, root, segments, out, limit)) break;
    segments.pop();
  } else if (isObject(v)) {
    for (const k of sortedKeys(v)) {
      segments.push(".", k);
      const full = collectPaths(v[k]!, target, root, segments, out, limit);
      segments.length -= 2;
      if (full) break;
    }
  }
  return out.length >= limit;
}

/**
 * The string values of `v` at `path` (as `findPaths` writes it), in document order, each
 * with the other string values of its parent object. Only `.key` and `[*]` segments are
 * walked; a shape that differs (a number where a string is, an object where an array is)
 * yields nothing.
 */
export function atPath(v: Json, path: string): Found[] {
  const out: Found[] = [];
  walk(v, path.startsWith("$") ? path.slice(1) : path, undefined, out);
  return out;
}

function walk(v: Json, rest: string, parent: Json | undefined, out: Found[]): void {
  if (rest === "") {
    if (typeof v === "string") out.push({ value: v, siblings: isObject(parent) ? stringSiblings(parent, v) : [] });
    return;
  }
  if (rest.startsWith("[*]")) {
    if (Array.isArray(v)) for (const item of v) walk(item, rest.slice(3), v, out);
    return;
  }
  if (rest.startsWith(".")) {
    const tail = rest.slice(1);
    let end = tail.search(/[.[]/);
    if (end === -1) end = tail.length;
    const key = tail.slice(0, end);
    if (isObject(v) && Object.prototype.hasOwnProperty.call(v, key)) walk(v[key]!, tail.slice(end), v, out);
  }
}

/** The string values of `o` other than `value`. */
function stringSiblings(o: JsonObject, value: string): string[] {
  const out: string[] = [];
  for (const k of sortedKeys(o)) {
    const x = o[k];
    if (typeof x === "string" && x !== value) out.push(x);
  }
  return out;
}

/** The string values under the key `key` anywhere in `v`, in document order, with siblings. */
export function namedValues(v: Json, key: string, out: Found[] = []): Found[] {
  if (Array.isArray(v)) {
    for (const item of v) namedValues(item, key, out);
  } else if (isObject(v)) {
    for (const k of sortedKeys(v)) {
      const child = v[k]!;
      if (k === key && typeof child === "string") out.push({ value: child, siblings: stringSiblings(v, child) });
      else namedValues(child, key, out);
    }
  }
  return out;
}

/** Every string (trimmed, lower-cased) and number (as text) under `v`. */
export function lowerScalars(v: Json, out: Set<string> = new Set()): Set<string> {
  if (typeof v === "string") out.add(v.trim().toLowerCase());
  // A parsed number is finite: its JSON text is its `String`.
  else if (typeof v === "number") out.add(Number.isFinite(v) ? String(v) : JSON.stringify(v));
  else if (Array.isArray(v)) for (const item of v) lowerScalars(item, out);
  else if (isObject(v)) for (const k in v) lowerScalars(v[k]!, out);
  return out;
}
