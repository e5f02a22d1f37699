/**
 * Turns a checked flow file (`FlowJson`) into the one in-memory shape (`Flow`): pair
 * lists into PairMaps, objects into Maps, absent optional fields into their defaults.
 */
import type { Program } from "../program/program-types.js";
import type { BackoffModelJson, CountsJson, FlowJson, PredicateJson, SourceCountsJson } from "./flow-json.js";
import type { BackoffModel, Counts, Flow, FlowVersion, Predicate, SourceCounts } from "./flow-types.js";
import { PairMap } from "./pair-map.js";

function entries<V>(o: Record<string, V> | undefined): Map<string, V> {
  return new Map(Object.entries(o ?? {}));
}

function mapValues<V, W>(o: Record<string, V> | undefined, f: (v: V) => W): Map<string, W> {
  return new Map(Object.entries(o ?? {}).map(([k, v]) => [k, f(v)]));
}

function counts(c: CountsJson): Counts {
  return { byAction: new Map(c.by_action), total: c.total };
}

function backoff(m: BackoffModelJson): BackoffModel {
  return {
    order: m.order,
    alpha: m.alpha,
    vocabSize: m.vocab_size,
    levels: m.levels.map((level) => new PairMap(level.map(([ctx, c]) => [ctx, counts(c)] as const))),
  };
}

function predicate(p: PredicateJson): Predicate {
  return { id: p.id, favors: p.favors, question: p.question, yes: p.yes, no: p.no };
}

function sourceCounts(s: SourceCountsJson): SourceCounts {
  return { values: s.values, found: new PairMap(s.found) };
}

export function normalizeFlow(json: FlowJson, version: FlowVersion, program: Program, programGiven: boolean): Flow {
  const b = json.bindings;
  const flow: Flow = {
    version,
    provenance: {
      stretto: json.provenance.stretto,
      sources: json.provenance.sources,
      habitEpisodes: json.provenance.habit_episodes,
      arbiterCases: json.provenance.arbiter_cases,
      compiledUnixMs: json.provenance.compiled_unix_ms,
      ...(json.provenance.conventions === undefined ? {} : { conventions: json.provenance.conventions }),
    },
    vocab: json.vocab.map((a) => (a === "Respond" ? { kind: "respond" } : { kind: "tool", tool: a.Tool })),
    manifest: {
      domain: json.manifest.domain,
      tools: entries(json.manifest.tools),
      docs: mapValues(json.manifest.docs, (d) => ({ summary: d.summary, args: entries(d.args) })),
    },
    map: {
      fields: mapValues(json.map.fields, (fs) =>
        fs.map((f) => ("Scalar" in f ? { kind: "scalar", path: f.Scalar } : { kind: "len", path: f.Len })),
      ),
      ids: new PairMap(json.map.ids),
    },
    group: json.group,
    habit: {
      base: backoff(json.habit.base),
      beta: json.habit.beta,
      top: new PairMap(json.habit.top.map(([k, c]) => [k, counts(c)] as const)),
    },
    sites: {
      reads: json.sites.reads,
      next: new PairMap(json.sites.next.map(([k, v]) => [k, entries(v)] as const)),
      feeds: mapValues(json.sites.feeds, (p) => new PairMap(p)),
      everyRead: json.sites.every_read === true,
    },
    predicates: json.predicates.map(predicate),
    weighed: json.weighed.map(predicate),
    folds: json.folds.map((f) => ({
      weights: f.weights,
      rates: { sites: new PairMap(f.rates.sites), agree: f.rates.agree, cover: f.rates.cover },
    })),
    bindings: {
      args: mapValues(b.args, ([calls, passed]) => ({ calls, passed: entries(passed) })),
      sources: new PairMap(b.sources.map(([k, s]) => [k, sourceCounts(s)] as const)),
      agreed: entries(b.agreed),
      namedOther: entries(b.named_other),
      describedRead: entries(b.described_read),
      siteSources: b.site_sources ?? [],
      lists: new PairMap((b.lists ?? []).map(([k, s]) => [k, sourceCounts(s)] as const)),
      bare: entries(b.bare),
      constants: new PairMap(b.constants ?? []),
    },
    model: json.model,
    program,
    programGiven,
    thresholds: entries(json.thresholds),
    contracts: entries(json.contracts),
  };
  if (json.promoted !== undefined) {
    const p = json.promoted;
    flow.promoted = {
      bar: {
        threshold: p.bar.threshold,
        minUsed: p.bar.min_used,
        minLower: p.bar.min_lower,
        minTasks: p.bar.min_tasks,
      },
      sites: entries(p.sites),
    };
  }
  if (json.reach !== undefined) flow.reach = backoff(json.reach);
  if (json.surprise !== undefined) {
    const { window, threshold, quantile } = json.surprise;
    flow.surprise = { window, threshold, ...(quantile === undefined ? {} : { quantile }) };
  }
  return flow;
}
