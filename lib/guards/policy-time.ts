/**
 * Time as τ²-bench's airline policy tells it: it is always
 * `2024-05-15T15:00:00`, and a booking made "within 24 hours" is one whose `created_at`
 * lies in [now − 24 h, now].
 *
 * Times are read leniently, so a booking time written a little off still gets a decision
 * (and the same one other implementations of these guards give): `YYYY-MM-DDTHH:MM[:SS]`,
 * each part a number as Rust's `str::parse` reads one (integers for the date, decimals for the clock), seconds
 * optional and taken as 0 when they do not parse (`00Z`), anything after the parts it
 * needs ignored. No time zone: both sides are the policy's local time.
 */

/** The time the airline policy says it is. */
export const AIRLINE_NOW = "2024-05-15T15:00:00";
/** Its date: a flight dated before it was flown. */
export const AIRLINE_TODAY = AIRLINE_NOW.slice(0, 10);

const DAY_SECONDS = 86_400;
const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:inf|infinity|nan|(?:\d+|\d+\.\d*|\d*\.\d+)(?:e[+-]?\d+)?)$/i;
/** The largest and smallest i64, where Rust's `as i64` saturates. */
/** i64::MAX (9223372036854775807) as a double rounds to 2^63. */
const I64_MAX = 2 ** 63;

/** Whether `then` is at most a day before `now` (and not after it); false if either is not a time. */
export function withinADay(then: string, now: string = AIRLINE_NOW): boolean {
  const a = secondsOf(then);
  const b = secondsOf(now);
  if (a === undefined || b === undefined) return false;
  return b - a <= DAY_SECONDS && b >= a;
}

/** Seconds since an arbitrary epoch of a `YYYY-MM-DDTHH:MM[:SS]` time, for differences only. */
export function secondsOf(time: string): number | undefined {
  const t = time.indexOf("T");
  if (t === -1) return undefined;
  const date = time.slice(0, t).split("-");
  const clock = time.slice(t + 1).split(":");
  const y = integer(date[0]);
  const m = integer(date[1]);
  const d = integer(date[2]);
  const h = decimal(clock[0]);
  const mi = decimal(clock[1]);
  if (y === undefined || m === undefined || d === undefined || h === undefined || mi === undefined) return undefined;
  const s = decimal(clock[2]) ?? 0;
  return daysFromCivil(y, m, d) * DAY_SECONDS + asI64(h * 3600 + mi * 60 + s);
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const y2 = m <= 2 ? y - 1 : y;
  const era = Math.floor(y2 / 400);
  const yoe = y2 - era * 400;
  const doy = Math.trunc((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.trunc(yoe / 4) - Math.trunc(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function integer(text: string | undefined): number | undefined {
  return text !== undefined && INTEGER.test(text) ? Number(text) : undefined;
}

function decimal(text: string | undefined): number | undefined {
  if (text === undefined || !DECIMAL.test(text)) return undefined;
  const sign = text.startsWith("-") ? -1 : 1;
  const body = text.replace(/^[+-]/, "").toLowerCase();
  if (body === "inf" || body === "infinity") return sign * Infinity;
  if (body === "nan") return NaN;
  return Number(text);
}

/** Rust's `f64 as i64`: toward zero, saturating, NaN as 0. */
function asI64(x: number): number {
  if (Number.isNaN(x)) return 0;
  if (x >= I64_MAX) return I64_MAX;
  if (x <= -I64_MAX) return -I64_MAX;
  return Math.trunc(x);
}
