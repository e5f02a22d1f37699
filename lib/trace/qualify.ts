/**
 * Naming tools and ids after their server, so one session can span
 * several servers: `docs::search`. Each proxy's JSON-RPC ids are its own, so they are
 * qualified too (as strings).
 */
import { field, isObject, type Json, type JsonObject } from "./json.js";
import type { Episode, EpisodeEvent, ToolCall } from "./episode-types.js";
import type { LogEntry, McpLog } from "./log-types.js";
import { callId, method } from "./messages.js";

export const SERVER_SEPARATOR = "::";

/** `tool` of `server`: `docs::search`. */
export function qualify(server: string, tool: string): string {
  return `${server}${SERVER_SEPARATOR}${tool}`;
}

/** The server a qualified name names (`docs` for `docs::search`); undefined if none. */
export function serverOf(tool: string): string | undefined {
  const i = tool.indexOf(SERVER_SEPARATOR);
  return i === -1 ? undefined : tool.slice(0, i);
}

/** A tool's name on its own server: `search` for `docs::search` (or the name as it is). */
export function unqualified(tool: string): string {
  const i = tool.indexOf(SERVER_SEPARATOR);
  return i === -1 ? tool : tool.slice(i + SERVER_SEPARATOR.length);
}

/** Name every tool of `ep`, all of them `server`'s, as a multi-server session does. */
export function qualifyEpisode(ep: Episode, server: string): Episode {
  return { ...ep, events: ep.events.map((e) => qualifyEvent(e, server)) };
}

/** One event with its tools named after `server`; what the customer said stays as it is. */
export function qualifyEvent(e: EpisodeEvent, server: string): EpisodeEvent {
  if (e.kind === "assistant") return { ...e, calls: e.calls.map((c) => qualifyCall(c, server)) };
  if (e.kind === "tool_result") return { ...e, name: qualify(server, e.name) };
  return e;
}

export function qualifyCall(c: ToolCall, server: string): ToolCall {
  return { ...c, name: qualify(server, c.name) };
}

/** `log` with its tools and ids named after `server`; the conversation stays as it is. */
export function qualifiedLog(log: McpLog, server: string): McpLog {
  return { header: log.header, entries: log.entries.map((e) => qualifiedEntry(e, server)) };
}

export function qualifiedEntry(e: LogEntry, server: string): LogEntry {
  if (e.from === "context" || e.message === undefined) return e;
  const m = e.message;
  const message = Array.isArray(m) ? m.map((x) => qualifiedMessage(x, server)) : qualifiedMessage(m, server);
  return { ...e, message };
}

/**
 * A message with its id, a called tool's name, the request a cancellation names, and the
 * tools a `tools/list` answer lists, named after `server`. Untouched parts stay shared.
 */
export function qualifiedMessage(m: Json, server: string): Json {
  if (!isObject(m)) return m;
  const name = (v: Json): Json => (typeof v === "string" ? qualify(server, v) : v);
  const id = (v: Json): Json => (v === null ? v : qualify(server, callId(v)));
  let out = update(m, "id", id);
  const kind = method(m);
  if (kind === "tools/call") out = update(out, "params", (p) => update(p, "name", name));
  else if (kind === "notifications/cancelled") out = update(out, "params", (p) => update(p, "requestId", id));
  if (kind === undefined) {
    out = update(out, "result", (r) =>
      update(r, "tools", (tools) => (Array.isArray(tools) ? tools.map((t) => update(t, "name", name)) : tools)),
    );
  }
  return out;
}

/** A copy of `v` with `v[key]` replaced by `f(v[key])`, when `v` is an object that has `key`. */
function update<T extends Json>(v: T, key: string, f: (x: Json) => Json): T {
  const x = field(v, key);
  if (x === undefined) return v;
  return { ...(v as JsonObject), [key]: f(x) } as T;
}
