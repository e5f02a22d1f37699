/**
 * The habit and reach models: back-off counts of what each
 * step did after the symbols before it, a group layer over the longest contexts, and the
 * counts of what came before the next write.
 */
import type { BackoffModel, GroupedModel } from "../flow/ir/index.js";
import { PairMap } from "../flow/ir/index.js";
import { CountTable, addAction } from "./count-table.js";
import type { TrainingEpisode } from "./training-set.js";

export const ORDER = 2;

function backoffOf(tables: CountTable[], alpha: number, vocabSize: number): BackoffModel {
  return { order: tables.length - 1, alpha, vocabSize, levels: tables.map((t) => t.toPairMap()) };
}

/** At each step, the step's action after the symbols before it, at every level 0..order. */
export function fitGrouped(order: number, alpha: number, vocabSize: number, group: number, train: readonly TrainingEpisode[]): GroupedModel {
  const tables = Array.from({ length: order + 1 }, () => new CountTable());
  // The group layer over the longest contexts: one group here, so keyed by the context alone.
  const top = new CountTable();
  for (const ep of train) {
    ep.actions.forEach((a, t) => {
      for (let j = 0; j <= order; j++) addAction(tables[j]!.at(ep.symbols, t, j), a, ep.weight);
      addAction(top.at(ep.symbols, t, order), a, ep.weight);
    });
  }
  const grouped = top.contexts().map((e) => [[group, e.context] as [number, number[]], e.counts] as const);
  return { base: backoffOf(tables, alpha, vocabSize), beta: alpha, top: new PairMap(grouped) };
}

/**
 * At each step, the distinct actions from it up to (not including) the next write, after
 * the symbols before it. A step that is itself a write counts in the total with no action.
 */
export function fitReach(order: number, alpha: number, vocabSize: number, train: readonly TrainingEpisode[], isWrite: (action: number) => boolean): BackoffModel {
  const tables = Array.from({ length: order + 1 }, () => new CountTable());
  for (const ep of train) {
    // Walk backwards so each step's set is the next step's plus its own action.
    const reached: Set<number>[] = new Array<Set<number>>(ep.actions.length);
    let ahead = new Set<number>();
    for (let t = ep.actions.length - 1; t >= 0; t--) {
      const a = ep.actions[t]!;
      ahead = isWrite(a) ? new Set() : new Set([...ahead, a]);
      reached[t] = ahead;
    }
    ep.actions.forEach((_, t) => {
      for (let j = 0; j <= order; j++) {
        const counts = tables[j]!.at(ep.symbols, t, j);
        counts.total += ep.weight;
        for (const a of reached[t]!) counts.byAction.set(a, (counts.byAction.get(a) ?? 0) + ep.weight);
      }
    });
  }
  return backoffOf(tables, alpha, vocabSize);
}
