/**
 * The grouped habit's cross-validated log-likelihood from dense count tables, for the
 * code-feature search, which scores every candidate field by it in every round.
 *
 * Fitting the habit as `fitGrouped` does (a text key and a map per context, a `PairMap`
 * for the group layer) and predicting every action over the whole vocabulary made the
 * search the learner's costliest part. Here each context is numbered once per scoring,
 * each fold's counts are typed arrays indexed by context and action, and a step's
 * prediction is computed for its own action only. The arithmetic is the model's own, in
 * the same order — each count summed over the same episodes in the same order, each
 * level's `(n(c, a) + α·p) / (n(c) + α)`, the group layer's with β = α, a context unseen
 * in training leaving p as it is — so the result is the same number, bit for bit, as
 * `crossValidated` over fitted models (a property spec checks it, weights included).
 */
import { FRESH, type ScratchArrays } from "./scratch-arrays.js";
import type { TrainingEpisode } from "./training-set.js";

/** The training steps in flat arrays, each step's contexts numbered at every level. */
export interface DenseSteps {
  /** Episode `e`'s steps are `start[e]` up to `start[e + 1]`. */
  start: Int32Array;
  weight: Float64Array;
  action: Int32Array;
  /** `context[j][i]`: the number of step i's level-j context (the j symbols before it). */
  context: Int32Array[];
  /** How many distinct contexts each level has. */
  contexts: number[];
}

/**
 * Numbers each step's contexts (`symbols` holds every step's symbol, episode after episode): a level-j context is the level-(j−1) context of the step
 * before it followed by that step's symbol (START padding before the first step), so one
 * numeric key per step and level, never a text.
 */
export function denseSteps(
  train: readonly TrainingEpisode[],
  symbols: ArrayLike<number>,
  order: number,
  scratch: Pick<ScratchArrays, "zeros"> = FRESH,
): DenseSteps {
  let total = 0;
  for (const ep of train) total += ep.actions.length;
  const start = scratch.zeros("start", "int32", train.length + 1);
  const weight = scratch.zeros("weight", "float64", train.length);
  const action = scratch.zeros("action", "int32", total);
  const context = Array.from({ length: order + 1 }, (_, j) => scratch.zeros(`context ${j}`, "int32", total));
  // Symbols numbered densely (0 is the START padding), so a pair of numbers makes one key.
  const symbolIds = new Map<number, number>();
  const symbolId = (s: number): number => {
    let id = symbolIds.get(s);
    if (id === undefined) symbolIds.set(s, (id = symbolIds.size + 1));
    return id;
  };
  // Per level: context key → number. Level 0 has the one empty context, number 0; each
  // level's all-START context is numbered first, so it is 0 too.
  const numbers = Array.from({ length: order + 1 }, () => new Map<number, number>([[-1, 0]]));
  const stride = 1 << 20;
  let i = 0;
  train.forEach((ep, e) => {
    start[e] = i;
    weight[e] = ep.weight;
    for (let t = 0; t < ep.actions.length; t++, i++) {
      action[i] = ep.actions[t]!;
      context[0]![i] = 0;
      for (let j = 1; j <= order; j++) {
        // The level-(j−1) context of step t − 1, then the symbol of step t − 1.
        const before = t === 0 ? 0 : context[j - 1]![i - 1]!;
        const last = t === 0 ? 0 : symbolId(symbols[i - 1]!);
        const key = t === 0 ? -1 : before * stride + last;
        const level = numbers[j]!;
        let n = level.get(key);
        if (n === undefined) level.set(key, (n = level.size));
        context[j]![i] = n;
      }
    }
  });
  start[train.length] = i;
  if (symbolIds.size >= stride) throw new Error(`too many distinct symbols (${symbolIds.size}) to number contexts`);
  return { start, weight, action, context, contexts: numbers.map((m) => m.size) };
}

/** One level's counts: by context and action, the context's total, and whether it was seen. */
interface Level {
  counts: Float64Array;
  totals: Float64Array;
  seen: Uint8Array;
}

/**
 * The habit's held-out log-likelihood, episodes dealt to `folds` folds in turn (episode
 * i to fold i mod folds), each fold scored by a habit counted from the others: the value
 * `crossValidated` gives, computed from dense tables.
 */
