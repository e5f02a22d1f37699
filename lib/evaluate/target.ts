/**
 * A target policy (`--target NAME=DECIDER@THRESHOLD`) and what it would have done at a
 * logged decision: the serving rule replayed from the logged policy, lookup first, over the
 * arbiter's logged probabilities or the habit's.
 */
import type { Policy } from "../flow/decide/types.js";
import { EvaluateError, type LoggedDecision } from "./decisions.js";

export type TargetDecider = "arbiter" | "habit";

export interface Target {
  name: string;
  decider: TargetDecider;
  threshold: number;
}

/** `NAME=DECIDER@THRESHOLD`, or the reason it is not one. */
export function parseTarget(text: string): Target | string {
  const m = /^([^=]+)=([^@]+)@(.+)$/.exec(text);
  if (m === null) return `--target needs NAME=DECIDER@THRESHOLD, not ${text}`;
  const [, name, decider, t] = m as unknown as [string, string, string, string];
  if (decider !== "arbiter" && decider !== "habit") return `--target ${text}: the decider is arbiter or habit, not ${decider}`;
  const threshold = Number(t);
  if (t.trim() === "" || !Number.isFinite(threshold)) return `--target ${text}: the threshold is a number, not ${t}`;
  return { name, decider, threshold };
}

/**
 * The option index the target would take at `d`, or -1 to hand back: the likeliest option
 * (the first of equals), if it reaches the threshold, binds, and its probability times its
 * binding's chance reaches the threshold too.
 */
export function targetChoice(target: Target, d: LoggedDecision): number {
  const policy: Policy = d.policy;
  if (target.decider === "arbiter" && policy.decider !== "arbiter") {
    throw new EvaluateError(`${d.where}: ${target.name} needs the arbiter's probabilities, but a decision was logged with the ${policy.decider}`);
  }
  const prob = (i: number): number => (target.decider === "arbiter" ? policy.options[i]!.p : policy.options[i]!.habit);
  let best = -1;
  for (let i = 0; i < policy.options.length; i++) if (best === -1 || prob(i) > prob(best)) best = i;
  if (best === -1) return -1;
  const p = prob(best);
  const binding = policy.options[best]!.binding;
  if (p < target.threshold || binding === null || p * binding < target.threshold) return -1;
  return best;
}
