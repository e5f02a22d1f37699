import type { Frame, Sender } from "../bus/frame.js";
import type { LogLine, LogWriter } from "./log-writer.js";
import type { RecordSink } from "../bus/record-port.js";

/**
 * The recording sink. It is fed each frame before the frame is forwarded, so the log's
 * order is the order lines were handed over (a request always before its response). Lines
 * are batched (every 10 ms, or at once past 256 KiB) and handed to the writer thread, which decides
 * `message` vs `raw`, formats and writes them.
 */
const BATCH_MS = 10;
const BATCH_BYTES = 256 * 1024;
/**
 * A line still arriving goes to the writer thread in pieces of about this size, so a line of
 * many megabytes is never held (or copied) whole on the forwarding thread.
 */
const PIECE_BYTES = 1024 * 1024;

/** A line still arriving from one sender: the pieces not yet handed over. */
interface Arriving {
  pieces: Buffer[];
  bytes: number;
  /** Whether earlier pieces already went to the writer thread. */
  sent: boolean;
}

export class Recorder implements RecordSink {
  private readonly partial = new Map<Sender, Arriving>();
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
    const held = this.partial.get(f.from);
    if (!f.end) {
      const arriving = held ?? { pieces: [], bytes: 0, sent: false };
      if (!held) this.partial.set(f.from, arriving);
      arriving.pieces.push(f.bytes);
      arriving.bytes += f.bytes.length;
      if (arriving.bytes >= PIECE_BYTES) {
        this.drain(); // the lines recorded before it go first
        this.writer.piece(f.from, arriving.pieces);
        arriving.pieces = [];
        arriving.bytes = 0;
        arriving.sent = true;
      }
      return;
    }
    if (!held) {
      this.push(f.from, f.tMs, [f.bytes], false, false);
      return;
    }
    this.partial.delete(f.from);
    held.pieces.push(f.bytes);
    // Not joined here: the pieces are copied once, straight into the hand-over.
    this.push(f.from, f.tMs, held.pieces, false, held.sent);
  };

  /** Records one whole line (a wire line, or one the proxy composed). */
  line(from: Sender, tMs: number, bytes: Buffer, raw = false): void {
    this.push(from, tMs, [bytes], raw, false);
  }

  private push(from: Sender, tMs: number, parts: readonly Buffer[], raw: boolean, continued: boolean): void {
    // Hand-off order is log order: never let a time go backwards down the file.
    this.lastT = Math.max(this.lastT, tMs);
    const line: LogLine = { tMs: this.lastT, from, parts };
    if (raw) line.raw = true;
    if (continued) line.continued = true;
    this.queue.push(line);
    for (const p of parts) this.queuedBytes += p.length;
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
    for (const [from, arriving] of this.partial) this.push(from, this.lastT, arriving.pieces, false, arriving.sent);
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
