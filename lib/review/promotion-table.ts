/**
 * A promotion as Markdown (docs/flows.md, "Promote a flow"): the bar each site had to meet, then
 * each scored site's record, by name.
 */
import { fixed2, rustDisplay } from "../flow/decide/rust-format.js";
import { byteOrder } from "../flow/decide/site.js";
import type { Promotion } from "../flow/ir/flow-types.js";
import { fixed } from "./numbers.js";

/**
 * `served` (site → lookups the proxy had already made, serving a flow), when the sessions
 * were scored just now: a flow file keeps no such count. With any, the table gets a `Served`
 * column and each share is over the lookups the agent could have made itself.
 */
export function promotionMarkdown(promotion: Promotion, served?: ReadonlyMap<string, number>): string {
  const b = promotion.bar;
  const withServed = served !== undefined && [...served.values()].some((n) => n > 0);
  const lines = [
    `A site is promoted when, at a threshold of ${rustDisplay(b.threshold)}, at least ${fixed(100 * b.minUsed, 0)}% of the flow's lookups there were ones the agent made in a later LLM turn, the 90% interval's lower bound on that share is at least ${fixed2(b.minLower)}, and the lookups came from at least ${b.minTasks} tasks.`,
    "",
    withServed
      ? "| After | Decisions | Lookups it would make | Served | Made by the agent later | Lower bound | Tasks | Promoted |"
      : "| After | Decisions | Lookups it would make | Made by the agent later | Lower bound | Tasks | Promoted |",
    withServed ? "|---|---|---|---|---|---|---|---|" : "|---|---|---|---|---|---|---|",
  ];
  for (const [site, r] of [...promotion.sites].sort(([a], [c]) => byteOrder(a, c))) {
    const made = served?.get(site) ?? 0;
    const known = r.lookups - made;
    const used = known > 0 ? `${r.used} (${fixed((100 * r.used) / known, 0)}%)` : "—";
    lines.push(`| \`${site}\` | ${r.decisions} | ${r.lookups} | ${withServed ? `${made} | ` : ""}${used} | ${fixed2(r.lower)} | ${r.tasks} | ${r.promoted ? "yes" : "no"} |`);
  }
  if (withServed) {
    lines.push("", "Served: lookups the proxy had already made, serving a flow. They count neither for nor against a site, since the agent had no reason to make them again; each share is over the rest.");
  }
  return lines.map((l) => `${l}\n`).join("");
}

/** A promotion in one line, for a diff: `1 of 2 sites scored (at least 70% used, …)`. */
export function promotionSummary(promotion: Promotion | undefined): string {
  if (promotion === undefined) return "none: it may act after every call";
  const b = promotion.bar;
  const promoted = [...promotion.sites.values()].filter((r) => r.promoted).length;
  return `${promoted} of ${promotion.sites.size} sites scored (at least ${fixed(100 * b.minUsed, 0)}% used, a lower bound of ${fixed2(b.minLower)}, ${b.minTasks} tasks, at ${rustDisplay(b.threshold)})`;
}
