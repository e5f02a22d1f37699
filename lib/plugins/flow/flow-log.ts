/**
 * The flow log (docs/flows.md, "Serve a flow"): one JSON line per decision, then one per run, appended.
 * A log that cannot be opened is skipped: the flow still runs, and stderr says why once.
 * It is created 0600 and never written through a symlink planted at its path.
 */
import { AppendLog } from "../../util/append-log.js";

/** Where the flow's lines go. */
export interface FlowLogSink {
  write(line: string): void;
}

/** The flow log file: `flow log {path}: {why}` when it cannot be opened. */
export const FlowLogFile = {
  open: (path: string, say: (message: string) => void): AppendLog | undefined => AppendLog.open("flow log", path, say),
};
