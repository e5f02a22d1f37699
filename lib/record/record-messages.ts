/**
 * Messages between the proxy and its writer thread (record-worker.ts). Lines travel as a
 * number (where their batch starts in the shared ring, byte-ring.ts) or, when the ring was
 * full, as a transferred buffer holding the batch at offset 0; hand-over.ts lays both out.
 */
export type ToWriter =
  | number
  | ArrayBuffer
  /**
   * The header, written just before the first entries with what the host's first lines
   * say of the protocol era (or at the end, if no entry ever comes).
   */
  | { kind: "header"; header: object }
  | { kind: "end" };

export type FromWriter = { kind: "stopped"; message: string } | { kind: "drained" };
