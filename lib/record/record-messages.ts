/**
 * Messages between the proxy and its writer thread (record-worker.ts). Lines do not travel
 * as messages: they are in the shared ring (line-ring.ts). A message says where the ring
 * stood when it was sent (`tail`), so the writer takes the lines before it first.
 */
export type ToWriter =
  /**
   * The header, written just before the first entries with what the host's first lines
   * say of the protocol era (or at the end, if no entry ever comes).
   */
  | { kind: "header"; header: object; tail: number }
  /** Records the ring had no room for, laid out in a buffer of their own (hand-over.ts). */
  | { kind: "records"; buffer: ArrayBuffer; tail: number }
  | { kind: "end"; tail: number };

export type FromWriter = { kind: "stopped"; message: string } | { kind: "drained" };
