/**
 * The decisions a held-out episode holds: every point where the live flow would decide
 * (a tool call's result came back, at a site the flow offers lookups at), with what the
 * flow knows there and what the agent did next.
 *
 * The point is the episode as it stood when the call's result came back, through
 * `afterCall` (the call last in its turn, the turn's unanswered calls in flight), which is
 * what the proxy decides on. The label is the agent's next step: the read it called (a
 * lookup), or `respond` for anything else (a reply, a write, a call of a tool that is no
 * read, or the end of the episode). Parallel calls of one turn follow each other, as the
 * sites count them.
 */
import type { Episode } from "../../trace/index.js";
import { afterCall } from "../../trace/episode-queries.js";
import { decisionAt, habitAt, isNext, openSite, RESPOND, steps, type DecisionEpisode, type LiveSite } from "../../flow/decide/index.js";
import type { Flow } from "../../flow/ir/index.js";
import { taskOf } from "./split.js";

/** The threshold the gates are opened with; a learned flow has no per-site thresholds or promotion, so it never matters. */
const SERVED_THRESHOLD = 0.3;

export interface DecisionCase {
  /** The held-out episode's session id and task. */
  session: string;
  task: string;
  at: DecisionEpisode;
  live: LiveSite;
  /** `respond` and the site's lookups, sorted, as serving offers them. */
  options: string[];
  /** The habit prior over the options. */
  habit: Map<string, number>;
  /** What the agent did: a lookup's tool, or `respond`. */
  label: string;
}

/** Each step's call id (undefined for a respond step), in `steps()` order. */
function stepCallIds(ep: Episode): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (const e of ep.events) {
    if (e.kind !== "assistant") continue;
    if (e.calls.length === 0) out.push(undefined);
    else for (const c of e.calls) out.push(c.id);
  }
  return out;
}

export function decisionCases(flow: Flow, ep: Episode): DecisionCase[] {
  const all = steps(ep);
  const ids = stepCallIds(ep);
  const resultAt = new Map<string, number>();
  ep.events.forEach((e, i) => {
    if (e.kind === "tool_result" && !resultAt.has(e.call_id)) resultAt.set(e.call_id, i);
  });
  const out: DecisionCase[] = [];
  all.forEach((step, k) => {
    const id = ids[k];
    if (step.kind !== "call" || id === undefined) return;
    const at = resultAt.get(id);
    // A call that never came back is never decided after.
    if (at === undefined) return;
    const { episode, inFlight } = afterCall({ ...ep, events: ep.events.slice(0, at + 1) }, id);
    const point = decisionAt(episode, inFlight);
    const site = openSite(flow, point.last, SERVED_THRESHOLD);
    if (isNext(site)) return;
    const next = all[k + 1];
    const label = next?.kind === "call" && flow.manifest.tools.get(next.tool) === "read" ? next.tool : RESPOND;
    out.push({
      session: ep.id,
      task: taskOf(ep),
      at: point,
      live: site.live,
      options: site.options,
      habit: habitAt(flow, point, site.options),
      label,
    });
  });
  return out;
}
