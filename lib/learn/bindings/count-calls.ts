/**
 * The first pass over the training episodes: for each call to a
 * read tool, which arguments it passed, whether it passed none, and where each string or
 * list of strings came from — overall and at the site it was called from — plus what a
 * constant needs to be told apart from a value the session supplied.
 */
import type { Episode } from "../../trace/index.js";
import { isObject, jsonText, type Json, type JsonObject } from "../../trace/json.js";
import { keyish, mentions, valueText } from "../../flow/bind/index.js";
import { PairMap, type ArgCounts, type SourceCounts, type ToolKind } from "../../flow/ir/index.js";
import { SeenOutput, isStringList, listSource, stringSource, type Source } from "./trace-value.js";

/** What one argument of a tool took, for deciding whether it is a constant. */
export interface ArgValues {
  /** Calls that passed it. */
  calls: number;
  /** Its value's JSON text while every call passed the same one, and that value (the latest). */
  only: { text: string; value: Json } | undefined;
  /** Whether calls passed different values (then `only` is undefined): no constant. */
  several: boolean;
  /** Whether any value was found in an earlier output. */
  found: boolean;
  /** Whether any value was an id or an email the customer wrote. */
  customers: boolean;
}

export interface CallCounts {
  args: Map<string, ArgCounts>;
  bare: Map<string, number>;
  sources: PairMap<[string, string], SourceCounts>;
  lists: PairMap<[string, string], SourceCounts>;
  /** `[tool, arg, site, source tool, source path]` → values taken from that source at that site. */
  bySite: PairMap<[string, string, string, string, string], number>;
  argValues: PairMap<[string, string], ArgValues>;
}

export function emptyCallCounts(): CallCounts {
  return { args: new Map(), bare: new Map(), sources: new PairMap(), lists: new PairMap(), bySite: new PairMap(), argValues: new PairMap() };
}

function traced(table: PairMap<[string, string], SourceCounts>, key: [string, string], source: Source | undefined): void {
  let t = table.get(key);
  if (t === undefined) table.set(key, (t = { values: 0, found: new PairMap() }));
  t.values += 1;
  if (source !== undefined) t.found.set(source, (t.found.get(source) ?? 0) + 1);
}

export function countCalls(into: CallCounts, ep: Episode, kinds: ReadonlyMap<string, ToolKind>): void {
  const outputs: SeenOutput[] = [];
  let customer = "";
  for (const e of ep.events) {
    if (e.kind === "user") customer += e.text.toLowerCase() + "\n";
    else if (e.kind === "tool_result") {
      if (!e.error) outputs.push(new SeenOutput(e.name, e.content));
    } else {
      let previousRead: string | undefined;
      for (const c of e.calls) {
        if (kinds.get(c.name) !== "read") continue;
        const site = previousRead ?? outputs.at(-1)?.tool;
        previousRead = c.name;
        if (!isObject(c.arguments)) continue;
        countCall(into, c.name, c.arguments, site, outputs, customer);
      }
    }
  }
}

function countCall(into: CallCounts, tool: string, args: JsonObject, site: string | undefined, outputs: readonly SeenOutput[], customer: string): void {
  let counts = into.args.get(tool);
  if (counts === undefined) into.args.set(tool, (counts = { calls: 0, passed: new Map() }));
  counts.calls += 1;
  const keys = Object.keys(args);
  if (keys.length === 0) into.bare.set(tool, (into.bare.get(tool) ?? 0) + 1);
  for (const arg of keys) {
    const v = args[arg]!;
    counts.passed.set(arg, (counts.passed.get(arg) ?? 0) + 1);
    let found = false;
    if (isStringList(v)) {
      const source = listSource(outputs, v);
      traced(into.lists, [tool, arg], source);
      found = source !== undefined;
    } else if (typeof v === "string") {
      const source = stringSource(outputs, v);
      traced(into.sources, [tool, arg], source);
      found = source !== undefined;
      if (source !== undefined && site !== undefined) {
        const key: [string, string, string, string, string] = [tool, arg, site, source[0], source[1]];
        into.bySite.set(key, (into.bySite.get(key) ?? 0) + 1);
      }
    }
    let seen = into.argValues.get([tool, arg]);
    if (seen === undefined) into.argValues.set([tool, arg], (seen = { calls: 0, only: undefined, several: false, found: false, customers: false }));
    seen.calls += 1;
    // Only whether one value was passed matters, so the distinct values are not kept.
    if (!seen.several) {
      const text = jsonText(v);
      if (seen.only === undefined || seen.only.text === text) seen.only = { text, value: v };
      else {
        seen.several = true;
        seen.only = undefined;
      }
    }
    seen.found ||= found;
    const text = valueText(v);
    seen.customers ||= (keyish(text) || text.includes("@")) && mentions(customer, text);
  }
}
