/**
 * The Wilson score interval's lower bound: how low the share of a site's lookups the agent
 * made itself may be, given what was seen, at one-sided 95% (z = 1.6448536, the bound of a
 * 90% interval). Small samples get a low bound, so a site needs evidence, not luck.
 */

/** z of the 90% interval (one-sided 95%). */
export const WILSON_Z = 1.6448536;

/**
 * `(p + z²/2n − z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)` with p = successes/n, floored at
 * 0; 0 when n is 0.
 */
export function wilsonLower(successes: number, n: number, z = WILSON_Z): number {
  if (n <= 0) return 0;
  const p = successes / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.max(0, (centre - spread) / (1 + z2 / n));
}
