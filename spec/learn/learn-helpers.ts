/** Running `stretto learn` and asking a learned flow what it would do next. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Episode, EpisodeEvent, JsonObject } from "../../lib/trace/index.js";
import { flowFromJson, type Flow } from "../../lib/flow/ir/index.js";
import { explainingBinderFor } from "../../lib/flow/bind/index.js";
import { decisionAt, nextLocal, type DeciderName, type Next } from "../../lib/flow/decide/index.js";
import assert from "node:assert/strict";
import { Host } from "../e2e/flow-support.js";
import { DEMO, NODE, PROXY, STRETTO, run, start, type Ran } from "../helpers/processes.js";

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
      return b.ok ? { ok: true, arguments: b.args, chance: b.chance } : b;
    },
  });
}

/**
 * One demo-shop customer served through `stretto-proxy --record`: find the user, then
 * (without a flow) read the details and both orders. Gives the text of the first answer.
 */
export async function serveCustomer(record: string, n: number, flow: string[] = []): Promise<string[]> {
  const host = new Host(start(NODE, [PROXY, "--record", record, ...flow, "--", NODE, DEMO, "--world", "retail"]));
  await host.start();
  const found = await host.call(10, "find_user_id_by_email", { email: `c${n}@example.com` });
  if (flow.length === 0) {
    await host.call(11, "get_user_details", { user_id: `user_${n}` });
    await host.call(12, "get_order_details", { order_id: `#W${n}a` });
    await host.call(13, "get_order_details", { order_id: `#W${n}b` });
  }
  assert.equal(await host.end(), 0, host.stderr);
  return (found.result?.content ?? []).map((c) => c.text);
}
