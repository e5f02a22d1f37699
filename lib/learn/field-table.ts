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
import { MISSING, fieldValues, steps, type Step } from "../flow/decide/index.js";
import type { CodeField } from "../flow/ir/index.js";
import { mayOfferNew } from "./may-offer-new.js";
import { GrowingInts } from "./growing-ints.js";

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

/**
 * Per tool: its offered fields in key order, each with its value counts (undefined once too
 * many) and, when the count pass records them, its value at each of the tool's outputs so
 * far (undefined once dropped: a candidate is never dropped, so its column is whole).
 */
type Tally = Map<
  string,
  { index: number; fields: CodeField[]; counts: (Map<string, number> | undefined)[]; columns: (string[] | undefined)[]; outputs: number }
>;

/** Where a step's values are in the recorded columns: its tool's place in the tally, and its output's. */
const NOT_A_CALL = -1;
const NO_OUTPUT = -1;

/**
 * The table, built from the training episodes' steps given three times in the same order:
 * to `offer`, then to `count`, then (when `needsValues`) to `values`. Built to `record`,
 * the count pass keeps each field's values while it can still be a candidate, and the
 * values pass is not needed: the table's values are the same strings, from the same
 * `fieldValues` reading of the same outputs, without parsing every result a third time.
 */
export class FieldTableBuilder {
  private readonly offers = new Map<string, Map<string, CodeField>>();
  private tally: Tally | undefined;
  private kept: Pick<FieldTable, "candidates" | "byTool"> | undefined;
  private readonly rows: FieldTable["values"] = [];
  /** The same few values recur: one string each. */
  private readonly interned = new Map<string, string>();
  /**
   * Per step of the count pass, episode after episode: its tool's place in the tally and
   * its output's (recording only), with where each episode's steps start. One growing
   * array rather than a small one per episode: each small typed array is a separate
   * malloc that lives to the end of the pass, and thousands of them, allocated between
   * the pass's large short-lived buffers, keep glibc from reusing the space those leave.
   */
  private readonly shapes = new GrowingInts();
  private readonly shapeStarts = new GrowingInts();

  constructor(private readonly record = false) {}

  private intern(v: string): string {
    const known = this.interned.get(v);
    if (known !== undefined) return known;
    this.interned.set(v, v);
    return v;
  }

  /** Pass 1: the fields each successful call's result offers. */
  offer(s: readonly Step[]): void {
    for (const step of s) {
      if (step.kind !== "call" || step.output === undefined) continue;
      let fields = this.offers.get(step.tool);
      if (fields === undefined) this.offers.set(step.tool, (fields = new Map<string, CodeField>()));
      // Most outputs offer only fields already offered: those are not parsed.
      if (mayOfferNew(step.output, fields)) fieldsOf(parse(step.output), fields);
    }
  }

  /** Pass 1's result: per tool, the fields its results offered, by key (first-pass.ts sends them between threads). */
  offered(): [string, [string, CodeField][]][] {
    return [...this.offers].map(([tool, fields]) => [tool, [...fields]]);
  }

  /**
   * Offers made elsewhere, as if `offer` had been given the steps that made them: the
   * fields offered are sets (pass 2 sorts them), so where and in what order they were
   * offered does not matter.
   */
  addOffered(offers: readonly [string, readonly [string, CodeField][]][]): void {
    for (const [tool, fields] of offers) {
      let into = this.offers.get(tool);
      if (into === undefined) this.offers.set(tool, (into = new Map<string, CodeField>()));
      for (const [key, f] of fields) into.set(key, f);
    }
  }

