/**
 * The habit: a back-off n-gram over the episode's symbols with a
 * group layer on top, and the prior it puts on a site's options.
 */
import type { BackoffModel, Flow, GroupedModel } from "../ir/flow-types.js";
import { START, vocabIds } from "./symbols.js";
import { RESPOND } from "./types.js";

/** The last `j` symbols of `history`, left-padded with START. */
export function context(history: readonly number[], j: number): number[] {
  const tail = j === 0 ? [] : history.slice(Math.max(0, history.length - j));
  return [...new Array<number>(j - tail.length).fill(START), ...tail];
}

/**
 * The back-off prediction after `history`: start uniform over `vocab_size` actions, then
 * for each level `j = 0..=order` whose table has the context,
 * `P_j(a) = (n(c_j, a) + α·P_{j-1}(a)) / (n(c_j) + α)`. A missing context leaves P as is.
 */
export function backoffPredict(model: BackoffModel, history: readonly number[]): number[] {
  const v = model.vocabSize;
  let p = new Array<number>(v).fill(1 / v);
  for (let j = 0; j <= model.order; j++) {
    const counts = model.levels[j]?.get(context(history, j));
    if (counts === undefined) continue;
    const denominator = counts.total + model.alpha;
    p = p.map((prev, a) => ((counts.byAction.get(a) ?? 0) + model.alpha * prev) / denominator);
  }
  return p;
}

/** The habit's prediction at step `t`: the base back-off, then the group layer if it has the context. */
export function habitPredict(model: GroupedModel, group: number, history: readonly number[], t = history.length): number[] {
  const h = history.slice(0, t);
  const base = backoffPredict(model.base, h);
  const top = model.top.get([group, context(h, model.base.order)]);
  if (top === undefined) return base;
  const denominator = top.total + model.beta;
  return base.map((pb, a) => ((top.byAction.get(a) ?? 0) + model.beta * pb) / denominator);
}

/**
 * The habit prior over a site's options: each lookup gets its predicted probability;
 * respond gets `max(0, 1 − Σ lookups)`, so mass on replies, writes and lookups not offered
 * goes to handing back.
 */
export function habitPrior(flow: Flow, options: readonly string[], predicted: readonly number[]): Map<string, number> {
  const id = vocabIds(flow);
  const prior = new Map<string, number>();
  let lookups = 0;
  for (const option of options) {
    if (option === RESPOND) continue;
    const p = predicted[id(option)] ?? 0;
    prior.set(option, p);
    lookups += p;
  }
  const out = new Map<string, number>();
  for (const option of options) out.set(option, option === RESPOND ? Math.max(0, 1 - lookups) : prior.get(option)!);
  return out;
}
