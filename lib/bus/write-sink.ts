import type { Writable } from "node:stream";
import type { Observer } from "./rx.js";
import { readOf, type Frame } from "./frame.js";
import type { Pressure } from "./pressure.js";

export interface WriteSinkOptions {
  /** Held while `writable` is full, so the source feeding this sink pauses. */
  pressure?: Pressure;
  /** End the writable when the frames complete (a child's stdin: that is its EOF). */
  endOnComplete?: boolean;
  /** Called once, on the first write failure (EPIPE and the like). */
  onWriteError?: (err: Error) => void;
}

/** Up to this many bytes, the runs of one turn are copied into one buffer to be written at once. */
const MERGED_BYTES = 1 << 20;

/**
 * A backpressured sink: writes each frame's bytes unchanged. When the writable is full it
 * holds `pressure` until `drain`. After a write failure it drops what follows instead of
 * throwing, so the sender is never blocked and an EPIPE never crashes the proxy.
 */
export class WriteSink implements Observer<Frame> {
  private failed = false;
  private holding = false;
  /**
   * Bytes waiting to go out: adjacent slices of one read, merged back into one write. The
   * first slice is kept, with where in its memory the run has grown to: the run's view is
   * made once, when it goes out, not once per line it gains.
   */
  private pending: Buffer | undefined;
  /** The pending run's memory and where in it the run ends (a Buffer's `buffer` is a getter that calls out of JavaScript: read once per run). */
  private pendingMemory: ArrayBufferLike | undefined;
  private pendingEnd = 0;
  /**
   * Or the pending run is of lines a source read (`readOf`): the read, and where in it the run
   * begins and ends, merged by where they lie without a view of each line or a call for its memory.
   */
  private pendingRead: Buffer | undefined;
  private pendingReadStart = 0;
  private pendingReadStop = 0;
  /** Earlier runs of this turn that `pending` could not be merged with (a line the proxy composed between). */
  private queued: Buffer[] = [];
  private flushScheduled = false;
  private readonly finished: Promise<void>;
  private resolveFinished!: () => void;

  constructor(
    private readonly writable: Writable,
    private readonly options: WriteSinkOptions = {},
  ) {
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
    writable.on("error", (err: Error) => this.fail(err));
    writable.on("drain", () => this.unhold());
  }

  /** Resolves once everything given was written (or writing failed). */
  get done(): Promise<void> {
    return this.finished;
  }

  next(f: Frame): void {
    const span = readOf(f);
    if (span === undefined) this.write(f.bytes);
    else this.writeRead(span.read, span.start, span.stop);
  }

  /** `write` of bytes `start`…`stop` of `read` (a line a source read, never empty). */
  private writeRead(read: Buffer, start: number, stop: number): void {
    if (this.failed) return;
    if (this.pendingRead === read && this.pendingReadStop === start) this.pendingReadStop = stop;
    else {
      if (this.pending !== undefined || this.pendingRead !== undefined) this.queued.push(this.run());
      this.pending = undefined;
      this.pendingMemory = undefined;
      this.pendingRead = read;
      this.pendingReadStart = start;
      this.pendingReadStop = stop;
    }
    this.scheduleFlush();
  }

  /**
   * Writes bytes (a frame's, or a line the proxy composed). The lines of one read are
   * slices of one buffer: adjacent ones are merged back into a single write, flushed at the
   * end of the current turn, so forwarding costs one write per read, like a bare pipe. What
   * cannot be merged (a refusal between two answers) goes out in the same flush, corked, so
   * the stream can hand the kernel all of it at once.
   */
  write(bytes: Buffer): void {
    const length = bytes.length;
    // (A writable destroyed meanwhile is told when the run goes out: `writeNow` drops it then.)
    if (this.failed || length === 0) return;
    const p = this.pending;
    if (p && this.pendingEnd === bytes.byteOffset && this.pendingMemory === bytes.buffer) {
      this.pendingEnd += length;
    } else {
      if (p !== undefined || this.pendingRead !== undefined) this.queued.push(this.run());
      this.pendingRead = undefined;
      this.pending = bytes;
      this.pendingMemory = bytes.buffer;
      this.pendingEnd = bytes.byteOffset + length;
    }
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      process.nextTick(this.flush);
    }
  }

  /** The pending run as one buffer (a view of the read it was sliced from). */
  private run(): Buffer {
    const r = this.pendingRead;
    if (r !== undefined) return this.pendingReadStart === 0 && this.pendingReadStop === r.length ? r : r.subarray(this.pendingReadStart, this.pendingReadStop);
    const p = this.pending!;
    const length = this.pendingEnd - p.byteOffset;
    return length === p.length ? p : Buffer.from(p.buffer, p.byteOffset, length);
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    const p = this.pending === undefined && this.pendingRead === undefined ? undefined : this.run();
    this.pending = undefined;
    this.pendingMemory = undefined;
    this.pendingRead = undefined;
    if (this.queued.length === 0) {
      if (p) this.writeNow(p);
      return;
    }
    const runs = this.queued;
    this.queued = [];
    if (p) runs.push(p);
    let bytes = 0;
    for (const run of runs) bytes += run.length;
    // One write of the runs copied together costs less than a stream entry and an iovec per
    // run (a refusal between two answers makes three runs); what is large is not copied.
    if (bytes <= MERGED_BYTES) {
      this.writeNow(Buffer.concat(runs, bytes));
      return;
    }
    this.writable.cork();
    for (const run of runs) this.writeNow(run);
    this.writable.uncork();
  };

  private writeNow(bytes: Buffer): void {
    if (this.failed || this.writable.destroyed) return;
    try {
      if (!this.writable.write(bytes) && !this.holding) {
        this.holding = true;
        this.options.pressure?.hold();
      }
    } catch (err) {
      this.fail(err as Error);
    }
  }

  error(): void {
    this.complete();
  }

  complete(): void {
    this.flush();
    if (this.failed || this.writable.destroyed) {
      this.resolveFinished();
      return;
    }
    if (this.options.endOnComplete) {
      this.writable.end(() => this.resolveFinished());
    } else if (this.writable.writableLength === 0) {
      this.resolveFinished();
    } else {
      this.writable.once("drain", () => this.resolveFinished());
    }
  }

  private unhold(): void {
    if (!this.holding) return;
    this.holding = false;
    this.options.pressure?.release();
  }

  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    // Nothing more will drain: let the source read (and record) on.
    this.unhold();
    this.options.onWriteError?.(err);
    this.resolveFinished();
  }
}
