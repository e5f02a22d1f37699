/** Questions asked of an Episode (see docs/trace.md, "The Episode"). */
import type { AssistantEvent, Episode, ToolCall, TurnUsage } from "./episode-types.js";

/** Whether the task counted as solved: reward ≥ 1 − 1e-9. */
export function succeeded(ep: Episode): boolean {
  return ep.reward >= 1 - 1e-9;
}

/** How many assistant turns (LLM calls) the episode has. */
export function assistantTurns(ep: Episode): number {
  return ep.events.filter((e) => e.kind === "assistant").length;
}

/** Every tool call, in order. */
export function toolCalls(ep: Episode): ToolCall[] {
  return ep.events.flatMap((e) => (e.kind === "assistant" ? e.calls : []));
}

/** Each assistant turn's usage, in order (`null` where unrecorded). */
export function turnUsage(ep: Episode): (TurnUsage | null)[] {
  return ep.events.flatMap((e) => (e.kind === "assistant" ? [e.usage] : []));
}

/**
 * The episode as it stands for a decision made when call `callId` returns, and the calls
 * of its turn still in flight then. In that call's turn, calls that have a result are
 * kept, with this one moved last; the others are set apart (the agent asked for them
 * already). An episode where no turn has the call comes back as it is.
 */
export function afterCall(ep: Episode, callId: string): { episode: Episode; inFlight: ToolCall[] } {
  const returned = new Set<string>();
  for (const e of ep.events) if (e.kind === "tool_result") returned.add(e.call_id);
  const inFlight: ToolCall[] = [];
  const index = ep.events.findIndex((e) => e.kind === "assistant" && e.calls.some((c) => c.id === callId));
  if (index === -1) return { episode: { ...ep, events: [...ep.events] }, inFlight };
  const turn = ep.events[index] as AssistantEvent;
  const kept: ToolCall[] = [];
  const self: ToolCall[] = [];
  for (const c of turn.calls) {
    if (c.id === callId) self.push(c);
    else if (returned.has(c.id)) kept.push(c);
    else inFlight.push(c);
  }
  const events = [...ep.events];
  events[index] = { ...turn, calls: [...kept, ...self] };
  return { episode: { ...ep, events }, inFlight };
}
