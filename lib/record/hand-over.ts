/**
 * How a line is laid out when the proxy hands it to the writer thread: its time, sender
 * and flags sit in the same memory as its bytes, so nothing but bytes crosses between the
 * threads. A record is
 *
 *   t_ms f64, length u32, flags u32, then the line's bytes, padded to 8 bytes
 *
 * and records follow one another: in the shared ring (line-ring.ts), or, when the ring is
 * full, in a buffer of their own, transferred.
 */
import type { Sender } from "../bus/frame.js";

const SENDERS: readonly Sender[] = ["client", "server", "proxy", "context"];
const CODE: Readonly<Record<Sender, number>> = { client: 0, server: 1, proxy: 2, context: 3 };
/** Bytes before a record's line. */
export const RECORD_HEAD = 16;
/** Flags beside the sender code (two low bits). */
export const RAW = 4;
/** The line ends a long line whose earlier pieces went ahead as PIECE records. */
export const CONTINUED = 8;
/** Not a whole line: the next piece of a long line still arriving. */
export const PIECE = 16;
/** No record: the ring goes on at its start. */
export const WRAP = 32;

/** Bytes a record of a `length`-byte line takes. */
export function recordSize(length: number): number {
  return (RECORD_HEAD + length + 7) & ~7;
}

export function senderCode(from: Sender): number {
  return CODE[from];
}

/** A line's bytes: one piece, or the pieces it was read in. */
export type Parts = Uint8Array | readonly Uint8Array[];

export function isOnePiece(parts: Parts): parts is Uint8Array {
  return parts instanceof Uint8Array;
}

/** Typed views of one piece of memory records are laid out in. */
export class Records {
  readonly bytes: Uint8Array;
  private readonly u32: Uint32Array;
  private readonly f64: Float64Array;

  constructor(readonly buffer: ArrayBufferLike) {
    this.bytes = new Uint8Array(buffer);
    this.u32 = new Uint32Array(buffer, 0, buffer.byteLength >> 2);
    this.f64 = new Float64Array(buffer, 0, buffer.byteLength >> 3);
  }

  /** Lays a record out at `at` (8-byte aligned), copying the line's parts once. */
  put(at: number, tMs: number, flags: number, parts: Parts, length: number): void {
    this.f64[at >> 3] = tMs;
    this.u32[(at >> 2) + 2] = length;
    this.u32[(at >> 2) + 3] = flags;
    if (isOnePiece(parts)) {
      this.bytes.set(parts, at + RECORD_HEAD);
      return;
    }
    let to = at + RECORD_HEAD;
    for (const p of parts) {
      this.bytes.set(p, to);
      to += p.length;
    }
  }

  /** Marks `at` as the ring's end: the next record is at its start. */
  putWrap(at: number): void {
    this.u32[(at >> 2) + 3] = WRAP;
  }

  tMs(at: number): number {
    return this.f64[at >> 3]!;
  }

  length(at: number): number {
    return this.u32[(at >> 2) + 2]!;
  }

  flags(at: number): number {
    return this.u32[(at >> 2) + 3]!;
  }

  from(at: number): Sender {
    return SENDERS[this.flags(at) & 3]!;
  }

  /**
   * The record's line minus its line end (`\n` or `\r\n`, as log-entry.ts's `stripLineEnd`),
   * as a view: the one the writer reads a plain line through.
   */
  body(at: number): Buffer {
    const start = at + RECORD_HEAD;
    let end = start + this.length(at);
    if (end > start && this.bytes[end - 1] === 0x0a) {
      end--;
      if (end > start && this.bytes[end - 1] === 0x0d) end--;
    }
    return Buffer.from(this.buffer, start, end - start);
  }

  /** The record's line, as a view. */
  line(at: number): Buffer {
    return Buffer.from(this.buffer, at + RECORD_HEAD, this.length(at));
  }
}
