/**
 * What the code-feature search reads of the training episodes' results (code-features.ts):
 * each tool's candidate fields, and at every call step the values its tool's candidates
 * read from the step's result. Built in three passes over the episodes — the fields each
 * tool's results offer; how many values each takes (a field is dropped once it has more
 * than allowed); each step's values of the fields kept — by a builder the learner feeds
 * alongside its other passes, so the store is not read once more for each.
 */
import { compareCodePoints, isObject, type Json } from "../trace/json.js";
import type { Episode } from "../trace/index.js";
import { fieldValues, steps, type Step } from "../flow/decide/index.js";
import type { CodeField } from "../flow/ir/index.js";

const MIN_VALUES = 2;
const MAX_VALUES = 8;
const MAX_SHARE = 0.98;

/**
 * Each tool's candidate fields and, at every call step, the values its tool's candidates
 * read from the step's result (all MISSING for a failed call, which has none). Everything
 * else of the results is let go, so the search holds a few short strings a step.
 */
export interface FieldTable {
  /** The candidates, by tool then path. */
  candidates: [string, CodeField][];
  /** Each tool's candidates, in the order above, with each one's place by its key. */
  byTool: Map<string, { fields: CodeField[]; index: Map<string, number> }>;
  /** Per training episode, per step: its tool's candidates' values, or undefined. */
  values: (readonly string[] | undefined)[][];
}

function parse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

export const fieldKey = (f: CodeField): string => `${f.kind === "len" ? "L" : "S"}${f.path}`;

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

/** Per tool: its offered fields in key order, each with its value counts (undefined once too many). */
type Tally = Map<string, { fields: CodeField[]; counts: (Map<string, number> | undefined)[]; outputs: number }>;

/**
 * The table, built from the training episodes' steps given three times in the same order:
 * to `offer`, then to `count`, then (when `needsValues`) to `values`.
 */
export class FieldTableBuilder {
  private readonly offered = new Map<string, Map<string, CodeField>>();
  private tally: Tally | undefined;
  private kept: Pick<FieldTable, "candidates" | "byTool"> | undefined;
  private readonly rows: FieldTable["values"] = [];
  /** The same few values recur: one string each. */
  private readonly interned = new Map<string, string>();

  /** Pass 1: the fields each successful call's result offers. */
  offer(s: readonly Step[]): void {
    for (const step of s) {
      if (step.kind !== "call" || step.output === undefined) continue;
      let fields = this.offered.get(step.tool);
      if (fields === undefined) this.offered.set(step.tool, (fields = new Map<string, CodeField>()));
      fieldsOf(parse(step.output), fields);
    }
  }

  /** Pass 2: the values each offered field takes, until it takes too many. */
  count(s: readonly Step[]): void {
    const tally = (this.tally ??= this.startTally());
    for (const step of s) {
      if (step.kind !== "call" || step.output === undefined) continue;
      const t = tally.get(step.tool)!;
      t.outputs++;
      const live = t.fields.filter((_, i) => t.counts[i] !== undefined);
      if (live.length === 0) continue;
      const values = fieldValues(live, step.output);
      let k = 0;
      t.fields.forEach((_, i) => {
        const counts = t.counts[i];
        if (counts === undefined) return;
        const v = values[k++]!;
        counts.set(v, (counts.get(v) ?? 0) + 1);
        if (counts.size > MAX_VALUES) t.counts[i] = undefined;
      });
    }
  }

  /** After pass 2: whether any field is a candidate, so pass 3 has values to read. */
  get needsValues(): boolean {
    return this.candidates().candidates.length > 0;
  }

  /** Pass 3: each step's values of its tool's candidates. */
  values(s: readonly Step[]): void {
    const { byTool } = this.candidates();
    const intern = (v: string): string => this.interned.get(v) ?? (this.interned.set(v, v), v);
    this.rows.push(
      s.map((step) => {
        if (step.kind !== "call") return undefined;
        const own = byTool.get(step.tool);
        return own === undefined ? undefined : fieldValues(own.fields, step.output).map(intern);
      }),
    );
  }

  table(): FieldTable {
    return { ...this.candidates(), values: this.rows };
  }

  private startTally(): Tally {
    const tally: Tally = new Map();
    for (const tool of [...this.offered.keys()].sort(compareCodePoints)) {
      const fields = [...this.offered.get(tool)!].sort(([a], [b]) => compareCodePoints(a, b)).map(([, f]) => f);
      tally.set(tool, { fields, counts: fields.map(() => new Map()), outputs: 0 });
    }
    return tally;
  }

  /** The candidates: fields with 2 to 8 values, none in more than 98% of their tool's outputs. */
  private candidates(): Pick<FieldTable, "candidates" | "byTool"> {
    if (this.kept !== undefined) return this.kept;
    const tally = (this.tally ??= this.startTally());
    const candidates: [string, CodeField][] = [];
    const byTool: FieldTable["byTool"] = new Map();
    for (const [tool, t] of tally) {
      t.fields.forEach((field, i) => {
        const counts = t.counts[i];
        if (counts === undefined || counts.size < MIN_VALUES) return;
        const top = Math.max(...counts.values());
        if (top > MAX_SHARE * t.outputs) return;
        candidates.push([tool, field]);
        let own = byTool.get(tool);
        if (own === undefined) byTool.set(tool, (own = { fields: [], index: new Map() }));
        own.index.set(fieldKey(field), own.fields.length);
        own.fields.push(field);
      });
    }
    return (this.kept = { candidates, byTool });
  }
}

/** The table of `training`, in three passes over it. */
export function fieldTable(training: Iterable<Episode>): FieldTable {
  const b = new FieldTableBuilder();
  for (const ep of training) b.offer(steps(ep));
  for (const ep of training) b.count(steps(ep));
  if (b.needsValues) for (const ep of training) b.values(steps(ep));
  return b.table();
}
