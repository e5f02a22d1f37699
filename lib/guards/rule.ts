/**
 * One rule of a domain's written policy, compiled into a check a proxy can run before a
 * write reaches the server (docs/guards.md lists them). It reads only what the episode has shown
 * (its {@link FactView}) and the call's arguments.
 */
import { field, isObject, type Json, type JsonObject } from "../trace/json.js";
import type { FactView } from "./facts.js";
import type { Verdict } from "./verdict.js";

/** The call a rule judges: a tool name and its arguments (as sent). */
export interface GuardedCall {
  readonly name: string;
  readonly arguments: Json;
}

export interface Rule {
  /** Its id, cited in a refusal: `retail.cancel_reason`. */
  readonly id: string;
  /** The policy it checks, in brief (audits and the README). */
  readonly policy: string;
  /** The tools it applies to. */
  readonly tools: readonly string[];
  /** Whether its failure refuses the call; otherwise it is only logged. */
  readonly enforced: boolean;
  readonly check: (facts: FactView, call: GuardedCall) => Verdict;
}

/** The call's argument `key` when it is a string; anything else counts as not given. */
export function arg(call: GuardedCall, key: string): string | undefined {
  const v = field(call.arguments, key);
  return typeof v === "string" ? v : undefined;
}

/** The string members of a list (anything else in it ignored); none when it is no list. */
export function strings(v: Json | undefined): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

/** The members of a list; none when it is no list. */
export function list(v: Json | undefined): Json[] {
  return Array.isArray(v) ? v : [];
}

/** `v[key]` when it is a string. */
export function text(v: Json | undefined, key: string): string | undefined {
  const s = field(v, key);
  return typeof s === "string" ? s : undefined;
}

/** `v[key]` when it is an object. */
export function object(v: Json | undefined, key: string): JsonObject | undefined {
  const o = field(v, key);
  return isObject(o) ? o : undefined;
}
