/**
 * Running a domain's rules on one call (docs/guards.md, "How the rules decide"): only the rules whose tools
 * include the call's name; a call no rule applies to passes. The call is refused when an
 * enforced rule fails it; the reason cites each such rule, in rule order, as
 * `<reason> (policy check <id>)`, joined with `; `. The agent then gets, instead of the
 * server's answer, an error result whose text says nothing was run.
 */
import type { Json } from "../trace/json.js";
import type { FactView } from "./facts.js";
import type { GuardedCall, Rule } from "./rule.js";
import type { Verdict } from "./verdict.js";

export interface RuleVerdict {
  readonly rule: string;
  readonly enforced: boolean;
  readonly verdict: Verdict;
}

export interface Decision {
  /** Whether an enforced rule failed the call. */
  readonly refused: boolean;
  /** When refused: why, citing each failing enforced rule. */
  readonly reason?: string;
  /** When refused: the text the agent gets (see {@link refusalText}). */
  readonly text?: string;
  /** Every applicable rule's verdict, in rule order (logged rules included). */
  readonly verdicts: readonly RuleVerdict[];
}

/** Each rule's verdict on `call`, made on `facts` (which must not include `call` itself). */
export function verdicts(rules: readonly Rule[], facts: FactView, call: GuardedCall): RuleVerdict[] {
  const out: RuleVerdict[] = [];
  for (const rule of rules) {
    if (rule.tools.includes(call.name)) out.push({ rule: rule.id, enforced: rule.enforced, verdict: rule.check(facts, call) });
  }
  return out;
}

/** The decision on a call from its rules' verdicts. */
export function decision(tool: string, all: readonly RuleVerdict[]): Decision {
  const reason = failuresReason(all);
  if (reason === undefined) return { refused: false, verdicts: all };
  if (tool !== textTool || reason !== textReason) {
    textTool = tool;
    textReason = reason;
    text = refusalText(tool, reason);
  }
  return { refused: true, reason, text, verdicts: all };
}

/**
 * The last failures refused (each reason, then its rule), the reason made of them, and the
 * last refusal's text: calls refused alike in a row (a session's repeated refusals) get the
 * same strings, made once, and their answers' bytes are written once (`toolResultLine`).
 */
let failures: string[] = [];
let failed = "";
let textTool = "";
let textReason = "";
let text = "";

/** `refusalReason(all)`, the last one again when the failures are the last ones. */
function failuresReason(all: readonly RuleVerdict[]): string | undefined {
  let n = 0;
  let same = true;
  for (const v of all) {
    if (!v.enforced || v.verdict.verdict !== "fail") continue;
    same = same && n + 1 < failures.length && failures[n] === v.verdict.reason && failures[n + 1] === v.rule;
    n += 2;
  }
  if (n === 0) return undefined;
  if (same && n === failures.length) return failed;
  const now: string[] = [];
  for (const v of all) if (v.enforced && v.verdict.verdict === "fail") now.push(v.verdict.reason, v.rule);
  failures = now;
  failed = refusalReason(all)!;
  return failed;
}

/** Why the call is refused: each enforced failure as `<reason> (policy check <id>)`, `; `-joined. */
export function refusalReason(all: readonly RuleVerdict[]): string | undefined {
  const failed: string[] = [];
  for (const v of all) {
    if (v.enforced && v.verdict.verdict === "fail") failed.push(`${v.verdict.reason} (policy check ${v.rule})`);
  }
  return failed.length === 0 ? undefined : failed.join("; ");
}

/** What the agent reads instead of the tool's result (note the final period). */
export function refusalText(tool: string, reason: string): string {
  return `Refused by the policy check, so ${tool} was not run and nothing changed: ${reason}.`;
}

/** The tool result the agent gets for a refused call. */
export function refusalResult(tool: string, reason: string): { content: [{ type: "text"; text: string }]; isError: true } {
  return { content: [{ type: "text", text: refusalText(tool, reason) }], isError: true };
}

/** The whole JSON-RPC response to a refused `tools/call` with `id` (the request's own). */
export function refusalResponse(id: Json, tool: string, reason: string): Json {
  return { jsonrpc: "2.0", id, result: refusalResult(tool, reason) };
}

/** The stderr line, without the program's prefix (`stretto-proxy: ` + this). */
export function refusalNotice(tool: string, reason: string): string {
  return `refused ${tool}: ${reason}`;
}
