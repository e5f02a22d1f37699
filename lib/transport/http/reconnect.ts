/** GET (and resumption) attempts that fail in a row before the proxy stops trying. */
export const MAX_FAILURES = 5;
/** The wait before reopening a stream when the server named none (`retry`). */
const DEFAULT_RECONNECT_MS = 500;

/** How long to wait before reopening a stream: the server's `retry`, longer with each failure. */
export function reconnectDelay(retryMs: number | undefined, failures: number): number {
  return (retryMs ?? DEFAULT_RECONNECT_MS) * Math.max(failures, 1);
}
