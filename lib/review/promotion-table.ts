/**
 * A promotion as Markdown (docs/flows.md, "Promote a flow"): the bar each site had to meet, then
 * each scored site's record, by name.
 */
import { fixed2, rustDisplay } from "../flow/decide/rust-format.js";
import { byteOrder } from "../flow/decide/site.js";
import type { Promotion } from "../flow/ir/flow-types.js";
import { fixed } from "./numbers.js";

export function promotionMarkdown(promotion: Promotion): string {
  const b = promotion.bar;
  const lines = [
    `A site is promoted when, at a threshold of ${rustDisplay(b.threshold)}, at least ${fixed(100 * b.minUsed, 0)}% of the flow's lookups there were ones the agent made in a later LLM turn, the 90% interval's lower bound on that share is at least ${fixed2(b.minLower)}, and the lookups came from at least ${b.minTasks} tasks.`,
    "",
    "| After | Decisions | Lookups it would make | Made by the agent later | Lower bound | Tasks | Promoted |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const [site, r] of [...promotion.sites].sort(([a], [c]) => byteOrder(a, c))) {
    const used = r.lookups > 0 ? `${r.used} (${fixed((100 * r.used) / r.lookups, 0)}%)` : "—";
    lines.push(`| \`${site}\` | ${r.decisions} | ${r.lookups} | ${used} | ${fixed2(r.lower)} | ${r.tasks} | ${r.promoted ? "yes" : "no"} |`);
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
