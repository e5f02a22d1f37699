/**
 * The decisions an audit scores in a recorded session: at every decision point (a tool
 * result followed by something that is not a result, so every call of the turn was
 * answered), the flow's probabilities over the site's options, as the decider gives them
 * with nothing acted on, and the agent's step. The step is its next turn's first call when
 * that is offered; `other` when it is a read the site does not offer; else handing back (a
 * write, a reply, the customer speaking). `other` gets the mass the options leave; every
 * probability is floored and the whole renormalised, so no step is impossible.
 */
import { FlowDecideError, nextExplored, RESPOND, type BindFn, type DeciderName } from "../flow/decide/index.js";
import { decisionAfter } from "../flow/decide/index.js";
import type { Flow } from "../flow/ir/flow-types.js";
import type { Oracle } from "../oracle/oracle.js";
import { FLOOR, recordedPoints } from "../plugins/flow/surprise.js";
import type { Episode, EpisodeEvent } from "../trace/episode-types.js";

/** The option that stands for a read the site does not offer. */
export const OTHER = "other";

/** The proxy's own lookups carry these ids: they are the flow's steps, not the agent's. */
const OWN_ID = /^stretto-/;

export interface ScoredDecision {
  site: string;
  /** The site's options in order, `other` last. */
  options: string[];
  /** Their probabilities, floored and summing to 1. */
  probs: number[];
  /** The index of the agent's step among the options. */
  step: number;
  /** The tool the agent called next, if it called one. */
  called?: string;
}

/** What one decision point gave: a scored decision, or none for a decision the oracle did not answer. */
export type PointResult = { kind: "scored"; decision: ScoredDecision } | { kind: "unanswered" };

export interface AuditSettings {
  decider: DeciderName;
  /** Asked by the arbiter only. */
  oracle?: Oracle;
}

/** The flow as audited: every site decides (its promotion and per-site thresholds aside). */
export function auditedFlow(flow: Flow): Flow {
  const copy = { ...flow, thresholds: new Map<string, number>() };
  delete copy.promoted;
  return copy;
}

/** Nothing is bound: at an infinite threshold no lookup is ever made. */
const NO_BIND: BindFn = () => ({ ok: false, why: "an audit makes no lookup" });

function firstCall(next: EpisodeEvent): { id: string; name: string } | undefined {
  return next.kind === "assistant" ? next.calls[0] : undefined;
}

/** Each decision point of `ep`, scored under `flow` (already {@link auditedFlow}); points the flow has no probabilities for give nothing. */
export async function* episodeDecisions(flow: Flow, ep: Episode, settings: AuditSettings): AsyncGenerator<PointResult> {
  const taskId = ep.task_id === "" ? ep.id : ep.task_id;
  for (const point of recordedPoints(ep)) {
    const call = firstCall(point.next);
    if (call !== undefined && OWN_ID.test(call.id)) continue;
    const at = decisionAfter({ ...ep, events: ep.events.slice(0, point.index + 1) }, point.callId);
    let next;
    try {
      next = await nextExplored({
        flow,
        at,
        taskId,
        decider: settings.decider,
        threshold: Infinity,
        bind: NO_BIND,
        ...(settings.oracle === undefined ? {} : { oracle: settings.oracle }),
      });
    } catch (e) {
      if (e instanceof FlowDecideError) {
        yield { kind: "unanswered" };
        continue;
      }
      throw e;
    }
    if (next.probs.size === 0 || next.site === null) {
      if (next.key !== null) yield { kind: "unanswered" };
      continue;
    }
    const options = [...next.probs.keys(), OTHER];
    const raw = [...next.probs.values()];
    raw.push(Math.max(0, 1 - raw.reduce((a, b) => a + b, 0)));
    const floored = raw.map((p) => Math.max(p, FLOOR));
    const total = floored.reduce((a, b) => a + b, 0);
    const probs = floored.map((p) => p / total);
    const step = stepIndex(flow, options, call?.name);
    yield { kind: "scored", decision: { site: next.site, options, probs, step, ...(call === undefined ? {} : { called: call.name }) } };
  }
}

/** The agent's step among `options`: the tool it called if offered, `other` for another read, else handing back. */
function stepIndex(flow: Flow, options: readonly string[], called: string | undefined): number {
  if (called !== undefined) {
    const i = options.indexOf(called);
    if (i >= 0 && called !== RESPOND && called !== OTHER) return i;
    if (flow.manifest.tools.get(called) === "read") return options.indexOf(OTHER);
  }
  return options.indexOf(RESPOND);
}

/** The likeliest option (the first of equals). */
export function likeliest(probs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i]! > probs[best]!) best = i;
  return best;
}
