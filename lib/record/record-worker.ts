/**
 * The recorder's writer thread. The proxy's main thread only copies lines into the shared
 * ring (line-ring.ts); deciding `message` vs `raw`, formatting the entries and writing them
 * happen here, on the other core, so recording does not slow forwarding. The thread wakes
 * every BATCH_MS by itself (the proxy wakes it only when it falls far behind), writes what
 * came meanwhile with one system call (entry-out.ts), and gives the ring's room back. A
 * long line's pieces go to a spill file until it ends (spill.ts). After a quiet spell it
 * sleeps until the next line, so an idle session costs nothing.
 *
 * The loop blocks in `Atomics.wait`, so messages are read with `receiveMessageOnPort`.
 */
import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import type { Sender } from "../bus/frame.js";
import { EraDetector, peek } from "../protocol/protocol-era.js";
import { errorText } from "../util/error-text.js";
import { EntryOut } from "./entry-out.js";
import { EntryHeads } from "./entry-head.js";
import { formatEntry } from "./log-entry.js";
import { plainMessage } from "./plain-message.js";
import { CONTINUED, PIECE, RAW, Records, recordSize } from "./hand-over.js";
import { RingReader } from "./line-ring.js";
import type { FromWriter, ToWriter } from "./record-messages.js";
import { Spill } from "./spill.js";

/** How long lines may wait in the ring before they are written. */
const BATCH_MS = 10;
/** Naps with nothing to write before the thread sleeps until the next line (about a second). */
const IDLE_NAPS = 5;
/** What must have come in while a batch was written for the next to be taken without a nap. */
const BUSY_BYTES = 64 * 1024;
/** Room given back to the proxy at least this often while a long backlog is written. */
const RELEASE_BYTES = 256 * 1024;

const { fd, path, records, control, port } = workerData as {
  fd: number;
  path: string;
  records: SharedArrayBuffer;
  control: SharedArrayBuffer;
  port: MessagePort;
};
const ring = new RingReader(records, control);
const out = new EntryOut(fd);
const heads = new EntryHeads();
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

/** The header line, with the era the host's first lines settled (protocol-era.ts). */
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
function writeEntry(mem: Records, at: number, forceRaw: boolean): void {
  const tMs = mem.tMs(at);
  const from = mem.from(at);
  if (!forceRaw) {
    const body = mem.body(at);
    const json = plainMessage(body);
    if (json) {
      out.bytes(heads.of(tMs, from));
      out.bytes(json.start === 0 && json.end === body.length ? body : body.subarray(json.start, json.end));
      out.entryEnd();
      return;
    }
  }
  out.bytes(formatEntry(tMs, from, mem.line(at), forceRaw));
}

function spillOf(from: Sender): Spill {
  let s = spills.get(from);
  if (!s) spills.set(from, (s = new Spill(path, from)));
  return s;
}

/** One record: a whole line's entry, or the next piece of a long line. */
function take(mem: Records, at: number): void {
  const from = mem.from(at);
  const flags = mem.flags(at);
  if (flags & PIECE) {
    spillOf(from).take(mem.line(at));
    return;
  }
  const spill = flags & CONTINUED ? spills.get(from) : undefined;
  if (spill?.holding) {
    spill.take(mem.line(at));
    spill.writeEntry(out, mem.tMs(at), (flags & RAW) !== 0);
  } else {
    writeEntry(mem, at, (flags & RAW) !== 0);
  }
}

/**
 * The header goes just before the first entry, with the era read from the host's whole
 * lines among the records at hand (a long line's pieces never count).
 */
function headerBefore(mem: Records, first: number, next: (at: number) => number): void {
  const client: Buffer[] = [];
  let entries = false;
  for (let at = first; at >= 0; at = next(at)) {
    const flags = mem.flags(at);
    if (flags & PIECE) continue;
    entries = true;
    if ((flags & 3) === 0 /* client */ && !(flags & CONTINUED)) client.push(mem.line(at));
  }
  if (entries) writeHeader(client);
}

/** The ring's records up to `until`, written; their room is given back as they are. */
function writeRing(until: number): boolean {
  let pos = ring.start;
  let at = ring.record(pos, until);
  if (at < 0) return false;
  const mem = ring.mem;
  try {
    if (header && !stopped) {
      headerBefore(mem, at, (a) => ring.record(ring.after(a), until));
    }
    let since = 0;
    while (at >= 0) {
      if (!stopped) take(mem, at);
      since += recordSize(mem.length(at));
      pos = ring.after(at);
      at = ring.record(pos, until);
      if (since >= RELEASE_BYTES) {
        if (!stopped) out.flush();
        ring.release(pos);
        since = 0;
      }
    }
    if (!stopped) out.flush();
  } catch (err) {
    stop(err);
    // What is left is not written: recording has stopped.
    for (; at >= 0; at = ring.record(pos, until)) pos = ring.after(at);
  }
  ring.release(pos);
  return true;
}

/** A buffer of records the ring had no room for. */
function writeBuffer(buffer: ArrayBuffer): void {
  if (stopped || buffer.byteLength === 0) return;
  const mem = new Records(buffer);
  const next = (at: number) => {
    const n = at + recordSize(mem.length(at));
    return n < buffer.byteLength ? n : -1;
  };
  try {
    if (header) headerBefore(mem, 0, next);
    for (let at = 0; at >= 0; at = next(at)) take(mem, at);
    out.flush();
  } catch (err) {
    stop(err);
  }
}

/**
 * Handles the messages waiting, each after the lines handed over before it: "end" once
 * the proxy said the session ended, "some" when there were any.
 */
function readMessages(): "none" | "some" | "end" {
  let any: "none" | "some" = "none";
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
    const msg = m.message as ToWriter;
    writeRing(msg.tail);
    any = "some";
    if (msg.kind === "header") {
      header = msg.header;
    } else if (msg.kind === "records") {
      writeBuffer(msg.buffer);
    } else {
      if (!stopped) {
        try {
          writeHeader([]);
          out.flush();
        } catch (err) {
          stop(err);
        }
      }
      return "end";
    }
  }
  return any;
}

function run(): void {
  let idle = 0;
  for (;;) {
    // The tail first. A message sent before the proxy moved the tail this far is surely
    // among those read next; after a message, the ring is read up to where it says only,
    // and the loop reads the tail again (this one may lie before that).
    const tail = ring.tail();
    ring.touchAhead(tail);
    const messages = readMessages();
    if (messages === "end") break;
    if (messages === "some") continue;
    if (writeRing(tail)) {
      idle = 0;
      // Much came while these were written: take it now rather than nap and have the proxy
      // pay for waking this thread.
      if (ring.distance(tail, ring.tail()) >= BUSY_BYTES) continue;
    } else if (++idle >= IDLE_NAPS) {
      ring.sleep(tail);
      idle = 0;
      continue;
    }
    ring.nap(BATCH_MS);
  }
  for (const s of spills.values()) s.close();
  // Everything handed over is written; the main thread, which opened the file, closes it.
  tell({ kind: "drained" });
  port.close();
}

run();
