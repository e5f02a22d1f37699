import type { LogHeader } from "../trace/log-types.js";

/** The first line of a session log: the writer makes version 2 (docs/session-log.md, "The header"). */
export type { LogHeader };

export interface HeaderFields {
  session: string;
  startedUnixMs: number;
  serverCommand: string[];
  domain?: string | undefined;
  agentModel?: string | undefined;
  hostSession?: string | undefined;
  serverName?: string | undefined;
}

/** Builds the header with its keys in the documented order. */
export function logHeader(f: HeaderFields): LogHeader {
  const header: LogHeader = {
    stretto_mcp_log: 2,
    session: f.session,
    started_unix_ms: f.startedUnixMs,
    server_command: f.serverCommand,
    domain: f.domain ?? null,
    agent_model: f.agentModel ?? null,
  };
  if (f.hostSession !== undefined) header.host_session = f.hostSession;
  if (f.serverName !== undefined) header.server_name = f.serverName;
  return header;
}

/** The host session: `STRETTO_SESSION` when set and non-empty, else `host-<ppid>`. */
export function hostSession(env: NodeJS.ProcessEnv, ppid: number): string {
  const named = env["STRETTO_SESSION"];
  return named !== undefined && named !== "" ? named : `host-${ppid}`;
}
