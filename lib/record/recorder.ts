import type { Frame, Sender } from "../bus/frame.js";
import type { LogLine, LogWriter } from "./log-writer.js";
import type { RecordSink } from "../bus/record-port.js";

/**
 * The recording sink. It is fed each frame before the frame is forwarded, so the log's
 * order is the order lines were handed over (a request always before its response). Lines
 * are batched (every 2 ms, or at once past 256 KiB) and handed to the writer thread, which decides
 * `message` vs `raw`, formats and writes them.
 */
const BATCH_MS = 2;
const BATCH_BYTES = 256 * 1024;

export class Recorder implements RecordSink {
  private readonly partial = new Map<Sender, Buffer[]>();
  private queue: LogLine[] = [];
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private queuedBytes = 0;
  private lastT = 0;

  constructor(private readonly writer: LogWriter) {}

  get path(): string {
    return this.writer.path;
  }

  /** Takes a frame off the bus; pieces of a long line are joined into one entry. */
  readonly record = (f: Frame): void => {
    let bytes = f.bytes;
    const held = this.partial.get(f.from);
    if (!f.end) {
      if (held) held.push(bytes);
      else this.partial.set(f.from, [bytes]);
      return;
    }
    if (held) {
      held.push(bytes);
      bytes = Buffer.concat(held);
      this.partial.delete(f.from);
    }
    this.line(f.from, f.tMs, bytes);
  };

  /** Records one whole line (a wire line, or one the proxy composed). */
  line(from: Sender, tMs: number, bytes: Buffer, raw = false): void {
    // Hand-off order is log order: never let a time go backwards down the file.
    this.lastT = Math.max(this.lastT, tMs);
    this.queue.push(raw ? { tMs: this.lastT, from, bytes, raw } : { tMs: this.lastT, from, bytes });
    this.queuedBytes += bytes.length;
    // Lines go to the writer thread in batches: every few milliseconds, or at once when
    // much is queued. A crash loses at most what is queued, as with any writer.
    if (this.queuedBytes >= BATCH_BYTES) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.drain);
      }
    } else if (!this.timer && !this.scheduled) {
      this.timer = setTimeout(this.drain, BATCH_MS);
    }
  }

  /** Writes what is queued, then closes the log. */
  async finish(): Promise<void> {
    for (const [from, pieces] of this.partial) this.line(from, this.lastT, Buffer.concat(pieces));
    this.partial.clear();
    this.drain();
    await this.writer.finish();
  }

  private readonly drain = (): void => {
    this.scheduled = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queuedBytes = 0;
    const batch = this.queue;
    this.queue = [];
    this.writer.write(batch);
  };
}
