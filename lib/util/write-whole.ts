/**
 * Writes a file whole: a private temporary file beside it (created anew, so never through a
 * link planted there), flushed, then renamed over it. A reader sees the old file or the new
 * one, never half of one. On failure the temporary file is removed and the OS error thrown.
 */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

let serial = 0;

export function writeWhole(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${++serial}.tmp`);
  try {
    const fd = openSync(temp, "wx", 0o600);
    try {
      const bytes = Buffer.from(text, "utf8");
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // Never made, or already renamed.
    }
    throw e;
  }
}
