/** The report `stretto stage` prints: what the staged flow learned from, how both flows did on the latest sessions, and what committing would change. */
import { fixed } from "../review/numbers.js";
import { compareCodePoints } from "../trace/json.js";
import { wilsonLower } from "../promote/index.js";
import type { Comparison, Counts } from "./state.js";

/** The share of the lookups the agent could have made itself that it made, with a 90% Wilson interval; null when there are none. */
export function usedShare(c: Counts): { share: number; lower: number; upper: number } | null {
  const known = c.lookups - c.served;
  if (known <= 0) return null;
  return { share: c.used / known, lower: wilsonLower(c.used, known), upper: 1 - wilsonLower(known - c.used, known) };
}

/** `{used} ({share}%, {lo}–{hi}%)` over the lookups the agent could have made itself, or `—`. */
export function usedCell(c: Counts): string {
  const s = usedShare(c);
  if (s === null) return "—";
  return `${c.used} (${fixed(100 * s.share, 0)}%, ${fixed(100 * s.lower, 0)}–${fixed(100 * s.upper, 0)}%)`;
}

const side = (c: Counts | undefined) => {
  const x = c ?? { decisions: 0, lookups: 0, used: 0, served: 0 };
  return `${x.lookups} | ${usedCell(x)} | ${x.lookups - x.used - x.served}`;
};

export function stageMarkdown(c: Comparison, flowPath: string): string {
  let md = `# The staged ${c.domain} flow\n\nIt learned from ${c.sessions} sessions, ${c.new} of them new in this run.`;
  if (c.carried.length > 0) md += ` From the committed flow it keeps ${c.carried.join(", ")}.`;
  md += "\n\n";
  if (c.compared === 0) {
    md += `No session has been scored by ${c.committed ? "both flows" : "the staged flow"} yet: each session is scored as it arrives, before the staged flow learns from it, from the second run on.\n`;
  } else {
    const flows = c.committed ? "both flows" : "the staged flow";
    md += `## The last ${c.compared} sessions\n\nEach session was scored by ${flows} as it arrived, before the staged flow learned from it: the lookups each would have made there as served, and how many of them the agent made in a later LLM turn (used), with a 90% interval on the share; the rest are detours. A lookup counts after each of the agent's calls, as \`stretto promote\` counts it: one a flow would make after several of the agent's calls counts after each.\n\n`;
    md += c.committed ? "| After | Committed: lookups | used | detours | Staged: lookups | used | detours |\n|---|---|---|---|---|---|---|\n" : "| After | Staged: lookups | used | detours |\n|---|---|---|---|\n";
    const row = (name: string, x: { committed?: Counts; staged: Counts }) => `| ${name} | ${c.committed ? `${side(x.committed)} | ` : ""}${side(x.staged)} |\n`;
    for (const site of Object.keys(c.sites).sort(compareCodePoints)) md += row(`\`${site}\``, c.sites[site]!);
    md += row("All", c.total);
    const served = [c.total.committed?.served ?? 0, c.total.staged.served];
    if (served[0]! + served[1]! > 0) md += `\nThe proxy had already made ${served[0]} of the committed flow's lookups and ${served[1]} of the staged flow's, serving a flow: they count as neither used nor detours, since the agent had no reason to make them again.\n`;
    if (c.unanswered[0] + c.unanswered[1] > 0) md += `\nThe System-One model gave no answer at ${c.unanswered[0]} of the committed flow's decisions and ${c.unanswered[1]} of the staged flow's, which are left out.\n`;
  }
  if (c.committed) {
    md += "\n## What committing it would change\n\n";
    if (c.changes.length === 0) {
      md += "Nothing `stretto flow-diff` lists: its lookups, bindings and where it acts are the committed flow's.\n";
    } else {
      md += c.changes.map((s) => `### ${s.title}\n\n${s.changes.map((x) => `- ${x}`).join("\n")}\n`).join("\n");
      if (c.needs_review.length > 0) md += `\n${c.needs_review.length} of these need review: the flow may call a tool, make a lookup, bind an argument from a source, or ask a model or a question it did not before.\n`;
    }
  }
  md += `\nCommit it with \`stretto flow-commit --flow ${flowPath}\`; the committed flow's versions are kept for \`stretto flow-rollback\`.\n`;
  return md;
}
