/**
 * What the flow's differential specs share: one decision made locally (no oracle), the
 * binder explaining its picks, as the flow plugin makes it.
 */
import { explainingBinderIn } from "../../lib/flow/bind/index.js";
import { nextLocal, type BindFn, type DecisionEpisode, type DeciderName, type Next } from "../../lib/flow/decide/index.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";

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
