/**
 * What the flow's differential specs share: the published flow for each decider, the
 * sessions' header and per-call cap, and one decision made locally (no oracle), the binder
 * explaining its picks, as the flow plugin makes it.
 */
import { explainingBinderIn } from "../../lib/flow/bind/index.js";
import { nextLocal, type BindFn, type DecisionEpisode, type DeciderName, type Next } from "../../lib/flow/decide/index.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import { parseFlow } from "../../lib/flow/ir/load-flow.js";
import { logHeader } from "../../lib/record/log-header.js";
import { requireFixture } from "./flow-fixture.js";

/** The header of the in-process sessions: the demo's retail world. */
export const HEADER = logHeader({ session: "s", startedUnixMs: 0, serverCommand: ["stretto-mcp-demo", "--world", "retail"] });
/** The flow's per-call lookup cap, as served. */
export const PER_CALL = 8;

/** The published flow as the habit decider serves it, and with its habit as its reach; skips the suite without the fixture. */
export function deciderFlows(ctx: Mocha.Context): { habit: Flow; reach: Flow } {
  const text = requireFixture(ctx);
  const json = JSON.parse(text) as { habit: { base: unknown } };
  return { habit: parseFlow(text), reach: parseFlow(JSON.stringify({ ...json, reach: json.habit.base })) };
}

export function binder(flow: Flow, at: DecisionEpisode): BindFn {
  const bind = explainingBinderIn(flow, at.view);
  return (tool) => {
    const b = bind(tool);
    return b.ok ? { ok: true, arguments: b.args, chance: b.chance } : { ok: false, why: b.why };
  };
}

export function decide(flow: Flow, at: DecisionEpisode, decider: DeciderName, threshold: number): Next {
  return nextLocal({ flow, at, taskId: "s", decider, threshold, bind: binder(flow, at) });
}
