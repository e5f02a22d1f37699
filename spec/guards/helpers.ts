/** Building episodes and asking the guards about one call, for the guard specs. */
import type { Json } from "../../lib/trace/json.js";
import type { Episode, EpisodeEvent } from "../../lib/trace/episode-types.js";
import { guardsFor, type Decision, type Verdict } from "../../lib/guards/index.js";

export function user(text: string): EpisodeEvent {
  return { kind: "user", text };
}

export function call(id: string, name: string, args: Json): EpisodeEvent {
  return { kind: "assistant", text: null, calls: [{ id, name, arguments: args }], usage: null };
}

/** A successful result; a string is the content as is, anything else its JSON. */
export function result(id: string, name: string, content: Json, error = false): EpisodeEvent {
  return { kind: "tool_result", call_id: id, name, error, content: typeof content === "string" ? content : JSON.stringify(content) };
}

/** A lookup of `name` (no arguments) that returned `content`. */
export function lookedUp(id: string, name: string, content: Json): EpisodeEvent[] {
  return [call(id, name, {}), result(id, name, content)];
}

export function episode(events: EpisodeEvent[], more: Partial<Episode> = {}): Episode {
  return { id: "e", task_id: "1", trial: 0, domain: "retail", agent_model: "m", reward: 1, events, ...more };
}

/** The guards' decision on `name(args)` after `events`. */
export function decide(domain: string, events: readonly EpisodeEvent[], name: string, args: Json): Decision {
  const g = guardsFor(domain);
  for (const e of events) g.facts.apply(e);
  return g.check({ name, arguments: args });
}

/** Rule `rule`'s verdict on `name(args)` after `events`; throws if the rule does not check that tool. */
export function verdictOf(domain: string, events: readonly EpisodeEvent[], name: string, args: Json, rule: string): Verdict {
  const found = decide(domain, events, name, args).verdicts.find((v) => v.rule === rule);
  if (found === undefined) throw new Error(`${rule} does not check ${name}`);
  return found.verdict;
}

/** Why `name(args)` is refused after `events`, or undefined. */
export function refusal(domain: string, events: readonly EpisodeEvent[], name: string, args: Json): string | undefined {
  return decide(domain, events, name, args).reason;
}

export const PASS: Verdict = { verdict: "pass" };
export const fails = (reason: string): Verdict => ({ verdict: "fail", reason });
export const unknown = (reason: string): Verdict => ({ verdict: "unknown", reason });
