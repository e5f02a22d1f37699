import type { Clock } from "../bus/clock.js";
import type { HostTransport } from "../bus/host-port.js";
import type { PluginFactory } from "../bus/runtime/api.js";
import type { ExitStatus, ServerTransport } from "../bus/server-port.js";
import { runPassiveSession } from "../bus/session.js";
import { logHeader } from "../record/log-header.js";
import { LogWriter } from "../record/log-writer.js";
import { Recorder } from "../record/recorder.js";
import { redactCommand, redactUrl } from "../record/redact.js";
import { resolveUpstreamHeaders } from "../transport/http/headers.js";
import { openHttpUpstream } from "../transport/http/open.js";
import { StdioChild } from "../transport/stdio-child.js";
import { all, flag, one, type ParsedArgs } from "./args.js";

/** What every session of one proxy shares: its options, read once. */
export interface ProxyPlan {
  args: ParsedArgs;
  recordDir: string | undefined;
  upstream: string | undefined;
  upstreamHeaders: ReturnType<typeof resolveUpstreamHeaders>;
  report: (message: string) => void;
}

/** Who one session is: its id, its host session, its clock. */
export interface SessionWho {
  session: string;
  hostSession: string | undefined;
  clock: Clock;
}

export interface SessionHooks {
  /** Told the server once it runs (the stdio proxy stops it on a signal). */
  onServer?: (server: ServerTransport) => void;
}

/**
 * One proxy session on a host transport: the log header, the plugins, the recorder, the
 * server (a child process or an upstream session), then the passive or active bus. The same
 * for the host on stdio and for each host session over HTTP; nothing below knows which.
 * The plugins are built anew for each session, so `--flow` is read when a session starts:
 * over HTTP a flow committed since the last session is served from the next one on.
 */
export async function runProxySession(plan: ProxyPlan, host: HostTransport, who: SessionWho, hooks: SessionHooks = {}): Promise<ExitStatus> {
  const { args, report } = plan;
  const header = logHeader({
    session: who.session,
    startedUnixMs: who.clock.startedUnixMs,
    serverCommand: plan.upstream === undefined ? redactCommand(args.trailing) : [redactUrl(plan.upstream)],
    domain: one<string>(args, "domain"),
    agentModel: one<string>(args, "agent-model"),
    hostSession: who.hostSession,
    serverName: one<string>(args, "server-name"),
  });
  const plugins = await activePlugins(args, { session: who.session, hostSession: header.host_session }, report);
  let recorder: Recorder | undefined;
  let writer: LogWriter | undefined;
  if (plan.recordDir !== undefined) {
    writer = LogWriter.create(plan.recordDir, who.session, header, { onStopped: report });
    report(`recording to ${writer.path}`);
    recorder = new Recorder(writer);
  }

  let server: ServerTransport;
  try {
    server =
      plan.upstream !== undefined
        ? await openHttpUpstream({ url: plan.upstream, headers: plan.upstreamHeaders, report })
        : await StdioChild.start(args.trailing);
  } catch (err) {
    writer?.discard(); // the session never began: leave no log behind
    throw err;
  }
  hooks.onServer?.(server);
  const io = { hostIn: host.input, hostOut: host.output, server, clock: who.clock, recorder, report };
  return plugins.length > 0
    ? await (await import("../bus/active-session.js")).runActiveSession(io, { plugins, header })
    : await runPassiveSession(io);
}

/** Whether any option makes the session active (its lines read by plugins). */
export function isActive(args: ParsedArgs): boolean {
  return one(args, "flow") !== undefined || flag(args, "guards") || flag(args, "commit") || one(args, "context") !== undefined || all(args, "plugin").length > 0;
}

/**
 * The plugins active mode runs, or none. Loaded only when asked for: the trace library
 * and the guards (and their JSON schemas) would otherwise add ~100 ms to every passive start.
 */
async function activePlugins(
  args: ParsedArgs,
  session: { session: string; hostSession?: string | undefined },
  report: (message: string) => void,
): Promise<PluginFactory[]> {
  if (!isActive(args)) return [];
  const userPlugins = all<string>(args, "plugin");
  const { builtinPlugins } = await import("./builtin-plugins.js");
  const { loadPlugin } = await import("../bus/runtime/load.js");
  const flows = one(args, "flow") !== undefined ? await import("./flow-options.js") : undefined;
  const plugins = [...builtinPlugins(args, session, flows), ...(await Promise.all(userPlugins.map((m) => loadPlugin(m))))];
  await noteContextFile(args, session, report);
  return plugins;
}

/** A conversation file not there yet is said once at start, not silently ignored. */
async function noteContextFile(args: ParsedArgs, session: { session: string; hostSession?: string | undefined }, report: (message: string) => void): Promise<void> {
  const given = one<string>(args, "context");
  if (given === undefined) return;
  const { contextFileNotice } = await import("../plugins/context/context-file.js");
  const { sessionPath } = await import("../util/session-path.js");
  const notice = contextFileNotice(sessionPath(given, session));
  if (notice !== undefined) report(notice);
}
