/** GET (and resumption) attempts that fail in a row before the proxy stops trying. */
export const MAX_FAILURES = 5;
/** The wait before reopening a stream that lived a while, when the server named none (`retry`). */
const DEFAULT_RECONNECT_MS = 500;
/** The first wait after a stream that ended at once, or an attempt that failed. */
export const BACKOFF_START_MS = 1_000;
/** The longest wait between two attempts (unless the server's `retry` asks for longer). */
export const BACKOFF_CAP_MS = 30_000;
/** A stream open at least this long counts as a working one: the back-off starts over. */
export const LIVED_MS = 10_000;

/**
 * How long to wait before reopening a stream. After a stream that lived a while, the server's
 * `retry` (500 ms when it named none). After each attempt in a row that failed or whose stream
 * ended at once, twice as long as the time before: 1 s, 2 s, 4 s … up to 30 s, and never less
 * than the server's `retry`. So a server that accepts a stream and closes it at once is asked
 * again less and less often instead of in a tight loop.
 */
export class Backoff {
  private quickInARow = 0;

  /** The wait before the next attempt. */
  delay(retryMs: number | undefined): number {
    if (this.quickInARow === 0) return retryMs ?? DEFAULT_RECONNECT_MS;
    const doubled = Math.min(BACKOFF_CAP_MS, BACKOFF_START_MS * 2 ** Math.min(this.quickInARow - 1, 30));
    return Math.max(retryMs ?? 0, doubled);
  }

  /** An attempt failed (no connection, or a status other than 2xx). */
  failed(): void {
    this.quickInARow++;
  }

  /** A stream the server accepted has ended after `livedMs`. */
  ended(livedMs: number): void {
    if (livedMs >= LIVED_MS) this.quickInARow = 0;
    else this.quickInARow++;
  }
}
