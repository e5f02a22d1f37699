/** Messages between the proxy and its writer thread (record-worker.ts). */
export type ToWriter =
  /** A batch of lines: one transferred buffer, each line's end offset, time and sender. */
  | { kind: "lines"; data: ArrayBuffer; ends: number[]; times: number[]; froms: string[] }
  /** Bytes written as they are (the header line). */
  | { kind: "raw"; data: ArrayBuffer }
  | { kind: "end" };

export type FromWriter = { kind: "stopped"; message: string } | { kind: "drained" };
