/**
 * Memory shared with the recorder's writer thread, reused for every hand-over.
 *
 * Handing each batch of lines over in a buffer of its own meant fresh memory per batch,
 * and on a small VM the page faults of touching fresh memory cost far more than the copy
 * itself (a megabyte: ~8 ms fresh, ~0.1 ms reused). The proxy copies lines into regions of
 * this ring instead; the writer thread counts each region it is done with in `released`,
 * and the proxy reclaims regions in the order it handed them out. When the ring is full
 * the caller uses a buffer of its own: forwarding never waits for the writer.
 */
export class ByteRing {
  readonly shared: SharedArrayBuffer;
  /** Slot 0: how many regions the writer thread has released, ever (it only adds). */
  readonly released: Int32Array;
  /** Start and end of each region handed out and not yet reclaimed, oldest first. */
  private readonly regions: number[] = [];
  private first = 0;
  private reclaimed = 0;
  private tail = 0;

  constructor(size: number) {
    this.shared = new SharedArrayBuffer(size);
    this.released = new Int32Array(new SharedArrayBuffer(4));
  }

  /** The writer thread's side: it is done with the oldest region it was handed. */
  static release(released: Int32Array): void {
    Atomics.add(released, 0, 1);
  }

  /** The offset of `n` free bytes, now the proxy's to fill and hand over; -1 when full. */
  reserve(n: number): number {
    this.reclaim();
    const size = this.shared.byteLength;
    let at: number;
    if (this.first === this.regions.length) {
      at = n <= size ? 0 : -1;
    } else {
      const head = this.regions[this.first]!;
      if (this.tail > head) at = size - this.tail >= n ? this.tail : n < head ? 0 : -1;
      else at = head - this.tail > n ? this.tail : -1;
    }
    if (at < 0) return -1;
    this.regions.push(at, at + n);
    this.tail = at + n;
    return at;
  }

  /** Forgets the regions the writer thread has released. */
  private reclaim(): void {
    const released = Atomics.load(this.released, 0);
    // The counters only grow; their difference stays right past 2^31.
    while (((released - this.reclaimed) | 0) > 0 && this.first < this.regions.length) {
      this.first += 2;
      this.reclaimed = (this.reclaimed + 1) | 0;
    }
    if (this.first === this.regions.length) {
      this.regions.length = 0;
      this.first = 0;
      this.tail = 0;
    } else if (this.first > 1024) {
      this.regions.splice(0, this.first);
      this.first = 0;
    }
  }
}
