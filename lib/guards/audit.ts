/**
 * Guards against recorded episodes (`stretto guards`, docs/guards.md): every call of
 * every episode is checked against what came before its turn, as the proxy would check it,
 * and sorted by whether the tool accepted it and whether the episode succeeded. A failure
 * on a write the tool refused agrees with the tool; a failure on an accepted write of a
 * successful episode is a false alarm, or a policy the episode broke and passed anyway.
 *
 * Episodes are added one at a time, each walked once (its facts kept as it goes), so a
 * folder of any size is audited in one pass with one episode in memory.
 */
import { compareCodePoints } from "../trace/json.js";
import type { Episode } from "../trace/episode-types.js";
import { succeeded } from "../trace/episode-queries.js";
import { verdicts } from "./check.js";
import { Facts } from "./facts.js";
import type { Rule } from "./rule.js";

/** pass, fail, unknown. */
export type Counts3 = [number, number, number];
/** successful, failed. */
export type Counts2 = [number, number];

export interface RuleAudit {
  rule: string;
  policy: string;
  enforced: boolean;
  /** Verdicts on the writes the tool accepted in successful episodes. */
  successful: Counts3;
  /** Verdicts on the writes the tool accepted in failed episodes. */
  failed: Counts3;
  /** Verdicts on the writes the tool refused. */
  refused_by_tool: Counts3;
  /** Episodes in which it fails a write the tool accepted. */
  episodes_failed: Counts2;
  /** Up to five failures on accepted writes of successful episodes: episode id, task id, reason. */
  false_alarms: [string, string, string][];
}

export interface Audit {
  domain: string;
  /** Episodes read. */
  episodes: Counts2;
  /** Writes checked: accepted by the tool, refused by it. */
  writes: Counts2;
  /** Episodes in which an enforced rule fails a write the tool accepted. */
  refused: Counts2;
  /** Every rule, by id. */
  rules: RuleAudit[];
  /** By task id (in code point order): episodes successful, failed; refused successful, failed. */
  tasks: Map<string, [number, number, number, number]>;
}

export const FALSE_ALARMS_KEPT = 5;

const KIND_INDEX = { pass: 0, fail: 1, unknown: 2 } as const;

export class Auditor {
  private readonly audit: Audit;
  private readonly byId = new Map<string, RuleAudit>();
  private readonly byTool = new Map<string, Rule[]>();

  /** `toolName` maps a recorded tool's name to the one the rules know (e.g. unqualified). */
  constructor(
    domain: string,
    rules: readonly Rule[],
    private readonly toolName?: (name: string) => string,
  ) {
    this.audit = { domain, episodes: [0, 0], writes: [0, 0], refused: [0, 0], rules: [], tasks: new Map() };
    for (const r of rules) {
      const a: RuleAudit = {
        rule: r.id,
        policy: r.policy,
        enforced: r.enforced,
        successful: [0, 0, 0],
        failed: [0, 0, 0],
        refused_by_tool: [0, 0, 0],
        episodes_failed: [0, 0],
        false_alarms: [],
      };
      this.byId.set(r.id, a);
      for (const tool of r.tools) this.byTool.set(tool, [...(this.byTool.get(tool) ?? []), r]);
    }
  }

  add(ep: Episode): void {
    const good = succeeded(ep);
    const side = good ? 0 : 1;
    this.audit.episodes[side]++;
    const toolError = new Map<string, boolean>();
    for (const e of ep.events) if (e.kind === "tool_result") toolError.set(e.call_id, e.error);
    const facts = new Facts();
    const failing = new Set<string>();
    for (const e of ep.events) {
      if (e.kind === "assistant") {
        // Every call of a turn is judged on what came before the turn.
        for (const c of e.calls) {
          const name = this.toolName ? this.toolName(c.name) : c.name;
          const vs = verdicts(this.byTool.get(name) ?? [], facts, { name, arguments: c.arguments });
          if (vs.length === 0) continue;
          const refused = toolError.get(c.id) ?? false;
          this.audit.writes[refused ? 1 : 0]++;
          for (const v of vs) {
            const a = this.byId.get(v.rule)!;
            const counts = refused ? a.refused_by_tool : good ? a.successful : a.failed;
            counts[KIND_INDEX[v.verdict.verdict]]++;
            if (v.verdict.verdict === "fail" && !refused) {
              failing.add(v.rule);
              if (good && a.false_alarms.length < FALSE_ALARMS_KEPT) a.false_alarms.push([ep.id, ep.task_id, v.verdict.reason]);
            }
          }
        }
      }
      facts.apply(this.renamed(e));
    }
    for (const id of failing) this.byId.get(id)!.episodes_failed[side]++;
    const task = this.audit.tasks.get(ep.task_id) ?? [0, 0, 0, 0];
    this.audit.tasks.set(ep.task_id, task);
    task[side]++;
    if ([...failing].some((id) => this.byId.get(id)!.enforced)) {
      this.audit.refused[side]++;
      task[2 + side]!++;
    }
  }

  /** The audit so far: rules by id, tasks by id, both in code point order. */
  finish(): Audit {
    const rules = [...this.byId.values()].sort((a, b) => compareCodePoints(a.rule, b.rule));
    const tasks = new Map([...this.audit.tasks.entries()].sort(([a], [b]) => compareCodePoints(a, b)));
    return { ...this.audit, rules, tasks };
  }

  private renamed(e: Episode["events"][number]): Episode["events"][number] {
    const rename = this.toolName;
    if (rename === undefined) return e;
    if (e.kind === "assistant") return { ...e, calls: e.calls.map((c) => ({ ...c, name: rename(c.name) })) };
    if (e.kind === "tool_result") return { ...e, name: rename(e.name) };
    return e;
  }
}

/** The audit of `episodes` against `rules`. */
export function audit(domain: string, rules: readonly Rule[], episodes: Iterable<Episode>): Audit {
  const a = new Auditor(domain, rules);
  for (const ep of episodes) a.add(ep);
  return a.finish();
}
