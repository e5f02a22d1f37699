/**
 * The arbiter's v2 request: the questions `next`, `go_on`, `tool` (two
 * lookups or more) and one `pred_<id>` per predicate, about a slice of the episode.
 */
import type { JsonValue, NoulQuestion, OracleRequest, Question } from "../../oracle/oracle.js";
import type { Episode, ToolResultEvent } from "../../trace/episode-types.js";
import { jsonText, type JsonObject } from "../../trace/json.js";
import type { Flow } from "../ir/flow-types.js";
import type { LiveSite } from "./site.js";
import { RESPOND } from "./types.js";

export const CTX =
  "A customer-service agent is working on the customer's request. Between its messages to the customer it can look things up with tools. It makes changes (cancellations, modifications, exchanges, returns, bookings) and transfers only after the customer confirms them.";
export const RESPOND_CRITERION =
  "Hand back: the agent writes to the customer now (to ask for missing details or a confirmation, report what it found, or answer), or it makes a change or a transfer.";
export const GO_ON_TRUE = "It still needs information it can look up before it can reply or act.";
export const GO_ON_FALSE = "It has what it needs for now: it writes to the customer, or makes a change.";

/** Trims, cuts at `n` characters (Unicode scalar values) and appends `…` when it cut. */
export function clip(text: string, n: number): string {
  const t = text.trim();
  const chars = Array.from(t);
  return chars.length <= n ? t : `${chars.slice(0, n).join("")}…`;
}

/** ``It has just received the result of `{prev}`.`` or ``Its last tool call, `{prev}`, returned an error.`` */
export function lastSentence(live: LiveSite): string {
  return live.failed ? `Its last tool call, \`${live.prev}\`, returned an error.` : `It has just received the result of \`${live.prev}\`.`;
}

/** A lookup's rubric: its doc summary or `Call {name}.`, clipped to 250 characters. */
export function lookupCriterion(flow: Flow, tool: string): string {
  const summary = flow.manifest.docs.get(tool)?.summary;
  return clip(summary !== undefined && summary.trim() !== "" ? summary : `Call ${tool}.`, 250);
}

interface CallView {
  name: string;
  arguments: JsonValue;
  result?: ToolResultEvent;
}

/** The state slice the questions are about. */
export function stateSlice(ep: Episode): JsonObject {
  const users: string[] = [];
  let agentLast: string | undefined;
  const results = new Map<string, ToolResultEvent>();
  for (const e of ep.events) if (e.kind === "tool_result" && !results.has(e.call_id)) results.set(e.call_id, e);
  const calls: CallView[] = [];
  for (const e of ep.events) {
    if (e.kind === "user") users.push(e.text);
    else if (e.kind === "assistant") {
      if (e.text !== null && e.text.trim() !== "") agentLast = e.text;
      for (const c of e.calls) {
        const result = results.get(c.id);
        calls.push(result === undefined ? { name: c.name, arguments: c.arguments } : { name: c.name, arguments: c.arguments, result });
      }
    }
  }
  const state: JsonObject = { customer_request: clip(users[0] ?? "", 1000) };
  const later = users.slice(1).slice(-4);
  if (later.length > 0) state["later_customer_messages"] = later.map((t) => clip(t, 600));
  if (agentLast !== undefined) state["agent_last_message"] = clip(agentLast, 600);
  const latest = calls.slice(-4);
  const earlier = calls.slice(0, Math.max(0, calls.length - 4)).slice(-16);
  if (earlier.length > 0) {
    state["earlier_lookups"] = earlier.map(
      (c) => `${c.name}(${clip(jsonText(c.arguments), 160)}) → ${c.result === undefined || c.result.error ? "error" : "ok"}`,
    );
  }
  state["latest_results"] = latest.map((c) => {
    const item: JsonObject = { tool_call: c.name, arguments: c.arguments, result: clip(c.result?.content ?? "", 1500) };
    if (c.result === undefined || c.result.error) item["error"] = true;
    return item;
  });
  return state;
}

/** The request the arbiter asks at `live`'s site, over `options` (respond and the lookups, sorted). */
export function arbiterRequest(flow: Flow, ep: Episode, live: LiveSite, options: readonly string[]): OracleRequest {
  const last = lastSentence(live);
  const lookups = options.filter((o) => o !== RESPOND);
  const criteria: Record<string, string> = {};
  for (const o of options) criteria[o] = o === RESPOND ? RESPOND_CRITERION : lookupCriterion(flow, o);
  const questions: Record<string, Question> = {
    next: {
      type: "choice",
      instructions: `${CTX} ${last} What does it do next? Pick the lookup it makes now, or 'respond' if it hands back.`,
      criteria,
    },
    go_on: {
      type: "noul",
      instructions: `${CTX} ${last} Does it make another lookup now, before it writes to the customer or makes any change?`,
      criteria: { true: GO_ON_TRUE, false: GO_ON_FALSE },
    },
  };
  if (lookups.length >= 2) {
    const tools: Record<string, string> = {};
    for (const l of lookups) tools[l] = criteria[l]!;
    questions["tool"] = { type: "choice", instructions: `${CTX} ${last} Suppose it makes one more lookup now: which one?`, criteria: tools };
  }
  for (const p of flow.predicates) {
    const q: NoulQuestion = { type: "noul", instructions: `${CTX} ${p.question}`, criteria: { true: p.yes, false: p.no } };
    questions[`pred_${p.id}`] = q;
  }
  return { model: flow.model, state: stateSlice(ep), questions };
}
