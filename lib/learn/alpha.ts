/**
 * The habit's smoothing α (facts-flows §5.1 step 4): the posterior median of log α under a
 * Normal(0, 2) prior, with the prequential likelihood — the episodes run in order, each
 * action scored by the back-off model of everything before it, then counted.
 *
 * The likelihood of one step depends on α only through the counts its prediction read
 * (at each level, the context's count of the action and its total), so one pass collects
 * those counts, identical ones merged, and every α on the grid is scored from them. The
 * median comes from the posterior on a fine grid of log α: deterministic, and the true
 * median that a sampler only approaches.
 */
import { contextBefore } from "./context-before.js";
import { CountTable, addAction } from "./count-table.js";
import type { TrainingEpisode } from "./training-set.js";

/** The prior's standard deviation on log α. */
export const PRIOR_SD = 2;
/** The range of log α searched: wide enough that the prior leaves nothing beyond it (±7 sd). */
const GRID_MIN = -14;
const GRID_MAX = 14;
/** A coarse pass finds where the posterior lives; the fine grid covers only that. */
const COARSE_STEP = 0.5;
const FINE_POINTS = 401;
/** Log density this far below the peak is left out (e^-40 of it). */
const NEGLIGIBLE_NATS = 40;

/** What one scored step read: per level, the action's count and the context's total; and its weight. */
export interface StepCounts {
  /** `[n(c_0,a), n(c_0), n(c_1,a), n(c_1), …]`. */
  counts: number[];
  weight: number;
}

/** The counts each step's prediction read, merged where equal (weights add). */
export function prequentialCounts(order: number, train: readonly TrainingEpisode[]): StepCounts[] {
  const tables = Array.from({ length: order + 1 }, () => new CountTable());
  const merged = new Map<string, StepCounts>();
  for (const ep of train) {
    ep.actions.forEach((a, t) => {
      const counts: number[] = [];
      for (let j = 0; j <= order; j++) {
        const c = tables[j]!.get(contextBefore(ep.symbols, t, j));
        counts.push(c?.byAction.get(a) ?? 0, c?.total ?? 0);
      }
      const key = counts.join(",");
      const seen = merged.get(key);
      if (seen) seen.weight += ep.weight;
      else merged.set(key, { counts, weight: ep.weight });
      for (let j = 0; j <= order; j++) addAction(tables[j]!.at(contextBefore(ep.symbols, t, j)), a, ep.weight);
    });
  }
  return [...merged.values()];
}

/** The prequential log-likelihood at `alpha` over `vocabSize` actions. */
export function prequentialLogLik(steps: readonly StepCounts[], alpha: number, vocabSize: number): number {
  let sum = 0;
  for (const { counts, weight } of steps) {
    let p = 1 / vocabSize;
    for (let k = 0; k < counts.length; k += 2) p = (counts[k]! + alpha * p) / (counts[k + 1]! + alpha);
    sum += weight * Math.log(p);
  }
  return sum;
}

/** The unnormalized log posterior of log α. */
export function logPosterior(steps: readonly StepCounts[], logAlpha: number, vocabSize: number): number {
  return prequentialLogLik(steps, Math.exp(logAlpha), vocabSize) - (logAlpha * logAlpha) / (2 * PRIOR_SD * PRIOR_SD);
}

/**
 * exp of the posterior median of log α. A coarse grid over the whole range finds the
 * interval where the posterior is not negligible (one coarse step beyond it each side);
 * a fine grid there gives the cumulative mass by the trapezoid rule, and the median is
 * interpolated where it crosses one half. With much data the posterior is narrow, so the
 * fine grid is fine indeed; and each point costs a pass over the merged step counts.
 */
export function posteriorMedianAlpha(steps: readonly StepCounts[], vocabSize: number): number {
  const coarse = Math.round((GRID_MAX - GRID_MIN) / COARSE_STEP) + 1;
  const cx = Array.from({ length: coarse }, (_, i) => GRID_MIN + i * COARSE_STEP);
  const clp = cx.map((x) => logPosterior(steps, x, vocabSize));
  const peak = Math.max(...clp);
  const first = clp.findIndex((l) => l > peak - NEGLIGIBLE_NATS);
  const last = clp.length - 1 - [...clp].reverse().findIndex((l) => l > peak - NEGLIGIBLE_NATS);
  const lo = cx[Math.max(0, first - 1)]!;
  const hi = cx[Math.min(coarse - 1, last + 1)]!;
  const step = (hi - lo) / (FINE_POINTS - 1);
  const xs = Array.from({ length: FINE_POINTS }, (_, i) => lo + i * step);
  const lp = xs.map((x) => logPosterior(steps, x, vocabSize));
  const top = Math.max(...lp);
  const dens = lp.map((l) => Math.exp(l - top));
  const cum = [0];
  for (let i = 1; i < FINE_POINTS; i++) cum.push(cum[i - 1]! + ((dens[i - 1]! + dens[i]!) / 2) * step);
  const half = cum[FINE_POINTS - 1]! / 2;
  let i = 1;
  while (i < FINE_POINTS - 1 && cum[i]! < half) i++;
  // Linear in the cumulative mass within the interval that crosses one half.
  const span = cum[i]! - cum[i - 1]!;
  const frac = span > 0 ? (half - cum[i - 1]!) / span : 0;
  return Math.exp(xs[i - 1]! + frac * step);
}
