/** Bindings for the binding specs, written as plain rows. */
import { PairMap } from "../../lib/flow/ir/pair-map.js";
import type { Bindings, SiteSource, SourceCounts } from "../../lib/flow/ir/flow-types.js";
import type { Json } from "../../lib/trace/json.js";

type Counts = [string, [number, Record<string, number>]][];

export interface BindingsSpec {
  args: Counts;
  sources?: [[string, string], number, [[string, string], number][]][];
  lists?: [[string, string], number, [[string, string], number][]][];
  agreed?: Record<string, [[number, number], [number, number]]>;
  namedOther?: Record<string, [number, number]>;
  describedRead?: Record<string, [number, number]>;
  siteSources?: SiteSource[];
  bare?: Record<string, number>;
  constants?: [[string, string], Json][];
}

function traced(rows: BindingsSpec["sources"]): PairMap<[string, string], SourceCounts> {
  return new PairMap((rows ?? []).map(([key, values, found]) => [key, { values, found: new PairMap(found) }] as const));
}

export function bindings(s: BindingsSpec): Bindings {
  return {
    args: new Map(s.args.map(([tool, [calls, passed]]) => [tool, { calls, passed: new Map(Object.entries(passed)) }])),
    sources: traced(s.sources),
    lists: traced(s.lists),
    agreed: new Map(Object.entries(s.agreed ?? {})),
    namedOther: new Map(Object.entries(s.namedOther ?? {})),
    describedRead: new Map(Object.entries(s.describedRead ?? {})),
    siteSources: s.siteSources ?? [],
    bare: new Map(Object.entries(s.bare ?? {})),
    constants: new PairMap(s.constants ?? []),
  };
}

