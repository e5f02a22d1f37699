import { frame } from "../bus/frame.js";
import type { OwnAnswer, PluginContext } from "../bus/runtime/api.js";
import { ServiceRegistry, type ServiceKey } from "../bus/runtime/services.js";
import { SessionLog } from "../bus/runtime/session-log.js";
import { logHeader } from "../record/log-header.js";
import type { LogEntry } from "../trace/log-types.js";
import { seenOf, type SeenLine } from "./lines.js";
import { MemoryRecorder } from "./memory-recorder.js";

export interface StubContextOptions {
  domain?: string;
  session?: string;
  /** Services other plugins would provide: `[[CALL_CHECK, check]]`. */
  services?: ReadonlyArray<readonly [ServiceKey<unknown>, unknown]>;
  /** How the proxy's own requests are answered (default: the server is gone). */
  request?: (method: string, params: unknown) => OwnAnswer | Promise<OwnAnswer>;
}

export interface StubContext {
  context: PluginContext;
  /** What the plugin sent the host with `toClient`, parsed. */
  toHost: SeenLine[];
  /** The proxy's own requests the plugin made, as `{method, params}`. */
  requests: Array<{ method: string; params: unknown }>;
  said: string[];
  /** What the plugin logged (`toClient`, `log`), as the recorder writes it. */
  log: LogEntry[];
}

/**
 * A plugin context without a session around it, for marble tests of a plugin's operators:
 * the plugin's `toClient` lines, own requests and notices are kept for the test to read,
 * its log entries feed a real Episode, and the clock stands at 0.
 */
export function stubContext(options: StubContextOptions = {}): StubContext {
  const recorder = new MemoryRecorder();
  const header = logHeader({ session: options.session ?? "kit", startedUnixMs: 0, serverCommand: ["stretto-proxy/testing"], domain: options.domain });
  const log = new SessionLog(header, recorder);
  const services = new ServiceRegistry();
  for (const [key, service] of options.services ?? []) services.provide(key, service);
  const toHost: SeenLine[] = [];
  const requests: Array<{ method: string; params: unknown }> = [];
  const said: string[] = [];
  let n = 0;
  const context: PluginContext = {
    clock: { now: () => 0, startedUnixMs: 0 },
    domain: options.domain,
    session: header.session,
    hostSession: undefined,
    frames$: log.frames$,
    toClient(bytes) {
      log.add(frame("proxy", 0, bytes));
      toHost.push(seenOf(bytes));
    },
    request(method, params) {
      requests.push({ method, params });
      n++;
      return Promise.resolve(options.request ? options.request(method, params) : { kind: "no-answer", why: "server-gone" });
    },
    nextOwnId: () => `stretto-${n + 1}`,
    log: (from, bytes) => log.add(frame(from, 0, bytes)),
    episode: () => log.episode(),
    followEpisode: (follower) => log.follow(follower),
    say: (m) => said.push(m),
    serverOpen: () => options.request !== undefined,
    provide: (key, service) => services.provide(key, service),
    service: (key) => services.get(key),
  };
  return { context, toHost, requests, said, log: recorder.entries };
}
