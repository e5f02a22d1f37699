/** The evaluation as Markdown: what the estimates are, then a table per target. */
import { fixed2, rustDisplay } from "../flow/decide/rust-format.js";
import type { Estimates, Evaluation, Metrics } from "./estimate.js";

const cells = (m: Metrics | undefined): string => (m === undefined ? "— | — | — | —" : m.map(fixed2).join(" | "));

function rows(label: string, e: Estimates): string[] {
  const refused = e.ips === undefined;
  return [
    `| ${label} | ${e.decisions} | ${fixed2(e.ess)} | logged | ${cells(e.logged)} |`,
    `|  |  |  | direct | ${cells(e.direct)} |`,
    `|  |  |  | IPS | ${cells(e.ips)} |`,
    `|  |  |  | SNIPS | ${refused ? cells(undefined) : cells(e.snips)} |`,
    `|  |  |  | DR | ${cells(e.dr)} |`,
  ];
}

export function evaluationMarkdown(evaluations: readonly Evaluation[], decisions: number, minEss: number): string {
  const lines = [
    "# Off-policy evaluation",
    "",
    `${decisions} logged decisions. Each estimate is a total over them: the lookups the policy would make, those the agent made itself in a later LLM turn (used), those it did not (detours), and the LLM turns they save. Logged is what the flow did; direct reads the labels of the target's own choices; IPS, SNIPS and DR reweight what the flow did by 1/propensity where the target would have done the same. They are left out (—) where the target looks something up and the effective sample size (ESS) is below ${rustDisplay(minEss)}.`,
  ];
  for (const ev of evaluations) {
    lines.push("", `## \`${ev.target.name}\`: ${ev.target.decider} at ${rustDisplay(ev.target.threshold)}`, "");
    lines.push("| After | Decisions | ESS | Estimate | Lookups | Used | Detours | Turns |", "|---|---|---|---|---|---|---|---|");
    for (const [site, e] of ev.sites) lines.push(...rows(`\`${site}\``, e));
    lines.push(...rows("All", ev.all));
  }
  return lines.map((l) => `${l}\n`).join("");
}
