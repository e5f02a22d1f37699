/** Messages between the proxy and its writer thread (record-worker.ts). */
export type ToWriter =
  /**
   * A batch of lines: one transferred buffer, each line's end offset, time and sender, the
   * indexes of lines to log as `raw` whatever they hold (lines the proxy refused), and the
   * indexes of lines that end a long line whose earlier pieces came ahead (`piece`).
   */
  | { kind: "lines"; data: ArrayBuffer; ends: number[]; times: number[]; froms: string[]; raw: number[]; continued: number[] }
  /** The next pieces of a long line from `from`, handed over before the line ends. */
  | { kind: "piece"; from: string; data: ArrayBuffer }
  /**
   * The header, written just before the first entries with what the host's first lines
   * say of the protocol era (or at the end, if no entry ever comes).
   */
  | { kind: "header"; header: object }
  | { kind: "end" };

export type FromWriter = { kind: "stopped"; message: string } | { kind: "drained" };
