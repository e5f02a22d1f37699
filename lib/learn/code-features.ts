/**
 * Code features (facts-flows §5.1 step 5, the flow's `map`): a few fields of tool outputs
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
import { compareCodePoints, isObject, type Json } from "../trace/json.js";
import { fieldValues, habitPredict, symbol } from "../flow/decide/index.js";
import { PairMap, compareKeys, type CodeField, type FeatureMap } from "../flow/ir/index.js";
import { fitGrouped } from "./fit-habit.js";
import type { TrainingEpisode } from "./training-set.js";

export const MAX_FIELDS = 8;
export const MIN_GAIN_NATS = 5;
export const CV_FOLDS = 5;
export const MAX_IDS = 63;
const MIN_VALUES = 2;
const MAX_VALUES = 8;
const MAX_SHARE = 0.98;

export const emptyMap = (): FeatureMap => ({ fields: new Map(), ids: new PairMap() });

/** Each tool's successful outputs in the training episodes. */
function outputsByTool(train: readonly TrainingEpisode[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const ep of train) {
    for (const s of ep.steps) {
      if (s.kind !== "call" || s.output === undefined) continue;
      const list = out.get(s.tool);
      if (list === undefined) out.set(s.tool, [s.output]);
      else list.push(s.output);
    }
  }
  return out;
}

function parse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** The fields an output offers: scalars and arrays at the top level and one level down. */
function fieldsOf(v: Json | undefined, into: Map<string, CodeField>): void {
  if (!isObject(v)) return;
  const visit = (path: string, x: Json, depth: number) => {
    if (Array.isArray(x)) into.set(`L${path}`, { kind: "len", path });
    else if (isObject(x)) {
      if (depth === 0) for (const k of Object.keys(x)) visit(`${path}.${k}`, x[k]!, 1);
    } else into.set(`S${path}`, { kind: "scalar", path });
  };
  for (const k of Object.keys(v)) visit(`$.${k}`, v[k]!, 0);
}

/** The candidate fields of each tool, in a fixed order (by tool, then path). */
export function candidateFields(train: readonly TrainingEpisode[]): [string, CodeField][] {
  const out: [string, CodeField][] = [];
  const byTool = outputsByTool(train);
  for (const tool of [...byTool.keys()].sort(compareCodePoints)) {
    const outputs = byTool.get(tool)!;
    const offered = new Map<string, CodeField>();
    for (const o of outputs) fieldsOf(parse(o), offered);
    for (const key of [...offered.keys()].sort(compareCodePoints)) {
      const field = offered.get(key)!;
      const counts = new Map<string, number>();
      for (const o of outputs) {
        const [v] = fieldValues([field], o);
        counts.set(v!, (counts.get(v!) ?? 0) + 1);
      }
      const top = Math.max(...counts.values());
      if (counts.size >= MIN_VALUES && counts.size <= MAX_VALUES && top <= MAX_SHARE * outputs.length) out.push([tool, field]);
    }
  }
  return out;
}

/** The map of `fields`: each tool's value combinations seen in training, numbered 1..63 in sorted order. */
export function mapOf(fields: ReadonlyMap<string, readonly CodeField[]>, train: readonly TrainingEpisode[]): FeatureMap {
  const ids = new PairMap<[string, string[]], number>();
  const byTool = outputsByTool(train);
  for (const [tool, fs] of fields) {
    const combos = new Map<string, string[]>();
    for (const o of byTool.get(tool) ?? []) {
      const values = fieldValues(fs, o);
      combos.set(JSON.stringify(values), values);
    }
    [...combos.values()]
      .sort(compareKeys)
      .slice(0, MAX_IDS)
      .forEach((values, i) => ids.set([tool, values], i + 1));
  }
  return { fields: new Map([...fields].map(([t, fs]) => [t, [...fs]])), ids };
}

/** The training episodes with each step's symbol carrying its feature under `map`. */
export function encodeWith(map: FeatureMap, train: readonly TrainingEpisode[]): TrainingEpisode[] {
  return train.map((ep) => ({
    ...ep,
    symbols: ep.steps.map((s, t) => {
      if (s.kind === "respond") return symbol(0, s.outcome, 0);
      const fields = map.fields.get(s.tool);
      const feature = fields === undefined ? 0 : (map.ids.get([s.tool, fieldValues(fields, s.output)]) ?? 0);
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
  alpha: number,
  vocabSize: number,
  order: number,
  group: number,
): { map: FeatureMap; train: readonly TrainingEpisode[] } {
  const candidates = candidateFields(train);
  if (candidates.length === 0) return { map: emptyMap(), train };
  const chosen = new Map<string, CodeField[]>();
  let best = crossValidated(train, alpha, vocabSize, order, group);
  let encoded = train;
  let map = emptyMap();
  const taken = new Set<number>();
  for (let round = 0; round < MAX_FIELDS; round++) {
    let pick: { i: number; ll: number; map: FeatureMap; train: TrainingEpisode[] } | undefined;
    candidates.forEach(([tool, field], i) => {
      if (taken.has(i)) return;
      const trial = new Map([...chosen].map(([t, fs]) => [t, [...fs]]));
      trial.set(tool, [...(trial.get(tool) ?? []), field]);
      const m = mapOf(trial, train);
      const t = encodeWith(m, train);
      const ll = crossValidated(t, alpha, vocabSize, order, group);
      if (pick === undefined || ll > pick.ll) pick = { i, ll, map: m, train: t };
    });
    if (pick === undefined || pick.ll - best < MIN_GAIN_NATS) break;
    const [tool, field] = candidates[pick.i]!;
    taken.add(pick.i);
    chosen.set(tool, [...(chosen.get(tool) ?? []), field]);
    best = pick.ll;
    map = pick.map;
    encoded = pick.train;
  }
  return { map, train: encoded };
}
