import { closeSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import type { Sender } from "../bus/frame.js";
import { makeDirs } from "../util/make-dirs.js";
import { osErrorText } from "../util/os-errors.js";
import { ProxyError } from "../util/proxy-error.js";
import { createNew } from "../util/safe-open.js";
import { CONTINUED, PIECE, type Parts, RAW, Records, isOnePiece, recordSize, senderCode } from "./hand-over.js";
import { HeldRecords, type HeldRecord } from "./held-records.js";
import { LineRing } from "./line-ring.js";
import type { ToWriter } from "./record-messages.js";
import { type ThreadNews, WriterThread } from "./writer-thread.js";

/** The memory shared with the writer thread for handing lines over (touched once, then reused). */
const RING_BYTES = 8 * 1024 * 1024;


export interface LogWriterOptions {
  /** Told once when recording stops early (a full disk, a lost file). */
  onStopped?: (message: string) => void;
}

/**
 * A session log on disk. Creating it is synchronous (the file exists, exclusively ours,
 * before the server starts, or nothing is left behind). The header line is written with
 * the first entries, so it can say which protocol era the session speaks once the host's
 * first request has told (protocol-era.ts); a session that logs nothing still gets its header
 * when it finishes. Entries are formatted and written by a writer thread, so forwarding
 * never waits for the disk or for JSON parsing, and a crash loses at most the lines still
 * queued. A write failure stops recording, never the session. Every log of the process is
 * written by one thread (writer-thread.ts).
 */
export class LogWriter {
  private readonly thread = WriterThread.shared();
  private readonly ring = new LineRing(RING_BYTES, this.thread.signal);
  private readonly port: MessagePort;
  private readonly id: number;
  /** The thread writes no more of this log (it let it go, or it failed): the file is closed. */
  private gone = false;
  /** Told when the thread lets the log go. */
  private letGo: (() => void) | undefined;
  /** Records the ring had no room for; while any wait, every record joins them (order). */
  private readonly held = new HeldRecords({
    append: (r) => this.ring.append(r.tMs, r.flags, r.parts, r.length),
    sendOwn: (records) => this.sendOwn(records),
    // The ring is full: the writer should be at work giving room back, not napping.
    full: () => this.ring.wakeSoon(),
  });
  private stopped = false;
  private finished: Promise<void> | undefined;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    header: object,
    private readonly options: LogWriterOptions,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.id = this.thread.add({ fd, path, records: this.ring.records, control: this.ring.control, port: port2 }, this.hear);
    // The thread writes it before the first entries, once it knows the era.
    this.tell({ kind: "header", header, tail: 0 });
  }

  private readonly hear = (news: ThreadNews): void => {
    if (news.kind === "stopped") {
      this.stop(news.message);
      return;
    }
    if (news.kind === "failed") this.stop(`the recorder thread failed; ${this.path} may be incomplete: ${news.message}`);
    if (news.kind === "drained") this.thread.release(this.id);
    // The thread touches the file no more: only now may its descriptor be closed (and reused).
    this.gone = true;
    this.port.close();
    this.closeFile();
    this.letGo?.();
  };

  /**
   * Creates `<dir>/<session>.jsonl` (never overwriting, never through a link; 0600, in
   * folders made 0700: the log holds every call and result) and writes the header line.
   */
  static create(dir: string, session: string, header: object, options: LogWriterOptions = {}): LogWriter {
    try {
      makeDirs(dir);
    } catch (err) {
      throw new ProxyError(`creating ${dir}: ${osErrorText(err)}`);
    }
    const path = join(dir, `${session}.jsonl`);
    let fd: number;
    try {
      fd = createNew(path);
    } catch (err) {
      throw new ProxyError(`creating ${path}: ${osErrorText(err)}`);
    }
    try {
      JSON.stringify(header); // a header that cannot be written fails now, not later
    } catch (err) {
      closeSync(fd);
      unlinkSync(path);
      throw new ProxyError(`writing ${path}`, err);
    }
    return new LogWriter(path, fd, header, options);
  }

  /**
   * Hands one line to the writer thread (copied once, into the shared ring): its bytes in
   * the pieces they were read in; `raw` to log it as `raw` text even if it is JSON (the proxy
   * refused it as unreadable); `continued` when it ends a long line whose earlier pieces
   * went ahead through `piece()`.
   */
  line(from: Sender, tMs: number, parts: Parts, raw = false, continued = false): void {
    if (this.stopped || this.finished) return;
    this.handOver(tMs, senderCode(from) | (raw ? RAW : 0) | (continued ? CONTINUED : 0), parts);
  }

  /**
   * Hands the next pieces of a long line from `from` to the writer thread before the line
   * ends, so the proxy never holds a long line whole; its last bytes follow as a
   * `continued` line.
   */
  piece(from: Sender, pieces: readonly Buffer[]): void {
    if (this.stopped || this.finished) return;
    this.handOver(0, senderCode(from) | PIECE, pieces);
  }

  private handOver(tMs: number, flags: number, parts: Parts): void {
    let length: number;
    if (isOnePiece(parts)) length = parts.length;
    else {
      length = 0;
      for (const p of parts) length += p.length;
    }
    if (!this.held.waiting && this.ring.append(tMs, flags, parts, length)) return;
    // The writer is behind: the record waits for room (the bytes are the caller's to keep:
    // frames are never written to again), or in the end goes in a buffer of its own.
    this.held.add({ tMs, flags, parts, length });
  }

  /** Records the ring had no room for, in a buffer of their own. */
  private sendOwn(waiting: HeldRecord[]): void {
    if (this.stopped) return;
    let size = 0;
    for (const o of waiting) size += recordSize(o.length);
    const own = new Records(new ArrayBuffer(size));
    let at = 0;
    for (const o of waiting) {
      own.put(at, o.tMs, o.flags, o.parts, o.length);
      at += recordSize(o.length);
    }
    this.tell({ kind: "records", buffer: own.buffer as ArrayBuffer, tail: this.ring.end }, [own.buffer as ArrayBuffer]);
  }

  private tell(m: ToWriter, transfer: ArrayBuffer[] = []): void {
    this.port.postMessage(m, transfer);
    this.ring.wake();
  }

  /** Writes out everything handed over, then closes the file. */
  finish(): Promise<void> {
    if (this.finished) return this.finished;
    this.finished = new Promise((resolve) => {
      if (this.gone) return resolve();
      this.letGo = resolve;
      this.held.giveUp();
      this.tell({ kind: "end", tail: this.ring.end });
    });
    return this.finished;
  }

  /** Removes the log: the proxy failed before the session began (exit 125). */
  discard(): void {
    this.stopped = true;
    this.held.drop();
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to leave behind either way.
    }
    // The thread drops it unwritten, and the file is closed once it has.
    if (!this.gone) this.tell({ kind: "drop", tail: this.ring.end });
  }

  private fileOpen = true;
  private closeFile(): void {
    if (!this.fileOpen) return;
    this.fileOpen = false;
    try {
      closeSync(this.fd);
    } catch {
      // Closing cannot lose what was already written.
    }
  }

  private stop(message: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.held.drop();
    this.options.onStopped?.(message);
  }
}
