/**
 * Numbers as a flow's review prints them: counts with thousands separated, and decimals
 * rounded from the exact binary value with a tie to even (`{:.2}` of 0.125 is `0.12`),
 * where JavaScript's `toFixed` would round a tie up. Reviews printed by either build of
 * stretto then read the same.
 */

/** A count with thousands separated by commas: `4,513`. */
export function thousands(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * `x` with `digits` decimals. `toFixed(100)` spells out the double's exact decimal value
 * (every double has a finite one), so a tie is seen exactly, never through rounding error.
 */
export function fixed(x: number, digits: number): string {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return x.toFixed(digits);
  const exact = Math.abs(x).toFixed(100);
  const point = exact.indexOf(".");
  const rest = exact.slice(point + 1 + digits);
  if (!/^50*$/.test(rest)) return x.toFixed(digits);
  // A tie: keep the digits if the last kept one is even, else round away from zero.
  const kept = exact.slice(0, point + 1 + digits).replace(/\.$/, "");
  const last = Number(kept[kept.length - 1]);
  const magnitude = last % 2 === 0 ? kept : Math.abs(x).toFixed(digits);
  return `${x < 0 ? "-" : ""}${magnitude}`;
}

/** A share as a whole percent: `71%`. */
export function percent(x: number): string {
  return `${fixed(100 * x, 0)}%`;
}
