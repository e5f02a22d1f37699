/**
 * Where an argument's values come from: the source rules a
 * binding trusts, and the order it tries the session's outputs in — by the order the agent
 * used at this site (`site_sources`) when the site took enough values, else by recency.
 */
import type { Bindings, SourceCounts } from "../ir/flow-types.js";
import type { Output, SessionView } from "./session.js";
import { mapIn, remember } from "../../util/memo.js";

/** The least share of an argument's training values a source must account for. */
export const MIN_SOURCE_SHARE = 0.1;
/** Values a site must have taken from its sources before their order there replaces recency. */
export const MIN_SITE_VALUES = 5;

/** A source: a tool's output and a path in it. */
export type Source = [tool: string, path: string];

/** The sources found at least twice that account for at least MIN_SOURCE_SHARE of the values, in `found` order. */
export function sourceRules(traced: SourceCounts): Source[] {
  const out: Source[] = [];
  for (const [source, n] of traced.found) if (n >= 2 && n >= MIN_SOURCE_SHARE * traced.values) out.push(source);
  return out;
}

/**
 * `sourceRules`, worked out once per source table: the served flow's tables never change,
 * and a binding reads them for every argument of every lookup it binds. The array is shared:
 * read it, never change it.
 */
export function rulesOf(traced: SourceCounts): readonly Source[] {
  let rules = rulesMemo.get(traced);
  if (rules === undefined) rulesMemo.set(traced, (rules = sourceRules(traced)));
  return rules;
}
const rulesMemo = new WeakMap<SourceCounts, Source[]>();

/** `atSite` by the flow's bindings, the rule list (one per tool and argument, from `rulesOf`), and tool, argument and site (a map a level). */
const rankedMemo = new WeakMap<Bindings, WeakMap<readonly Source[], Map<string, Map<string, Map<string, [Source, number][] | undefined>>>>>();
/** A rule list's tools, each once in rule order, and each tool's paths. */
const toolsMemo = new WeakMap<readonly Source[], { tools: string[]; paths: Map<string, string[]> }>();

function rankedAt(bindings: Bindings, tool: string, arg: string, site: string | undefined, rules: readonly Source[]): readonly [Source, number][] | undefined {
  if (site === undefined) return undefined;
  let byRules = rankedMemo.get(bindings);
  if (byRules === undefined) rankedMemo.set(bindings, (byRules = new WeakMap()));
  let byTool = byRules.get(rules);
  if (byTool === undefined) byRules.set(rules, (byTool = new Map<string, Map<string, Map<string, [Source, number][] | undefined>>>()));
  // The sites kept per rule list, tool and argument are bounded (MEMO_LIMIT).
  const bySite = mapIn(mapIn(byTool, tool), arg);
  const ranked = bySite.get(site);
  if (ranked !== undefined || bySite.has(site)) return ranked;
  return remember(bySite, site, atSite(bindings, tool, arg, site, rules));
}

function toolsOf(rules: readonly Source[]): { tools: string[]; paths: Map<string, string[]> } {
  let t = toolsMemo.get(rules);
  if (t === undefined) {
    const paths = new Map<string, string[]>();
    for (const [from, path] of rules) {
      const list = paths.get(from);
      if (list === undefined) paths.set(from, [path]);
      else list.push(path);
    }
    toolsMemo.set(rules, (t = { tools: [...paths.keys()], paths }));
  }
  return t;
}

/**
 * The order to try `rules` for `tool`'s `arg` at `site`, most used there first (a stable
 * sort), with the values taken from each; undefined when the site took fewer than
 * MIN_SITE_VALUES from them, which means recency decides.
 */
export function atSite(
  bindings: Bindings,
  tool: string,
  arg: string,
  site: string | undefined,
  rules: readonly Source[],
): [Source, number][] | undefined {
  if (site === undefined) return undefined;
  const counted: [Source, number][] = rules.map((r) => {
    let n = 0;
    for (const s of bindings.siteSources) {
      if (s.tool === tool && s.arg === arg && s.site === site && s.source[0] === r[0] && s.source[1] === r[1]) n += s.values;
    }
    return [r, n];
  });
  if (counted.reduce((sum, [, n]) => sum + n, 0) < MIN_SITE_VALUES) return undefined;
  return counted.sort((a, b) => b[1] - a[1]);
}

/**
 * Visits the places to look for `tool`'s `arg`, in order: an output and a path in it. With a
 * site order: each rule by its count there, and within a rule that tool's outputs from most
 * recent. Otherwise: outputs from most recent, and for each, the rules whose tool it is, in
 * rule order. Only the rules' tools' outputs are read (with `above`, only those above the
 * view's bottom reading). `visit` returns true to stop.
 */
export function eachPlace(
  bindings: Bindings,
  tool: string,
  arg: string,
  view: SessionView,
  rules: readonly Source[],
  visit: (output: Output, path: string) => boolean,
  above = false,
): void {
  // Memoized by the rule list: pass the same `rules` (from `rulesOf`) for the same tool and argument.
  const ranked = rankedAt(bindings, tool, arg, view.site, rules);
  // Run at every pick: the outputs are walked here, not through a callback made per call.
  const bottom = above ? 1 : 0;
  if (ranked) {
    for (const [[from, path]] of ranked) {
      for (let l = view.layerCount - 1; l >= bottom; l--) {
        const outs = view.outputsIn(l, from);
        if (outs !== undefined) for (let i = outs.length - 1; i >= 0; i--) if (visit(outs[i]!, path)) return;
      }
    }
    return;
  }
  const { tools, paths: pathsOf } = toolsOf(rules);
  if (tools.length === 1) {
    const paths = pathsOf.get(tools[0]!)!;
    for (let l = view.layerCount - 1; l >= bottom; l--) {
      const outs = view.outputsIn(l, tools[0]!);
      if (outs !== undefined) for (let i = outs.length - 1; i >= 0; i--) for (const path of paths) if (visit(outs[i]!, path)) return;
    }
    return;
  }
  view.eachOutputOfAny(
    tools,
    (out) => {
      for (const [from, path] of rules) if (out.tool === from && visit(out, path)) return true;
      return false;
    },
    above,
  );
}
