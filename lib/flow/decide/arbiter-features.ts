/**
 * The arbiter's features of one option, in this order:
 * ln habit prior, ln one-question answer, ln split answer, respond, one per weighed
 * predicate, and the reliability of the model's pick at this site.
 */
import type { Favors, Fitted, Predicate } from "../ir/flow-types.js";
import { RESPOND } from "./types.js";

export const FLOOR = 1e-6;
export const CLAMP = 1e-4;
/** The prior weight of the pooled rates in reliability and coverage. */
export const SHRINK = 10;

export function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/** Whether a predicate bears on an option. */
export function bears(favors: Favors, option: string, prev: string): boolean {
  if (typeof favors === "object") return option === favors.lookup;
  switch (favors) {
    case "same_lookup":
      return option === prev;
    case "any_lookup":
      return option !== RESPOND;
    case "hand_back":
      return option === RESPOND;
  }
}

/** `(agreed + 10·agree) / (decisions + 10)`: how often the model's pick was right at `site`. */
export function reliability(fitted: Fitted, site: string): number {
  const [decisions, agreed] = fitted.rates.sites.get(site) ?? [0, 0, 0];
  return (agreed + SHRINK * fitted.rates.agree) / (decisions + SHRINK);
}

/** `(covered + 10·cover) / (decisions + 10)`: the share of decisions the arbiter covers at `site`. */
export function coverage(fitted: Fitted, site: string): number {
  const [decisions, , covered] = fitted.rates.sites.get(site) ?? [0, 0, 0];
  return (covered + SHRINK * fitted.rates.cover) / (decisions + SHRINK);
}

export interface FeatureInput {
  options: readonly string[];
  prev: string;
  site: string;
  habit: ReadonlyMap<string, number>;
  one: ReadonlyMap<string, number>;
  two: ReadonlyMap<string, number>;
  weighed: readonly Predicate[];
  /** Predicate id → P(yes), for the predicates answered. */
  answers: ReadonlyMap<string, number>;
  /** The option the model picked in the one-question answer. */
  pick: string;
  fitted: Fitted;
}

/** One feature row per option, in option order. */
export function arbiterFeatures(input: FeatureInput): number[][] {
  const r = reliability(input.fitted, input.site);
  const picked = input.options.indexOf(input.pick);
  const pickIndex = picked === -1 ? input.options.indexOf(RESPOND) : picked;
  return input.options.map((option, i) => {
    const row = [
      Math.log(Math.max(input.habit.get(option) ?? 0, FLOOR)),
      Math.log(Math.max(input.one.get(option) ?? 0, FLOOR)),
      Math.log(Math.max(input.two.get(option) ?? 0, FLOOR)),
      option === RESPOND ? 1 : 0,
    ];
    for (const p of input.weighed) {
      const a = input.answers.get(p.id);
      row.push(a !== undefined && bears(p.favors, option, input.prev) ? logit(Math.min(Math.max(a, CLAMP), 1 - CLAMP)) : 0);
    }
    row.push(i === pickIndex ? logit(r) : 0);
    return row;
  });
}

/** Softmax of `weights · x` over the options, each times the site's coverage. */
export function conditionalLogit(rows: readonly number[][], fitted: Fitted, site: string): number[] {
  const scores = rows.map((x) => x.reduce((sum, xi, k) => sum + (fitted.weights[k] ?? 0) * xi, 0));
  const top = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - top));
  const total = exps.reduce((a, b) => a + b, 0);
  const cover = coverage(fitted, site);
  return exps.map((e) => (e / total) * cover);
}
