/**
 * The session log as `stretto-proxy` writes it (docs/session-log.md): a header
 * line, then one entry per forwarded line. This is the reader's view: versions 1 and 2,
 * optional fields filled in, unknown keys dropped.
 */
import type { Json } from "./json.js";

/** The newest log format version this library reads (it reads 1 as well). */
export const LOG_VERSION = 2;

/** Who sent a line. `proxy` and `context` appear from version 2 on. */
export type Peer = "client" | "server" | "proxy" | "context";
export const PEERS: readonly Peer[] = ["client", "server", "proxy", "context"];

export interface LogHeader {
  /** Format version, 1 or 2. */
  stretto_mcp_log: number;
  /** Session id; the log's file stem. */
  session: string;
  /** When the proxy started, in ms since the Unix epoch. */
  started_unix_ms: number;
  /** The server's command line (or upstream URL), credentials redacted; `[]` if absent. */
  server_command: string[];
  domain: string | null;
  agent_model: string | null;
  /** The host session every proxy of one host shares; absent when unknown. */
  host_session?: string;
  /** `--server-name`; absent when not given. */
  server_name?: string;
  /**
   * The protocol era the host's first lines showed (docs/http-upstream.md, "MCP 2026-07-28 and
   * how the era is told"): `legacy` (opened with
   * `initialize`) or `modern` (2026-07-28: requests name their version in `_meta`);
   * absent when the first lines did not tell.
   */
  era?: "legacy" | "modern";
  /** A modern session's protocol version, from its first request's `_meta`. */
  protocol_version?: string;
}

export interface LogEntry {
  /** When the proxy read the line, in ms after it started. */
  t_ms: number;
  from: Peer;
  /** The line as JSON: a JSON-RPC message or a batch (array). */
  message?: Json;
  /** The line as text, when it was not JSON. */
  raw?: string;
}

/** A log held in memory. Prefer the streaming readers for big logs. */
export interface McpLog {
  header: LogHeader;
  entries: LogEntry[];
}

/** The header as one compact line, keys in the writer's order, absent fields omitted. */
export function headerJson(h: LogHeader): string {
  const out: Record<string, Json> = {
    stretto_mcp_log: h.stretto_mcp_log,
    session: h.session,
    started_unix_ms: h.started_unix_ms,
    server_command: h.server_command,
    domain: h.domain,
    agent_model: h.agent_model,
  };
  if (h.host_session !== undefined) out["host_session"] = h.host_session;
  if (h.server_name !== undefined) out["server_name"] = h.server_name;
  return JSON.stringify(out);
}

/** One entry as a compact line (`message` or `raw`, whichever it has). */
export function entryJson(e: LogEntry): string {
  const out: Record<string, Json> = { t_ms: e.t_ms, from: e.from };
  if (e.message !== undefined) out["message"] = e.message;
  if (e.raw !== undefined) out["raw"] = e.raw;
  return JSON.stringify(out);
}

/** The log as `stretto-proxy` writes it: header, then one entry per line, each ending `\n`. */
export function toJsonl(log: McpLog): string {
  let out = headerJson(log.header) + "\n";
  for (const e of log.entries) out += entryJson(e) + "\n";
  return out;
}
