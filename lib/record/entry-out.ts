import { writeSync } from "node:fs";

/** What is gathered before a write. */
const STAGE_BYTES = 256 * 1024;
/**
 * A longer run of bytes is written from where it lies, after what is gathered: past about
 * 40 KiB the system call it adds costs less than copying the bytes into the stage (appending
 * 1,600 lines to a file here: 64 KiB lines 36 → 23 µs a line, 48 KiB 30 → 25, 32 KiB 23 →
 * 22, 20 KiB 14 → 18).
 */
const DIRECT_BYTES = 32 * 1024;

/**
 * The writer thread's way to the log: entries are gathered in one buffer, reused for the
 * whole session, and written with one system call per batch; a long line's bytes go to the
 * file straight from where they lie. Nothing is allocated per entry, and nothing large is
 * ever allocated at all (fresh memory costs more to touch than to copy into).
 */
export class EntryOut {
  private readonly stage = Buffer.allocUnsafe(STAGE_BYTES);
  private used = 0;

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

  bytes(b: Uint8Array): void {
    if (b.length > DIRECT_BYTES) {
      this.flush();
      writeAll(this.fd, b);
      return;
    }
    if (this.used + b.length > STAGE_BYTES) this.flush();
    this.stage.set(b, this.used);
    this.used += b.length;
  }

  /** Writes what is gathered; an error (a full disk) is thrown to the caller. */
  flush(): void {
    if (this.used === 0) return;
    const n = this.used;
    this.used = 0;
    writeAll(this.fd, this.stage.subarray(0, n));
  }

  /** Drops what is gathered: after a failed write nothing more goes to the file. */
  drop(): void {
    this.used = 0;
  }
}

export function writeAll(fd: number, b: Uint8Array, position: number | null = null): void {
  let off = 0;
  while (off < b.length) off += writeSync(fd, b, off, b.length - off, position === null ? null : position + off);
}
