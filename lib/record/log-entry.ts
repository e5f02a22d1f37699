import { isUtf8 } from "node:buffer";
import type { Sender } from "../bus/frame.js";
import { readsBack } from "../protocol/reads-back.js";

/**
 * How a wire line is logged (docs/session-log.md, "Entries"): as `message`, its JSON text verbatim,
 * when it is one JSON value that reads back; otherwise as `raw` text. The rules keep a
 * line from forging fields (`1,"raw":"x"`) and keep every log readable by strict readers.
 */
export type LineKind = { kind: "message"; json: Buffer } | { kind: "raw"; text: string };

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
