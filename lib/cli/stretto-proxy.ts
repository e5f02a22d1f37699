#!/usr/bin/env node
import { constants } from "node:os";
import { monotonicClock } from "../bus/clock.js";
import { stdioHost } from "../bus/host-port.js";
import { hostSession } from "../record/log-header.js";
import { sessionId } from "../record/session-id.js";
import type { ListenAddress } from "../transport/host-http/address.js";
import { resolveUpstreamHeaders } from "../transport/http/headers.js";
import type { ServerTransport } from "../bus/server-port.js";
import { errorText } from "../util/error-text.js";
import { ProxyError } from "../util/proxy-error.js";
import { expandTilde } from "../util/tilde.js";
import { all, flag, one, parseCommandLine, type ParsedArgs } from "./args.js";
import { pruner } from "./prune.js";
import { proxyCommand } from "./proxy-options.js";
import { runProxySession } from "./proxy-session.js";
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
  const cacheDir = expandTilde(one<string>(args, "oracle-cache") ?? "~/.stretto/oracle-cache");
  // --retain-days runs first, before anything else can fail, and never stops the proxy.
  const prune = pruner(recordDir, cacheDir, one<number>(args, "retain-days"), report);
  prune();

  const upstream = one<string>(args, "upstream");
  const plan = {
    args,
    recordDir,
    upstream,
    upstreamHeaders: resolveUpstreamHeaders(all<string>(args, "upstream-header"), process.env),
    report,
  };
  const listen = one<ListenAddress>(args, "listen");
  if (listen !== undefined) {
    await checkGuardsDomain(args);
    const { runListen } = await import("./listen.js");
    return runListen(plan, listen, prune);
  }

  const clock = monotonicClock();
  const who = { session: sessionId(clock.startedUnixMs, process.pid), hostSession: hostSession(process.env, process.ppid), clock };
  const status = await runProxySession(plan, stdioHost(), who, { onServer: stopOnSignals });
  return exitCodeOf(status, constants.signals);
}

/** Over HTTP the plugins start with each session: a guard without its domain fails at start, as on stdio. */
async function checkGuardsDomain(args: ParsedArgs): Promise<void> {
  if (!flag(args, "guards")) return;
  const { guardsFor } = await import("../guards/domains.js");
  try {
    guardsFor(one<string>(args, "domain"));
  } catch (err) {
    throw new ProxyError(errorText(err));
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
