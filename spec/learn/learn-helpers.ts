/** Running `stretto learn` and asking a learned flow what it would do next. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Episode, EpisodeEvent, JsonObject } from "../../lib/trace/index.js";
import { flowFromJson, type Flow } from "../../lib/flow/ir/index.js";
import { explainingBinderFor } from "../../lib/flow/bind/index.js";
import { decisionAt, nextLocal, type DeciderName, type Next } from "../../lib/flow/decide/index.js";
import { NODE, STRETTO, run, type Ran } from "../helpers/processes.js";

export function stretto(args: string[]): Promise<Ran> {
  return run(NODE, [STRETTO, ...args], { timeoutMs: 60_000 });
}

/** `stretto learn --sessions dir --domain shop --out <dir>/../shop.flow.json --habit-only …`. */
export async function learn(dir: string, out: string, extra: string[] = [], habitOnly = true): Promise<Ran> {
  return stretto(["learn", "--sessions", dir, "--domain", "shop", "--out", out, ...(habitOnly ? ["--habit-only"] : []), ...extra]);
}

export function flowJson(path: string): JsonObject {
  return JSON.parse(readFileSync(path, "utf8")) as JsonObject;
}

export function flowAt(path: string): Flow {
  return flowFromJson(flowJson(path));
}

export const outIn = (dir: string) => join(dir, "shop.flow.json");

function call(id: string, name: string, args: JsonObject): EpisodeEvent[] {
  return [{ kind: "assistant", text: null, calls: [{ id, name, arguments: args }], usage: null }];
}

/** A live session: the customer's message and the agent's calls so far, each with its result. */
export function liveEpisode(customer: string, calls: [name: string, args: JsonObject, result: string][]): Episode {
  const events: EpisodeEvent[] = [{ kind: "user", text: customer }];
  calls.forEach(([name, args, result], i) => {
    events.push(...call(String(i + 1), name, args), { kind: "tool_result", call_id: String(i + 1), name, error: false, content: result });
  });
  return { id: "live", task_id: "", trial: 0, domain: "shop", agent_model: "t", reward: 0, events };
}

/** What the flow decides after the episode's last call, as the proxy would. */
export function decide(flow: Flow, ep: Episode, decider: DeciderName, threshold = 0.3): Next {
  const at = decisionAt(ep);
  const bind = explainingBinderFor(flow, ep);
  return nextLocal({
    flow,
    at,
    taskId: ep.id,
    decider,
    threshold,
    bind: (tool) => {
      const b = bind(tool);
      return b.ok ? { ok: true, arguments: b.args as JsonObject, chance: b.chance } : b;
    },
  });
}
