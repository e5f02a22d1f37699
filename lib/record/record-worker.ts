/**
 * The recorder's writer thread. The proxy's main thread only hands it lines; deciding
 * `message` vs `raw` (UTF-8 check, JSON.parse), formatting the entries and writing them
 * happen here, on the other core, so recording does not slow forwarding. A batch of lines
 * is written with one system call.
 */
import { writeSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import type { Sender } from "../bus/frame.js";
import { EraDetector, peek } from "../protocol/protocol-era.js";
import { formatEntry } from "./log-entry.js";
import type { ToWriter, FromWriter } from "./record-messages.js";
import { errorText } from "../util/error-text.js";

const { fd, path } = workerData as { fd: number; path: string };
let stopped = false;
/** The header still to write, before the first entries. */
let header: object | undefined;

function tell(m: FromWriter): void {
  parentPort!.postMessage(m);
}

function writeAll(buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

function write(parts: Buffer[]): void {
  if (stopped) return;
  try {
    writeAll(Buffer.concat(parts));
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
  } else if (m.kind === "lines") {
    if (stopped) return;
    const data = Buffer.from(m.data);
    const entries: Buffer[] = [];
    const clientLines: Buffer[] = [];
    let start = 0;
    const raw = new Set(m.raw);
    for (let i = 0; i < m.ends.length; i++) {
      const end = m.ends[i]!;
      const line = data.subarray(start, end);
      if (header && m.froms[i] === "client") clientLines.push(line);
      entries.push(formatEntry(m.times[i]!, m.froms[i] as Sender, line, raw.has(i)));
      start = end;
    }
    write([...headerLine(clientLines), ...entries]);
  } else {
    write(headerLine([]));
    // Everything handed over is written; the main thread, which opened the file, closes it.
    tell({ kind: "drained" });
    parentPort!.close();
  }
});
