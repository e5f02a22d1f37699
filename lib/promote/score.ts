/**
 * Scoring a flow against recorded sessions as it would have been served:
 * at every result of the agent's calls that something followed, the flow decides as the
 * proxy would, seeing the call's turn as it stood when that result came back. A lookup is
 * served when the proxy serving a flow had already made it (before the agent's next LLM
 * turn): the agent had no reason to make it again, so it is neither used nor a detour. Else
 * it is used when the agent made it itself in a later LLM turn. Either way its result is what
 * the proxy would have got, so the scoring goes on deciding after it, as the proxy chains its
 * lookups.
 */
import { explainingBinderIn, type ExplainingBinder } from "../flow/bind/index.js";
import {
  decisionAt,
  FlowDecideError,
  nextExplored,
  type BindFn,
  type DeciderName,
  type DecisionEpisode,
  type Next,
} from "../flow/decide/index.js";
import type { Flow } from "../flow/ir/flow-types.js";
import type { Oracle } from "../oracle/oracle.js";
import { afterCall } from "../trace/episode-queries.js";
import type { AssistantEvent, Episode, ToolCall } from "../trace/episode-types.js";
import { agentCopy, OWN_ID, proxyCopy } from "./agent-copy.js";
import { siteTally, type Scoring } from "./tally.js";

export interface ScoreSettings {
  /** The flow, its own promotion cleared: every site decides. */
  flow: Flow;
  decider: DeciderName;
  threshold: number;
  /** The most lookups the proxy appends to one result (`--per-call`, 8). */
  perCall: number;
  /** Asked by the arbiter only. */
  oracle?: Oracle;
  /** The sites a chain goes on through after a lookup; every site when absent. */
  through?: ReadonlySet<string>;
}

/** A recorded session and, for each call, how many of its turn's calls had been answered when it was sent. */
export interface SentSession {
  episode: Episode;
  sentAfter: ReadonlyMap<string, number>;
}

/** Scores one session into `into`. */
export async function scoreSession(session: SentSession, settings: ScoreSettings, into: Scoring): Promise<void> {
  const ep = session.episode;
  // A recorded session is its own task; τ²-bench's simulations name theirs.
  const task = ep.task_id === "" ? ep.id : ep.task_id;
  into.episodes += 1;
  let ownIds = highestOwnId(ep);
  const turnOf = callTurns(ep);
  for (let i = 0; i < ep.events.length - 1; i++) {
    const result = ep.events[i]!;
    if (result.kind !== "tool_result" || OWN_ID.test(result.call_id)) continue;
    const turn = turnOf.get(result.call_id);
    if (turn === undefined) continue;
    let at = pointAt(session, turn, i, result.call_id);
    let looked = 0;
    for (;;) {
      const next = await decide(settings, at, task);
      if (next === undefined) {
        into.unanswered += 1;
        break;
      }
      if (next.site === null) break;
      const tally = siteTally(into, next.site);
      tally.decisions += 1;
      const proposal = next.proposal;
      if (proposal.action !== "lookup") break;
      tally.lookups += 1;
      tally.tasks.add(task);
      const made = proxyCopy(ep, i, proposal.tool, proposal.arguments);
      const copy = made ?? agentCopy(ep, turn, proposal.tool, proposal.arguments);
      if (copy === undefined) break;
      if (made !== undefined) tally.served += 1;
      else tally.used += 1;
      looked += 1;
      if (copy.result === undefined || looked >= settings.perCall) break;
      if (settings.through !== undefined && !settings.through.has(next.site)) break;
      // The proxy would have made the lookup and got what the agent got: decide after it.
      const id = `stretto-${++ownIds}`;
      at = spliced(at, turn, { id, name: proposal.tool, arguments: proposal.arguments }, copy.result.error, copy.result.content);
    }
  }
}

/**
 * The decision, or undefined when it is left out: the flow could not decide at all, or the
 * model was asked and gave no probabilities.
 */
async function decide(settings: ScoreSettings, at: DecisionEpisode, taskId: string): Promise<Next | undefined> {
  const { flow } = settings;
  let explaining: ExplainingBinder | undefined;
  const bind: BindFn = (tool) => {
    explaining ??= explainingBinderIn(flow, at.view);
    const b = explaining(tool);
    return b.ok ? { ok: true, arguments: b.args, chance: b.chance } : { ok: false, why: b.why };
  };
  try {
    const next = await nextExplored({
      flow,
      at,
      taskId,
      decider: settings.decider,
      threshold: settings.threshold,
      bind,
      ...(settings.oracle === undefined ? {} : { oracle: settings.oracle }),
    });
    if (next.key !== null && next.probs.size === 0) return undefined;
    return next;
  } catch (e) {
    if (e instanceof FlowDecideError) return undefined;
    throw e;
  }
}

/**
 * The decision point when the result at event `index` came back: the session up to it,
 * through `afterCall`, the turn's other calls in flight limited to those the host had sent
 * by then (a decision could not know of calls sent after it).
 */
function pointAt(session: SentSession, turn: number, index: number, callId: string): DecisionEpisode {
  const ep = session.episode;
  const upTo: Episode = { ...ep, events: ep.events.slice(0, index + 1) };
  const calls = new Set((ep.events[turn] as AssistantEvent).calls.map((c) => c.id));
  let back = 0;
  for (let j = turn + 1; j <= index; j++) {
    const e = ep.events[j]!;
    if (e.kind === "tool_result" && calls.has(e.call_id)) back += 1;
  }
  const { episode, inFlight } = afterCall(upTo, callId);
  const sent = inFlight.filter((c) => (session.sentAfter.get(c.id) ?? 0) < back);
  return decisionAt(episode, sent);
}

/** The decision point after a lookup the proxy would have made in `turn`, with its result. */
function spliced(at: DecisionEpisode, turn: number, call: ToolCall, error: boolean, content: string): DecisionEpisode {
  const events = [...at.episode.events];
  const t = events[turn] as AssistantEvent;
  events[turn] = { ...t, calls: [...t.calls, call] };
  events.push({ kind: "tool_result", call_id: call.id, name: call.name, error, content });
  return decisionAt({ ...at.episode, events }, at.inFlight);
}

/** Each call id's turn (the event index of its first assistant event). */
function callTurns(ep: Episode): Map<string, number> {
  const out = new Map<string, number>();
  ep.events.forEach((e, i) => {
    if (e.kind === "assistant") for (const c of e.calls) if (!out.has(c.id)) out.set(c.id, i);
  });
  return out;
}

/** The highest n of the proxy's own `stretto-n` ids in the session, so simulated lookups take new ones. */
function highestOwnId(ep: Episode): number {
  let n = 0;
  for (const e of ep.events) {
    if (e.kind !== "assistant") continue;
    for (const c of e.calls) {
      const m = OWN_ID.exec(c.id);
      if (m) n = Math.max(n, Number(m[1]));
    }
  }
  return n;
}
