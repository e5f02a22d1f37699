/**
 * Waits on what the replayed session does, not on the clock: each wait names a condition
 * and is checked again whenever the session reports something (a line handled, a frame
 * logged, a line to the host). A wait that the session can no longer satisfy fails loudly.
 */
export class ReplayStuck extends Error {
  override readonly name = "ReplayStuck";
}

/** How long the session may do nothing at all while a replay waits on it. */
export const QUIET_LIMIT_MS = 30_000;

interface Waiter {
  ready: () => boolean;
  what: string;
  resolve: () => void;
  reject: (e: Error) => void;
}

export class Progress {
  private waiters: Waiter[] = [];
  private ended = false;
  private quiet: NodeJS.Timeout | undefined;

  constructor(private readonly quietLimitMs = QUIET_LIMIT_MS) {}

  /** Something happened in the session: settle every wait it satisfies. */
  changed(): void {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.ready()) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
    this.watch();
  }

  /** Resolves once `ready()` holds; `what` names it in the error if it never does. */
  until(ready: () => boolean, what: string): Promise<void> {
    if (ready()) return Promise.resolve();
    if (this.ended) return Promise.reject(new ReplayStuck(`the session ended before ${what}`));
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ ready, what, resolve, reject });
      this.watch();
    });
  }

  /** The session is over: whatever still waits never comes. */
  end(): void {
    this.changed();
    this.ended = true;
    this.failAll((w) => `the session ended before ${w.what}`);
  }

  private watch(): void {
    if (this.quiet !== undefined) clearTimeout(this.quiet);
    this.quiet = undefined;
    if (this.waiters.length === 0) return;
    this.quiet = setTimeout(() => {
      this.failAll((w) => `nothing happened for ${this.quietLimitMs / 1000} s while waiting for ${w.what}; a plugin may have kept a line without answering it`);
    }, this.quietLimitMs);
  }

  private failAll(reason: (w: Waiter) => string): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w.reject(new ReplayStuck(reason(w)));
    if (this.quiet !== undefined) clearTimeout(this.quiet);
    this.quiet = undefined;
  }
}
