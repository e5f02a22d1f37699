/**
 * The confirm log: one JSON line per judged write (keys sorted), appended. A log that cannot
 * be opened is skipped: the judge still runs (and still refuses in enforce mode), and
 * stderr says why once. It is created 0600 and never written through a symlink planted at
 * its path: the lines quote what the customer said.
 */
import type { ConfirmLine } from "../../guards/confirm/index.js";
import { AppendLog } from "../../util/append-log.js";
import { sortedJson } from "../../util/sorted-json.js";

/** Where the judge's lines go. */
export interface ConfirmLogSink {
  write(line: ConfirmLine): void;
  close?(): void;
}

/** The confirm log file: `confirmation log {path}: {why}` when it cannot be opened. */
export class ConfirmLogFile implements ConfirmLogSink {
  private constructor(private readonly log: AppendLog) {}

  static open(path: string, say: (message: string) => void): ConfirmLogFile | undefined {
    const log = AppendLog.open("confirmation log", path, say);
    return log === undefined ? undefined : new ConfirmLogFile(log);
  }

  write(line: ConfirmLine): void {
    this.log.write(sortedJson(line));
  }

  close(): void {
    this.log.close();
  }
}
