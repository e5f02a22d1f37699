/**
 * The surprise gate (docs/audit-drift.md, "The surprise gate"): how surprised the flow's
 * habit is by what the agent does, step by step, and whether a window of steps in a row
 * averaged more than the gate's threshold. A served flow that was surprised hands back for
 * the rest of the session: the agent is doing something the flow never learned.
 */
import { decisionAfter, fixed2, habitAt, liveSite, RESPOND, siteOptions } from "../../flow/decide/index.js";
import type { Flow, SurpriseGate } from "../../flow/ir/flow-types.js";
import type { Episode, EpisodeEvent } from "../../trace/episode-types.js";

/** The start of every hand-back the gate makes. */
export const SURPRISED = "the session surprised the flow";
/** A probability is never taken below this, so one impossible step is not infinitely surprising. */
export const FLOOR = 1e-6;
/** The window when a gate is set by threshold alone (`--flow-surprise NATS`). */
export const DEFAULT_WINDOW = 5;
/** The proxy's own lookups carry these ids: they are the flow's steps, not the agent's. */
const OWN_ID = /^stretto-/;

/** `the session surprised the flow: 5 of the agent's steps in a row averaged 7.12 nats, above 2.50`. */
export function surprisedReason(window: number, mean: number, threshold: number): string {
  return `${SURPRISED}: ${window} of the agent's steps in a row averaged ${fixed2(mean)} nats, above ${fixed2(threshold)}`;
}

/**
 * A decision point of a recorded session: the result at `index` was followed by `next`,
 * which is no result (every call of the turn had been answered).
 */
export interface RecordedPoint {
  index: number;
  callId: string;
  next: EpisodeEvent;
}

/** Every decision point of `ep`, in order; the last event is none (nothing followed it yet). */
export function* recordedPoints(ep: Episode, from = 0): Generator<RecordedPoint> {
  const events = ep.events;
  for (let i = from; i < events.length - 1; i++) {
    const e = events[i]!;
    const next = events[i + 1]!;
    if (e.kind === "tool_result" && next.kind !== "tool_result") yield { index: i, callId: e.call_id, next };
  }
}

/** The agent's step after a point: its next turn's first call, or handing back; undefined for the proxy's own lookup. */
function agentStep(next: EpisodeEvent): string | undefined {
  if (next.kind === "assistant" && next.calls.length > 0) {
    const first = next.calls[0]!;
    return OWN_ID.test(first.id) ? undefined : first.name;
  }
  return RESPOND;
}

/**
 * The surprise of the agent's step at one point, in nats; undefined where the flow does not
 * decide (the last step is no call, or nothing followed that call in training) and where the
 * step is the proxy's own lookup.
 */
export function pointSurprise(flow: Flow, ep: Episode, point: RecordedPoint): number | undefined {
  const step = agentStep(point.next);
  if (step === undefined) return undefined;
  const at = decisionAfter({ ...ep, events: ep.events.slice(0, point.index + 1) }, point.callId);
  const live = liveSite(at.last);
  if (live === undefined) return undefined;
  const options = siteOptions(flow, live.prev, live.failed);
  if (options.length === 0) return undefined;
  const probs = habitAt(flow, at, options);
  const p = probs.get(options.includes(step) ? step : RESPOND) ?? 0;
  return -Math.log(Math.max(p, FLOOR));
}

/** The surprises of every scored step of a session, in order. */
export function sessionSurprises(flow: Flow, ep: Episode): number[] {
  const out: number[] = [];
  for (const point of recordedPoints(ep)) {
    const s = pointSurprise(flow, ep, point);
    if (s !== undefined) out.push(s);
  }
  return out;
}

/** The mean of the first `window` steps in a row averaging strictly more than `threshold`, if any. */
export function firstTrip(surprises: readonly number[], window: number, threshold: number): number | undefined {
  if (window < 1 || surprises.length < window) return undefined;
  let sum = 0;
  for (let i = 0; i < surprises.length; i++) {
    sum += surprises[i]!;
    if (i >= window) sum -= surprises[i - window]!;
    if (i >= window - 1 && sum / window > threshold) return sum / window;
  }
  return undefined;
}

/** The highest mean of `window` steps in a row, or undefined when there are fewer steps. */
export function peakWindow(surprises: readonly number[], window: number): number | undefined {
  if (window < 1 || surprises.length < window) return undefined;
  let sum = 0;
  let peak = -Infinity;
  for (let i = 0; i < surprises.length; i++) {
    sum += surprises[i]!;
    if (i >= window) sum -= surprises[i - window]!;
    if (i >= window - 1) peak = Math.max(peak, sum / window);
  }
  return peak;
}

/**
 * The gate of one live session: scores each decision point once, as soon as what followed
 * it is known, and remembers the first trip, so it hands back for the rest of the session.
 */
export class SessionGate {
  private readonly surprises: number[] = [];
  private scanned = 0;
  private reason: string | undefined;

  constructor(
    private readonly flow: Flow,
    private readonly gate: SurpriseGate,
  ) {}

  /** The hand-back reason once the session has surprised the flow; undefined until then. */
  check(ep: Episode): string | undefined {
    if (this.reason !== undefined) return this.reason;
    // A point is complete once an event follows its result; the events before never change.
    for (const point of recordedPoints(ep, this.scanned)) {
      const s = pointSurprise(this.flow, ep, point);
      if (s !== undefined) this.surprises.push(s);
    }
    this.scanned = Math.max(this.scanned, ep.events.length - 1);
    const { window, threshold } = this.gate;
    const mean = firstTrip(this.surprises, window, threshold);
    if (mean !== undefined) this.reason = surprisedReason(window, mean, threshold);
    return this.reason;
  }
}