  /** Pass 2: the values each offered field takes, until it takes too many. */
  count(s: readonly Step[]): void {
    const tally = (this.tally ??= this.startTally());
    if (this.record) this.shapeStarts.push(this.shapes.length);
    s.forEach((step) => {
      const t = step.kind === "call" ? tally.get(step.tool) : undefined;
      if (this.record) {
        this.shapes.push(t === undefined ? NOT_A_CALL : t.index);
        this.shapes.push(step.kind !== "call" || step.output === undefined || t === undefined ? NO_OUTPUT : t.outputs);
      }
      if (step.kind !== "call") return;
      if (step.output === undefined) return;
      // Every tool with an output was offered in pass 1.
      t!.outputs++;
      const live = t!.fields.filter((_, i) => t!.counts[i] !== undefined);
      if (live.length === 0) return;
      const values = fieldValues(live, step.output);
      let k = 0;
      t!.fields.forEach((_, i) => {
        const counts = t!.counts[i];
        if (counts === undefined) return;
        const v = values[k++]!;
        counts.set(v, (counts.get(v) ?? 0) + 1);
        if (counts.size > MAX_VALUES) {
          t!.counts[i] = undefined;
          t!.columns[i] = undefined;
        } else t!.columns[i]?.push(this.intern(v));
      });
    });
  }

  /** After pass 2: whether pass 3 must read values (some field is a candidate, and the count pass did not record them). */
  get needsValues(): boolean {
    return !this.record && this.candidates().candidates.length > 0;
  }

  /** Pass 3: each step's values of its tool's candidates. */
  values(s: readonly Step[]): void {
    const { byTool } = this.candidates();
    const intern = (v: string): string => this.intern(v);
    this.rows.push(
      s.map((step) => {
        if (step.kind !== "call") return undefined;
        const own = byTool.get(step.tool);
        return own === undefined ? undefined : fieldValues(own.fields, step.output).map(intern);
      }),
    );
  }

  table(): FieldTable {
    return { ...this.candidates(), values: this.record ? this.recordedRows() : this.rows };
  }

  /** The values pass's rows from the recorded columns: each step's candidates' values, MISSING for a call without output. */
  private recordedRows(): FieldTable["values"] {
    const { byTool } = this.candidates();
    if (byTool.size === 0) return [];
    const tools = [...this.tally!].map(([tool, t]) => {
      const own = byTool.get(tool);
      const columns = own?.fields.map((f) => t.columns[t.fields.findIndex((g) => fieldKey(g) === fieldKey(f))]!);
      return { columns, missing: own?.fields.map(() => this.intern(MISSING)), rows: new Map<string, readonly string[]>() };
    });
    // The rows are read, never written: steps with the same values share one (a tool's
    // candidates take a few values each, so a few hundred rows serve every step, where one
    // array a step was the largest part of the learner's heap with many sessions).
    const codes = new Map<string, number>();
    const codeOf = (v: string): number => codes.get(v) ?? (codes.set(v, codes.size), codes.size - 1);
    const shape = this.shapes.view();
    const starts = this.shapeStarts.view();
    return Array.from(starts, (from, e) =>
      Array.from({ length: ((e + 1 < starts.length ? starts[e + 1]! : shape.length) - from) / 2 }, (_, at) => {
        const tool = shape[from + 2 * at]!;
        if (tool === NOT_A_CALL) return undefined;
        const { columns, missing, rows } = tools[tool]!;
        if (columns === undefined) return undefined;
        const place = shape[from + 2 * at + 1]!;
        if (place === NO_OUTPUT) return missing!;
        const key = columns.map((c) => codeOf(c[place]!)).join(",");
        let row = rows.get(key);
        if (row === undefined) rows.set(key, (row = columns.map((c) => c[place]!)));
        return row;
      }),
    );
  }

  private startTally(): Tally {
    const tally: Tally = new Map();
    for (const tool of [...this.offers.keys()].sort(compareCodePoints)) {
      const fields = [...this.offers.get(tool)!].sort(([a], [b]) => compareCodePoints(a, b)).map(([, f]) => f);
      const columns = fields.map(() => (this.record ? [] : undefined));
      tally.set(tool, { index: tally.size, fields, counts: fields.map(() => new Map()), columns, outputs: 0 });
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
