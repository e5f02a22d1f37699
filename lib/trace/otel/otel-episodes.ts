/**
 * Episodes from an agent's OpenTelemetry spans. A session is the spans sharing a
 * `gen_ai.conversation.id`, else a trace; sessions come in the order they started, and each
 * session's events in the order its spans started:
 *
 * - an LLM call (a `chat` span) is a turn: the user messages of its input not seen before
 *   (`gen_ai.input.messages`) are user events, then the turn, with the text of its output
 *   (`gen_ai.output.messages`) and its token usage; the tools executed after it, until the
 *   next LLM call, are the turn's calls;
 * - without LLM spans, calls that overlap in time are one turn, and a call that starts
 *   after every call of the turn ended begins the next;
 * - a tool execution is a call (`gen_ai.tool.name`, its id `gen_ai.tool.call.id`, else
 *   `jsonrpc.request.id`, else the span id; its arguments `gen_ai.tool.call.arguments`) and,
 *   when the span ends, its result (`gen_ai.tool.call.result`: an MCP `CallToolResult`'s
 *   text, or the value as text), an error when the span's status is ERROR, it has an
 *   `error.type`, or the result says `isError`. An MCP `tools/call` span inside an
 *   `execute_tool` span of the same tool is the same call, and fills in what it lacks.
 */
import type { AssistantEvent, Episode, EpisodeEvent, ToolCall } from "../episode-types.js";
import { field, isObject, jsonText, type Json, type JsonObject } from "../json.js";
import { outcome } from "../outcome.js";
import type { AgentSpan } from "./otel-spans.js";

/** What provenance names the conventions the spans followed with. */
export const OTEL_CONVENTIONS = "opentelemetry-genai";

interface Call {
  span: AgentSpan;
  call: ToolCall;
  error: boolean;
  content: string;
}

const str = (v: Json | undefined): string | undefined => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);

/** A JSON text attribute parsed, or the value itself. */
function parsed(v: Json | undefined): Json | undefined {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v) as Json;
  } catch {
    return v;
  }
}

function sessionOf(s: AgentSpan): string {
  return str(s.attributes["gen_ai.conversation.id"]) ?? s.traceId;
}

/** The tool spans, an MCP span folded into the `execute_tool` span around it. */
function toolCalls(spans: readonly AgentSpan[]): Call[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const inner = new Map<string, AgentSpan>();
  const outer: AgentSpan[] = [];
  for (const s of spans) {
    if (s.kind !== "tool") continue;
    const parent = s.parentSpanId === undefined ? undefined : byId.get(s.parentSpanId);
    const isMcp = s.attributes["mcp.method.name"] === "tools/call" && s.attributes["gen_ai.operation.name"] !== "execute_tool";
    if (isMcp && parent?.kind === "tool" && parent.attributes["gen_ai.tool.name"] === s.attributes["gen_ai.tool.name"]) inner.set(parent.spanId, s);
    else outer.push(s);
  }
  return outer.map((s) => {
    const mcp = inner.get(s.spanId);
    const attr = (key: string) => s.attributes[key] ?? mcp?.attributes[key];
    const args = parsed(attr("gen_ai.tool.call.arguments"));
    const id = str(attr("gen_ai.tool.call.id")) ?? str(attr("jsonrpc.request.id")) ?? s.spanId;
    const result = resultOf(attr("gen_ai.tool.call.result"));
    const error = s.failed || mcp?.failed === true || attr("error.type") !== undefined || result.error;
    return { span: s, call: { id, name: str(attr("gen_ai.tool.name")) ?? "", arguments: args ?? {} }, error, content: result.content };
  });
}

function resultOf(v: Json | undefined): { error: boolean; content: string } {
  if (v === undefined || v === null) return { error: false, content: "" };
  const doc = parsed(v);
  if (isObject(doc) && Array.isArray(field(doc, "content"))) return outcome({ result: doc });
  return { error: false, content: typeof v === "string" ? v : jsonText(v) };
}

interface Message {
  role: string;
  text: string | null;
}

