import type { HttpClient } from "./client.js";
import type { HostOutput } from "./host-output.js";
import type { Lifetime } from "./lifetime.js";
import type { HttpSession } from "./session.js";

/** What posting, resuming and the GET stream share: where requests go, with what, and where answers go. */
export interface UpstreamContext {
  /** The server's MCP endpoint. */
  readonly url: string;
  readonly client: HttpClient;
  readonly session: HttpSession;
  readonly host: HostOutput;
  readonly lifetime: Lifetime;
  /** Says something on stderr (the caller adds `stretto-proxy: `). */
  readonly report: (message: string) => void;
}
