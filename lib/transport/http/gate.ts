/**
 * At most `limit` at once; the rest wait in order. The HTTP client asks its pool for no more
 * connections than it has, so what waits is counted here, where the host's input can be
 * paused on it.
 */
export class Gate {
  private active = 0;
  private readonly waiting: Array<(() => void) | undefined> = [];
  private head = 0;
  private emptied: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** Resolves with a slot; `undefined` means one was free at once. */
  acquire(): Promise<void> | undefined {
    if (this.active < this.limit) {
      this.active++;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head]!;
      this.waiting[this.head++] = undefined;
      // An array shifted from is quadratic over thousands of waiters: it is cut now and then instead.
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      next(); // the slot passes on
    } else {
      this.active--;
    }
    if (this.queued === 0 && this.emptied.length > 0) for (const e of this.emptied.splice(0)) e();
  }

  /** Resolves once nothing waits for a slot. */
  drained(): Promise<void> {
    if (this.queued === 0) return Promise.resolve();
    return new Promise((resolve) => this.emptied.push(resolve));
  }
}
