/**
 * The confirm log: one JSON line per judged write (keys sorted), appended. A log that cannot
 * be opened is skipped: the judge still runs (and still refuses in enforce mode), and
 * stderr says why once. It is created 0600 and never written through a symlink planted at
 * its path: the lines quote what the customer said.
 */
import { closeSync, writeSync } from "node:fs";
import type { ConfirmLine } from "../../guards/confirm/index.js";
import { osErrorText } from "../../util/os-errors.js";
import { openToAppend } from "../../util/safe-open.js";
import { sortedJson } from "../../util/sorted-json.js";

/** Where the judge's lines go. */
export interface ConfirmLogSink {
  write(line: ConfirmLine): void;
  close?(): void;
}

export class ConfirmLogFile implements ConfirmLogSink {
  private constructor(private fd: number | undefined) {}

  /** Opens `path` to append to; undefined (after `say`ing `confirmation log {path}: {e}`) when it cannot be opened. */
  static open(path: string, say: (message: string) => void): ConfirmLogFile | undefined {
    try {
      return new ConfirmLogFile(openToAppend(path));
    } catch (err) {
      say(`confirmation log ${path}: ${osErrorText(err)}`);
      return undefined;
    }
  }

  write(line: ConfirmLine): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${sortedJson(line)}\n`);
    } catch {
      // A full disk or a file-size limit: the judge goes on without its log.
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // nothing to do
    }
    this.fd = undefined;
  }
}
