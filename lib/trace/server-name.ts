/**
 * The name a log's server goes by in a session that spans several servers: the
 * proxy's `--server-name`, else its `--domain` (the first non-empty), else the name the
 * server gave itself in its first answer that names it. Characters other than ASCII
 * letters, digits, `-`, `_` and `.` become `_`, so `server::tool` splits back apart.
 */
import { at, type Json } from "./json.js";
import type { LogEntry, LogHeader, McpLog } from "./log-types.js";
import { entryMessages } from "./messages.js";

/** Where a 2026-07-28 result names its server, beside the older `serverInfo`. */
export const SERVER_INFO_META = "io.modelcontextprotocol/serverInfo";

export function serverName(log: McpLog): string | undefined {
  const finder = new ServerNameFinder(log.header);
  for (const e of log.entries) {
    if (finder.found) break;
    finder.entry(e);
  }
  return finder.name;
}

/** Finds a log's server name from its header, then from entries fed in order. */
export class ServerNameFinder {
  private own: string | undefined;
  private readonly given: string | undefined;

  /** `header` gives `--server-name` (`server_name`) and `--domain`, when the proxy had them. */
  constructor(header: Pick<LogHeader, "server_name" | "domain">) {
    this.given = [header.server_name, header.domain].find((n): n is string => typeof n === "string" && n !== "");
  }

  /** Whether the name is settled (more entries cannot change it). */
  get found(): boolean {
    return this.given !== undefined || this.own !== undefined;
  }

  entry(e: LogEntry): void {
    if (this.found || e.from !== "server") return;
    for (const m of entryMessages(e)) {
      const name = selfName(m);
      if (name !== undefined) {
        this.own = name;
        return;
      }
    }
  }

  get name(): string | undefined {
    const name = this.given ?? this.own;
    return name === undefined ? undefined : plainName(name);
  }
}

function selfName(m: Json): string | undefined {
  for (const name of [at(m, "result", "serverInfo", "name"), at(m, "result", "_meta", SERVER_INFO_META, "name")]) {
    if (typeof name === "string" && name !== "") return name;
  }
  return undefined;
}

/** `My Server::v2` → `My_Server__v2`. */
export function plainName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/gu, "_");
}
