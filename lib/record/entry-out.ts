import { writeSync, writevSync } from "node:fs";

/** What is gathered before a write. */
const STAGE_BYTES = 256 * 1024;
/**
 * A longer run of bytes is written from where it lies, after what is gathered: past about
 * 40 KiB the system call it adds costs less than copying the bytes into the stage (appending
 * 1,600 lines to a file here: 64 KiB lines 36 → 23 µs a line, 48 KiB 30 → 25, 32 KiB 23 →
 * 22, 20 KiB 14 → 18).
 */
const DIRECT_BYTES = 32 * 1024;

/** Runs written from where they lie, at most, in one batch (one `writev`). */
const MAX_RUNS = 64;

/**
 * The writer thread's way to the log: entries are gathered in one buffer, reused for the
 * whole session, and written with one system call per batch; a long line's bytes go to the
 * file straight from where they lie. Nothing is allocated per entry, and nothing large is
 * ever allocated at all (fresh memory costs more to touch than to copy into).
 *
 * A long run that stays as it is until the batch is written (`lying`: a line in the ring,
 * which the writer gives back only after its flush) joins the batch as it lies, so a batch
 * of 64 KiB lines is one `writev` rather than two writes a line (the head gathered before
 * it, then the line): on this VM a system call costs about 3 µs before it does anything.
 */
export class EntryOut {
  private readonly stage = Buffer.allocUnsafe(STAGE_BYTES);
  private used = 0;
  /** The batch so far, in order, when it holds runs written from where they lie: parts of the stage and those runs. */
  private readonly runs: Uint8Array[] = [];
  /** Where the stage's part not yet in `runs` begins. */
  private staged = 0;

  constructor(private readonly fd: number) {}

  /** Short ASCII text: an entry's head or tail. */
  text(s: string): void {
    if (this.used + s.length > STAGE_BYTES) this.flush();
    this.used += this.stage.write(s, this.used, "latin1");
  }

  /** Ends an entry: `}` and its line end. */
  entryEnd(): void {
    if (this.used + 2 > STAGE_BYTES) this.flush();
    this.stage[this.used++] = 0x7d;
    this.stage[this.used++] = 0x0a;
  }

  /** Bytes the caller may change once this returns: a long run is written now. */
  bytes(b: Uint8Array): void {
    if (b.length > DIRECT_BYTES) {
      this.flush();
      writeAll(this.fd, b);
      return;
    }
    this.gather(b);
  }

  /** Bytes that stay as they are until the next `flush`: a long run joins the batch where it lies. */
  lying(b: Uint8Array): void {
    if (b.length <= DIRECT_BYTES) {
      this.gather(b);
      return;
    }
    if (this.used > this.staged) this.runs.push(this.stage.subarray(this.staged, this.used));
    this.staged = this.used;
    this.runs.push(b);
    if (this.runs.length >= MAX_RUNS) this.flush();
  }

  private gather(b: Uint8Array): void {
    if (this.used + b.length > STAGE_BYTES) this.flush();
    this.stage.set(b, this.used);
    this.used += b.length;
  }

  /** Writes what is gathered; an error (a full disk) is thrown to the caller. */
  flush(): void {
    const runs = this.runs;
    if (runs.length === 0) {
      if (this.used === 0) return;
      const n = this.used;
      this.used = 0;
      writeAll(this.fd, this.stage.subarray(0, n));
      return;
    }
    if (this.used > this.staged) runs.push(this.stage.subarray(this.staged, this.used));
    const batch = runs.splice(0);
    this.used = 0;
    this.staged = 0;
    writevAll(this.fd, batch);
  }

  /** Drops what is gathered: after a failed write nothing more goes to the file. */
  drop(): void {
    this.used = 0;
    this.staged = 0;
    this.runs.length = 0;
  }
}

/** Writes every run, in order, however the system call cuts it short. */
function writevAll(fd: number, runs: Uint8Array[]): void {
  let first = 0;
  while (first < runs.length) {
    let n = writevSync(fd, first === 0 ? runs : runs.slice(first));
    while (first < runs.length && n >= runs[first]!.length) n -= runs[first++]!.length;
    if (n > 0) runs[first] = runs[first]!.subarray(n);
  }
}

export function writeAll(fd: number, b: Uint8Array, position: number | null = null): void {
  let off = 0;
  while (off < b.length) off += writeSync(fd, b, off, b.length - off, position === null ? null : position + off);
}
