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
import { context } from "../plugins/flow/decide/index.js";
import { CountTable, addAction } from "./count-table.js";
import type { TrainingEpisode } from "./training-set.js";

/** The prior's standard deviation on log α. */
export const PRIOR_SD = 2;
/** The grid of log α: wide enough that the prior leaves nothing beyond it (±7 sd). */
const GRID_MIN = -14;
const GRID_MAX = 14;
const GRID_STEP = 0.002;

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
      const history = ep.symbols.slice(0, t);
      const counts: number[] = [];
      for (let j = 0; j <= order; j++) {
        const c = tables[j]!.get(context(history, j));
        counts.push(c?.byAction.get(a) ?? 0, c?.total ?? 0);
      }
      const key = counts.join(",");
      const seen = merged.get(key);
      if (seen) seen.weight += ep.weight;
      else merged.set(key, { counts, weight: ep.weight });
      for (let j = 0; j <= order; j++) addAction(tables[j]!.at(context(history, j)), a, ep.weight);
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

/** exp of the posterior median of log α, from the posterior on the grid (trapezoid rule). */
export function posteriorMedianAlpha(steps: readonly StepCounts[], vocabSize: number): number {
  const n = Math.round((GRID_MAX - GRID_MIN) / GRID_STEP) + 1;
  const xs = Array.from({ length: n }, (_, i) => GRID_MIN + i * GRID_STEP);
  const lp = xs.map((x) => logPosterior(steps, x, vocabSize));
  const top = Math.max(...lp);
  const dens = lp.map((l) => Math.exp(l - top));
  const cum = [0];
  for (let i = 1; i < n; i++) cum.push(cum[i - 1]! + ((dens[i - 1]! + dens[i]!) / 2) * GRID_STEP);
  const half = cum[n - 1]! / 2;
  let i = 1;
  while (i < n - 1 && cum[i]! < half) i++;
  // Linear in the cumulative mass within the interval that crosses one half.
  const span = cum[i]! - cum[i - 1]!;
  const frac = span > 0 ? (half - cum[i - 1]!) / span : 0;
  return Math.exp(xs[i - 1]! + frac * GRID_STEP);
}
