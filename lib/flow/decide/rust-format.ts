/**
 * Numbers in hand-back reasons printed as Rust formats them (`{threshold}` with f64
 * `Display`, `{p:.2}` with two decimals), so flow logs read the same whichever build wrote
 * them and tools that compare them need no tolerance.
 */

/** Rust's `{}` for an f64: the shortest round-trip digits, never in exponent form (`0.3`, `1`). */
export function rustDisplay(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (Object.is(x, -0)) return "-0";
  const s = String(x);
  const e = s.indexOf("e");
  if (e === -1) return s;
  const sign = s.startsWith("-") ? "-" : "";
  const mantissa = s.slice(sign.length, e);
  const exponent = Number(s.slice(e + 1));
  const [whole = "", fraction = ""] = mantissa.split(".");
  const digits = whole + fraction;
  const point = whole.length + exponent;
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * Rust's `{:.2}`: the exact binary value rounded to 2 decimals, an exact tie to even
 * (`0.125` → `0.12`), where JavaScript's `toFixed` rounds a tie up. A double lies exactly
 * halfway between two hundredths only when 8·x is an odd integer.
 */
export function fixed2(x: number): string {
  if (!Number.isFinite(x)) return rustDisplay(x);
  const eighths = x * 8;
  if (Number.isInteger(eighths) && Math.abs(eighths % 2) === 1) {
    const n = x * 100;
    const low = Math.floor(n);
    const even = low % 2 === 0 ? low : low + 1;
    return (even / 100).toFixed(2);
  }
  return x.toFixed(2);
}
