/**
 * The recorder's writer thread. The proxy's main thread only hands it lines; deciding
 * `message` vs `raw` (UTF-8 check, JSON.parse), formatting the entries and writing them
 * happen here, on the other core, so recording does not slow forwarding. A batch of lines
 * is written with one system call.
 */
import { writeSync, writevSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import type { Sender } from "../bus/frame.js";
import { EraDetector, peek } from "../protocol/protocol-era.js";
import { formatEntry } from "./log-entry.js";
import { formatPieceEntry } from "./piece-entry.js";
import type { ToWriter, FromWriter } from "./record-messages.js";
import { errorText } from "../util/error-text.js";

const { fd, path } = workerData as { fd: number; path: string };
let stopped = false;
/** The header still to write, before the first entries. */
let header: object | undefined;
/** The pieces of each sender's long line so far, joined only by the file. */
const pieces = new Map<string, Buffer[]>();

function tell(m: FromWriter): void {
  parentPort!.postMessage(m);
}

function writeAll(buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

/** Writes buffers in order with as few system calls as the kernel allows, never joining them. */
function writeAllVectored(parts: Buffer[]): void {
  let rest = parts;
  while (rest.length > 0) {
    let n = writevSync(fd, rest);
    let i = 0;
    while (i < rest.length && n >= rest[i]!.length) n -= rest[i++]!.length;
    rest = rest.slice(i);
    if (n > 0) rest[0] = rest[0]!.subarray(n);
  }
}

/**
 * Writes entries in order: joined into one buffer, or, when the batch holds a long line,
 * as they are, so no long line is ever copied whole.
 */
function write(parts: Buffer[], holdsLongLine = false): void {
  if (stopped) return;
  try {
    if (!holdsLongLine) writeAll(Buffer.concat(parts));
    else writeAllVectored(parts);
  } catch (err) {
    stopped = true;
    tell({ kind: "stopped", message: `recording stopped: writing ${path}: ${errorText(err)}` });
  }
}

/** The header line, with the era the host's lines in this first batch settled (protocol-era.ts). */
function headerLine(clientLines: Buffer[]): Buffer[] {
  if (!header) return [];
  const era = new EraDetector();
  for (const l of clientLines) era.observe(peek(l));
  const info = era.info;
  const extra = info ? { era: info.era, ...(info.protocolVersion ? { protocol_version: info.protocolVersion } : {}) } : {};
  const line = Buffer.from(`${JSON.stringify({ ...header, ...extra })}\n`);
  header = undefined;
  return [line];
}

parentPort!.on("message", (m: ToWriter) => {
  if (m.kind === "header") {
    header = m.header;
  } else if (m.kind === "piece") {
    if (stopped) return;
    const held = pieces.get(m.from);
    if (held) held.push(Buffer.from(m.data));
    else pieces.set(m.from, [Buffer.from(m.data)]);
  } else if (m.kind === "lines") {
    if (stopped) return;
    const data = Buffer.from(m.data);
    const entries: Buffer[] = [];
    const clientLines: Buffer[] = [];
    let holdsLongLine = false;
    let start = 0;
    const raw = new Set(m.raw);
    const continued = new Set(m.continued);
    for (let i = 0; i < m.ends.length; i++) {
      const end = m.ends[i]!;
      const line = data.subarray(start, end);
      const from = m.froms[i] as Sender;
      const earlier = continued.has(i) ? pieces.get(from) : undefined;
      if (earlier) {
        // A long line: the era is read from the host's short first lines, never from it.
        pieces.delete(from);
        entries.push(...formatPieceEntry(m.times[i]!, from, [...earlier, line], raw.has(i)));
        holdsLongLine = true;
      } else {
        if (header && from === "client") clientLines.push(line);
        entries.push(formatEntry(m.times[i]!, from, line, raw.has(i)));
      }
      start = end;
    }
    write([...headerLine(clientLines), ...entries], holdsLongLine);
  } else {
    write(headerLine([]));
    // Everything handed over is written; the main thread, which opened the file, closes it.
    tell({ kind: "drained" });
    parentPort!.close();
  }
});
