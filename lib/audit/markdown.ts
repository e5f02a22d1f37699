/** The audit report in Markdown, as `stretto audit` prints it. */
import type { DeciderName } from "../flow/decide/index.js";
import type { Flow } from "../flow/ir/flow-types.js";
import { fixed } from "../review/numbers.js";
import type { Audit } from "./audit.js";

/** `33.3%` */
function pct1(x: number): string {
  return `${fixed(100 * x, 1)}%`;
}

/** The report's first words: which decider the flow was scored with. */
export function deciderSentence(flow: Flow, decider: DeciderName): string {
  if (decider === "arbiter") return `The flow decides with its arbiter, which asks \`${flow.model}\`.`;
  if (decider === "reach") return "The flow decides with `reach`: how often each lookup came before the agent's next write.";
  return "The flow decides with the habit alone.";
}

/** A top-probability bin: `0.3–0.4`. */
function binName(from: number): string {
  return `${fixed(from, 1)}–${fixed(from + 0.1, 1)}`;
}

export function auditMarkdown(flow: Flow, a: Audit): string {
  let md = `# Flow audit: ${a.domain}\n\n`;
  md += `${deciderSentence(flow, a.decider)} ${a.episodes} episodes, ${a.decisions} decisions scored (${a.unanswered} left out: no answer from the oracle).\n\n`;
  md += `- **Agreement:** the flow's likeliest option was the agent's step at ${pct1(a.agreement)} of decisions (${pct1(a.expected_agreement)} expected if it picked at random from its own probabilities).\n`;
  md += `- **Surprise:** ${fixed(-a.mean_log_prob, 3)} nats per decision (the agent's path has log-probability ${fixed(a.log_prob, 1)} under the flow).\n`;
  md += `- **Calibration:** expected calibration error ${fixed(a.ece, 3)}.\n`;
  if (a.sites.length > 0) {
    md += "\n## Sites\n\n| Site | Decisions | Agreement | Nats per decision |\n|---|---|---|---|\n";
    for (const s of a.sites) md += `| \`${s.site}\` | ${s.decisions} | ${pct1(s.agreement)} | ${fixed(-s.mean_log_prob, 3)} |\n`;
  }
  if (a.calibration.length > 0) {
    md += "\n## Calibration\n\n| Top probability | Decisions | Mean | Agreement |\n|---|---|---|---|\n";
    for (const b of a.calibration) md += `| ${binName(b.from)} | ${b.decisions} | ${fixed(b.mean_prob, 3)} | ${pct1(b.agreement)} |\n`;
  }
  if (a.surprising.length > 0) {
    md += "\n## Episodes the flow fit least\n\n| Episode | Task | Decisions | Nats per decision |\n|---|---|---|---|\n";
    for (const e of a.surprising) md += `| \`${e.episode}\` | ${e.task === "" ? "–" : `\`${e.task}\``} | ${e.decisions} | ${fixed(-e.mean_log_prob, 3)} |\n`;
  }
  return md;
}
