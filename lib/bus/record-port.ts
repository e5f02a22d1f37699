import type { Frame, Sender } from "./frame.js";

/**
 * Where a session's lines are recorded. The bus writes to this port and never knows the
 * file format behind it; `record/`'s Recorder is the one implementation.
 */
export interface RecordSink {
  /** Records a frame as it crosses the proxy. */
  readonly record: (f: Frame) => void;
  /** Records one line; `raw` forces the entry to be logged as raw text. */
  line(from: Sender, tMs: number, bytes: Buffer, raw?: boolean): void;
  /** Resolves once everything recorded is on disk. */
  finish(): Promise<void>;
}
