/** Episodes and flows for the deciding specs. */
import type { Episode, EpisodeEvent } from "../../lib/trace/episode-types.js";
import type { Json, JsonObject } from "../../lib/trace/json.js";
import { parseFlow } from "../../lib/flow/ir/load-flow.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import type { BindFn, BindResult } from "../../lib/flow/decide/index.js";
import { fixtureText } from "./flow-fixture.js";

export function user(text: string): EpisodeEvent {
  return { kind: "user", text };
}

export function call(id: string, name: string, args: Json = {}): EpisodeEvent {
  return { kind: "assistant", text: null, calls: [{ id, name, arguments: args }], usage: null };
}

export function said(text: string): EpisodeEvent {
  return { kind: "assistant", text, calls: [], usage: null };
}

export function result(id: string, name: string, content: string, error = false): EpisodeEvent {
  return { kind: "tool_result", call_id: id, name, error, content };
}

export function episode(events: EpisodeEvent[], taskId = "task-1"): Episode {
  return { id: "session-1", task_id: taskId, trial: 0, domain: "retail", agent_model: "test", reward: 0, events };
}

/** The worked check's episode (the session the published flow's figures are checked on). */
export function emailEpisode(email = "c1@example.com", userId = "user_1"): Episode {
  return episode([
    user(`Please cancel my order. I am ${email}.`),
    call("1", "find_user_id_by_email", { email }),
    result("1", "find_user_id_by_email", userId),
  ]);
}

/** The published flow as JSON, to change before parsing. */
export function fixtureJson(): JsonObject {
  return JSON.parse(fixtureText()!) as JsonObject;
}

export function flowOf(json: object): Flow {
  return parseFlow(JSON.stringify(json));
}

/** A binding that answers from a table, counting its calls. */
export function bindTable(table: Record<string, BindResult>): BindFn & { calls: string[] } {
  const calls: string[] = [];
  const fn = (tool: string): BindResult => {
    calls.push(tool);
    return table[tool] ?? { ok: false, why: "never called in training" };
  };
  return Object.assign(fn, { calls });
}

export function bound(args: JsonObject, chance: number): BindResult {
  return { ok: true, arguments: args, chance };
}
