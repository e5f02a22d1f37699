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

export function classifyLine(line: Buffer, forceRaw = false): LineKind {
  const body = stripLineEnd(line);
  if (!forceRaw && isUtf8(body)) {
    const text = body.toString("utf8");
    let value: unknown;
    let parsed = true;
    try {
      value = JSON.parse(text);
    } catch {
      parsed = false;
    }
    if (parsed && readsBack(value)) return { kind: "message", json: trimJsonSpace(body) };
  }
  return { kind: "raw", text: utf8.decode(body) };
}

/**
 * The line minus its line end: a trailing `\n`, or `\r\n`. A `\r` that no `\n` follows is
 * no line end but a byte that was sent (a reader with universal newlines splits on it), so
 * it stays: a last line `\r` logs as `"\r"`, never as the empty line `"\n"` and `"\r\n"` log as.
 */
export function stripLineEnd(line: Buffer): Buffer {
  let end = line.length;
  if (end === 0 || line[end - 1] !== 0x0a) return line;
  end--;
  if (end > 0 && line[end - 1] === 0x0d) end--;
  return line.subarray(0, end);
}

/** One log line (with its `\n`) for a wire line. */
export function formatEntry(tMs: number, from: Sender, line: Buffer, forceRaw = false): Buffer {
  const c = classifyLine(line, forceRaw);
  const head = `{"t_ms":${tMs},"from":"${from}",`;
  if (c.kind === "message") {
    return Buffer.concat([Buffer.from(`${head}"message":`), c.json, Buffer.from("}\n")]);
  }
  return Buffer.from(`${head}"raw":${JSON.stringify(c.text)}}\n`);
}

/**
 * Whether a parsed value reads back in a strict reader (serde_json): no lone surrogate in
 * any string or key, no number past f64 (JSON.parse turns `1e400` into Infinity), and no
 * nesting deeper than MAX_DEPTH. One walk of the value, iterative (a 100 000-deep array
 * cannot overflow our stack); a line of one big string costs one native check.
 */
export function readsBack(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v === "string") {
      if (!v.isWellFormed()) return false;
    } else if (typeof v === "number") {
      if (!Number.isFinite(v)) return false;
    } else if (v !== null && typeof v === "object") {
      const level = d + 1;
      if (level > MAX_DEPTH) return false;
      if (Array.isArray(v)) {
        for (const x of v) stack.push([x, level]);
      } else {
        for (const k in v) {
          if (!k.isWellFormed()) return false;
          stack.push([(v as Record<string, unknown>)[k], level]);
        }
      }
    }
  }
  return true;
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
