/** `stretto confirm`'s Markdown report and JSON, from the audits and the judged writes. */
import type { ConfirmAudit, GroupCounts, JudgedWrite } from "./audit.js";
import type { SecondQuestion } from "./questions.js";

export const CONFIRM_TITLE = "# Confirmation judged by a System-One model";

const SECOND_SENTENCE: Record<SecondQuestion, string> = {
  described: "The second question asks whether the agent's message before the reply described this exact change.",
  proposed: "The second question asks whether the agent had proposed this change before the reply.",
};

export interface ReportSettings {
  threshold: number;
  second?: SecondQuestion;
  model: string;
}

export function confirmMarkdown(audits: readonly ConfirmAudit[], s: ReportSettings): string {
  const out = [CONFIRM_TITLE, ""];
  out.push(
    `Each write a domain's \`*.confirmed\` rule covers, put to the model (${s.model}) as stretto-proxy --confirm-judge puts it: did the customer's reply explicitly agree to this exact change? A write fails the judge when P(yes) < ${s.threshold}.${s.second === undefined ? "" : ` ${SECOND_SENTENCE[s.second]} Two questions fail a write when either answer is below the threshold.`} The word list fails a write when the customer's last message holds no yes.`,
    "",
  );
  for (const a of audits) {
    out.push(`## ${a.domain}`, "");
    out.push(`${a.episodes[0] + a.episodes[1]} episodes (${a.episodes[0]} successful, ${a.episodes[1]} failed).`, "");
    out.push("| Writes | Count | Word list fails | Judge fails | Two questions fail | Both fail | Unanswered |", "|---|---|---|---|---|---|---|");
    const row = (name: string, g: GroupCounts) => `| ${name} | ${g.writes} | ${g.word_list} | ${g.judge} | ${g.two_questions} | ${g.both} | ${g.unanswered} |`;
    out.push(row("accepted, successful episodes", a.accepted_successful), row("accepted, failed episodes", a.accepted_failed), row("refused by the tool", a.refused_by_tool), "");
    out.push(`Episodes where the judge fails an accepted write: ${a.episodes_judge_fails[0]} of ${a.episodes[0]} successful, ${a.episodes_judge_fails[1]} of ${a.episodes[1]} failed.`, "");
    examples(out, "The judge fails, the word list passes", a.judge_only);
    examples(out, "The word list fails, the judge passes", a.word_list_only);
    if (s.second !== undefined) examples(out, "Only the second question fails", a.second_only, s.second);
  }
  return `${out.join("\n").trimEnd()}\n`;
}

function examples(out: string[], title: string, writes: readonly JudgedWrite[], second?: SecondQuestion): void {
  if (writes.length === 0) return;
  out.push(`### ${title}`, "");
  for (const w of writes) {
    const said = w.customer.replace(/\s*\n\s*/g, " ");
    const short = Array.from(said).length > 160 ? `${Array.from(said).slice(0, 160).join("")}…` : said;
    const p = [`P(yes) = ${(w.p_yes ?? NaN).toFixed(2)}`];
    if (second !== undefined && w.p_second !== undefined) p.push(`P(${second}) = ${w.p_second.toFixed(2)}`);
    out.push(`- task ${w.task_id || "-"}, episode ${w.episode}, ${w.tool}, ${w.success ? "successful" : "failed"}: "${short}" (${p.join(", ")})`);
  }
  out.push("");
}

/** `--json`: `{"audits": [...], "writes": [...]}`. */
export function confirmJson(audits: readonly ConfirmAudit[], writes: readonly JudgedWrite[]): string {
  return `${JSON.stringify({ audits, writes }, null, 2)}\n`;
}
