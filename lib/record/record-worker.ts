/**
 * The recorder's writer thread, one for every log of the process (writer-thread.ts). The
 * proxy's main thread only copies lines into each log's shared ring (line-ring.ts);
 * deciding `message` vs `raw`, formatting the entries and writing them happen here, on the
 * other core, so recording does not slow forwarding. The thread wakes every BATCH_MS by
 * itself (a proxy wakes it only when it falls far behind), writes what came meanwhile into
 * each log with one system call (entry-out.ts), and gives the rings' room back. A long
 * line's pieces go to a spill file until it ends (spill.ts). After a quiet spell it sleeps
 * until the next line, so idle sessions cost nothing; a listener's many sessions share it,
 * where a thread each cost about 11 MiB a session (docs/listen.md).
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
import { RingReader, WriterSignal } from "./line-ring.js";
import type { FromWriter, NewLog, ToWriter } from "./record-messages.js";
import { Spill } from "./spill.js";

/** How long lines may wait in the ring before they are written. */
const BATCH_MS = 10;
/** Naps with nothing to write before the thread sleeps until the next line (about a second). */
const IDLE_NAPS = 5;
/** What must have come in while a batch was written for the next to be taken without a nap. */
const BUSY_BYTES = 64 * 1024;
/** Room given back to the proxy at least this often while a long backlog is written. */
const RELEASE_BYTES = 256 * 1024;

const { signal, logs } = workerData as { signal: SharedArrayBuffer; logs: MessagePort };
const wakes = new WriterSignal(signal);

function tell(m: FromWriter): void {
  parentPort!.postMessage(m);
}

/** One log the thread writes: its ring, its file, its messages. */
class LogJob {
  readonly ring: RingReader;
  private readonly out: EntryOut;
  private readonly heads = new EntryHeads();
  private stopped = false;
  /** The header still to write, before the first entries. */
  private header: object | undefined;
  /** Each sender's long line in progress, held on disk. */
  private readonly spills = new Map<Sender, Spill>();
  private readonly id: number;
  private readonly path: string;
  private readonly port: MessagePort;
  /** The ring's tail when it was last read. */
  seen = 0;
  /** Let go: the thread writes no more of it. */
  done = false;

  constructor(log: NewLog) {
    this.id = log.id;
    this.path = log.path;
    this.port = log.port;
    this.ring = new RingReader(log.records, log.control);
    this.out = new EntryOut(log.fd);
  }

  private stop(err: unknown): void {
    this.stopped = true;
    this.out.drop();
    tell({ kind: "stopped", id: this.id, message: `recording stopped: writing ${this.path}: ${errorText(err)}` });
  }

  /** The header line, with the era the host's first lines settled (protocol-era.ts). */
  private writeHeader(clientLines: Buffer[]): void {
    if (!this.header) return;
    const era = new EraDetector();
    for (const l of clientLines) era.observe(peek(l));
    const info = era.info;
    const extra = info ? { era: info.era, ...(info.protocolVersion ? { protocol_version: info.protocolVersion } : {}) } : {};
    this.out.bytes(Buffer.from(`${JSON.stringify({ ...this.header, ...extra })}\n`));
    this.header = undefined;
  }

  /** One whole line's entry: read straight from its bytes when it is plain JSON, else by the full rules. */
  private writeEntry(mem: Records, at: number, forceRaw: boolean): void {
    const tMs = mem.tMs(at);
    const from = mem.from(at);
    if (!forceRaw) {
      const body = mem.body(at);
      const json = plainMessage(body);
      if (json) {
        this.out.bytes(this.heads.of(tMs, from));
        // The ring's room is given back only after the next flush: the line may be written from it.
        this.out.lying(json.start === 0 && json.end === body.length ? body : body.subarray(json.start, json.end));
        this.out.entryEnd();
        return;
      }
    }
    this.out.bytes(formatEntry(tMs, from, mem.line(at), forceRaw));
  }

  private spillOf(from: Sender): Spill {
    let s = this.spills.get(from);
    if (!s) this.spills.set(from, (s = new Spill(this.path, from)));
    return s;
  }

  /** One record: a whole line's entry, or the next piece of a long line. */
  private take(mem: Records, at: number): void {
    const from = mem.from(at);
    const flags = mem.flags(at);
    if (flags & PIECE) {
      this.spillOf(from).take(mem.line(at));
      return;
    }
    const spill = flags & CONTINUED ? this.spills.get(from) : undefined;
    if (spill?.holding) {
      spill.take(mem.line(at));
      spill.writeEntry(this.out, mem.tMs(at), (flags & RAW) !== 0);
    } else {
      this.writeEntry(mem, at, (flags & RAW) !== 0);
    }
  }

