/**
 * The habit's smoothing α: the posterior median of log α under a
 * Normal(0, 2) prior, with the prequential likelihood — the episodes run in order, each
 * action scored by the back-off model of everything before it, then counted.
 *
 * The likelihood of one step depends on α only through the counts its prediction read
 * (at each level, the context's count of the action and its total), so one pass collects
 * those counts, identical ones merged, and every α on the grid is scored from them. The
 * median comes from the posterior on a fine grid of log α: deterministic, and the true
 * median that a sampler only approaches.
 */
import { logPosteriors, packedLogLik } from "./alpha-grid.js";
import { PRIOR_SD } from "./alpha-prior.js";
import { CountTable, addAction } from "./count-table.js";
import type { TrainingEpisode } from "./training-set.js";

export { PRIOR_SD } from "./alpha-prior.js";
/** The range of log α searched: wide enough that the prior leaves nothing beyond it (±7 sd). */
const GRID_MIN = -14;
const GRID_MAX = 14;
/** A coarse pass finds where the posterior lives; the fine grid covers only that. */
const COARSE_STEP = 0.5;
const FINE_POINTS = 101;
/** Log density this far below the peak is left out (e^-40 of it). */
const NEGLIGIBLE_NATS = 40;

/** What one scored step read: per level, the action's count and the context's total; and its weight. */
export interface StepCounts {
  /** `[n(c_0,a), n(c_0), n(c_1,a), n(c_1), …]`. */
  counts: number[];
  weight: number;
}

/**
 * The merged step counts packed into one array of numbers: each entry's counts, then its
 * weight. One entry per distinct reading, which with many sessions is nearly one per step,
 * so a few numbers each rather than an object and a text key each: equal readings are
 * found by an open-addressing table of entry indices over a hash of the numbers.
 */
export class PackedStepCounts {
  /** In shared memory, so α's grid (alpha-grid.ts) hands it to its helper thread without a copy. */
  private data: Float64Array;
  private used = 0;
  /** Entry index + 1 at each slot, 0 where empty; the size a power of two. */
  private slots: Int32Array;
  private readonly bits = new Float64Array(1);
  private readonly words = new Uint32Array(this.bits.buffer);

  /**
   * `entries` is how many entries there will be at most, when known (one per step): the
   * numbers are then allocated once, at that size, and never copied into a larger array
   * (with 100,000 steps each doubling left a dead shared buffer of megabytes behind).
   */
  constructor(
    /** Numbers per entry's counts: two per level. */
    readonly width: number,
    entries = 0,
  ) {
    this.data = sharedFloats(Math.max(1024, entries * (width + 1)));
    this.slots = new Int32Array(Math.max(1024, 2 ** Math.ceil(Math.log2(2 * entries + 1))));
  }

  get length(): number {
    return this.used / (this.width + 1);
  }

  /** Empty again, keeping its arrays for as many entries as it had room for. */
  clear(): void {
    this.used = 0;
    this.slots.fill(0);
  }

  /** Whether it has room for `entries` entries without growing. */
  holdsUpTo(entries: number): boolean {
    return entries * (this.width + 1) <= this.data.length && 2 * entries < this.slots.length;
  }

  /** The entries' numbers, `width + 1` each. */
  get values(): Float64Array {
    return this.data.subarray(0, this.used);
  }

  /** Adds `weight` to the entry of `counts`, made (last) if new. */
  add(counts: readonly number[], weight: number): void {
    const w = this.width + 1;
    const mask = this.slots.length - 1;
    for (let slot = this.hash(counts, 0) & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot]!;
      if (held === 0) break;
      if (this.holds(held - 1, counts)) {
        this.data[(held - 1) * w + this.width]! += weight;
        return;
      }
    }
    if (this.used + w > this.data.length) {
      const grown = sharedFloats(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(counts, this.used);
    this.data[this.used + this.width] = weight;
    this.used += w;
    const n = this.used / w;
    if (2 * n > this.slots.length) this.rehash();
    else this.place(n - 1, counts);
  }

  private holds(i: number, counts: readonly number[]): boolean {
    const at = i * (this.width + 1);
    for (let k = 0; k < this.width; k++) if (this.data[at + k] !== counts[k]) return false;
    return true;
  }

  private place(i: number, counts: ArrayLike<number>): void {
    const mask = this.slots.length - 1;
    let slot = this.hash(counts, 0) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = i + 1;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const w = this.width + 1;
    for (let i = 0; i < this.used / w; i++) this.place(i, this.data.subarray(i * w, i * w + this.width));
  }

  /** FNV-1a over the numbers' bits (0 and -0 alike, as they are equal). */
  private hash(counts: ArrayLike<number>, from: number): number {
    let h = 0x811c9dc5;
    for (let k = 0; k < this.width; k++) {
      this.bits[0] = counts[from + k]! + 0;
      h = Math.imul(h ^ this.words[0]!, 0x01000193);
      h = Math.imul(h ^ this.words[1]!, 0x01000193);
    }
    return h >>> 0;
  }
}

function sharedFloats(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(n * Float64Array.BYTES_PER_ELEMENT));
}

/**
 * The counts each step's prediction read, merged where equal (weights add), in first-seen
 * order; into `reuse` (cleared) when it has room, so that a second α over as many steps
 * does not leave the first one's megabytes to the collector.
 */
