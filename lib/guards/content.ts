/**
 * A tool result's content as the rules read it: parsed as JSON, or,
 * when it is not JSON, its text trimmed and taken as a JSON string. τ²-bench returns plain
 * strings unquoted (`find_user_id_by_email` answers `user_7`), records as JSON objects.
 *
 * Trimming strips Unicode White_Space, as Rust's `str::trim` does, so a rule reads a result
 * the same as other implementations of these guards and a decision reproduces across them:
 * JavaScript's `trim` would also strip U+FEFF and keep U+0085.
 */
import type { Json } from "../trace/json.js";

const SPACE = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");

export function trimWhiteSpace(text: string): string {
  return text.replace(EDGES, "");
}

export function parseContent(content: string): Json {
  // Most results that are not JSON (plain ids, prose, nothing) show it at their first
  // character: answer those without the cost of a parse that throws.
  if (!mayBeJson(content)) return trimWhiteSpace(content);
  try {
    return JSON.parse(content) as Json;
  } catch {
    return trimWhiteSpace(content);
  }
}

/** Whether `text` may be JSON: its first character after JSON's white space can begin a JSON value. */
function mayBeJson(text: string): boolean {
  let i = 0;
  let c = text.charCodeAt(0);
  while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++i);
  return c === 0x7b /* { */ || c === 0x5b /* [ */ || c === 0x22 /* " */ || c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39) || c === 0x74 /* t */ || c === 0x66 /* f */ || c === 0x6e /* n */;
}

/** `text` without any `"` at either end, however many (Rust's `trim_matches('"')`). */
export function trimQuotes(text: string): string {
  return text.replace(/^"+|"+$/g, "");
}
