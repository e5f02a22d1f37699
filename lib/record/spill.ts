/**
 * A long line, held on disk while it arrives.
 *
 * A line's entry cannot be written until its last byte says whether it is JSON, and other
 * lines are logged meanwhile, so a long line must be kept somewhere until it ends. Held in
 * memory, a 64 MiB request and its 64 MiB echo (which starts coming back before the request
 * has finished arriving) cost 130 MB at once. Its pieces go instead to a temporary file
 * beside the log: created 0600, never through a link, and unlinked the moment it is
 * opened, so nothing is left behind even if the proxy is killed. The `message` rules are
 * checked as the pieces arrive (MessageCheck); at the end the entry is copied from the file
 * into the log, a megabyte at a time.
 */
import { closeSync, constants, ftruncateSync, openSync, readSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Sender } from "../bus/frame.js";
import { PRIVATE_FILE_MODE } from "../util/safe-open.js";
import type { EntryOut } from "./entry-out.js";
import { writeAll } from "./entry-out.js";
import { MessageCheck, TextEscape } from "./piece-entry.js";

const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
const COPY_BYTES = 1024 * 1024;

function isJsonSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** One sender's spill file, reused (emptied) from one long line to the next. */
export class Spill {
  private fd: number | undefined;
  private size = 0;
  private check = new MessageCheck();
  /** Offsets of the first and last byte that is not JSON whitespace (-1: none yet). */
  private firstSolid = -1;
  private lastSolid = -1;
  /** The line's last two bytes, for its line end. */
  private last = -1;
  private beforeLast = -1;
  private static copyBuffer: Buffer | undefined;

  constructor(
    private readonly logPath: string,
    private readonly from: Sender,
  ) {}

  /** Whether earlier pieces of a line are held. */
  get holding(): boolean {
    return this.size > 0;
  }

  /** Appends a piece of the line. */
  take(piece: Uint8Array): void {
    if (piece.length === 0) return;
    const b = Buffer.from(piece.buffer, piece.byteOffset, piece.length);
    writeAll(this.open(), b, this.size);
    this.check.take(b);
    let e = b.length - 1;
    while (e >= 0 && isJsonSpace(b[e])) e--;
    if (e >= 0) {
      this.lastSolid = this.size + e;
      if (this.firstSolid < 0) {
        let s = 0;
        while (isJsonSpace(b[s])) s++;
        this.firstSolid = this.size + s;
      }
    }
    this.beforeLast = b.length > 1 ? b[b.length - 2]! : this.last;
    this.last = b[b.length - 1]!;
    this.size += b.length;
  }

  /** Writes the line's entry (everything taken so far is the whole line), then empties the file. */
  writeEntry(out: EntryOut, tMs: number, forceRaw: boolean): void {
    const head = `{"t_ms":${tMs},"from":"${this.from}",`;
    if (!forceRaw && this.check.isMessage()) {
      out.text(`${head}"message":`);
      this.copy(out, this.firstSolid, this.lastSolid + 1);
    } else {
      // The text minus its line end: `\n` or `\r\n` (a bare `\r` is a byte that was sent).
      const lineEnd = this.last === 0x0a ? (this.beforeLast === 0x0d ? 2 : 1) : 0;
      out.text(`${head}"raw":"`);
      const escape = new TextEscape();
      this.copy(out, 0, this.size - lineEnd, (chunk) => {
        for (const e of escape.take(chunk)) out.bytes(e);
      });
      for (const e of escape.end()) out.bytes(e);
      out.text('"');
    }
    out.text("}\n");
    this.reset();
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Nothing in it is needed any more.
    }
    this.fd = undefined;
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    const path = join(dirname(this.logPath), `.${basename(this.logPath)}.${this.from}.spill`);
    const fd = openSync(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, PRIVATE_FILE_MODE);
    try {
      unlinkSync(path);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.fd = fd;
    return fd;
  }

  /** Bytes [start, end) of the file, a chunk at a time, to `out` or to `each`. */
  private copy(out: EntryOut, start: number, end: number, each?: (chunk: Buffer) => void): void {
    if (end <= start) return;
    const fd = this.open();
    const buf = (Spill.copyBuffer ??= Buffer.allocUnsafe(COPY_BYTES));
    for (let at = start; at < end; ) {
      const n = readSync(fd, buf, 0, Math.min(COPY_BYTES, end - at), at);
      if (n === 0) throw new Error("the spill file ended early");
      const chunk = buf.subarray(0, n);
      if (each) each(chunk);
      else out.bytes(chunk);
      at += n;
    }
  }

  private reset(): void {
    if (this.fd !== undefined) ftruncateSync(this.fd, 0);
    this.size = 0;
    this.check = new MessageCheck();
    this.firstSolid = -1;
    this.lastSolid = -1;
    this.last = -1;
    this.beforeLast = -1;
  }
}
