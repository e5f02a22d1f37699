/**
 * A session log as the console shows it, read through the trace library: its summary (mode,
 * counts) and its detail (calls with who made them, turns, the flow's decisions, a timeline).
 * A proxy `tools/call` is the flow's lookup, except while the agent's `stretto_commit` call is
 * unanswered (then the proxy runs the agent's staged writes); each lookup is tied to the next
 * unused lookup decision made after the same agent call.
 */
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { CallView, ContextMessage, FlowDecision, FlowRun, SessionDetail, SessionSummary, SessionUpstream, TimelineEvent, ToolInfo, ToolKind, TurnView } from "./api-types.js";
import { callId, contract, entryMessages, episode, method, readLog, responseId, type Json, type LogEntry, type McpLog } from "../trace/index.js";
import { isObject } from "../util/is-object.js";
import type { SessionFile } from "./catalog.js";
import { isLive } from "./live.js";

const SURPRISED = "the session surprised the flow";
const RESULT_LIMIT = 64 * 1024;

export interface ParsedSession {
  file: SessionFile;
  log: McpLog;
  decisions: FlowDecision[];
  runs: FlowRun[];
  confirmations: unknown[];
  sizeBytes: number;
  mtimeMs: number;
}

function jsonLines(path: string | undefined): unknown[] {
  if (path === undefined) return [];
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const out: unknown[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      out.push(JSON.parse(line) as unknown);
    } catch {
      // A line the proxy was writing when the log was read, or not JSON: skipped.
    }
  }
  return out;
}

/** A field as text: a string as it is, anything else as JSON, nothing as "". */
export const textOf = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const idText = (v: unknown): string | null => (v === undefined || v === null ? null : typeof v === "string" ? v : JSON.stringify(v));

function decisionOf(o: Record<string, unknown>): FlowDecision {
  const probs = isObject(o["probs"]) ? (Object.fromEntries(Object.entries(o["probs"]).filter(([, p]) => typeof p === "number")) as Record<string, number>) : null;
  return {
    after: idText(o["after"]),
    address: str(o["address"]),
    site: str(o["site"]),
    action: o["action"] === "lookup" ? "lookup" : "hand_back",
    tool: str(o["tool"]),
    arguments: o["arguments"] ?? null,
    prob: num(o["prob"]),
    probs,
    binding: num(o["binding"]),
    reason: str(o["reason"]),
    shadow: o["shadow"] === true,
    ms: num(o["ms"]),
  };
}

function runOf(after: unknown, r: Record<string, unknown>): FlowRun {
  const sites = Array.isArray(r["sites"])
    ? r["sites"].filter((s): s is unknown[] => Array.isArray(s)).map((s) => [String(s[0]), typeof s[1] === "string" ? s[1] : JSON.stringify(s[1]), num(s[2]) ?? 0] as [string, string, number])
    : [];
  return { after: idText(after), call: str(r["call"]), failed: r["failed"] === true, max_lookups: num(r["max_lookups"]), sites, surprise: num(r["surprise"]) };
}

export async function parseSession(file: SessionFile): Promise<ParsedSession> {
  const log = await readLog(file.abs);
  const decisions: FlowDecision[] = [];
  const runs: FlowRun[] = [];
  for (const line of jsonLines(file.flowLog)) {
    if (!isObject(line)) continue;
    if (line["action"] === "lookup" || line["action"] === "hand_back") decisions.push(decisionOf(line));
    else if (isObject(line["run"])) runs.push(runOf(line["after"], line["run"]));
  }
  const st = statSync(file.abs);
  return { file, log, decisions, runs, confirmations: jsonLines(file.confirmLog), sizeBytes: st.size, mtimeMs: st.mtimeMs };
}

// ---------- calls ----------

interface Listed {
  tools: ToolInfo[];
  kinds: Map<string, ToolKind>;
}

function toolInfo(t: Record<string, unknown>): ToolInfo | undefined {
  const name = str(t["name"]);
  if (name === null) return undefined;
  const ann = isObject(t["annotations"]) ? t["annotations"] : {};
  const ro = typeof ann["readOnlyHint"] === "boolean" ? ann["readOnlyHint"] : null;
  const de = typeof ann["destructiveHint"] === "boolean" ? ann["destructiveHint"] : null;
  return {
    name,
    kind: ro === true ? "read" : ro === false ? "write" : "generic",
    description: str(t["description"]),
    read_only_hint: ro,
    destructive_hint: de,
    contract: contract(t as Json) ?? "",
  };
}

