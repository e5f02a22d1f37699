/**
 * Records the ring had no room for (the writer thread behind), held until it has room.
 *
 * They used to be copied at once into a buffer of their own and sent to the writer. On
 * this kind of VM fresh memory is what costs: each page first written takes a fault
 * (a 1 MiB buffer about 8 ms), and the copy falls on the forwarding thread. With 1 MiB
 * lines 32 in flight, a tenth of the lines missed the ring by a few milliseconds, and the
 * proxy took 45–56 page faults per exchange for them. Held here, a record is only a
 * reference to the frame's bytes (never written to again); it goes into the ring, in
 * order, as soon as the writer gives room back, which is checked at every hand-over.
 * Only if there is still none after HOLD_MS, or HOLD_BYTES are held, does what is held go
 * in a buffer of its own, as before, so forwarding never waits for the writer.
 */
import type { Parts } from "./hand-over.js";

/** A record waiting for the ring. */
export interface HeldRecord {
  tMs: number;
  flags: number;
  parts: Parts;
  length: number;
}

/** How long records wait for room before they go in a buffer of their own. */
export const HOLD_MS = 10;
/** How much may wait for room before it goes in a buffer of its own: a ring's worth (log-writer.ts). */
export const HOLD_BYTES = 8 * 1024 * 1024;

export interface HeldRecordsOptions {
  /** Copies a record into the ring; false when there is no room for it. */
  append: (r: HeldRecord) => boolean;
  /** Sends records the ring had no room for in a buffer of their own, in order. */
  sendOwn: (records: HeldRecord[]) => void;
  /** Told when records start to wait (the ring is full). */
  full?: () => void;
  holdMs?: number;
  holdBytes?: number;
}

export class HeldRecords {
  private held: HeldRecord[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly holdMs: number;
  private readonly holdBytes: number;

  constructor(private readonly options: HeldRecordsOptions) {
    this.holdMs = options.holdMs ?? HOLD_MS;
    this.holdBytes = options.holdBytes ?? HOLD_BYTES;
  }

  /** Whether any record is waiting. */
  get waiting(): boolean {
    return this.held.length > 0;
  }

  /** Hands a record on: into the ring if nothing waits before it and there is room, else it waits. */
  add(r: HeldRecord): void {
    if (this.held.length > 0) this.retry();
    if (this.held.length === 0 && this.options.append(r)) return;
    // Whatever waits goes first (order), so this one waits behind it.
    if (this.held.length === 0) {
      this.timer = setTimeout(this.giveUp, this.holdMs);
      this.options.full?.();
    }
    this.held.push(r);
    this.bytes += r.length;
    if (this.bytes >= this.holdBytes) this.giveUp();
  }

  /** Moves what now has room into the ring, in order. */
  private retry(): void {
    const held = this.held;
    let n = 0;
    while (n < held.length && this.options.append(held[n]!)) {
      this.bytes -= held[n]!.length;
      n++;
    }
    if (n === 0) return;
    held.splice(0, n);
    if (held.length === 0) this.clear();
  }

  /** What still has no room in the ring goes in a buffer of its own. */
  readonly giveUp = (): void => {
    this.retry();
    this.clear();
    if (this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    this.bytes = 0;
    this.options.sendOwn(held);
  };

  /** Forgets what waits (recording stopped). */
  drop(): void {
    this.clear();
    this.held = [];
    this.bytes = 0;
  }

  private clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
