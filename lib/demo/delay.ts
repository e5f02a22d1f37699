import { field, type Json } from "./json.js";

/** The longest a call waits, whatever it asks. */
export const MAX_DELAY_MS = 10_000;
/** u64::MAX (18446744073709551615) as a double rounds to 2^64. */
const U64_MAX = 2 ** 64;

/**
 * How long a call asks to wait: `delay_ms` when it is a non-negative integer (serde's
 * `as_u64`), capped at ten seconds; otherwise no wait.
 */
export function requestedDelay(args: Json): number {
  const ms = field(args, "delay_ms");
  if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 0 || ms > U64_MAX) return 0;
  return Math.min(ms, MAX_DELAY_MS);
}
