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
  try {
    return JSON.parse(content) as Json;
  } catch {
    return trimWhiteSpace(content);
  }
}

/** `text` without any `"` at either end, however many (Rust's `trim_matches('"')`). */
export function trimQuotes(text: string): string {
  return text.replace(/^"+|"+$/g, "");
}
