/**
 * The flow log (docs/flows.md, "Serve a flow"): one JSON line per decision, then one per run, appended.
 * A log that cannot be opened is skipped: the flow still runs, and stderr says why once.
 * It is created 0600 and never written through a symlink planted at its path.
 */
import { closeSync, writeSync } from "node:fs";
import { osErrorText } from "../../util/os-errors.js";
import { openToAppend } from "../../util/safe-open.js";

/** Where the flow's lines go. */
export interface FlowLogSink {
  write(line: string): void;
}

/** A flow log file, opened for appending; lines that fail to write are dropped. */
export class FlowLogFile implements FlowLogSink {
  private constructor(private fd: number | undefined) {}

  /** Opens `path` to append to; undefined (after `say`ing `flow log {path}: {e}`) when it cannot be opened. */
  static open(path: string, say: (message: string) => void): FlowLogFile | undefined {
    try {
      return new FlowLogFile(openToAppend(path));
    } catch (err) {
      say(`flow log ${path}: ${osErrorText(err)}`);
      return undefined;
    }
  }

  write(line: string): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${line}\n`);
    } catch {
      // A full disk or a file-size limit: the flow goes on without its log.
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
