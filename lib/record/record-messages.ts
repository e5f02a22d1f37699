/**
 * Messages between the proxy and its writer thread (record-worker.ts). Lines do not travel
 * as messages: they are in each log's shared ring (line-ring.ts). A message says where the
 * log's ring stood when it was sent (`tail`), so the writer takes the lines before it first.
 */
import type { MessagePort } from "node:worker_threads";

/** On a log's own port. */
export type ToWriter =
  /**
   * The header, written just before the first entries with what the host's first lines
   * say of the protocol era (or at the end, if no entry ever comes).
   */
  | { kind: "header"; header: object; tail: number }
  /** Records the ring had no room for, laid out in a buffer of their own (hand-over.ts). */
  | { kind: "records"; buffer: ArrayBuffer; tail: number }
  /** Everything handed over is to be written, then the log let go. */
  | { kind: "end"; tail: number }
  /** The log is let go at once, nothing more written (the proxy removes it). */
  | { kind: "drop"; tail: number };

/** On the thread's port: a log for the thread to write, its messages on `port`. */
export interface NewLog {
  id: number;
  fd: number;
  path: string;
  records: SharedArrayBuffer;
  control: SharedArrayBuffer;
  port: MessagePort;
}

/** What the thread says of a log: it stopped recording (a write failed), or it let the log go. */
export type FromWriter = { kind: "stopped"; id: number; message: string } | { kind: "drained"; id: number };
