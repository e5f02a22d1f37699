/**
 * The steps of an episode: each
 * tool call is a step, Ok or Err; an assistant turn with no calls is a Respond step, End,
 * which becomes Reply once the user speaks after it. User events are not steps.
 */
import type { Episode, ToolResultEvent } from "../../trace/episode-types.js";

/** A step's outcome, as the symbol encodes it. */
export const OK = 0;
export const ERR = 1;
export const REPLY = 2;
export const END = 3;
export type StepOutcome = typeof OK | typeof ERR | typeof REPLY | typeof END;

export type Step =
  | { kind: "call"; tool: string; outcome: typeof OK | typeof ERR; /** The result's content when it succeeded. */ output?: string }
  | { kind: "respond"; outcome: typeof REPLY | typeof END };

export function steps(ep: Episode): Step[] {
  const results = new Map<string, ToolResultEvent>();
  for (const e of ep.events) {
    if (e.kind === "tool_result" && !results.has(e.call_id)) results.set(e.call_id, e);
  }
  const out: Step[] = [];
  for (const e of ep.events) {
    if (e.kind === "user") {
      for (let i = out.length - 1; i >= 0; i--) {
        const s = out[i]!;
        if (s.kind !== "respond" || s.outcome !== END) break;
        s.outcome = REPLY;
      }
    } else if (e.kind === "assistant") {
      if (e.calls.length === 0) {
        out.push({ kind: "respond", outcome: END });
        continue;
      }
      for (const call of e.calls) {
        const r = results.get(call.id);
        if (r === undefined || r.error) out.push({ kind: "call", tool: call.name, outcome: ERR });
        else out.push({ kind: "call", tool: call.name, outcome: OK, output: r.content });
      }
    }
  }
  return out;
}
