/**
 * Which server a flow is served for (docs/flows.md, "Serve a flow"). A flow learned across servers names
 * its tools `server::tool`; each proxy serves it for its own server, named by
 * `--server-name`, else `--domain`, else the `serverInfo.name` of the server's answers. The
 * session is read under that name, and the server is asked by each tool's own name. A flow
 * learned on one server is served as it is.
 */
import { type Frame, jsonOf, type PluginContext } from "../index.js";
import { compareCodePoints, type Json } from "../../trace/json.js";
import { unqualified } from "../../trace/qualify.js";
import { ServerNameFinder } from "../../trace/server-name.js";
import { flowServers, LiveDecisions, type FollowedEpisode } from "../../flow/decide/index.js";
import type { Flow } from "../../flow/ir/flow-types.js";

export class ServedServer {
  private readonly servers: ReadonlySet<string>;
  private readonly names: ServerNameFinder;
  private decisions: LiveDecisions | undefined;
  private told = false;
  private forgotten = false;

  /** `followed`: the session as the flow keeps it itself, read instead of the session's Episode. */
  constructor(
    flow: Flow,
    private readonly session: PluginContext,
    serverName: string | undefined,
    private readonly followed?: FollowedEpisode,
  ) {
    this.servers = flowServers(flow);
    this.names = new ServerNameFinder({ ...(serverName === undefined ? {} : { server_name: serverName }), domain: session.domain ?? null });
    if (this.servers.size === 0) this.decisions = this.decisionsAs(undefined);
  }

  /** Decision points over the session (as `server`'s, for a flow learned across servers). */
  private decisionsAs(server: string | undefined): LiveDecisions {
    const followed = this.followed;
    if (followed === undefined) return new LiveDecisions(() => this.session.episode(), server);
    const decisions = new LiveDecisions(() => followed.episode(), server, () => followed.generation);
    followed.readPastWith(decisions);
    return decisions;
  }

  /** Reads a server line for the server's own name, until the name is known (only a flow learned across servers asks it). */
  sees(f: Frame): void {
    if (this.names.found || this.servers.size === 0) return;
    const value = jsonOf(f);
    if (value !== undefined) this.names.entry({ t_ms: f.tMs, from: "server", message: value as Json });
  }

  /**
   * The session's decision points as the flow reads them; undefined when the flow was
   * learned across servers and this is none of them (stderr says so, once).
   */
  decisionsHere(): LiveDecisions | undefined {
    if (this.decisions !== undefined || this.forgotten) return this.decisions;
    const name = this.names.name;
    if (name !== undefined && this.servers.has(name)) return (this.decisions = this.decisionsAs(name));
    if (!this.told) {
      this.told = true;
      const learned = [...this.servers].sort(compareCodePoints).join(", ");
      this.session.say(
        `the flow was learned across servers ({${learned}}), and this server's name, ${JSON.stringify(name ?? "")}, is none of them, so it looks nothing up here; name the server with --server-name`,
      );
    }
    return undefined;
  }

  /** Lets the session's reading go, once the flow decides nothing more: no decision points from now on. */
  forget(): void {
    this.forgotten = true;
    this.decisions = undefined;
    this.followed?.stop();
  }

  /** A tool's name on this server. */
  ownName(tool: string): string {
    return this.servers.size === 0 ? tool : unqualified(tool);
  }
}