/** The tools the server listed in answer to the client's `tools/list`, by name. */
export function listedTools(log: McpLog): Listed {
  const asked = new Set<string>();
  const byName = new Map<string, ToolInfo>();
  for (const e of log.entries) {
    for (const m of entryMessages(e)) {
      if (e.from === "client" && method(m) === "tools/list" && isObject(m)) asked.add(callId(m["id"] as Json));
      if (e.from === "server" && isObject(m) && m["id"] !== undefined && asked.has(callId(m["id"])) && isObject(m["result"])) {
        const tools = m["result"]["tools"];
        if (Array.isArray(tools)) for (const t of tools) if (isObject(t)) {
          const info = toolInfo(t);
          if (info) byName.set(info.name, info);
        }
      }
    }
  }
  const tools = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { tools, kinds: new Map(tools.map((t) => [t.name, t.kind])) };
}

function resultText(m: Record<string, unknown>): { text: string; ok: boolean } {
  if (isObject(m["error"])) return { text: textOf(m["error"]["message"]), ok: false };
  const r = m["result"];
  if (!isObject(r)) return { text: JSON.stringify(r ?? null), ok: true };
  const ok = r["isError"] !== true;
  const content = Array.isArray(r["content"]) ? r["content"] : [];
  const texts = content.filter(isObject).filter((c) => c["type"] === "text" && typeof c["text"] === "string").map((c) => c["text"] as string);
  if (texts.length > 0) return { text: texts.join("\n"), ok };
  if (r["structuredContent"] !== undefined) return { text: JSON.stringify(r["structuredContent"]), ok };
  return { text: JSON.stringify(r), ok };
}

function cut(text: string): { text: string; truncated: boolean } {
  if (Buffer.byteLength(text) <= RESULT_LIMIT) return { text, truncated: false };
  let s = Buffer.from(text).subarray(0, RESULT_LIMIT).toString("utf8");
  if (s.endsWith("\uFFFD")) s = s.slice(0, -1);
  return { text: s, truncated: true };
}

interface Calls {
  calls: CallView[];
  /** Agent calls answered with an error. */
  errors: number;
}

/** Every tools/call in the log, in order, with who made it and its answer. */
export function callsOf(log: McpLog, kinds: ReadonlyMap<string, ToolKind>, decisions: readonly FlowDecision[]): Calls {
  const calls: CallView[] = [];
  const open = new Map<string, CallView>();
  let commitOpen: string | null = null;
  let lastAnswered: string | null = null;
  for (const e of log.entries) {
    for (const m of entryMessages(e)) {
      if (!isObject(m)) continue;
      if ((e.from === "client" || e.from === "proxy") && m["method"] === "tools/call" && m["id"] !== undefined && m["id"] !== null) {
        const params = isObject(m["params"]) ? m["params"] : {};
        const tool = textOf(params["name"]);
        const id = callId(m["id"]);
        const agent = e.from === "client" || commitOpen !== null;
        const call: CallView = {
          id,
          by: agent ? "agent" : "flow",
          tool,
          kind: kinds.get(tool) ?? "generic",
          arguments: params["arguments"] ?? {},
          t_ms: e.t_ms,
          result_t_ms: null,
          latency_ms: null,
          ok: null,
          result_text: null,
          result_json: null,
          result_truncated: false,
          turn: null,
          after: e.from === "proxy" ? (commitOpen ?? lastAnswered) : null,
          decision: null,
        };
        const before = calls.findIndex((c) => c.id === id);
        if (before >= 0) calls.splice(before, 1);
        calls.push(call);
        open.set(id, call);
        if (e.from === "client" && tool === "stretto_commit") commitOpen = id;
      } else if (e.from === "server" || e.from === "proxy") {
        const rid = responseId(m);
        if (rid === undefined) continue;
        const id = callId(rid);
        const call = open.get(id);
        if (call === undefined) continue;
        open.delete(id);
        const { text, ok } = resultText(m);
        const c = cut(text);
        call.result_t_ms = e.t_ms;
        call.latency_ms = e.t_ms - call.t_ms;
        call.ok = ok;
        call.result_text = c.text;
        call.result_truncated = c.truncated;
        if (!c.truncated) {
          try {
            call.result_json = JSON.parse(c.text) as unknown;
          } catch {
            call.result_json = null;
          }
        }
        if (call.by === "agent" && call.after === null) lastAnswered = id;
        if (id === commitOpen) commitOpen = null;
      }
    }
  }
  // Each lookup takes the next unused non-shadow lookup decision made after the same call.
  const used = new Set<number>();
  for (const c of calls) {
    if (c.by !== "flow") continue;
    const i = decisions.findIndex((d, j) => !used.has(j) && !d.shadow && d.action === "lookup" && d.after === c.after);
    if (i >= 0) {
      used.add(i);
      c.decision = i;
    }
  }
  const errors = calls.filter((c) => c.by === "agent" && c.after === null && c.ok === false).length;
  return { calls, errors };
}

