/**
 * An audit written out (`stretto guards`): as Markdown, and as pretty JSON in a fixed shape
 * that scripts read, `[{domain, episodes, writes, refused, rules: [...], tasks: {...}}]`,
 * with tasks in code point order (a plain object would put `"10"` before `"9"` the
 * JavaScript way, and `"2"` before `"10"`).
 */
import type { Audit, Counts3 } from "./audit.js";

export const AUDIT_TITLE = "# Policy guards against recorded trajectories";

const INTRO =
  "Each write of each episode is checked against what came before it, as `stretto-proxy --guards` " +
  "checks it, and counted by whether the tool accepted it. A failure on a write the tool refused " +
  "agrees with the tool. A failure on an accepted write of a successful episode is a false alarm, or " +
  "a policy the episode broke and passed anyway (τ²-bench grades the database, not every rule). Only " +
  "enforced rules refuse a write; the others are logged.";

const TABLE_HEAD =
  "| Rule | Enforced | Accepted, successful: pass / fail / unknown | Accepted, failed: pass / fail / unknown " +
  "| Refused by the tool: pass / fail / unknown | Episodes failed: successful / failed |\n" +
  "|---|---|---|---|---|---|\n";

function cell([p, f, u]: Counts3): string {
  return `${p} / ${f} / ${u}`;
}

export function auditMarkdown(audits: readonly Audit[]): string {
  let md = `${AUDIT_TITLE}\n\n${INTRO}\n`;
  for (const a of audits) {
    const [good, bad] = a.episodes;
    md +=
      `\n## ${a.domain}\n\n${good + bad} episodes (${good} successful, ${bad} failed); ` +
      `${a.writes[0]} writes the tool accepted and ${a.writes[1]} it refused. ` +
      `The enforced rules would refuse an accepted write in **${a.refused[0]} of ${good} successful** ` +
      `episodes and **${a.refused[1]} of ${bad} failed** ones.\n\n`;
    md += TABLE_HEAD;
    for (const r of a.rules) {
      md +=
        `| \`${r.rule}\` | ${r.enforced ? "yes" : "logged"} | ${cell(r.successful)} | ${cell(r.failed)} ` +
        `| ${cell(r.refused_by_tool)} | ${r.episodes_failed[0]} / ${r.episodes_failed[1]} |\n`;
    }
    const alarms = a.rules.filter((r) => r.false_alarms.length > 0);
    if (alarms.length > 0) {
      md += "\nFailures on accepted writes of successful episodes (at most five a rule):\n\n";
      for (const r of alarms) {
        for (const [episode, task, reason] of r.false_alarms) md += `- \`${r.rule}\`, task ${task} (${episode}): ${reason}\n`;
      }
    }
  }
  return md;
}

/** A value to write as JSON; a Map is an object whose keys keep the Map's order. */
export type Pretty = null | boolean | number | string | readonly Pretty[] | ReadonlyMap<string, Pretty> | { readonly [k: string]: Pretty };

/** The audits as pretty JSON (two-space indent, as serde_json's `to_string_pretty`). */
export function auditJson(audits: readonly Audit[]): string {
  return pretty(audits.map(auditValue), "");
}

function auditValue(a: Audit): Pretty {
  return {
    domain: a.domain,
    episodes: a.episodes,
    writes: a.writes,
    refused: a.refused,
    rules: a.rules.map((r) => ({
      rule: r.rule,
      policy: r.policy,
      enforced: r.enforced,
      successful: r.successful,
      failed: r.failed,
      refused_by_tool: r.refused_by_tool,
      episodes_failed: r.episodes_failed,
      false_alarms: r.false_alarms,
    })),
    tasks: a.tasks,
  };
}

export function pretty(v: Pretty, indent: string): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  const inner = indent + "  ";
  if (Array.isArray(v)) {
    const items = v as readonly Pretty[];
    if (items.length === 0) return "[]";
    return `[\n${items.map((x) => inner + pretty(x, inner)).join(",\n")}\n${indent}]`;
  }
  const entries: [string, Pretty][] = v instanceof Map ? [...(v as ReadonlyMap<string, Pretty>).entries()] : Object.entries(v as { readonly [k: string]: Pretty });
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pretty(x, inner)}`).join(",\n")}\n${indent}}`;
}
