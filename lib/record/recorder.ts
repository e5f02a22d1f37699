import type { Frame, Sender } from "../bus/frame.js";
import type { LogWriter } from "./log-writer.js";
import type { RecordSink } from "../bus/record-port.js";

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

/** A line the proxy composed (or an active session's whole line), waiting to be handed over. */
class Composed {
  constructor(
    readonly from: Sender,
    readonly tMs: number,
    readonly bytes: Buffer,
    readonly raw: boolean,
  ) {}
}

/**
 * The recording sink. It is fed each frame before the frame is forwarded, so the log's
 * order is the order lines were handed over (a request always before its response). The
 * frames are only queued then; once the turn's writes to the peers have gone out (in
 * `setImmediate`, after the write sinks' flush), each whole line is copied into memory
 * shared with the writer thread, which decides `message` vs `raw`, formats and writes them
 * a few milliseconds later (log-writer.ts). The copy is off the line's way to its peer: with
 * one 64 KiB request in flight, two such copies sat in every round trip. The queue keeps the
 * order (everything recorded goes through it), and the frames' bytes, never written to
 * again, are kept only until that turn's end.
 */
export class Recorder implements RecordSink {
  private readonly partial = new Map<Sender, Arriving>();
  private lastT = 0;
  /** Recorded this turn, not yet handed over: frames, and composed lines. */
  private queue: (Frame | Composed)[] = [];
  private spare: (Frame | Composed)[] = [];
  private scheduled = false;

  constructor(private readonly writer: LogWriter) {}

  get path(): string {
    return this.writer.path;
  }

  /** Takes a frame off the bus: it is handed over once the turn's writes are out. */
  readonly record = (f: Frame): void => {
    this.queue.push(f);
    this.schedule();
  };

  /** Records one whole line (a wire line, or one the proxy composed). */
  line(from: Sender, tMs: number, bytes: Buffer, raw = false): void {
    this.queue.push(new Composed(from, tMs, bytes, raw));
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.handOver);
  }

  /** Hands over what was recorded, in order. */
  private readonly handOver = (): void => {
    this.scheduled = false;
    const queue = this.queue;
    // Two arrays taking turns: nothing is allocated per turn.
    this.queue = this.spare;
    for (let i = 0; i < queue.length; i++) {
      const item = queue[i]!;
      if (item instanceof Composed) this.writer.line(item.from, this.time(item.tMs), item.bytes, item.raw);
      else this.take(item);
    }
    queue.length = 0;
    this.spare = queue;
  };

  /** One frame; pieces of a long line are joined into one entry. */
  private take(f: Frame): void {
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
  }

  /** Hand-off order is log order: never let a time go backwards down the file. */
  private time(tMs: number): number {
    if (tMs > this.lastT) this.lastT = tMs;
    return this.lastT;
  }

  /** Writes what is handed over, then closes the log. */
  async finish(): Promise<void> {
    this.handOver();
    for (const [from, arriving] of this.partial) this.writer.line(from, this.lastT, arriving.pieces, false, arriving.sent);
    this.partial.clear();
    await this.writer.finish();
  }
}