  /**
   * The header goes just before the first entry, with the era read from the host's whole
   * lines among the records at hand (a long line's pieces never count).
   */
  private headerBefore(mem: Records, first: number, next: (at: number) => number): void {
    const client: Buffer[] = [];
    let entries = false;
    for (let at = first; at >= 0; at = next(at)) {
      const flags = mem.flags(at);
      if (flags & PIECE) continue;
      entries = true;
      if ((flags & 3) === 0 /* client */ && !(flags & CONTINUED)) client.push(mem.line(at));
    }
    if (entries) this.writeHeader(client);
  }

  /** The ring's records up to `until`, written; their room is given back as they are. */
  writeRing(until: number): boolean {
    const ring = this.ring;
    let pos = ring.start;
    let at = ring.record(pos, until);
    if (at < 0) return false;
    const mem = ring.mem;
    try {
      if (this.header && !this.stopped) {
        this.headerBefore(mem, at, (a) => ring.record(ring.after(a), until));
      }
      let since = 0;
      while (at >= 0) {
        if (!this.stopped) this.take(mem, at);
        since += recordSize(mem.length(at));
        pos = ring.after(at);
        at = ring.record(pos, until);
        if (since >= RELEASE_BYTES) {
          if (!this.stopped) this.out.flush();
          ring.release(pos);
          since = 0;
        }
      }
      if (!this.stopped) this.out.flush();
    } catch (err) {
      this.stop(err);
      // What is left is not written: recording has stopped.
      for (; at >= 0; at = ring.record(pos, until)) pos = ring.after(at);
    }
    ring.release(pos);
    return true;
  }

  /** A buffer of records the ring had no room for. */
  private writeBuffer(buffer: ArrayBuffer): void {
    if (this.stopped || buffer.byteLength === 0) return;
    const mem = new Records(buffer);
    const next = (at: number) => {
      const n = at + recordSize(mem.length(at));
      return n < buffer.byteLength ? n : -1;
    };
    try {
      if (this.header) this.headerBefore(mem, 0, next);
      for (let at = 0; at >= 0; at = next(at)) this.take(mem, at);
      this.out.flush();
    } catch (err) {
      this.stop(err);
    }
  }

  /**
   * Handles the messages waiting, each after the lines handed over before it: "end" once
   * the proxy said the log is done, "some" when there were any.
   */
  readMessages(): "none" | "some" | "end" {
    let any: "none" | "some" = "none";
    for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) {
      const msg = m.message as ToWriter;
      if (msg.kind === "drop") {
        this.stopped = true;
        this.out.drop();
        return "end";
      }
      this.writeRing(msg.tail);
      any = "some";
      if (msg.kind === "header") {
        this.header = msg.header;
      } else if (msg.kind === "records") {
        this.writeBuffer(msg.buffer);
      } else {
        if (!this.stopped) {
          try {
            this.writeHeader([]);
            this.out.flush();
          } catch (err) {
            this.stop(err);
          }
        }
        return "end";
      }
    }
    return any;
  }

  /** Lets the log go: everything handed over is written; the main thread, which opened the file, closes it. */
  finish(): void {
    this.done = true;
    for (const s of this.spills.values()) s.close();
    this.port.close();
    tell({ kind: "drained", id: this.id });
  }
}

/** The logs being written, in the order they came. */
let jobs: LogJob[] = [];

/** Takes on the logs announced since the last look. */
function adopt(): boolean {
  let any = false;
  for (let m = receiveMessageOnPort(logs); m !== undefined; m = receiveMessageOnPort(logs)) {
    jobs.push(new LogJob(m.message as NewLog));
    any = true;
  }
  return any;
}

/** One round over every log: whether to go on at once (messages, or much came meanwhile) and whether anything was written. */
function round(): { again: boolean; wrote: boolean } {
  let again = adopt();
  let wrote = false;
  let ended = false;
  for (const job of jobs) {
    // The tail first. A message sent before the proxy moved the tail this far is surely
    // among those read next; after a message, the ring is read up to where it says only,
    // and the next round reads the tail again (this one may lie before that).
    const ring = job.ring;
    const tail = ring.tail();
    job.seen = tail;
    ring.touchAhead(tail);
    const messages = job.readMessages();
    if (messages === "end") {
      job.finish();
      ended = true;
      again = true;
    } else if (messages === "some") {
      again = true;
    } else if (job.writeRing(tail)) {
      wrote = true;
      // Much came while these were written: take it now rather than nap and have the proxy
      // pay for waking this thread.
      if (ring.distance(tail, ring.tail()) >= BUSY_BYTES) again = true;
    }
  }
  if (ended) jobs = jobs.filter((j) => !j.done);
  return { again, wrote };
}

function run(): void {
  let idle = 0;
  for (;;) {
    const { again, wrote } = round();
    if (wrote) idle = 0;
    if (again) continue;
    if (!wrote && ++idle >= IDLE_NAPS) {
      wakes.sleep(() => jobs.every((j) => j.ring.tail() === j.seen));
      idle = 0;
      continue;
    }
    wakes.nap(BATCH_MS);
  }
}

run();
