/**
 * The tables a flow keeps from the first pass: bare calls only
 * where a tool is sometimes called bare and has no argument it nearly always takes, the
 * per-site sources only where an argument had more than one source, and constants only
 * when asked for and only for arguments that can be nothing else.
 */
import { compareCodePoints } from "../../trace/json.js";
import { REQUIRED_SHARE } from "../../flow/bind/index.js";
import { PairMap, compareKeys, type Bindings, type SiteSource } from "../../flow/ir/index.js";
import type { CallCounts } from "./count-calls.js";

/** A constant is learned only from at least this many calls that passed it. */
export const MIN_CONSTANT_CALLS = 5;

function keptBare(counts: CallCounts): Map<string, number> {
  const out = new Map<string, number>();
  for (const [tool, bare] of counts.bare) {
    const c = counts.args.get(tool)!;
    const required = [...c.passed.values()].some((n) => n >= REQUIRED_SHARE * c.calls);
    if (bare < c.calls && !required) out.set(tool, bare);
  }
  return out;
}

function keptSiteSources(counts: CallCounts): SiteSource[] {
  const out: SiteSource[] = [];
  const entries = [...counts.bySite].sort(([a], [b]) => compareKeys(a, b));
  for (const [[tool, arg, site, from, path], values] of entries) {
    const sources = counts.sources.get([tool, arg]);
    if (sources === undefined || sources.found.size < 2) continue;
    out.push({ tool, arg, site, source: [from, path], values });
  }
  return out;
}

function keptConstants(counts: CallCounts): PairMap<[string, string], unknown> {
  const out = new PairMap<[string, string], unknown>();
  for (const [[tool, arg], seen] of counts.argValues) {
    const calls = counts.args.get(tool)!.calls;
    if (seen.calls < MIN_CONSTANT_CALLS || seen.only === undefined || seen.calls * 2 < calls || seen.found || seen.customers) continue;
    out.set([tool, arg], seen.only.value);
  }
  return out;
}

/** The bindings of the first pass, with the tables the later passes fill still empty. */
export function firstPassBindings(counts: CallCounts, constants: boolean): Bindings {
  const args = new Map([...counts.args].sort(([a], [b]) => compareCodePoints(a, b)));
  return {
    args,
    sources: counts.sources,
    agreed: new Map(),
    namedOther: new Map(),
    describedRead: new Map(),
    siteSources: keptSiteSources(counts),
    lists: counts.lists,
    bare: keptBare(counts),
    constants: constants ? keptConstants(counts) : new PairMap(),
  };
}
