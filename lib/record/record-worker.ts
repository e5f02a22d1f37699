/**
 * The recorder's writer thread. The proxy's main thread only hands it lines; deciding
 * `message` vs `raw` (UTF-8 check, JSON.parse), formatting the entries and writing them
 * happen here, on the other core, so recording does not slow forwarding. A batch of lines
 * is written with one system call.
 */
import { writeSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import type { Sender } from "../bus/frame.js";
import { formatEntry } from "./log-entry.js";
import type { ToWriter, FromWriter } from "./record-messages.js";

const { fd, path } = workerData as { fd: number; path: string };
let stopped = false;

function tell(m: FromWriter): void {
  parentPort!.postMessage(m);
}

function writeAll(buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

parentPort!.on("message", (m: ToWriter) => {
  if (m.kind === "raw") {
    if (stopped) return;
    try {
      writeAll(Buffer.from(m.data));
    } catch (err) {
      stopped = true;
      tell({ kind: "stopped", message: `recording stopped: writing ${path}: ${(err as Error).message}` });
    }
  } else if (m.kind === "lines") {
    if (stopped) return;
    const data = Buffer.from(m.data);
    const entries: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < m.ends.length; i++) {
      const end = m.ends[i]!;
      entries.push(formatEntry(m.times[i]!, m.froms[i] as Sender, data.subarray(start, end)));
      start = end;
    }
    try {
      writeAll(Buffer.concat(entries));
    } catch (err) {
      stopped = true;
      tell({ kind: "stopped", message: `recording stopped: writing ${path}: ${(err as Error).message}` });
    }
  } else {
    // Everything handed over is written; the main thread, which opened the file, closes it.
    tell({ kind: "drained" });
    parentPort!.close();
  }
});
