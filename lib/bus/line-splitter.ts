/**
 * Splits a byte stream into lines on `\n` only, keeping every byte (CRLF, invalid UTF-8).
 *
 * Hand-written rather than split2 because split2 decodes to strings (losing invalid UTF-8)
 * and re-scans its growing remainder on every chunk, which is quadratic on huge lines.
 * Here a partial line is a list of chunks, so each byte is scanned once and copied at most
 * once, and a line past `pieceLimit` is handed out in pieces instead of held whole.
 */
export interface Piece {
  bytes: Buffer;
  /** True when `bytes` ends the line (with its `\n`, or at end of input). */
  end: boolean;
}

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingLength = 0;

  constructor(private readonly pieceLimit = 1 << 20) {}

  /** Feeds one chunk; returns the whole lines (and long-line pieces) it completes. */
  push(chunk: Buffer): Piece[] {
    const out: Piece[] = [];
    this.each(chunk, (bytes, end) => out.push({ bytes, end }));
    return out;
  }

  /**
   * Feeds one chunk like `push`, handing each line (or long-line piece) to `piece` as it is
   * found: a source that hands lines on at once makes no list and no object per line.
   */
  each(chunk: Buffer, piece: (bytes: Buffer, end: boolean) => void): void {
    this.eachIn(chunk, undefined, piece);
  }

  /**
   * `each`, handing a line that lies whole in `chunk` to `line` as where it lies (bytes
   * `start`…`stop`, its `\n` included) rather than as a view of it: a source that makes the
   * view only when someone reads the line's bytes. What began in an earlier chunk, and the
   * pieces of a long line, still go to `piece`.
   */
  eachIn(chunk: Buffer, line: ((read: Buffer, start: number, stop: number) => void) | undefined, piece: (bytes: Buffer, end: boolean) => void): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const from = start;
      start = nl + 1;
      if (line !== undefined && this.pending.length === 0) line(chunk, from, start);
      else piece(this.takePending(chunk.subarray(from, start)), true);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingLength += chunk.length - start;
      if (this.pendingLength >= this.pieceLimit) piece(this.takePending(), false);
    }
  }

  /** At end of input: the last line if it had no `\n`. */
  end(): Piece[] {
    if (this.pendingLength === 0) return [];
    return [{ bytes: this.takePending(), end: true }];
  }

  private takePending(tail?: Buffer): Buffer {
    if (this.pending.length === 0) return tail ?? Buffer.alloc(0);
    if (tail) this.pending.push(tail);
    const joined = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingLength = 0;
    return joined;
  }
}
