/** The drift report in Markdown, as `stretto drift` prints it. */
import { fixed, percent } from "../review/numbers.js";
import { MIN_BEFORE, MIN_RUN } from "./bocpd.js";
import type { Drift } from "./drift.js";

/** How many sites each alarm names. */
export const MOVED_SHOWN = 5;

const DASH = "–";
const num2 = (x: number | null) => (x === null ? DASH : fixed(x, 2));
const pct = (x: number | null) => (x === null ? DASH : percent(x));

export function driftMarkdown(d: Drift): string {
  let md = `# Drift: ${d.domain}\n\n`;
  const n = d.sessions.length;
  if (n === 0) return `${md}No sessions to score.\n`;
  const { window, threshold, hazard } = d.settings;
  md += `${n} sessions, from \`${d.sessions[0]!.id}\` to \`${d.sessions[n - 1]!.id}\`, scored under the flow's ${d.decider}. The alarm sounds when a change within the last ${window} sessions, after at least ${MIN_BEFORE} sessions and followed by at least ${MIN_RUN} of the new run, has probability ${threshold} or more (hazard ${hazard}).\n\n`;
  const last = d.alarms[d.alarms.length - 1];
  if (d.sounding && last !== undefined) {
    md += `**Alarm: the agent changed at session ${last.change + 1} (\`${d.sessions[last.change]!.id}\`), ${n - last.change} sessions ago** (probability ${fixed(d.sessions[n - 1]!.change, 2)}). Relearn the flow with the sessions since weighed more (\`stretto learn --half-life\`), or from them alone.\n`;
  } else {
    md += `**No alarm now:** a change within the last ${window} sessions has probability ${fixed(d.sessions[n - 1]!.change, 2)}.\n`;
  }
  if (d.alarms.length > 0) {
    md += "\n## Alarms\n\n| After session | Changed at | Probability |\n|---|---|---|\n";
    for (const a of d.alarms) md += `| ${a.at + 1} | ${a.change + 1} (\`${d.sessions[a.change]!.id}\`) | ${fixed(a.probability, 2)} |\n`;
    for (const a of d.alarms) {
      md += `\n### Sites across the change at session ${a.change + 1}\n\n`;
      md += "| Site | Decisions before | after | Agreement before | after | Surprise before | after |\n|---|---|---|---|---|---|---|\n";
      for (const m of a.moved.slice(0, MOVED_SHOWN)) {
        const b = m.before;
        md += `| \`${m.site}\` | ${b === null ? 0 : b.decisions} | ${m.after.decisions} | ${b === null ? DASH : percent(b.agreement)} | ${percent(m.after.agreement)} | ${b === null ? DASH : fixed(b.surprise, 2)} | ${fixed(m.after.surprise, 2)} |\n`;
      }
    }
  }
  const tools = Object.entries(d.unknown_tools);
  if (tools.length > 0) {
    md += "\n## Tools training never saw\n\n| Tool | First called in session |\n|---|---|\n";
    for (const [tool, i] of tools) md += `| \`${tool}\` | ${i + 1} (\`${d.sessions[i]!.id}\`) |\n`;
  }
  md += "\n## Sessions\n\n| # | Session | Decisions | Surprise (nats) | Disagreement | Unknown sites | P(change) |\n|---|---|---|---|---|---|---|\n";
  d.sessions.forEach((s, i) => {
    md += `| ${i + 1} | \`${s.id}\` | ${s.decisions} | ${num2(s.surprise)} | ${pct(s.disagreement)} | ${pct(s.unknown)} | ${fixed(s.change, 2)} |\n`;
  });
  return md;
}
