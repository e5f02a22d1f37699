/**
 * Where an argument's values come from (facts-flows §2.6 steps 4–5): the source rules a
 * binding trusts, and the order it tries the session's outputs in — by the order the agent
 * used at this site (`site_sources`) when the site took enough values, else by recency.
 */
import type { Bindings, SourceCounts } from "../ir/flow-types.js";
import type { Output } from "./session.js";

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

/** One place to look for a value: an output and a path in it. */
export interface Place {
  output: Output;
  path: string;
}

/**
 * The places to look for `tool`'s `arg`, in order. With a site order: each rule by its
 * count there, and within a rule that tool's outputs from most recent. Otherwise: outputs
 * from most recent, and for each, the rules whose tool it is, in rule order.
 */
export function places(
  bindings: Bindings,
  tool: string,
  arg: string,
  outputs: readonly Output[],
  rules: readonly Source[],
): Place[] {
  const site = outputs.at(-1)?.tool;
  const ranked = atSite(bindings, tool, arg, site, rules);
  const out: Place[] = [];
  if (ranked) {
    for (const [[from, path]] of ranked) {
      for (let i = outputs.length - 1; i >= 0; i--) if (outputs[i]!.tool === from) out.push({ output: outputs[i]!, path });
    }
  } else {
    for (let i = outputs.length - 1; i >= 0; i--) {
      for (const [from, path] of rules) if (outputs[i]!.tool === from) out.push({ output: outputs[i]!, path });
    }
  }
  return out;
}
