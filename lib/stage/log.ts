/** `stretto flow-log`: each version of the committed flow, latest first, and what it was. */
import { historyOf } from "./commit.js";
import { readRecord, type Evidence, type VersionRecord } from "./versions.js";

export const NOT_LATEST =
  "The committed flow is not the latest version: it has changed since, by other means than a commit. The next commit or rollback keeps it as a version first.";

/** `1970-01-01 00:00 UTC`. */
export function when(unixMs: number): string {
  return `${new Date(unixMs).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function evidenceText(e: Evidence): string {
  const side = (c: { lookups: number; used: number; detours: number }) => `${c.lookups}, ${c.used} used, ${c.detours} detours`;
  const committed = e.committed === undefined ? "" : `; the committed flow's: ${side(e.committed)}`;
  return `On the last ${e.sessions} sessions before it, the staged flow's lookups: ${side(e.staged)}${committed}.`;
}

/** One version's section. */
export function recordMarkdown(r: VersionRecord, now: boolean): string {
  const what = r.kind === "found" ? "found in place" : r.kind === "commit" ? "committed" : `rolled back to version ${r.restored ?? "?"}`;
  let md = `## Version ${r.version}${now ? " (committed now)" : ""}\n\n${what}, ${when(r.unix_ms)}\n`;
  if (r.note !== undefined) md += `\n> ${r.note}\n`;
  if (r.evidence !== undefined) md += `\n${evidenceText(r.evidence)}\n`;
  if (r.changes !== undefined && r.changes.length > 0) md += `\n${r.changes.map((c) => `- ${c}`).join("\n")}\n`;
  return md;
}

export function flowLog(path: string): string {
  const h = historyOf(path);
  let md = `# ${path}\n\n`;
  if (h.numbers.length === 0) md += "No version has been committed: `stretto flow-commit` keeps each.\n";
  const latestFirst = [...h.numbers].reverse();
  md += latestFirst.map((n) => recordMarkdown(readRecord(h.paths, n), n === h.latest)).join("\n");
  if (h.changedByOther) md += `\n${NOT_LATEST}\n`;
  return md;
}
