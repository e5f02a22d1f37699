/**
 * Writing a flow file: the inverse of `normalize-flow.ts`. Fields come in the order the
 * flow format declares them; maps keyed by strings become objects with sorted keys and
 * maps keyed by anything else become `[key, value]` lists sorted by key (see pair-map.ts),
 * so two learners that count the same things write the same bytes. The version is
 * computed, not taken from the flow: 2 when any format-2 field is non-empty, else 1.
 */
import { compareCodePoints } from "../../trace/json.js";
import type { BackoffModelJson, CountsJson, FlowJson, PredicateJson, SourceCountsJson } from "./flow-json.js";
import type { BackoffModel, Bindings, Counts, Flow, FlowVersion, Predicate, SourceCounts } from "./flow-types.js";
import type { PairMap } from "./pair-map.js";

/**
 * Orders pair-list keys: numbers, strings by code point, false < true, lists element-wise.
 * This is the order a Rust learner's derived `Ord` gives, so a flow learned here and one
 * learned there from the same sessions are the same bytes, and `flow-diff` shows no noise.
 */
export function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return compareCodePoints(a, b);
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareKeys(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  // Keys of one map have one type; a mixed pair is ordered by its text to stay deterministic.
  return compareCodePoints(JSON.stringify(a), JSON.stringify(b));
}

/** A map as the sorted pair list the flow file holds. */
export function sortedPairs<K, V, W>(map: PairMap<K, V> | Map<K, V>, f: (v: V) => W): [K, W][] {
  return [...map.entries()].sort(([a], [b]) => compareKeys(a, b)).map(([k, v]) => [k, f(v)]);
}

/** A string-keyed map as an object with sorted keys. */
export function sortedObject<V, W>(map: Map<string, V>, f: (v: V) => W): Record<string, W> {
  const out: Record<string, W> = {};
  for (const k of [...map.keys()].sort(compareCodePoints)) {
    Object.defineProperty(out, k, { value: f(map.get(k)!), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const same = <T>(v: T): T => v;

function counts(c: Counts): CountsJson {
  return { by_action: sortedPairs(c.byAction, same), total: c.total };
}

function backoff(m: BackoffModel): BackoffModelJson {
  return { order: m.order, alpha: m.alpha, vocab_size: m.vocabSize, levels: m.levels.map((l) => sortedPairs(l, counts)) };
}

function predicate(p: Predicate): PredicateJson {
  return { id: p.id, favors: p.favors, question: p.question, yes: p.yes, no: p.no };
}

function sourceCounts(s: SourceCounts): SourceCountsJson {
  return { values: s.values, found: sortedPairs(s.found, same) };
}

/** Whether any field of format 2 holds something (thresholds, the surprise gate, the newer bindings). */
export function hasVersion2Fields(flow: Flow): boolean {
  const b = flow.bindings;
  return (
    flow.thresholds.size > 0 ||
    flow.surprise !== undefined ||
    b.namedOther.size > 0 ||
    b.describedRead.size > 0 ||
    b.siteSources.length > 0 ||
    b.lists.size > 0 ||
    b.bare.size > 0 ||
    b.constants.size > 0
  );
}

/** The version a flow is written with. */
export function formatVersion(flow: Flow): FlowVersion {
  return hasVersion2Fields(flow) ? 2 : 1;
}

function bindingsJson(b: Bindings): FlowJson["bindings"] {
  const out: FlowJson["bindings"] = {
    args: sortedObject(b.args, (a) => [a.calls, sortedObject(a.passed, same)] as [number, Record<string, number>]),
    sources: sortedPairs(b.sources, sourceCounts),
    agreed: sortedObject(b.agreed, same),
  };
  // Format-2 fields are written only when they hold something, so a flow without them stays format 1.
  if (b.namedOther.size > 0) out.named_other = sortedObject(b.namedOther, same);
  if (b.describedRead.size > 0) out.described_read = sortedObject(b.describedRead, same);
  if (b.siteSources.length > 0) out.site_sources = b.siteSources.map((s) => ({ tool: s.tool, arg: s.arg, site: s.site, source: s.source, values: s.values }));
  if (b.lists.size > 0) out.lists = sortedPairs(b.lists, sourceCounts);
  if (b.bare.size > 0) out.bare = sortedObject(b.bare, same);
  if (b.constants.size > 0) out.constants = sortedPairs(b.constants, same);
  return out;
}

/**
 * The flow as its file's JSON value. The program is always written (its AST is its JSON
 * form), so a flow read without one is written with the standard program it ran.
 */
export function flowToJson(flow: Flow): FlowJson {
  const p = flow.provenance;
  const json: FlowJson = {
    stretto_flow: formatVersion(flow),
    provenance: {
      stretto: p.stretto,
      sources: [...p.sources],
      habit_episodes: p.habitEpisodes,
      arbiter_cases: p.arbiterCases,
      compiled_unix_ms: p.compiledUnixMs,
      ...(p.conventions === undefined ? {} : { conventions: p.conventions }),
    },
    vocab: flow.vocab.map((a) => (a.kind === "respond" ? "Respond" : { Tool: a.tool })),
    manifest: {
      domain: flow.manifest.domain,
      tools: sortedObject(flow.manifest.tools, same),
      docs: sortedObject(flow.manifest.docs, (d) => ({ summary: d.summary, args: sortedObject(d.args, same) })),
    },
    map: {
      fields: sortedObject(flow.map.fields, (fs) => fs.map((f) => (f.kind === "scalar" ? { Scalar: f.path } : { Len: f.path }))),
      ids: sortedPairs(flow.map.ids, same),
    },
    group: flow.group,
    habit: { base: backoff(flow.habit.base), beta: flow.habit.beta, top: sortedPairs(flow.habit.top, counts) },
    sites: {
      reads: [...flow.sites.reads],
      next: sortedPairs(flow.sites.next, (m) => sortedObject(m, same)),
      feeds: sortedObject(flow.sites.feeds, (p) => sortedPairs(p, same)),
      ...(flow.sites.everyRead ? { every_read: true } : {}),
    },
    predicates: flow.predicates.map(predicate),
    weighed: flow.weighed.map(predicate),
    folds: flow.folds.map((f) => ({ weights: [...f.weights], rates: { sites: sortedPairs(f.rates.sites, same), agree: f.rates.agree, cover: f.rates.cover } })),
    bindings: bindingsJson(flow.bindings),
    model: flow.model,
  };
  json.program = structuredClone(flow.program);
  if (flow.promoted !== undefined) {
    const { bar, sites } = flow.promoted;
    json.promoted = {
      bar: { threshold: bar.threshold, min_used: bar.minUsed, min_lower: bar.minLower, min_tasks: bar.minTasks },
      sites: sortedObject(sites, (s) => ({ decisions: s.decisions, lookups: s.lookups, used: s.used, tasks: s.tasks, lower: s.lower, promoted: s.promoted })),
    };
  }
  if (flow.thresholds.size > 0) json.thresholds = sortedObject(flow.thresholds, same);
  if (flow.contracts.size > 0) json.contracts = sortedObject(flow.contracts, same);
  if (flow.reach !== undefined) json.reach = backoff(flow.reach);
  if (flow.surprise !== undefined) {
    const { window, threshold, quantile } = flow.surprise;
    json.surprise = { window, threshold, ...(quantile === undefined ? {} : { quantile }) };
  }
  return json;
}

/** The flow file's text: one compact JSON line, the same bytes whichever learner wrote it. */
export function flowText(flow: Flow): string {
  return JSON.stringify(flowToJson(flow));
}
