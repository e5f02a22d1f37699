/**
 * Whether a lookup a flow would make was made in the session, and by whom: the agent (a
 * call in a turn after the one the flow decided in), or the proxy serving a flow (its own
 * `stretto-n` request, made before the agent's next LLM turn). Either holds the same tool
 * and each of the lookup's arguments as equal text; its result is what the flow would have
 * got, so scoring can go on deciding as the proxy would.
 */
import { valueText } from "../flow/bind/json-path.js";
import type { Episode, ToolCall, ToolResultEvent } from "../trace/episode-types.js";
import { field, isObject, type JsonObject } from "../trace/json.js";

/** The proxy's own lookups carry these ids; they are the flow's steps, not the agent's. */
export const OWN_ID = /^stretto-(\d+)$/;

export interface AgentCopy {
  call: ToolCall;
  /** Its first result, when the session holds one. */
  result?: ToolResultEvent;
}

/** The agent's first call after turn `turn` (an event index) that makes the lookup `tool` with `args`. */
export function agentCopy(ep: Episode, turn: number, tool: string, args: JsonObject): AgentCopy | undefined {
  const same = sameLookup(tool, args);
  for (let i = turn + 1; i < ep.events.length; i++) {
    const e = ep.events[i]!;
    if (e.kind !== "assistant") continue;
    for (const call of e.calls) if (!OWN_ID.test(call.id) && same(call)) return withResult(ep, i, call);
  }
  return undefined;
}

/**
 * The proxy's own request making the lookup, among those it made before the agent's first
 * LLM turn after event `after` (the result the flow decides at): what a served flow had
 * already looked up there, or earlier in the session.
 */
export function proxyCopy(ep: Episode, after: number, tool: string, args: JsonObject): AgentCopy | undefined {
  const same = sameLookup(tool, args);
  for (let i = 0; i < ep.events.length; i++) {
    const e = ep.events[i]!;
    if (e.kind !== "assistant") continue;
    if (i > after && e.calls.some((c) => !OWN_ID.test(c.id))) break;
    for (const call of e.calls) if (OWN_ID.test(call.id) && same(call)) return withResult(ep, i, call);
  }
  return undefined;
}

function sameLookup(tool: string, args: JsonObject): (call: ToolCall) => boolean {
  const wanted = Object.entries(args).map(([k, v]) => [k, valueText(v)] as const);
  return (call) => {
    if (call.name !== tool) return false;
    const given = call.arguments;
    if (!isObject(given)) return wanted.length === 0;
    return wanted.every(([k, v]) => {
      const x = field(given, k);
      return x !== undefined && valueText(x) === v;
    });
  };
}

function withResult(ep: Episode, from: number, call: ToolCall): AgentCopy {
  for (let i = from + 1; i < ep.events.length; i++) {
    const e = ep.events[i]!;
    if (e.kind === "tool_result" && e.call_id === call.id) return { call, result: e };
  }
  return { call };
}
