/**
 * The code-feature search's view of the field table: each candidate's value at every
 * training step as a small number (its value's place among the candidate's values), so
 * that a trial map's feature ids and the symbols it gives are found by numbers rather
 * than by the values' texts, once per candidate per round.
 *
 * What it computes is what `mapOf` and `encodeWith` compute: a tool's ids are its value
 * combinations among its successful calls, in sorted order, 1..MAX_IDS, and each of its
 * call steps (failed ones too) reads the id of its combination, or 0.
 */
import { OK, symbol } from "../flow/decide/index.js";
import { compareKeys, type CodeField } from "../flow/ir/index.js";
import { FRESH, type ScratchArrays } from "./scratch-arrays.js";
import type { TrainingEpisode } from "./training-set.js";

/** The values a candidate took, and each step's value as its index in them (−1: another tool's step). */
interface Column {
  values: string[];
  codes: Int32Array;
}

export interface FeatureColumns {
  /** Per step: its action, outcome and tool (undefined for a reply), episode after episode. */
  action: Int32Array;
  outcome: Int32Array;
  tool: (string | undefined)[];
  /** Per candidate, in the table's order. */
  columns: Column[];
}

/**
 * The columns of `candidates`, read from the table's values (`values[e][t]`: step t of
 * episode e, its tool's candidates' values in `index` order).
 */
export function featureColumns(
  train: readonly TrainingEpisode[],
  candidates: readonly [string, CodeField][],
  placeOf: (tool: string, field: CodeField) => number,
  values: readonly (readonly (readonly string[] | undefined)[])[],
): FeatureColumns {
  let total = 0;
  for (const ep of train) total += ep.steps.length;
  const action = new Int32Array(total);
  const outcome = new Int32Array(total);
  const tool: (string | undefined)[] = new Array<string | undefined>(total);
  const columns: Column[] = candidates.map(() => ({ values: [], codes: new Int32Array(total).fill(-1) }));
  const byTool = new Map<string, { column: Column; place: number; code: Map<string, number> }[]>();
  candidates.forEach(([t, field], c) => {
    let own = byTool.get(t);
    if (own === undefined) byTool.set(t, (own = []));
    own.push({ column: columns[c]!, place: placeOf(t, field), code: new Map() });
  });
  let i = 0;
  train.forEach((ep, e) => {
    ep.steps.forEach((s, t) => {
      action[i] = ep.actions[t]!;
      outcome[i] = s.outcome;
      if (s.kind === "call") {
        tool[i] = s.tool;
        const own = byTool.get(s.tool);
        const row = values[e]?.[t];
        if (own !== undefined && row !== undefined) {
          for (const { column, place, code } of own) {
            const v = row[place]!;
            let n = code.get(v);
            if (n === undefined) {
              code.set(v, (n = column.values.length));
              column.values.push(v);
            }
            column.codes[i] = n;
          }
        }
      }
      i++;
    });
  });
  return { action, outcome, tool, columns };
}

/**
 * Every step's symbol under a trial map: `fields` gives each tool's candidates (their
 * indices in the columns), in the map's field order.
 */
export function trialSymbols(
  cols: FeatureColumns,
  fields: ReadonlyMap<string, readonly number[]>,
  maxIds: number,
  scratch: Pick<ScratchArrays, "zeros"> = FRESH,
): Float64Array {
  const n = cols.action.length;
  const feature = scratch.zeros("feature", "int32", n);
  for (const [t, cs] of fields) {
    const columns = cs.map((c) => cols.columns[c]!);
    // A combination's key: its codes in mixed radix (each column's number of values).
    const radix = columns.map((c) => Math.max(1, c.values.length));
    if (radix.reduce((a, b) => a * b, 1) > Number.MAX_SAFE_INTEGER) throw new Error(`too many value combinations for ${t}'s code fields`);
    const keyAt = (i: number): number => {
      let key = 0;
      columns.forEach((c, k) => (key = key * radix[k]! + c.codes[i]!));
      return key;
    };
    const combos = new Map<number, string[]>();
    for (let i = 0; i < n; i++) {
      if (cols.tool[i] !== t || cols.outcome[i] !== OK) continue;
      const key = keyAt(i);
      if (!combos.has(key)) combos.set(key, columns.map((c) => c.values[c.codes[i]!]!));
    }
    const ids = new Map<number, number>();
    [...combos]
      .sort(([, a], [, b]) => compareKeys(a, b))
      .slice(0, maxIds)
      .forEach(([key], k) => ids.set(key, k + 1));
    for (let i = 0; i < n; i++) if (cols.tool[i] === t) feature[i] = ids.get(keyAt(i)) ?? 0;
  }
  const out = scratch.zeros("symbols", "float64", n);
  for (let i = 0; i < n; i++) out[i] = symbol(cols.action[i]!, cols.outcome[i]!, feature[i]!);
  return out;
}