export function prequentialCounts(order: number, train: readonly TrainingEpisode[], reuse?: PackedStepCounts): PackedStepCounts {
  const tables = Array.from({ length: order + 1 }, () => new CountTable());
  let steps = 0;
  for (const ep of train) steps += ep.actions.length;
  const width = 2 * (order + 1);
  const out = reuse !== undefined && reuse.width === width && reuse.holdsUpTo(steps) ? reuse : new PackedStepCounts(width, steps);
  if (out === reuse) out.clear();
  const counts: number[] = new Array<number>(out.width);
  for (const ep of train) {
    ep.actions.forEach((a, t) => {
      for (let j = 0; j <= order; j++) {
        const c = tables[j]!.get(ep.symbols, t, j);
        counts[2 * j] = c?.byAction.get(a) ?? 0;
        counts[2 * j + 1] = c?.total ?? 0;
      }
      out.add(counts, ep.weight);
      for (let j = 0; j <= order; j++) addAction(tables[j]!.at(ep.symbols, t, j), a, ep.weight);
    });
  }
  return out;
}

/** Step counts as a list of entries or packed. */
export type StepCountList = readonly StepCounts[] | PackedStepCounts;

/** The prequential log-likelihood at `alpha` over `vocabSize` actions. */
export function prequentialLogLik(steps: StepCountList, alpha: number, vocabSize: number): number {
  if (steps instanceof PackedStepCounts) return packedLogLik(steps.values, steps.width, alpha, vocabSize);
  // A list is scored as packed entries, so both forms give the same number bit for bit.
  const width = steps[0]?.counts.length ?? 0;
  const packed = new Float64Array(steps.length * (width + 1));
  steps.forEach(({ counts, weight }, i) => {
    packed.set(counts, i * (width + 1));
    packed[i * (width + 1) + width] = weight;
  });
  return packedLogLik(packed, width, alpha, vocabSize);
}

/** The unnormalized log posterior of log α. */
export function logPosterior(steps: StepCountList, logAlpha: number, vocabSize: number): number {
  return prequentialLogLik(steps, Math.exp(logAlpha), vocabSize) - (logAlpha * logAlpha) / (2 * PRIOR_SD * PRIOR_SD);
}

/**
 * exp of the posterior median of log α. A coarse grid over the whole range finds the
 * interval where the posterior is not negligible (one coarse step beyond it each side);
 * a fine grid there gives the cumulative mass by the trapezoid rule, and the median is
 * where that mass crosses one half, the density taken as linear within the interval that
 * crosses it (as the rule takes it). 101 fine points put the median within 5e-5 of a
 * 20,001-point grid's in log α on the bench's sessions (docs/learning.md). Each point
 * costs a pass over the merged step counts, so with many steps the points are shared
 * with a second thread (alpha-grid.ts), unless `share` is false.
 */
export function posteriorMedianAlpha(steps: StepCountList, vocabSize: number, share = true): number {
  const grid = (xs: number[]): number[] =>
    steps instanceof PackedStepCounts
      ? logPosteriors(steps.values, steps.width, vocabSize, xs, share)
      : xs.map((x) => logPosterior(steps, x, vocabSize));
  const coarse = Math.round((GRID_MAX - GRID_MIN) / COARSE_STEP) + 1;
  const cx = Array.from({ length: coarse }, (_, i) => GRID_MIN + i * COARSE_STEP);
  const clp = grid(cx);
  const peak = Math.max(...clp);
  const first = clp.findIndex((l) => l > peak - NEGLIGIBLE_NATS);
  const last = clp.length - 1 - [...clp].reverse().findIndex((l) => l > peak - NEGLIGIBLE_NATS);
  const lo = cx[Math.max(0, first - 1)]!;
  const hi = cx[Math.min(coarse - 1, last + 1)]!;
  const step = (hi - lo) / (FINE_POINTS - 1);
  const xs = Array.from({ length: FINE_POINTS }, (_, i) => lo + i * step);
  const lp = grid(xs);
  const top = Math.max(...lp);
  const dens = lp.map((l) => Math.exp(l - top));
  const cum = [0];
  for (let i = 1; i < FINE_POINTS; i++) cum.push(cum[i - 1]! + ((dens[i - 1]! + dens[i]!) / 2) * step);
  const half = cum[FINE_POINTS - 1]! / 2;
  let i = 1;
  while (i < FINE_POINTS - 1 && cum[i]! < half) i++;
  return Math.exp(xs[i - 1]! + crossing(dens[i - 1]!, dens[i]!, (half - cum[i - 1]!) / step) * step);
}

/**
 * Where, as a fraction of the interval, the mass `need` (in units of the step) is reached
 * when the density runs linearly from `f0` to `f1` across it, as the trapezoid rule has it:
 * the root in [0, 1] of f0·t + (f1 − f0)·t²/2 = need.
 */
function crossing(f0: number, f1: number, need: number): number {
  // The root written so that it neither cancels nor divides by a slope near zero.
  const root = Math.sqrt(Math.max(0, f0 * f0 + 2 * (f1 - f0) * need));
  const denominator = f0 + root;
  return denominator > 0 ? Math.min(1, Math.max(0, (2 * need) / denominator)) : 0;
}
