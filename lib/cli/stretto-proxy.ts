#!/usr/bin/env node
import { constants } from "node:os";
import { monotonicClock } from "../bus/clock.js";
import { runPassiveSession } from "../bus/session.js";
import { hostSession, logHeader } from "../record/log-header.js";
import { LogWriter } from "../record/log-writer.js";
import { Recorder } from "../record/recorder.js";
import { redactCommand, redactUrl } from "../record/redact.js";
import { pruneAnswerCache, pruneSessionLogs } from "../record/retention.js";
import { sessionId } from "../record/session-id.js";
import { StdioChild } from "../transport/stdio-child.js";
import { resolveUpstreamHeaders } from "../transport/http/headers.js";
import { openHttpUpstream } from "../transport/http/open.js";
import type { ServerTransport } from "../bus/server-port.js";
import { errorText } from "../util/error-text.js";
import { expandTilde } from "../util/tilde.js";
import { all, flag, one, parseCommandLine, type ParsedArgs } from "./args.js";
import type { PluginFactory } from "../bus/runtime/api.js";
import { proxyCommand } from "./proxy-options.js";
import { EXIT_PROXY_FAILED, EXIT_USAGE, exitCodeOf, say } from "./report.js";

const PROGRAM = "stretto-proxy";
const STOP_SIGNALS: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"];
const report = (message: string) => say(PROGRAM, message);

async function main(argv: string[]): Promise<number> {
  // A file-size limit (ulimit -f) must stop recording, not kill the session: with a
  // handler installed, an oversized write fails with EFBIG instead.
  process.on("SIGXFSZ", () => {});
  const outcome = parseCommandLine(proxyCommand, argv);
  if (outcome.kind === "help" || outcome.kind === "version") {
    process.stdout.write(outcome.text);
    return 0;
  }
  if (outcome.kind === "usage-error") {
    process.stderr.write(outcome.text);
    return EXIT_USAGE;
  }
  const args = outcome.args;
  const recordDir = mapOpt(one<string>(args, "record"), expandTilde);
  pruneAtStart(args, recordDir);

  const upstream = one<string>(args, "upstream");
  const upstreamHeaders = resolveUpstreamHeaders(all<string>(args, "upstream-header"), process.env);

  const clock = monotonicClock();
  const session = sessionId(clock.startedUnixMs, process.pid);
  const header = logHeader({
    session,
    startedUnixMs: clock.startedUnixMs,
    serverCommand: upstream === undefined ? redactCommand(args.trailing) : [redactUrl(upstream)],
    domain: one<string>(args, "domain"),
    agentModel: one<string>(args, "agent-model"),
    hostSession: hostSession(process.env, process.ppid),
    serverName: one<string>(args, "server-name"),
  });
  const plugins = await activePlugins(args, { session, hostSession: header.host_session });
  let recorder: Recorder | undefined;
  let writer: LogWriter | undefined;
  if (recordDir !== undefined) {
    writer = LogWriter.create(recordDir, session, header, { onStopped: report });
    report(`recording to ${writer.path}`);
    recorder = new Recorder(writer);
  }

  let server: ServerTransport;
  try {
    server =
      upstream !== undefined
        ? await openHttpUpstream({ url: upstream, headers: upstreamHeaders, report })
        : await StdioChild.start(args.trailing);
  } catch (err) {
    writer?.discard(); // the session never began: leave no log behind
    throw err;
  }
  stopOnSignals(server);
  const io = { hostIn: process.stdin, hostOut: process.stdout, server, clock, recorder, report };
  const status =
    plugins.length > 0
      ? await (await import("../bus/active-session.js")).runActiveSession(io, { plugins, header })
      : await runPassiveSession(io);
  return exitCodeOf(status, constants.signals);
}

/**
 * The plugins active mode runs, or none. Loaded only when asked for: the trace library
 * and the guards (and their JSON schemas) would otherwise add ~100 ms to every passive start.
 */
async function activePlugins(args: ParsedArgs, session: { session: string; hostSession?: string | undefined }): Promise<PluginFactory[]> {
  const userPlugins = all<string>(args, "plugin");
  const active = one(args, "flow") !== undefined || flag(args, "guards") || flag(args, "commit") || one(args, "context") !== undefined || userPlugins.length > 0;
  if (!active) return [];
  const { builtinPlugins } = await import("./builtin-plugins.js");
  const { loadPlugin } = await import("../bus/runtime/load.js");
  const flows = one(args, "flow") !== undefined ? await import("./flow-options.js") : undefined;
  const plugins = [...builtinPlugins(args, session, flows), ...(await Promise.all(userPlugins.map((m) => loadPlugin(m))))];
  await noteContextFile(args, session);
  return plugins;
}

/** A conversation file not there yet is said once at start, not silently ignored. */
async function noteContextFile(args: ParsedArgs, session: { session: string; hostSession?: string | undefined }): Promise<void> {
  const given = one<string>(args, "context");
  if (given === undefined) return;
  const { contextFileNotice } = await import("../plugins/context/context-file.js");
  const { sessionPath } = await import("../util/session-path.js");
  const notice = contextFileNotice(sessionPath(given, session));
  if (notice !== undefined) report(notice);
}

/** --retain-days runs first, before anything else can fail, and never stops the proxy. */
function pruneAtStart(args: ParsedArgs, recordDir: string | undefined): void {
  const days = one<number>(args, "retain-days");
  if (days === undefined) return;
  const cache = expandTilde(one<string>(args, "oracle-cache") ?? "~/.stretto/oracle-cache");
  const sweeps: Array<[string, typeof pruneSessionLogs]> = [[cache, pruneAnswerCache]];
  if (recordDir !== undefined) sweeps.unshift([recordDir, pruneSessionLogs]);
  for (const [dir, prune] of sweeps) {
    try {
      const n = prune(dir, days);
      if (n > 0) report(`deleted ${n} files older than ${days} days from ${dir}`);
    } catch (err) {
      report(`pruning ${dir}: ${errorText(err)}`);
    }
  }
}

/**
 * On SIGTERM, SIGINT or SIGHUP, close the server's stdin, give it a grace period, then
 * signal its process group: a server gets the chance to finish cleanly, but neither it nor
 * a child it started can outlive the host's session (docs/robustness.md). The exit code
 * still follows the server.
 */
function stopOnSignals(server: ServerTransport): void {
  let stopping = false;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void server.shutdown().then(() => {
        // Something outside the group may still hold the server's stdout open.
        setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 2000).unref();
      });
    });
  }
}

function mapOpt<T, U>(v: T | undefined, f: (t: T) => U): U | undefined {
  return v === undefined ? undefined : f(v);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    report(errorText(err));
    process.exit(EXIT_PROXY_FAILED);
  },
);