function agentOf(log: McpLog): string | null {
  if (log.header.agent_model) return log.header.agent_model;
  for (const e of log.entries) {
    for (const m of entryMessages(e)) {
      if (e.from === "client" && isObject(m) && m["method"] === "initialize" && isObject(m["params"]) && isObject(m["params"]["clientInfo"])) {
        return str(m["params"]["clientInfo"]["name"]);
      }
    }
  }
  return null;
}

export function upstreamOf(command: readonly string[]): SessionUpstream | null {
  if (command.length === 0) return null;
  if (command.length === 1 && /^https?:\/\//.test(command[0]!)) return { kind: "http", url: command[0]! };
  return { kind: "stdio", command: [...command] };
}

export function summaryOf(p: ParsedSession, now = Date.now()): SessionSummary {
  const { log, decisions } = p;
  const { kinds } = listedTools(log);
  const { calls, errors } = callsOf(log, kinds, decisions);
  const agentCalls = calls.filter((c) => e2eAgent(c));
  // A guard's refusal is the proxy's answer too; only the proxy's own calls mean it served a flow.
  const proxyCalls = calls.some((c) => c.by === "flow" || c.after !== null);
  const mode = proxyCalls || decisions.some((d) => !d.shadow) ? "served" : decisions.some((d) => d.shadow) ? "shadow" : "recorded";
  const turns = episode(agentOnly(log)).events.filter((e) => e.kind === "assistant" && e.calls.length > 0).length;
  return {
    key: p.file.key,
    path: p.file.rel,
    session_id: log.header.session,
    domain: log.header.domain || null,
    agent: agentOf(log),
    started_unix_ms: log.header.started_unix_ms,
    duration_ms: log.entries.reduce((m, e) => Math.max(m, e.t_ms), 0),
    mode,
    tool_calls: calls.filter((c) => c.by === "agent" && c.after === null).length,
    llm_turns: turns,
    errors,
    flow_lookups: calls.filter((c) => c.by === "flow").length,
    hand_backs: decisions.filter((d) => !d.shadow && d.action === "hand_back").length,
    shadow_lookups: decisions.filter((d) => d.shadow && d.action === "lookup").length,
    surprised: decisions.some((d) => d.reason?.startsWith(SURPRISED) === true),
    writes: agentCalls.filter((c) => kinds.get(c.tool) === "write").length,
    upstream: upstreamOf(log.header.server_command),
    size_bytes: p.sizeBytes,
    has_flow_log: p.file.flowLog !== undefined,
    has_confirm_log: p.file.confirmLog !== undefined,
    live: isLive(log.header.session, p.mtimeMs, now),
  };
}

const e2eAgent = (c: CallView) => c.by === "agent" && c.after === null;

// ---------- detail ----------

function compact(v: unknown): string {
  return JSON.stringify(v ?? {});
}

function clip(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

function timeline(log: McpLog): TimelineEvent[] {
  const methods = new Map<string, string>();
  const out: TimelineEvent[] = [];
  const push = (e: LogEntry, ev: Omit<TimelineEvent, "t_ms" | "from">) => out.push({ t_ms: e.t_ms, from: e.from, ...ev, summary: clip(ev.summary) });
  for (const e of log.entries) {
    if (e.message === undefined) {
      push(e, { kind: "raw", method: null, id: null, summary: e.raw ?? "" });
      continue;
    }
    for (const m of entryMessages(e)) {
      if (!isObject(m)) {
        push(e, { kind: "raw", method: null, id: null, summary: JSON.stringify(m) });
        continue;
      }
      if (e.from === "context") {
        push(e, { kind: "context", method: null, id: null, summary: `${textOf(m["role"])}: ${textOf(m["content"])}` });
        continue;
      }
      const meth = str(m["method"]);
      const id = m["id"] === undefined || m["id"] === null ? null : callId(m["id"]);
      if (meth !== null) {
        if (id !== null) methods.set(`${e.from}:${id}`, meth);
        const params = isObject(m["params"]) ? m["params"] : {};
        const summary = meth === "tools/call" ? `${textOf(params["name"])} ${compact(params["arguments"])}` : meth;
        push(e, { kind: id === null ? "notification" : "request", method: meth, id, summary });
        continue;
      }
      const asked = id === null ? null : (methods.get(`client:${id}`) ?? methods.get(`proxy:${id}`) ?? methods.get(`server:${id}`) ?? null);
      if (isObject(m["error"])) {
        push(e, { kind: "error", method: asked, id, summary: `error ${textOf(m["error"]["code"])}: ${textOf(m["error"]["message"])}` });
      } else {
        const summary = asked === "tools/call" ? resultText(m).text : asked ?? "response";
        push(e, { kind: "response", method: asked, id, summary });
      }
    }
  }
  return out;
}

function contextOf(log: McpLog): ContextMessage[] {
  const out: ContextMessage[] = [];
  for (const e of log.entries) {
    if (e.from !== "context" || !isObject(e.message)) continue;
    const role = e.message["role"] === "assistant" ? "assistant" : "user";
    out.push({ t_ms: e.t_ms, role, content: textOf(e.message["content"]) });
  }
  return out;
}

/** The log without the proxy's own requests and their answers, as the agent saw it. */
function agentOnly(log: McpLog): McpLog {
  return { header: log.header, entries: log.entries.filter((e) => e.from !== "proxy") };
}

/** The trace library's LLM turns, over the log without the proxy's own requests. */
function turnsOf(log: McpLog, calls: CallView[]): TurnView[] {
  const turns: TurnView[] = [];
  const byId = new Map(calls.map((c) => [c.id, c]));
  for (const ev of episode(agentOnly(log)).events) {
    if (ev.kind !== "assistant") continue;
    const ids = ev.calls.map((c) => c.id);
    const times = ids.map((id) => byId.get(id)).filter((c): c is CallView => c !== undefined);
    const start = times.length > 0 ? Math.min(...times.map((c) => c.t_ms)) : 0;
    const end = times.length > 0 ? Math.max(...times.map((c) => c.result_t_ms ?? c.t_ms)) : start;
    const index = turns.length;
    for (const c of times) c.turn = index;
    turns.push({ index, start_ms: start, end_ms: end, calls: ids });
  }
  return turns;
}

export function detailOf(p: ParsedSession): SessionDetail {
  const { log } = p;
  const { tools, kinds } = listedTools(log);
  const { calls } = callsOf(log, kinds, p.decisions);
  const turns = turnsOf(log, calls);
  let header: unknown = null;
  try {
    const first = readFileSync(p.file.abs, "utf8").split("\n", 1)[0] ?? "";
    header = JSON.parse(first) as unknown;
  } catch {
    header = log.header;
  }
  return {
    summary: summaryOf(p),
    header,
    tools,
    turns,
    calls,
    context: contextOf(log),
    decisions: p.decisions,
    runs: p.runs,
    confirmations: p.confirmations,
    events: timeline(log),
    truncated: false,
  };
}

/** `Content-Disposition`'s file name: the log's, with anything unprintable, `"` or `\` made `_`. */
export function attachmentName(abs: string): string {
  return basename(abs).replace(/[^\x20-\x7e]|["\\]/g, "_");
}

