/**
 * A copy's header: the recorded log's fields as the proxy writes them, in its order. Nothing
 * in it is rewritten: the server command was redacted when it was recorded, and the host
 * session is what merges one host's logs across servers.
 */
import type { Json } from "../trace/json.js";
import type { LogHeader } from "../trace/log-types.js";

export function headerLine(h: LogHeader): string {
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
  if (h.era !== undefined) out["era"] = h.era;
  if (h.protocol_version !== undefined) out["protocol_version"] = h.protocol_version;
  return JSON.stringify(out);
}
