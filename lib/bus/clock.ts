import { performance } from "node:perf_hooks";

/** A session clock: whole milliseconds since it was made, never decreasing. */
export interface Clock {
  /** Milliseconds since the session started (monotonic). */
  now(): number;
  /** Wall-clock time the session started, in ms since the Unix epoch. */
  readonly startedUnixMs: number;
}

export function monotonicClock(): Clock {
  const t0 = performance.now();
  const startedUnixMs = Date.now();
  let last = 0;
  return {
    startedUnixMs,
    now() {
      // performance.now() is monotonic; the max() guards against float rounding only.
      const t = Math.floor(performance.now() - t0);
      if (t > last) last = t;
      return last;
    },
  };
}
