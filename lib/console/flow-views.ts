/**
 * Flows as the console shows them, through the review library `stretto flow-show` and
 * `stretto flow-diff` print from: a summary per file, the view at a threshold with the
 * review's Markdown, and what changed between two. A file that does not load is listed with
 * its error.
 */
import { statSync } from "node:fs";
import type { FlowDetail, FlowDiffView, FlowSummary } from "./api-types.js";
import { loadFlow, type Flow } from "../flow/ir/index.js";
import { diffFlows, flowView, servedDecider, showFlow } from "../review/index.js";
import { errorText } from "../util/error-text.js";
import type { FlowFile } from "./catalog.js";

export const DEFAULT_THRESHOLD = 0.3;

export interface LoadedFlow {
  file: FlowFile;
  flow: Flow | undefined;
  error: string | undefined;
  mtimeMs: number;
  size: number;
}

export function loadFlowFile(file: FlowFile): LoadedFlow {
  const st = statSync(file.abs);
  try {
    return { file, flow: loadFlow(file.abs), error: undefined, mtimeMs: st.mtimeMs, size: st.size };
  } catch (e) {
    return { file, flow: undefined, error: errorText(e), mtimeMs: st.mtimeMs, size: st.size };
  }
}

function toolCounts(flow: Flow): { read: number; write: number; generic: number } {
  const c = { read: 0, write: 0, generic: 0 };
  for (const kind of flow.manifest.tools.values()) c[kind]++;
  return c;
}

/** The distinct tools the flow looks up at `threshold`, over all its sites. */
export function lookupTools(flow: Flow, threshold: number): string[] {
  const tools = new Set<string>();
  for (const site of flowView(flow, threshold).sites) for (const l of site.lookups) if (l.acts) tools.add(l.tool);
  return [...tools].sort();
}

export function flowSummary(l: LoadedFlow, servedBy: string[], stage: FlowSummary["stage"]): FlowSummary {
  const base = {
    key: l.file.key,
    path: l.file.rel,
    name: l.file.name,
    modified_unix_ms: Math.round(l.mtimeMs),
    size_bytes: l.size,
    served_by: servedBy,
    stage,
  };
  const flow = l.flow;
  if (flow === undefined) {
    return {
      ...base,
      domain: "",
      format_version: 0,
      stretto_version: "",
      sources: [],
      habit_episodes: 0,
      arbiter_cases: 0,
      compiled_unix_ms: null,
      decider: "habit",
      has_arbiter: false,
      has_reach: false,
      tools: { read: 0, write: 0, generic: 0 },
      sites: 0,
      lookups: 0,
      lookup_tools: [],
      promoted: null,
      surprise: null,
      error: l.error ?? "the flow does not load",
    };
  }
  const view = flowView(flow, DEFAULT_THRESHOLD);
  const tools = lookupTools(flow, DEFAULT_THRESHOLD);
  const promoted = flow.promoted === undefined ? null : { sites_promoted: [...flow.promoted.sites.values()].filter((s) => s.promoted).length, sites_scored: flow.promoted.sites.size };
  return {
    ...base,
    domain: flow.manifest.domain,
    format_version: Number(flow.version),
    stretto_version: flow.provenance.stretto,
    sources: flow.provenance.sources,
    habit_episodes: flow.provenance.habitEpisodes,
    arbiter_cases: flow.provenance.arbiterCases,
    compiled_unix_ms: flow.provenance.compiledUnixMs,
    decider: servedDecider(flow),
    has_arbiter: flow.folds.length > 0,
    has_reach: flow.reach !== undefined,
    tools: toolCounts(flow),
    sites: view.sites.length,
    lookups: tools.length,
    lookup_tools: tools,
    promoted,
    surprise: flow.surprise === undefined ? null : { window: flow.surprise.window, threshold: flow.surprise.threshold, ...(flow.surprise.quantile === undefined ? {} : { quantile: flow.surprise.quantile }) },
    error: null,
  };
}

export function flowDetail(summary: FlowSummary, flow: Flow, threshold: number, warnings: string[], drift: FlowDetail["drift"]): FlowDetail {
  const view = flowView(flow, threshold);
  return {
    summary,
    threshold,
    tools: [...flow.manifest.tools].map(([name, kind]) => ({ name, kind, contract: flow.contracts.get(name) ?? null })),
    sites: view.sites.map((s) => ({ ...s })),
    bindings: view.bindings,
    provenance: { ...flow.provenance },
    promotion: flow.promoted === undefined ? null : { bar: flow.promoted.bar, sites: Object.fromEntries(flow.promoted.sites) },
    review_markdown: showFlow(flow, threshold),
    warnings,
    drift,
  };
}

export function flowDiffView(from: string, to: string, old: Flow, next: Flow, threshold: number, tolerance: number): FlowDiffView {
  const d = diffFlows(old, next, { threshold, tolerance });
  const needs = new Set(d.needsReview);
  return {
    from,
    to,
    review: d.needsReview.length,
    changes: d.sections.reduce((n, s) => n + s.changes.length, 0),
    sections: d.sections.map((s) => ({ title: s.title, changes: s.changes.map((text) => ({ section: s.title, text, review: needs.has(text) })) })),
    markdown: d.markdown,
  };
}

/** `threshold {t}: a probability, from 0 to 1` unless `raw` is one. */
export function probability(raw: string | null, fallback: number): number | string {
  if (raw === null || raw === "") return fallback;
  const t = Number(raw);
  if (!Number.isFinite(t) || t < 0 || t > 1) return `threshold ${raw}: a probability, from 0 to 1`;
  return t;
}
