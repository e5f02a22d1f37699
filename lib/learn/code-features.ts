/**
 * Code features: a few fields of tool outputs
 * that change what the agent does next (an order's status, whether a list is empty) become
 * part of each step's symbol, so the habit can tell "read an open order" from "read a
 * closed one".
 *
 * Candidates are each tool's top-level and one-level-nested scalars (`Scalar`) and arrays
 * (`Len`, read as 0, 1 or 2+) that take 2 to 8 values, none in more than 98% of the
 * outputs. Fields are added one at a time, the best first, while the habit's grouped 5-fold
 * cross-validated log-likelihood (episodes never split across folds) gains at least
 * 5 nats, up to 8 fields. A tool's ids are its value combinations in sorted order, 1..63.
 */
import type { Episode } from "../trace/index.js";
import { OK, habitPredict, symbol } from "../flow/decide/index.js";
import { PairMap, compareKeys, type CodeField, type FeatureMap } from "../flow/ir/index.js";
import { denseCrossValidated, denseSteps } from "./dense-habit.js";
import { featureColumns, trialSymbols } from "./feature-columns.js";
import { ScratchArrays } from "./scratch-arrays.js";
import { fieldKey, fieldTable, type FieldTable } from "./field-table.js";
import { fitGrouped } from "./fit-habit.js";
import type { TrainingEpisode } from "./training-set.js";

export const MAX_FIELDS = 8;
export const MIN_GAIN_NATS = 5;
export const CV_FOLDS = 5;
export const MAX_IDS = 63;

export { fieldTable, FieldTableBuilder, type FieldTable } from "./field-table.js";

export const emptyMap = (): FeatureMap => ({ fields: new Map(), ids: new PairMap() });

/** The candidate fields of each tool, in a fixed order (by tool, then path). */
export function candidateFields(training: Iterable<Episode>): [string, CodeField][] {
  return fieldTable(training).candidates;
}

/** The values `fields` (some of its tool's candidates) read at step `t` of episode `e`. */
function valuesAt(table: FieldTable, tool: string, fields: readonly CodeField[], e: number, t: number): string[] {
  const own = table.byTool.get(tool)!;
  const all = table.values[e]![t]!;
  return fields.map((f) => all[own.index.get(fieldKey(f))!]!);
}

/** The map of `fields`: each tool's value combinations seen in training, numbered 1..63 in sorted order. */
export function mapOf(fields: ReadonlyMap<string, readonly CodeField[]>, train: readonly TrainingEpisode[], table: FieldTable): FeatureMap {
  const ids = new PairMap<[string, string[]], number>();
  for (const [tool, fs] of fields) {
    const combos = new Map<string, string[]>();
    train.forEach((ep, e) => {
      ep.steps.forEach((s, t) => {
        // The results a call returned: the successful calls.
        if (s.kind !== "call" || s.tool !== tool || s.outcome !== OK) return;
        const values = valuesAt(table, tool, fs, e, t);
        combos.set(JSON.stringify(values), values);
      });
    });
    [...combos.values()]
      .sort(compareKeys)
      .slice(0, MAX_IDS)
      .forEach((values, i) => ids.set([tool, values], i + 1));
  }
  return { fields: new Map([...fields].map(([t, fs]) => [t, [...fs]])), ids };
}

/** The training episodes with each step's symbol carrying its feature under `map`. */
export function encodeWith(map: FeatureMap, train: readonly TrainingEpisode[], table: FieldTable): TrainingEpisode[] {
  return train.map((ep, e) => ({
    ...ep,
    symbols: ep.steps.map((s, t) => {
      if (s.kind === "respond") return symbol(0, s.outcome, 0);
      const fields = map.fields.get(s.tool);
      const feature = fields === undefined ? 0 : (map.ids.get([s.tool, valuesAt(table, s.tool, fields, e, t)]) ?? 0);
      return symbol(ep.actions[t]!, s.outcome, feature);
    }),
  }));
}

/** The habit's held-out log-likelihood, episodes dealt to folds in turn. */
export function crossValidated(train: readonly TrainingEpisode[], alpha: number, vocabSize: number, order: number, group: number): number {
  let sum = 0;
  for (let f = 0; f < CV_FOLDS; f++) {
    const held = train.filter((_, i) => i % CV_FOLDS === f);
    if (held.length === 0) continue;
    const model = fitGrouped(order, alpha, vocabSize, group, train.filter((_, i) => i % CV_FOLDS !== f));
    for (const ep of held) {
      ep.actions.forEach((a, t) => {
        sum += ep.weight * Math.log(habitPredict(model, group, ep.symbols, t)[a]!);
      });
    }
  }
  return sum;
}

/** The greedy search: the map, and the training episodes encoded with it. */
export function learnFeatures(
  train: readonly TrainingEpisode[],
  table: FieldTable,
  alpha: number,
  vocabSize: number,
  order: number,
  // Every step is in the one group, so the group layer's contexts are the top level's.
  _group: number,
): { map: FeatureMap; train: readonly TrainingEpisode[] } {
  const candidates = table.candidates;
  if (candidates.length === 0) return { map: emptyMap(), train };
  // Every trial is scored from dense tables (dense-habit.ts), equal bit for bit to `crossValidated`.
  const cols = featureColumns(train, candidates, (tool, f) => table.byTool.get(tool)!.index.get(fieldKey(f))!, table.values);
  // Every trial's arrays have the same sizes, or nearly: kept from one trial to the next.
  const scratch = new ScratchArrays();
  const score = (fields: ReadonlyMap<string, readonly number[]>): number =>
    denseCrossValidated(denseSteps(train, trialSymbols(cols, fields, MAX_IDS, scratch), order, scratch), CV_FOLDS, alpha, vocabSize, scratch);
  const chosen = new Map<string, number[]>();
  let best = score(chosen);
  const taken = new Set<number>();
  for (let round = 0; round < MAX_FIELDS; round++) {
    let pick: { i: number; ll: number } | undefined;
    candidates.forEach(([tool], i) => {
      if (taken.has(i)) return;
      const trial = new Map([...chosen].map(([t, cs]) => [t, [...cs]]));
      trial.set(tool, [...(trial.get(tool) ?? []), i]);
      const ll = score(trial);
      if (pick === undefined || ll > pick.ll) pick = { i, ll };
    });
    if (pick === undefined || pick.ll - best < MIN_GAIN_NATS) break;
    const [tool] = candidates[pick.i]!;
    taken.add(pick.i);
    chosen.set(tool, [...(chosen.get(tool) ?? []), pick.i]);
    best = pick.ll;
  }
  if (chosen.size === 0) return { map: emptyMap(), train };
  const map = mapOf(new Map([...chosen].map(([t, cs]) => [t, cs.map((c) => candidates[c]![1])])), train, table);
  return { map, train: encodeWith(map, train, table) };
}
