import { readFileSync } from "node:fs";
import { monotonicClock } from "../bus/clock.js";
import { sessionId } from "../record/session-id.js";
import type { ListenAddress } from "../transport/host-http/address.js";
import type { HostHttpSession } from "../transport/host-http/host-session.js";
import { ListenServer } from "../transport/host-http/listen-server.js";
import { errorText } from "../util/error-text.js";
import { osErrorText } from "../util/os-errors.js";
import { ProxyError } from "../util/proxy-error.js";
import { expandTilde } from "../util/tilde.js";
import { one } from "./args.js";
import { runProxySession, type ProxyPlan } from "./proxy-session.js";

const STOP_SIGNALS: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"];
/** How long a POST body may take to arrive (a test may shorten it). */
const BODY_DEADLINE_MS = 10_000;

/**
 * `--listen`: serves hosts over Streamable HTTP until stopped, each host session running
 * the same proxy session a stdio host gets. Prints the URL on stdout; exits 0 on a signal.
 */
export async function runListen(plan: ProxyPlan, address: ListenAddress, prune: () => void): Promise<number> {
  const { args, report } = plan;
  const tokenFile = one<string>(args, "listen-token-file");
  const token = tokenFile === undefined ? undefined : readToken(expandTilde(tokenFile));
  const idleMs = Math.round((one<number>(args, "listen-idle") ?? 240) * 60_000);
  const bodyDeadline = Number(process.env["STRETTO_LISTEN_BODY_MS"] ?? "");
  const pid = process.pid;
  const server = await ListenServer.open({
    address,
    token,
    idleMs,
    bodyDeadlineMs: bodyDeadline > 0 ? bodyDeadline : BODY_DEADLINE_MS,
    report,
    startSession: (session: HostHttpSession) => {
      prune();
      const clock = monotonicClock();
      const who = { session: `${sessionId(clock.startedUnixMs, pid)}-${session.n}`, hostSession: session.options.hostSession, clock };
      let stop: (() => Promise<void>) | undefined;
      session.onEnd(() => void stop?.());
      return runProxySession(plan, session, who, {
        onServer: (s) => {
          stop = () => s.shutdown();
          if (session.ended) void stop();
        },
      }).then((status) => `its server exited with status ${status.code ?? status.signal ?? "unknown"}`);
    },
  }).catch((err: unknown) => {
    throw new ProxyError(errorText(err));
  });
  process.stdout.write(`${server.url}\n`);
  report(`serving hosts over Streamable HTTP at ${server.url}`);
  await new Promise<void>((resolve) => {
    for (const signal of STOP_SIGNALS) process.once(signal, () => resolve());
  });
  await server.close();
  return 0;
}

/** The bearer token: the file's text, trimmed, at least 16 printable ASCII characters. */
function readToken(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ProxyError(`reading the token from ${file}: ${osErrorText(err)}`);
  }
  const token = text.trim();
  if (!/^[\x21-\x7e]{16,}$/.test(token)) throw new ProxyError(`the token in ${file} must be at least 16 printable ASCII characters, with no spaces`);
  return token;
}
