/**
 * How likely the logging flow was to take what it took, recomputed from
 * the logged policy rather than read from it: 1 without exploring, 1 − ε for the rule's own
 * choice, ε·p/Σp for an alternative (a bound lookup with p > 0 other than the rule's).
 */
import { EvaluateError, type LoggedDecision } from "./decisions.js";

/** The option index the flow took at `d`, or -1 when it handed back. */
export function takenChoice(d: LoggedDecision): number {
  if (d.action !== "lookup") return -1;
  const i = d.policy.options.findIndex((o) => o.tool === d.tool);
  if (i === -1) throw new EvaluateError(`${d.where}: the flow looked up ${d.tool}, which is not among its policy's options`);
  return i;
}

export function propensity(d: LoggedDecision, taken: number): number {
  const { policy } = d;
  const greedy = policy.greedy;
  const takenTool = taken === -1 ? null : policy.options[taken]!.tool;
  const alternatives = policy.options.filter((o) => o.arguments !== null && o.p > 0 && o.tool !== greedy);
  if (alternatives.length === 0 || policy.epsilon <= 0 || takenTool === greedy) {
    if (takenTool !== greedy) throw new EvaluateError(`${d.where}: the flow took ${takenTool ?? "no lookup"}, which its policy could not take`);
    if (alternatives.length === 0 || policy.epsilon <= 0) return 1;
    // With ε = 1 the rule's own choice is never kept: having kept it, the log contradicts itself.
    if (policy.epsilon >= 1) throw new EvaluateError(`${d.where}: the flow took ${takenTool ?? "no lookup"}, which its policy could not take`);
    return 1 - policy.epsilon;
  }
  const chosen = alternatives.find((o) => o.tool === takenTool);
  if (chosen === undefined) throw new EvaluateError(`${d.where}: the flow took ${takenTool ?? "no lookup"}, which its policy could not take`);
  const total = alternatives.reduce((s, o) => s + o.p, 0);
  return (policy.epsilon * chosen.p) / total;
}
