/**
 * A session of the real flow plugin in-process, as the flow's memory specs serve it: the real
 * `SessionLog` and the session's readers as active mode wires them (`EpisodeReaders`), a
 * plugin context whose own requests the retail world answers (`answerMessage`, as
 * `stretto-mcp-demo --world retail` writes them), and the flow log kept as lines.
 */
import { frame } from "../../lib/bus/frame.js";
import type { OwnAnswer, PluginContext, TurnFollower } from "../../lib/bus/runtime/api.js";
import { EpisodeReaders } from "../../lib/bus/runtime/episode-readers.js";
import { line, responseOf } from "../../lib/bus/runtime/json-rpc.js";
import { ServiceRegistry } from "../../lib/bus/runtime/services.js";
import { SessionLog } from "../../lib/bus/runtime/session-log.js";
import { answerMessage } from "../../lib/demo/answer.js";
import { emptyListing } from "../../lib/demo/worlds/listing.js";
import { retailWorld } from "../../lib/demo/worlds/retail.js";
import type { LogHeader } from "../../lib/trace/log-types.js";
import { sortedJson } from "../../lib/util/sorted-json.js";
import { HEADER } from "./decide-locally.js";

export interface InProcessSession {
  log: SessionLog;
  readers: EpisodeReaders;
  /** The context a plugin is set up with (through `readers.contextFor`). */
  base: PluginContext;
  /** The retail world's answer to a request's line. */
  answerOf: (bytes: Buffer) => Buffer;
  /** The flow log's lines, each decision's `ms` read as 0 (its only figure that is a time). */
  flowLog: string[];
  /** The flow log's sink, for `flowPlugin`'s `log`. */
  sink: { write: (l: string) => void };
  /** How many requests of its own the proxy made. */
  lookups: () => number;
}

/**
 * `followTurns`: the context offers it, as active mode's does (the flow then keeps the session
 * itself); without, the flow reads the whole Episode. `say`: what the plugin says on stderr.
 * `header`: the log's (the demo's retail world unless given).
 */
export function inProcessSession(options: { followTurns: boolean; say: (m: string) => void; header?: LogHeader }): InProcessSession {
  const world = retailWorld(emptyListing());
  const log = new SessionLog(options.header ?? HEADER, undefined);
  const readers = new EpisodeReaders(log, false);
  const answerOf = (bytes: Buffer): Buffer => Buffer.from(`${sortedJson(answerMessage(bytes.toString("utf8"), world)!.message)}\n`);
  const services = new ServiceRegistry();
  const flowLog: string[] = [];
  let own = 0;
  const base: PluginContext = {
    clock: { now: () => 0, startedUnixMs: 0 },
    domain: "retail",
    session: "s",
    hostSession: undefined,
    frames$: log.frames$,
    toClient: (bytes) => log.add(frame("proxy", 0, bytes)),
    request(method, params): Promise<OwnAnswer> {
      const bytes = line({ jsonrpc: "2.0", id: `stretto-${++own}`, method, params });
      log.add(frame("proxy", 0, bytes));
      return new Promise((resolve) =>
        setImmediate(() => {
          const f = frame("server", 0, answerOf(bytes));
          log.add(f);
          resolve({ kind: "answer", response: responseOf(f)!, frame: f });
        }),
      );
    },
    nextOwnId: () => `stretto-${own + 1}`,
    log: (from, bytes) => log.add(frame(from, 0, bytes)),
    episode: () => log.episode(),
    followEpisode: (follower) => log.follow(follower),
    ...(options.followTurns ? { followTurns: (follower: TurnFollower) => log.followTurns(follower) } : {}),
    say: options.say,
    serverOpen: () => true,
    provide: (key, service) => services.provide(key, service),
    service: (key) => services.get(key),
  };
  const sink = { write: (l: string) => flowLog.push(l.replace(/"ms":[^,}]+/, '"ms":0')) };
  return { log, readers, base, answerOf, flowLog, sink, lookups: () => own };
}