export function denseCrossValidated(d: DenseSteps, folds: number, alpha: number, vocabSize: number, scratch: Pick<ScratchArrays, "zeros"> = FRESH): number {
  if (d.weight.every((w) => w === 1)) return unitCrossValidated(d, folds, alpha, vocabSize, scratch);
  const order = d.context.length - 1;
  const episodes = d.weight.length;
  const levels: Level[] = d.contexts.map((n, j) => ({
    counts: scratch.zeros(`counts ${j}`, "float64", n * vocabSize),
    totals: scratch.zeros(`totals ${j}`, "float64", n),
    seen: scratch.zeros(`seen ${j}`, "uint8", n),
  }));
  let sum = 0;
  for (let f = 0; f < folds; f++) {
    if (f >= episodes) continue;
    for (const l of levels) {
      l.counts.fill(0);
      l.totals.fill(0);
      l.seen.fill(0);
    }
    for (let e = 0; e < episodes; e++) {
      if (e % folds === f) continue;
      const w = d.weight[e]!;
      for (let i = d.start[e]!; i < d.start[e + 1]!; i++) {
        const a = d.action[i]!;
        for (let j = 0; j <= order; j++) {
          const c = d.context[j]![i]!;
          const l = levels[j]!;
          l.counts[c * vocabSize + a]! += w;
          l.totals[c]! += w;
          l.seen[c] = 1;
        }
      }
    }
    for (let e = f; e < episodes; e += folds) {
      const w = d.weight[e]!;
      for (let i = d.start[e]!; i < d.start[e + 1]!; i++) {
        const a = d.action[i]!;
        let p = 1 / vocabSize;
        for (let j = 0; j <= order; j++) {
          const c = d.context[j]![i]!;
          const l = levels[j]!;
          if (l.seen[c] === 0) continue;
          p = (l.counts[c * vocabSize + a]! + alpha * p) / (l.totals[c]! + alpha);
        }
        // The group layer: a goal-free flow has one group, so its contexts are the top level's.
        const c = d.context[order]![i]!;
        const top = levels[order]!;
        if (top.seen[c] === 1) p = (top.counts[c * vocabSize + a]! + alpha * p) / (top.totals[c]! + alpha);
        sum += w * Math.log(p);
      }
    }
  }
  return sum;
}

/** One level's whole-set counts and one fold's, as integers (unit weights). */
interface UnitLevel {
  counts: Int32Array;
  totals: Int32Array;
  foldCounts: Int32Array;
  foldTotals: Int32Array;
}

/**
 * {@link denseCrossValidated} when every weight is 1 (no half-life: the usual case). Each
 * count is then a whole number, which a float sum holds exactly in any order, so the steps
 * are counted once for the whole set and once more for each fold, and a fold's training
 * counts are the difference: about half the additions of counting the other folds anew for
 * each fold, for the same counts, so the same log-likelihood bit for bit. A context is seen
 * in training exactly when its count there is not 0.
 */
function unitCrossValidated(d: DenseSteps, folds: number, alpha: number, vocabSize: number, scratch: Pick<ScratchArrays, "zeros">): number {
  const order = d.context.length - 1;
  const episodes = d.weight.length;
  const levels: UnitLevel[] = d.contexts.map((n, j) => ({
    counts: scratch.zeros(`unit counts ${j}`, "int32", n * vocabSize),
    totals: scratch.zeros(`unit totals ${j}`, "int32", n),
    foldCounts: scratch.zeros(`fold counts ${j}`, "int32", n * vocabSize),
    foldTotals: scratch.zeros(`fold totals ${j}`, "int32", n),
  }));
  const count = (from: number, to: number, fold: boolean): void => {
    for (let i = from; i < to; i++) {
      const a = d.action[i]!;
      for (let j = 0; j <= order; j++) {
        const c = d.context[j]![i]!;
        const l = levels[j]!;
        if (fold) {
          l.foldCounts[c * vocabSize + a]!++;
          l.foldTotals[c]!++;
        } else {
          l.counts[c * vocabSize + a]!++;
          l.totals[c]!++;
        }
      }
    }
  };
  count(0, d.start[episodes]!, false);
  let sum = 0;
  for (let f = 0; f < folds; f++) {
    if (f >= episodes) continue;
    for (const l of levels) {
      l.foldCounts.fill(0);
      l.foldTotals.fill(0);
    }
    for (let e = f; e < episodes; e += folds) count(d.start[e]!, d.start[e + 1]!, true);
    for (let e = f; e < episodes; e += folds) {
      const w = d.weight[e]!;
      for (let i = d.start[e]!; i < d.start[e + 1]!; i++) {
        const a = d.action[i]!;
        let p = 1 / vocabSize;
        for (let j = 0; j <= order; j++) {
          const c = d.context[j]![i]!;
          const l = levels[j]!;
          const total = l.totals[c]! - l.foldTotals[c]!;
          if (total === 0) continue;
          p = (l.counts[c * vocabSize + a]! - l.foldCounts[c * vocabSize + a]! + alpha * p) / (total + alpha);
        }
        const c = d.context[order]![i]!;
        const top = levels[order]!;
        const total = top.totals[c]! - top.foldTotals[c]!;
        if (total !== 0) p = (top.counts[c * vocabSize + a]! - top.foldCounts[c * vocabSize + a]! + alpha * p) / (total + alpha);
        sum += w * Math.log(p);
      }
    }
  }
  return sum;
}
