import type { Json } from "./json.js";

/**
 * serde_json's recursion limit: 128 levels are counted down and the 128th fails, so at
 * most 127 arrays/objects nest. (Inferred from serde_json's `check_recursion!`.)
 */
const MAX_DEPTH = 127;
// In `u` mode a surrogate pair is one code point, so this matches lone surrogates only.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * Parses `text` as one JSON value, refusing what JSON.parse takes but a strict JSON reader
 * such as serde_json does not: lone-surrogate escapes, numbers beyond f64 (`1e400`) and
 * nesting deeper than its recursion limit (`MAX_DEPTH`). The demo answers those with a parse error:
 * it is a test server, and a client that sends them would fail against strict servers.
 * Surrounding JSON whitespace is allowed; anything else is not.
 */
export function parseStrictJson(text: string): { value: Json } | undefined {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  return serdeReads(value) ? { value } : undefined;
}

function serdeReads(root: Json): boolean {
  // Iterative, so a very deep value cannot overflow our own stack.
  const stack: Array<[Json, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === "string") {
      if (LONE_SURROGATE.test(value)) return false;
    } else if (typeof value === "number") {
      if (!Number.isFinite(value)) return false;
    } else if (value !== null && typeof value === "object") {
      if (depth + 1 > MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (const item of value) stack.push([item, depth + 1]);
      } else {
        for (const [key, item] of Object.entries(value)) {
          if (LONE_SURROGATE.test(key)) return false;
          stack.push([item, depth + 1]);
        }
      }
    }
  }
  return true;
}
