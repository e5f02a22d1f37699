import { isUtf8 } from "node:buffer";
import type { Sender } from "../bus/frame.js";

/**
 * How a wire line is logged (facts-proxy-core §3.3): as `message`, its JSON text verbatim,
 * when it is one JSON value that reads back; otherwise as `raw` text. The rules keep a
 * line from forging fields (`1,"raw":"x"`) and keep every log readable by strict readers.
 */
export type LineKind = { kind: "message"; json: Buffer } | { kind: "raw"; text: string };

/** serde_json's recursion limit leaves 126 levels for the message inside the entry. */
const MAX_DEPTH = 126;
const utf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const SURROGATE_ESCAPE = /\\u[dD][89abcdefABCDEF][0-9a-fA-F]{2}/;
// A number that might overflow f64: an exponent of 3+ digits, or 309+ integer digits.
const HUGE_NUMBER = /[eE][+-]?\d{3}|\d{309}/;

export function classifyLine(line: Buffer): LineKind {
  const body = stripLineEnd(line);
  if (isUtf8(body)) {
    const text = body.toString("utf8");
    let value: unknown;
    let parsed = true;
    try {
      value = JSON.parse(text);
    } catch {
      parsed = false;
    }
    if (parsed && readsBack(text, value)) return { kind: "message", json: trimJsonSpace(body) };
  }
  return { kind: "raw", text: utf8.decode(body) };
}

/** The line minus one trailing `\n`, then one trailing `\r`. */
export function stripLineEnd(line: Buffer): Buffer {
  let end = line.length;
  if (end > 0 && line[end - 1] === 0x0a) end--;
  if (end > 0 && line[end - 1] === 0x0d) end--;
  return line.subarray(0, end);
}

/** One log line (with its `\n`) for a wire line. */
export function formatEntry(tMs: number, from: Sender, line: Buffer): Buffer {
  const c = classifyLine(line);
  const head = `{"t_ms":${tMs},"from":"${from}",`;
  if (c.kind === "message") {
    return Buffer.concat([Buffer.from(`${head}"message":`), c.json, Buffer.from("}\n")]);
  }
  return Buffer.from(`${head}"raw":${JSON.stringify(c.text)}}\n`);
}

/** Cheap text checks first; the tree is walked only when a rule might bite. */
function readsBack(text: string, value: unknown): boolean {
  if (SURROGATE_ESCAPE.test(text) && !wellFormed(value)) return false;
  if (HUGE_NUMBER.test(text) && !finite(value)) return false;
  if (bracketCount(text) > MAX_DEPTH && depth(value) > MAX_DEPTH) return false;
  return true;
}

function wellFormed(v: unknown): boolean {
  if (typeof v === "string") return v.isWellFormed();
  if (Array.isArray(v)) return v.every(wellFormed);
  if (v !== null && typeof v === "object") {
    return Object.entries(v).every(([k, x]) => k.isWellFormed() && wellFormed(x));
  }
  return true;
}

function finite(v: unknown): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(finite);
  if (v !== null && typeof v === "object") return Object.values(v).every(finite);
  return true;
}

function bracketCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) n++;
  }
  return n;
}

function depth(v: unknown): number {
  // Iterative, so a 100 000-deep array cannot overflow our own stack.
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (x !== null && typeof x === "object") {
      const level = d + 1;
      if (level > max) max = level;
      for (const child of Array.isArray(x) ? x : Object.values(x)) stack.push([child, level]);
    }
  }
  return max;
}

function isJsonSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

function trimJsonSpace(b: Buffer): Buffer {
  let s = 0;
  let e = b.length;
  while (s < e && isJsonSpace(b[s])) s++;
  while (e > s && isJsonSpace(b[e - 1])) e--;
  return b.subarray(s, e);
}
