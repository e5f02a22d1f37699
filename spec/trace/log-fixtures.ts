/**
 * Builders for the logs the trace specs read: `logOf` puts lines a second apart, as long as
 * an LLM turn takes (and beyond the 500 ms within which a call may join the turn before);
 * `logAt` times each line itself.
 */
import type { Episode, Json, McpLog, Peer } from "../../lib/trace/index.js";
import { entryJson, parseLog } from "../../lib/trace/index.js";

export const HEADER =
  '{"stretto_mcp_log":1,"session":"s1","started_unix_ms":1790198400000,"server_command":["demo-server","--verbose"],"domain":null,"agent_model":null}';

export type Line = [Peer, Json];
export type TimedLine = [number, Peer, Json];

export function logAt(lines: readonly TimedLine[]): McpLog {
  let text = HEADER + "\n";
  for (const [t_ms, from, message] of lines) text += entryJson({ t_ms, from, message }) + "\n";
  return parseLog(text);
}

export function logOf(lines: readonly Line[]): McpLog {
  return logAt(lines.map(([from, m], i) => [1000 * i, from, m]));
}

export function at(lines: readonly [number, Line][]): McpLog {
  return logAt(lines.map(([t, [from, m]]) => [t, from, m]));
}

export function timed(t: number, [from, m]: Line): TimedLine {
  return [t, from, m];
}

export function call(id: Json, name: string): Line {
  return ["client", { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: { n: 1 } } }];
}

export function callWith(id: Json, name: string, args: Json): Line {
  return ["client", { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }];
}

export function reply(id: Json, text: string): Line {
  return ["server", { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } }];
}

export function said(text: string): Line {
  return ["context", { role: "user", content: text }];
}

/** Each event as a short string: `turn(a,b)`, `result:<call id>` or `user`. */
export function outline(ep: Episode): string[] {
  return ep.events.map((e) =>
    e.kind === "assistant"
      ? `turn(${e.calls.map((c) => c.name).join(",")})`
      : e.kind === "tool_result"
        ? `result:${e.call_id}`
        : "user",
  );
}

/** `[call id, error, content]` of each result. */
export function results(ep: Episode): [string, boolean, string][] {
  return ep.events.flatMap((e) => (e.kind === "tool_result" ? [[e.call_id, e.error, e.content] as [string, boolean, string]] : []));
}

/** A log of `server`'s that started at `start`, in host session `host`. */
export function serverLog(server: string, host: string | undefined, start: number, lines: readonly TimedLine[]): McpLog {
  const log = logAt(lines);
  log.header.stretto_mcp_log = 2;
  log.header.session = `${start}-${server}`;
  log.header.started_unix_ms = start;
  if (host !== undefined) log.header.host_session = host;
  log.header.server_name = server;
  return log;
}

/** A short call and its answer, the whole of a log. */
export function oneCall(tool: string, t: number, took: number): TimedLine[] {
  return [timed(t, call(1, tool)), timed(t + took, reply(1, "done"))];
}
