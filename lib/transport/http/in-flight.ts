import type { Peek } from "../../protocol/protocol-era.js";

/** One host message on its way to the server, and what became of it. */
export interface Work {
  readonly peek: Peek;
  /** Resolves once the host has what it waits for: the answer, an error, or (not a request) the end. */
  settled: Promise<void>;
  answered: boolean;
  /** True once `settled` has resolved. */
  isSettled: boolean;
  cancelled: boolean;
  /** Drops the connection currently carrying this work's answer. */
  abort: () => void;
}

/**
 * The host's messages on their way to the server: each one's `Work` while it is delivered,
 * found by request id when the host cancels it, and waited for when the input ends.
 */
export class InFlight {
  private readonly all = new Set<Work>();
  private readonly byId = new Map<string, Work>();

  /**
   * Starts tracking a message and runs `deliver` for it; `answered` (given to `deliver`)
   * settles the work as answered, and it settles anyway once `deliver` is done.
   */
  track(p: Peek, deliver: (work: Work, answered: () => void) => Promise<void>): Work {
    let resolve!: () => void;
    const work: Work = {
      peek: p,
      settled: new Promise<void>((r) => (resolve = r)),
      answered: false,
      isSettled: false,
      cancelled: false,
      abort: () => {},
    };
    const markSettled = () => {
      work.isSettled = true;
      resolve();
    };
    this.all.add(work);
    if (p.idJson !== undefined) this.byId.set(p.idJson, work);
    const answered = () => {
      work.answered = true;
      markSettled();
    };
    void deliver(work, answered).finally(() => {
      markSettled();
      this.all.delete(work);
      if (p.idJson !== undefined && this.byId.get(p.idJson) === work) this.byId.delete(p.idJson);
    });
    return work;
  }

  /** Drops the request with this id (as JSON text), if it is still in flight. */
  cancel(idJson: string | undefined): void {
    const work = idJson === undefined ? undefined : this.byId.get(idJson);
    if (work === undefined) return;
    work.cancelled = true;
    work.abort();
  }

  /** Drops everything in flight. */
  cancelAll(): void {
    for (const work of this.all) {
      work.cancelled = true;
      work.abort();
    }
  }

  /** What the host still waits for: messages neither settled nor cancelled, subscriptions aside. */
  unsettled(): Work[] {
    return [...this.all].filter((w) => !w.isSettled && !w.cancelled && w.peek.method !== "subscriptions/listen");
  }
}
