/**
 * The episodes a habit is learned from, as the models read them: each successful episode's
 * steps, the action id of each step, the symbol it leaves in the history (feature 0: this
 * learner finds no code features), and the episode's weight.
 */
import type { Episode } from "../trace/index.js";
import { steps, symbol, type Step } from "../flow/decide/index.js";

/** A reward at least this close to 1 is a success. */
export const SUCCESS_TOLERANCE = 1e-9;

export interface TrainingEpisode {
  episode: Episode;
  steps: Step[];
  /** Each step's action id (0 for Respond). */
  actions: number[];
  /** Each step's symbol: `(action * 4 + outcome) * 4096 + feature`. */
  symbols: number[];
  weight: number;
}

export function isSuccess(ep: Episode): boolean {
  return ep.reward >= 1 - SUCCESS_TOLERANCE;
}

/**
 * The weight of each of `n` episodes in order: 1, or with a half-life `0.5^(age/h)` where
 * age counts the episodes after it, so the newest weighs 1 and older habits fade.
 */
export function halfLifeWeights(n: number, halfLife: number | undefined): number[] {
  return Array.from({ length: n }, (_, i) => (halfLife === undefined ? 1 : Math.pow(0.5, (n - 1 - i) / halfLife)));
}

export function trainingSet(episodes: readonly Episode[], ids: ReadonlyMap<string, number>, weights: readonly number[]): TrainingEpisode[] {
  return episodes.map((episode, k) => {
    const s = steps(episode);
    const actions = s.map((step) => (step.kind === "respond" ? 0 : ids.get(step.tool)!));
    return { episode, steps: s, actions, symbols: actions.map((a, t) => symbol(a, s[t]!.outcome, 0)), weight: weights[k]! };
  });
}
