/**
 * Whether the agent made a lookup itself: a call in a turn after the one the flow decided
 * in, of the same tool, holding each of the lookup's arguments as equal text. Its result is
 * what the flow would have got, so scoring can go on deciding as the proxy would.
 */
import { valueText } from "../flow/bind/json-path.js";
import type { Episode, ToolCall, ToolResultEvent } from "../trace/episode-types.js";
import { field, isObject, type JsonObject } from "../trace/json.js";

export interface AgentCopy {
  call: ToolCall;
  /** Its first result, when the session holds one. */
  result?: ToolResultEvent;
}

/** The agent's first call after turn `turn` (an event index) that makes the lookup `tool` with `args`. */
export function agentCopy(ep: Episode, turn: number, tool: string, args: JsonObject): AgentCopy | undefined {
  const wanted = Object.entries(args).map(([k, v]) => [k, valueText(v)] as const);
  for (let i = turn + 1; i < ep.events.length; i++) {
    const e = ep.events[i]!;
    if (e.kind !== "assistant") continue;
    for (const call of e.calls) {
      if (call.name !== tool) continue;
      const given = call.arguments;
      if (!isObject(given)) {
        if (wanted.length === 0) return withResult(ep, i, call);
        continue;
      }
      if (wanted.every(([k, v]) => {
          const x = field(given, k);
          return x !== undefined && valueText(x) === v;
        })) {
        return withResult(ep, i, call);
      }
    }
  }
  return undefined;
}

function withResult(ep: Episode, from: number, call: ToolCall): AgentCopy {
  for (let i = from + 1; i < ep.events.length; i++) {
    const e = ep.events[i]!;
    if (e.kind === "tool_result" && e.call_id === call.id) return { call, result: e };
  }
  return { call };
}
