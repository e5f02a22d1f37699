/**
 * One session from the logs a host session left with its servers (docs/trace.md, "Several
 * servers").
 *
 * The merged log's lines are the logs' lines in the order the proxies read them, timed from
 * the first proxy's start, each tool and id named after its server. The conversation,
 * which each proxy logs from the host's one file, is kept once. A call a log ended without
 * answering gets a cancellation there, so it does not hold the other servers' turns open.
 * Once any host session is merged, every other log with a server name is qualified too,
 * so a tool has one name across the sessions.
 */
import { at, jsonEqual, type Json } from "./json.js";
import type { LogEntry, LogHeader, McpLog } from "./log-types.js";
import { method, messages, requestId, responseId } from "./messages.js";
import { qualifiedLog } from "./qualify.js";
import { groupSessions, summarize, type LogSummary } from "./sessions.js";

/** What becomes of each group of logs. */
export type SessionPlan =
  | { kind: "as-is"; index: number }
  | { kind: "qualified"; index: number; server: string }
  | { kind: "merged"; session: string; parts: { index: number; server: string }[] };

export interface MergePlan {
  sessions: SessionPlan[];
  /** How many logs were merged, into how many sessions. */
  mergedLogs: number;
  mergedSessions: number;
  /** Host sessions whose logs were kept apart (two servers of one name at once). */
  apart: string[];
}

export interface Sessions {
  logs: McpLog[];
  mergedLogs: number;
  mergedSessions: number;
  apart: string[];
}

/** The plan for logs summarized as `logs` (in the order given, usually by session). */
export function planSessions(logs: readonly LogSummary[]): MergePlan {
  const { groups, apart } = groupSessions(logs);
  const host = (g: number[]): string => logs[g[0]!]!.header.host_session ?? "";
  const runsOfHost = new Map<string, number>();
  for (const g of groups) if (g.length > 1) runsOfHost.set(host(g), (runsOfHost.get(host(g)) ?? 0) + 1);
  const plan: MergePlan = { sessions: [], mergedLogs: 0, mergedSessions: 0, apart };
  if (runsOfHost.size === 0) {
    plan.sessions = groups.map((g) => ({ kind: "as-is", index: g[0]! }));
    return plan;
  }
  const numbered = new Map<string, number>();
  for (const g of groups) {
    const parts = g.flatMap((index) => {
      const server = logs[index]!.serverName;
      return server === undefined ? [] : [{ index, server }];
    });
    if (parts.length === 0) plan.sessions.push({ kind: "as-is", index: g[0]! });
    else if (parts.length === 1) plan.sessions.push({ kind: "qualified", ...parts[0]! });
    else {
      const h = host(g);
      const k = numbered.get(h) ?? 0;
      numbered.set(h, k + 1);
      const session = runsOfHost.get(h)! > 1 ? `${h}#${k}` : h;
      plan.mergedLogs += parts.length;
      plan.mergedSessions += 1;
      plan.sessions.push({ kind: "merged", session, parts });
    }
  }
  return plan;
}

/** The sessions `logs` make up: each host session's logs merged, every other log alone. */
export function merge(logs: readonly McpLog[]): Sessions {
  const plan = planSessions(logs.map(summarize));
  const out = plan.sessions.map((s): McpLog => {
    if (s.kind === "as-is") return logs[s.index]!;
    if (s.kind === "qualified") return qualifiedLog(logs[s.index]!, s.server);
    return mergedLog(s.session, s.parts.map((p) => ({ log: logs[p.index]!, server: p.server })));
  });
  return { logs: out, mergedLogs: plan.mergedLogs, mergedSessions: plan.mergedSessions, apart: plan.apart };
}

/** One log of a host session's logs, each with its server's name, as {@link merge} makes it. */
export function mergedLog(session: string, parts: readonly { log: McpLog; server: string }[]): McpLog {
  if (parts.length === 0) throw new RangeError("mergedLog needs at least one log");
  const start = Math.min(...parts.map((p) => p.log.header.started_unix_ms));
  const lines: { k: number; entry: LogEntry }[] = [];
  parts.forEach(({ log, server }, k) => {
    const offset = log.header.started_unix_ms - start;
    const own = qualifiedLog(log, server);
    // Where this log ended, on the merged log's clock.
    const last = own.entries[own.entries.length - 1];
    const end = offset + (last ? last.t_ms : 0);
    for (const entry of own.entries) lines.push({ k, entry: { ...entry, t_ms: entry.t_ms + offset } });
    for (const id of unanswered(own)) {
      const message = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } };
      lines.push({ k, entry: { t_ms: end, from: "proxy", message } });
    }
  });
  // Array.prototype.sort is stable, so each log keeps its own order.
  lines.sort((a, b) => a.entry.t_ms - b.entry.t_ms || a.k - b.k);
  const entries = dedupeConversation(lines, parts.length);
  const first = parts[0]!.log.header;
  const sameDomain = parts.every((p) => p.log.header.domain === first.domain);
  const header: LogHeader = {
    stretto_mcp_log: Math.max(...parts.map((p) => p.log.header.stretto_mcp_log)),
    session,
    started_unix_ms: start,
    server_command: [],
    domain: sameDomain ? first.domain : null,
    agent_model: parts.find((p) => p.log.header.agent_model !== null)?.log.header.agent_model ?? null,
  };
  if (first.host_session !== undefined) header.host_session = first.host_session;
  return { header, entries };
}

/** Each proxy logs the host's conversation from its start: a line n-th in two logs is kept once. */
function dedupeConversation(lines: readonly { k: number; entry: LogEntry }[], logs: number): LogEntry[] {
  const said: LogEntry[] = [];
  const heard = new Array<number>(logs).fill(0);
  const out: LogEntry[] = [];
  for (const { k, entry } of lines) {
    if (entry.from === "context") {
      const n = heard[k]!++;
      const before = said[n];
      if (before && jsonEqual(before.message, entry.message) && before.raw === entry.raw) continue;
      if (n === said.length) said.push(entry);
    }
    out.push(entry);
  }
  return out;
}

/** The ids of calls no response answered and no cancellation released, in order. */
export function unanswered(log: McpLog): Json[] {
  let open: Json[] = [];
  for (const { from, message: m } of messages(log)) {
    const name = method(m);
    if ((from === "client" || from === "proxy") && name === "tools/call") {
      const id = requestId(m);
      if (id !== undefined) open.push(id);
    } else if ((from === "client" || from === "proxy") && name === "notifications/cancelled") {
      const released = at(m, "params", "requestId");
      open = open.filter((id) => !jsonEqual(id, released));
    } else if ((from === "server" || from === "proxy") && name === undefined) {
      const answered = responseId(m);
      open = open.filter((id) => !jsonEqual(id, answered));
    }
  }
  return open;
}
