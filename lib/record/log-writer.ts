import { closeSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { Sender } from "../bus/frame.js";
import { makeDirs } from "../util/make-dirs.js";
import { osErrorText } from "../util/os-errors.js";
import { ProxyError } from "../util/proxy-error.js";
import { createNew } from "../util/safe-open.js";
import { ByteRing } from "./byte-ring.js";
import { HandOverMemory, LINES, PIECE, type HandOverLine } from "./hand-over.js";
import type { FromWriter, ToWriter } from "./record-messages.js";

/** The memory shared with the writer thread for handing lines over (touched once, then reused). */
const RING_BYTES = 8 * 1024 * 1024;

export interface LogWriterOptions {
  /** Told once when recording stops early (a full disk, a lost file). */
  onStopped?: (message: string) => void;
}

/**
 * A line to log: its bytes in the pieces they were read in; `raw` to log it as `raw` text
 * even if it is JSON (the proxy refused it as unreadable); `continued` when it ends a long
 * line whose earlier pieces went ahead through `piece()`.
 */
export type LogLine = HandOverLine;

/**
 * A session log on disk. Creating it is synchronous (the file exists, exclusively ours,
 * before the server starts, or nothing is left behind). The header line is written with
 * the first entries, so it can say which protocol era the session speaks once the host's
 * first request has told (protocol-era.ts); a session that logs nothing still gets its header
 * when it finishes. Entries are formatted and written by a writer thread, so forwarding
 * never waits for the disk or for JSON parsing, and a crash loses at most the lines still
 * queued. A write failure stops recording, never the session.
 */
export class LogWriter {
  private readonly worker: Worker;
  private readonly ring = new ByteRing(RING_BYTES);
  private readonly shared = new HandOverMemory(this.ring.shared);
  private stopped = false;
  private finished: Promise<void> | undefined;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    header: object,
    private readonly options: LogWriterOptions,
  ) {
    this.worker = new Worker(new URL("./record-worker.js", import.meta.url), {
      workerData: { fd, path, ring: this.ring.shared, released: this.ring.released },
    });
    this.worker.on("message", (m: FromWriter) => {
      if (m.kind === "stopped") this.stop(m.message);
    });
    this.worker.on("error", (err) => this.stop(`the recorder thread failed; ${path} may be incomplete: ${err.message}`));
    // The thread writes it before the first entries, once it knows the era.
    this.worker.postMessage({ kind: "header", header } satisfies ToWriter);
  }

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

  /** Hands a batch of wire lines to the writer thread (copied once, into the shared ring). */
  write(lines: readonly LogLine[]): void {
    if (this.stopped || this.finished || lines.length === 0) return;
    this.handOver(LINES, lines);
  }

  /**
   * Hands the next pieces of a long line from `from` to the writer thread before the line
   * ends, so the proxy never holds a long line whole; its last bytes follow in a batch as a
   * `continued` line. Everything written before must already have gone (`write`).
   */
  piece(from: Sender, pieces: readonly Buffer[]): void {
    if (this.stopped || this.finished) return;
    this.handOver(PIECE, [{ tMs: 0, from, parts: pieces }]);
  }

  /**
   * Lays the lines out in the ring and posts where; when the writer thread is so far behind
   * that the ring is full, in a buffer of their own, transferred.
   */
  private handOver(kind: number, lines: readonly HandOverLine[]): void {
    let bytes = 0;
    for (const l of lines) for (const p of l.parts) bytes += p.length;
    const size = HandOverMemory.size(lines.length, bytes);
    const at = this.ring.reserve(size);
    if (at >= 0) {
      this.shared.fill(at, kind, lines);
      this.worker.postMessage(at);
    } else {
      const own = new HandOverMemory(new ArrayBuffer(size));
      own.fill(0, kind, lines);
      this.worker.postMessage(own.buffer, [own.buffer as ArrayBuffer]);
    }
  }

  /** Writes out everything handed over, then closes the file. */
  finish(): Promise<void> {
    if (this.finished) return this.finished;
    this.finished = new Promise((resolve) => {
      const done = () => {
        this.closeFile();
        resolve();
      };
      this.worker.once("exit", done);
      this.worker.on("message", (m: FromWriter) => {
        if (m.kind === "drained") void this.worker.terminate().then(done, done);
      });
      this.worker.postMessage({ kind: "end" } satisfies ToWriter);
    });
    return this.finished;
  }

  /** Removes the log: the proxy failed before the session began (exit 125). */
  discard(): void {
    this.stopped = true;
    void this.worker.terminate();
    this.closeFile();
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to leave behind either way.
    }
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
    this.options.onStopped?.(message);
  }
}
