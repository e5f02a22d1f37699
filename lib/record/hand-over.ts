/**
 * How lines are laid out when the proxy hands them to the writer thread: everything a
 * batch needs (each line's time, sender, flags and end) sits in the same memory as its
 * bytes, so the message itself is one number (where the batch starts in the shared ring)
 * or one transferred buffer. A message of arrays cost the proxy a structured clone per batch,
 * several times the cost of copying the lines.
 *
 *   head:  kind u32, line count u32, (8 bytes unused)
 *   each:  t_ms f64, end u32 (offset of the line's end in the bytes), flags u32
 *   bytes: the lines, one after the other
 *
 * A batch starts 8-byte aligned and its length is rounded up to keep the next one so.
 */
import type { Sender } from "../bus/frame.js";

export const LINES = 1;
export const PIECE = 2;
const HEAD = 16;
const META = 16;
const SENDERS: readonly Sender[] = ["client", "server", "proxy", "context"];
/** Flags beside the sender code (two low bits). */
export const RAW = 4;
export const CONTINUED = 8;

export interface HandOverLine {
  tMs: number;
  from: Sender;
  parts: readonly Buffer[];
  raw?: boolean;
  continued?: boolean;
}

/** Typed views of one piece of memory batches are laid out in. */
export class HandOverMemory {
  readonly bytes: Uint8Array;
  private readonly u32: Uint32Array;
  private readonly f64: Float64Array;

  constructor(readonly buffer: ArrayBufferLike) {
    this.bytes = new Uint8Array(buffer);
    this.u32 = new Uint32Array(buffer, 0, buffer.byteLength >> 2);
    this.f64 = new Float64Array(buffer, 0, buffer.byteLength >> 3);
  }

  /** Bytes a batch of `count` lines holding `bytes` bytes takes. */
  static size(count: number, bytes: number): number {
    return (HEAD + META * count + bytes + 7) & ~7;
  }

  /** Lays out `lines` at `at` (8-byte aligned), copying their bytes once. */
  fill(at: number, kind: number, lines: readonly HandOverLine[]): void {
    const u = at >> 2;
    this.u32[u] = kind;
    this.u32[u + 1] = lines.length;
    let meta = at + HEAD;
    const data = meta + META * lines.length;
    let end = 0;
    for (const l of lines) {
      for (const p of l.parts) {
        this.bytes.set(p, data + end);
        end += p.length;
      }
      this.f64[meta >> 3] = l.tMs;
      this.u32[(meta >> 2) + 2] = end;
      this.u32[(meta >> 2) + 3] = SENDERS.indexOf(l.from) | (l.raw ? RAW : 0) | (l.continued ? CONTINUED : 0);
      meta += META;
    }
  }

  kind(at: number): number {
    return this.u32[at >> 2]!;
  }

  count(at: number): number {
    return this.u32[(at >> 2) + 1]!;
  }

  tMs(at: number, i: number): number {
    return this.f64[(at + HEAD + META * i) >> 3]!;
  }

  from(at: number, i: number): Sender {
    return SENDERS[this.flags(at, i) & 3]!;
  }

  flags(at: number, i: number): number {
    return this.u32[((at + HEAD + META * i) >> 2) + 3]!;
  }

  /** Line `i`'s bytes, as a view. */
  line(at: number, i: number): Buffer {
    const count = this.count(at);
    const data = at + HEAD + META * count;
    const start = i === 0 ? 0 : this.u32[((at + HEAD + META * (i - 1)) >> 2) + 2]!;
    const end = this.u32[((at + HEAD + META * i) >> 2) + 2]!;
    return Buffer.from(this.buffer, data + start, end - start);
  }
}
