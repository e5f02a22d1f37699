/**
 * Whether the session is ending. Once it is, no stream is opened or reopened, and a wait
 * before reopening one is cut short.
 */
export class Lifetime {
  private isClosing = false;
  private readonly closed: Promise<void>;
  private markClosed!: () => void;

  constructor() {
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
  }

  get closing(): boolean {
    return this.isClosing;
  }

  close(): void {
    this.isClosing = true;
    this.markClosed();
  }

  /** Waits a while, or less if the session closes meanwhile. */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      void this.closed.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
