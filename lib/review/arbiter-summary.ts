/**
 * A flow's arbiter in the terms a review uses (docs/flow-review.md): the names of its
 * weights in feature order, their mean over the folds, and the System-One model's record.
 */
import type { Flow, Predicate } from "../flow/ir/flow-types.js";

/** The names of the arbiter's weights, in feature order. */
export function weightNames(flow: Flow): string[] {
  return [
    "ln the habit's probability",
    "ln the one-question probability",
    "ln the split question's probability",
    "handing back",
    ...flow.weighed.map((q) => `predicate \`${q.id}\``),
    "the model's record at the site, on its pick",
  ];
}

/** Each weight's mean over the folds. */
export function meanWeights(flow: Flow): number[] {
  const n = Math.max(flow.folds.length, 1);
  const mean = new Array<number>(flow.folds[0]?.weights.length ?? 0).fill(0);
  for (const fold of flow.folds) fold.weights.forEach((w, i) => i < mean.length && (mean[i]! += w / n));
  return mean;
}

/** Whether every fold holds the same fit. */
export function oneFit(flow: Flow): boolean {
  const fits = flow.folds.map((f) => JSON.stringify({ weights: f.weights, rates: { sites: [...f.rates.sites], agree: f.rates.agree, cover: f.rates.cover } }));
  return fits.every((f) => f === fits[0]);
}

/** The model's record over the folds: its pick's agreement, its coverage, and the sites scored. */
export function modelRecord(flow: Flow): { agree: number; cover: number; sites: number } {
  const n = flow.folds.length;
  const sites = new Set<string>();
  let agree = 0;
  let cover = 0;
  for (const f of flow.folds) {
    agree += f.rates.agree / n;
    cover += f.rates.cover / n;
    for (const site of f.rates.sites.keys()) sites.add(site);
  }
  return { agree, cover, sites: sites.size };
}

/** Two predicates are the same question when every field is. */
export function samePredicate(a: Predicate, b: Predicate): boolean {
  return JSON.stringify([a.id, a.favors, a.question, a.yes, a.no]) === JSON.stringify([b.id, b.favors, b.question, b.yes, b.no]);
}

/** Predicates' ids as "`a`, `b`", or `none`. */
export function predicateIds(predicates: readonly Predicate[]): string {
  return predicates.length === 0 ? "none" : predicates.map((q) => `\`${q.id}\``).join(", ");
}
