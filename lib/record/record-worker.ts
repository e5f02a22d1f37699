/**
 * The recorder's writer thread. The proxy's main thread only hands it lines; deciding
 * `message` vs `raw`, formatting the entries and writing them happen here, on the other
 * core, so recording does not slow forwarding. A batch of lines is written with one system
 * call, gathered in a buffer reused for the whole session (entry-out.ts). Lines arrive in
 * memory shared with the proxy (byte-ring.ts), released as soon as they are written; a long
 * line's pieces go to a spill file until it ends (spill.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Sender } from "../bus/frame.js";
import { EraDetector, peek } from "../protocol/protocol-era.js";
import { errorText } from "../util/error-text.js";
import { ByteRing } from "./byte-ring.js";
import { EntryOut } from "./entry-out.js";
import { formatEntry, stripLineEnd } from "./log-entry.js";
import { plainMessage } from "./plain-message.js";
import { CONTINUED, HandOverMemory, PIECE, RAW } from "./hand-over.js";
import type { FromWriter, ToWriter } from "./record-messages.js";
import { Spill } from "./spill.js";

const { fd, path, ring, released } = workerData as { fd: number; path: string; ring: SharedArrayBuffer; released: Int32Array };
const shared = new HandOverMemory(ring);
const out = new EntryOut(fd);
let stopped = false;
/** The header still to write, before the first entries. */
let header: object | undefined;
/** Each sender's long line in progress, held on disk. */
const spills = new Map<Sender, Spill>();

function tell(m: FromWriter): void {
  parentPort!.postMessage(m);
}

function stop(err: unknown): void {
  stopped = true;
  out.drop();
  tell({ kind: "stopped", message: `recording stopped: writing ${path}: ${errorText(err)}` });
}

/** The header line, with the era the host's lines in this first batch settled (protocol-era.ts). */
function writeHeader(clientLines: Buffer[]): void {
  if (!header) return;
  const era = new EraDetector();
  for (const l of clientLines) era.observe(peek(l));
  const info = era.info;
  const extra = info ? { era: info.era, ...(info.protocolVersion ? { protocol_version: info.protocolVersion } : {}) } : {};
  out.bytes(Buffer.from(`${JSON.stringify({ ...header, ...extra })}\n`));
  header = undefined;
}

/** One whole line's entry: read straight from its bytes when it is plain JSON, else by the full rules. */
function writeEntry(tMs: number, from: Sender, line: Buffer, forceRaw: boolean): void {
  if (!forceRaw) {
    const body = stripLineEnd(line);
    const json = plainMessage(body);
    if (json) {
      out.text(`{"t_ms":${tMs},"from":"${from}","message":`);
      out.bytes(body.subarray(json.start, json.end));
      out.text("}\n");
      return;
    }
  }
  out.bytes(formatEntry(tMs, from, line, forceRaw));
}

function spillOf(from: Sender): Spill {
  let s = spills.get(from);
  if (!s) spills.set(from, (s = new Spill(path, from)));
  return s;
}

/** A batch of lines at `at`: each one's entry, in order, then one write. */
function writeBatch(mem: HandOverMemory, at: number): void {
  const count = mem.count(at);
  if (header) {
    // A long line: the era is read from the host's short first lines, never from it.
    const clientLines: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      if (mem.from(at, i) === "client" && !(mem.flags(at, i) & CONTINUED)) clientLines.push(mem.line(at, i));
    }
    writeHeader(clientLines);
  }
  for (let i = 0; i < count; i++) {
    const from = mem.from(at, i);
    const flags = mem.flags(at, i);
    const spill = flags & CONTINUED ? spills.get(from) : undefined;
    if (spill?.holding) {
      spill.take(mem.line(at, i));
      spill.writeEntry(out, mem.tMs(at, i), (flags & RAW) !== 0);
    } else {
      writeEntry(mem.tMs(at, i), from, mem.line(at, i), (flags & RAW) !== 0);
    }
  }
  out.flush();
}

/** Lines or a long line's pieces, from the ring (given back once written) or a buffer of their own. */
function take(mem: HandOverMemory, at: number, inRing: boolean): void {
  try {
    if (stopped) return;
    if (mem.kind(at) === PIECE) spillOf(mem.from(at, 0)).take(mem.line(at, 0));
    else writeBatch(mem, at);
  } catch (err) {
    stop(err);
  } finally {
    if (inRing) ByteRing.release(released);
  }
}

parentPort!.on("message", (m: ToWriter) => {
  if (typeof m === "number") {
    take(shared, m, true);
  } else if (m instanceof ArrayBuffer) {
    take(new HandOverMemory(m), 0, false);
  } else if (m.kind === "header") {
    header = m.header;
  } else {
    try {
      if (!stopped) {
        writeHeader([]);
        out.flush();
      }
    } catch (err) {
      stop(err);
    }
    for (const s of spills.values()) s.close();
    // Everything handed over is written; the main thread, which opened the file, closes it.
    tell({ kind: "drained" });
    parentPort!.close();
  }
});
