/**
 * A side log the proxy appends JSON lines to (the flow log, the confirm log). One that
 * cannot be opened is skipped: the feature still runs, and stderr says why once. It is
 * created 0600 and never written through a symlink planted at its path; a line that fails
 * to write (a full disk, a file-size limit) is dropped, never the session.
 */
import { closeSync, writeSync } from "node:fs";
import { osErrorText } from "./os-errors.js";
import { openToAppend } from "./safe-open.js";

export class AppendLog {
  private constructor(private fd: number | undefined) {}

  /** Opens `path` to append to; undefined (after `say`ing `{what} {path}: {why}`) when it cannot be opened. */
  static open(what: string, path: string, say: (message: string) => void): AppendLog | undefined {
    try {
      return new AppendLog(openToAppend(path));
    } catch (err) {
      say(`${what} ${path}: ${osErrorText(err)}`);
      return undefined;
    }
  }

  /** Appends `line` and its `\n`. */
  write(line: string): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${line}\n`);
    } catch {
      // The feature goes on without its log.
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Closing cannot lose what was already written.
    }
    this.fd = undefined;
  }
}
