import type { Frame, Sender } from "../bus/frame.js";
import type { LogWriter } from "./log-writer.js";
import type { RecordSink } from "../bus/record-port.js";

/**
 * The recording sink. It is fed each frame before the frame is forwarded, so the log's
 * order is the order lines were handed over (a request always before its response). Each
 * whole line is copied at once into memory shared with the writer thread, which decides
 * `message` vs `raw`, formats and writes them a few milliseconds later (log-writer.ts), so
 * the frame's bytes are not kept past the turn that read them.
 */
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
  private lastT = 0;

  constructor(private readonly writer: LogWriter) {}

  get path(): string {
    return this.writer.path;
  }

  /** Takes a frame off the bus; pieces of a long line are joined into one entry. */
  readonly record = (f: Frame): void => {
    const held = this.partial.size === 0 ? undefined : this.partial.get(f.from);
    if (!f.end) {
      const arriving = held ?? { pieces: [], bytes: 0, sent: false };
      if (!held) this.partial.set(f.from, arriving);
      arriving.pieces.push(f.bytes);
      arriving.bytes += f.bytes.length;
      if (arriving.bytes >= PIECE_BYTES) {
        this.writer.piece(f.from, arriving.pieces);
        arriving.pieces = [];
        arriving.bytes = 0;
        arriving.sent = true;
      }
      return;
    }
    if (!held) {
      this.writer.line(f.from, this.time(f.tMs), f.bytes);
      return;
    }
    this.partial.delete(f.from);
    held.pieces.push(f.bytes);
    // Not joined here: the pieces are copied once, straight into the hand-over.
    this.writer.line(f.from, this.time(f.tMs), held.pieces, false, held.sent);
  };

  /** Records one whole line (a wire line, or one the proxy composed). */
  line(from: Sender, tMs: number, bytes: Buffer, raw = false): void {
    this.writer.line(from, this.time(tMs), bytes, raw);
  }

  /** Hand-off order is log order: never let a time go backwards down the file. */
  private time(tMs: number): number {
    if (tMs > this.lastT) this.lastT = tMs;
    return this.lastT;
  }

  /** Writes what is handed over, then closes the log. */
  async finish(): Promise<void> {
    for (const [from, arriving] of this.partial) this.writer.line(from, this.lastT, arriving.pieces, false, arriving.sent);
    this.partial.clear();
    await this.writer.finish();
  }
}
