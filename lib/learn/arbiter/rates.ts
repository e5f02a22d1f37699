/**
 * How the System-One model did at the held-out decisions, per site and pooled: how many
 * decisions, at how many its `next` pick was the agent's step (agreed), and at how many
 * the agent's step was among the options at all (covered). Serving shrinks each site's
 * rates toward the pooled ones (reliability and coverage).
 */
import { compareCodePoints } from "../../trace/json.js";
import { PairMap, type Fitted, type SiteRate } from "../../flow/ir/index.js";
import type { AnsweredCase } from "./ask-cases.js";

export function siteRates(cases: readonly AnsweredCase[]): Fitted["rates"] {
  const by = new Map<string, SiteRate>();
  for (const c of cases) {
    const r = by.get(c.live.site) ?? [0, 0, 0];
    r[0] += 1;
    if (c.answers.pick === c.label) r[1] += 1;
    if (c.options.includes(c.label)) r[2] += 1;
    by.set(c.live.site, r);
  }
  const sum = (i: number) => [...by.values()].reduce((s, r) => s + r[i]!, 0);
  const n = cases.length;
  return {
    sites: new PairMap([...by].sort(([a], [b]) => compareCodePoints(a, b))),
    agree: n === 0 ? 0 : sum(1) / n,
    cover: n === 0 ? 0 : sum(2) / n,
  };
}