/** `gen_ai.input.messages` / `gen_ai.output.messages`: `[{role, parts: [{type: "text", content}]}]`. */
function messages(v: Json | undefined): Message[] {
  const list = parsed(v);
  if (!Array.isArray(list)) return [];
  return list.flatMap((m) => {
    const role = str(field(m, "role"));
    if (role === undefined) return [];
    const parts = field(m, "parts");
    const texts = (Array.isArray(parts) ? parts : []).filter((p) => field(p, "type") === "text").map((p) => str(field(p, "content")) ?? "");
    return [{ role, text: texts.length === 0 ? null : texts.join("\n") }];
  });
}

function usageOf(a: JsonObject): AssistantEvent["usage"] {
  const input = a["gen_ai.usage.input_tokens"];
  const output = a["gen_ai.usage.output_tokens"];
  if (typeof input !== "number" && typeof output !== "number") return null;
  return { prompt_tokens: typeof input === "number" ? input : 0, completion_tokens: typeof output === "number" ? output : 0, cost: 0 };
}

const byStart = (a: AgentSpan, b: AgentSpan) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.end < b.end ? -1 : a.end > b.end ? 1 : 0);

/** One session's events. */
function events(spans: AgentSpan[]): { events: EpisodeEvent[]; model: string | undefined } {
  const calls = new Map(toolCalls(spans).map((c) => [c.span, c]));
  const timeline = spans.filter((s) => s.kind === "chat" || calls.has(s)).sort(byStart);
  const out: EpisodeEvent[] = [];
  // Results wait until their span ended: they go in before whatever starts after that.
  const pending: Call[] = [];
  const flush = (before: bigint | undefined) => {
    pending.sort((a, b) => (a.span.end < b.span.end ? -1 : a.span.end > b.span.end ? 1 : 0));
    while (pending.length > 0 && (before === undefined || pending[0]!.span.end <= before)) {
      const c = pending.shift()!;
      out.push({ kind: "tool_result", call_id: c.call.id, name: c.call.name, error: c.error, content: c.content });
    }
  };
  let turn: AssistantEvent | undefined;
  let fromChat = false;
  let usersSeen = 0;
  let model: string | undefined;
  for (const s of timeline) {
    flush(s.start);
    if (s.kind === "chat") {
      model ??= str(s.attributes["gen_ai.response.model"]) ?? str(s.attributes["gen_ai.request.model"]);
      const users = messages(s.attributes["gen_ai.input.messages"]).filter((m) => m.role === "user");
      for (const u of users.slice(usersSeen)) out.push({ kind: "user", text: u.text ?? "" });
      usersSeen = Math.max(usersSeen, users.length);
      const said = messages(s.attributes["gen_ai.output.messages"]).filter((m) => m.role === "assistant" && m.text !== null);
      turn = { kind: "assistant", text: said.length === 0 ? null : said.map((m) => m.text).join("\n"), calls: [], usage: usageOf(s.attributes) };
      fromChat = true;
      out.push(turn);
      continue;
    }
    const c = calls.get(s)!;
    // Without an LLM span before it, a call joins the turn only while one of its calls is in flight.
    if (turn === undefined || (!fromChat && pending.length === 0)) {
      turn = { kind: "assistant", text: null, calls: [], usage: null };
      fromChat = false;
      out.push(turn);
    }
    turn.calls.push(c.call);
    pending.push(c);
  }
  flush(undefined);
  return { events: out, model };
}

/** Each session's episode, in the order the sessions started. */
export function otelEpisodes(spans: readonly AgentSpan[], domain: string): Episode[] {
  const sessions = new Map<string, AgentSpan[]>();
  for (const s of spans) {
    const key = sessionOf(s);
    let list = sessions.get(key);
    if (list === undefined) sessions.set(key, (list = []));
    list.push(s);
  }
  const started = (list: AgentSpan[]) => list.reduce((m, s) => (s.start < m ? s.start : m), list[0]!.start);
  const ordered = [...sessions].map(([id, list]) => ({ id, list, start: started(list) }));
  ordered.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return ordered.map(({ id, list }) => {
    const { events: evs, model } = events(list);
    return { id, task_id: "", trial: 0, domain, agent_model: model ?? "unknown", reward: 0, events: evs };
  });
}
