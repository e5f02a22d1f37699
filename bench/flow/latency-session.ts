/**
 * One in-process session for the flow-latency bench: a plugin (or none, for the floor) wired
 * the way `runActiveSession` wires it, with the real `SessionLog` keeping the Episode, and
 * the retail world of `stretto-mcp-demo --world retail` answering in the same process
 * (`answerMessage`, written with `sortedJson` as the demo writes it). The agent's calls go
 * one at a time, each awaited, and each answer is timed from the moment it is fed to the
 * plugin's `server` operator until its frame comes out for the host, less the time the
 * plugin spent waiting for its own lookups.
 */
import { performance, PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics, GCProfiler } from "node:v8";
import { monotonicClock } from "../../lib/bus/clock.js";
import { frame, type Frame } from "../../lib/bus/frame.js";
import { Subject, tap, type Observable } from "../../lib/bus/rx.js";
import { answerMessage } from "../../lib/demo/answer.js";
import { emptyListing } from "../../lib/demo/worlds/listing.js";
import { retailWorld } from "../../lib/demo/worlds/retail.js";
import type { OwnAnswer, Plugin, PluginContext, PluginFactory } from "../../lib/bus/runtime/api.js";
import { jsonOf, line, responseOf } from "../../lib/bus/runtime/json-rpc.js";
import { SessionLog } from "../../lib/bus/runtime/session-log.js";
import { ServiceRegistry } from "../../lib/bus/runtime/services.js";
import { logHeader } from "../../lib/record/log-header.js";
import { sortedJson } from "../../lib/util/sorted-json.js";
import { parseFlow } from "../../lib/flow/ir/load-flow.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The published retail flow both latency benches serve (in the shared fixtures, beside the repository). */
export const PUBLISHED_FLOW = join(dirname(fileURLToPath(import.meta.url)), "../../../../shared/fixtures/flows/retail-5-sessions.flow.json");

/**
 * The published flow, and the flow reach is served: the same, or, when it has no reach
 * counts of its own, with its habit base as its reach counts. Undefined (and said) when the
 * fixtures are not there.
 */
export function publishedFlows(): { published: Flow; reachFlow: Flow; ownReach: boolean } | undefined {
  if (!existsSync(PUBLISHED_FLOW)) {
    console.log(`skipped: the published flow is not at ${PUBLISHED_FLOW}`);
    return undefined;
  }
  const text = readFileSync(PUBLISHED_FLOW, "utf8");
  const json = JSON.parse(text) as { reach?: unknown; habit: { base: unknown } };
  const published = parseFlow(text);
  const ownReach = json.reach !== undefined;
  return { published, reachFlow: ownReach ? published : parseFlow(JSON.stringify({ ...json, reach: json.habit.base })), ownReach };
}

export interface AgentCall {
  name: string;
  arguments: Record<string, string>;
}

/**
 * `n` calls shaped like retail conversations, by an agent that reads the flow's appendix
 * (it does not repeat what was looked up for it), three kinds of customer in turn:
 *
 * - gives an email: `find_user_id_by_email` (the flow looks up the user's details and both
 *   orders), `cancel_pending_order` (a write: no site, the flow hands back at once), then
 *   `get_order_details` of the cancelled order (the flow hands back: nothing left to pass);
 * - gives a user id: `get_user_details` (the flow looks up both orders),
 *   `cancel_pending_order`;
 * - mistypes the email: `find_user_id_by_email` answers `User not found` (the site
 *   `find_user_id_by_email (error)`, where nothing followed in training), then the right
 *   email (the flow looks up as for the first kind), `cancel_pending_order`.
 *
 * Eight calls per three customers; the flow looks something up after three of them.
 */
export function retailConversation(n: number): AgentCall[] {
  const calls: AgentCall[] = [];
  const cancel = (order: string): AgentCall => ({ name: "cancel_pending_order", arguments: { order_id: order, reason: "no longer needed" } });
  for (let k = 1; calls.length < n; k += 3) {
    const [a, b, c] = [k, k + 1, k + 2];
    calls.push(
      { name: "find_user_id_by_email", arguments: { email: `c${a}@example.com` } },
      cancel(`#W${a}a`),
      { name: "get_order_details", arguments: { order_id: `#W${a}a` } },
      { name: "get_user_details", arguments: { user_id: `user_${b}` } },
      cancel(`#W${b}b`),
      { name: "find_user_id_by_email", arguments: { email: `c${c}@example.org` } },
      { name: "find_user_id_by_email", arguments: { email: `c${c}@example.com` } },
      cancel(`#W${c}a`),
    );
  }
  return calls.slice(0, n);
}

export interface SessionFigures {
  /** Per agent call, in order: ms from feeding the answer to the plugin to its frame out, less lookup waits. */
  added: Float64Array;
  /**
   * Per agent call: the process's CPU time (ms, every thread) over the same spans. Time the
   * scheduler gave another process is not in it, so on a loaded machine it tells the
   * plugin's own work from the waits for a core that `added` also holds.
   */
  cpu: Float64Array;
  /** Per agent call: how many lookups the plugin made before the answer went on. */
  lookupsPerCall: Uint16Array;
  /** The plugin's own lookups over the session. */
  lookups: number;
  /** Their waits, summed (ms): from `request` until its answer was handed back. */
  lookupWaitMs: number;
  /** Answers that went to the host with an appendix (a frame the proxy composed). */
  appended: number;
  /** What the plugin said on stderr, with how often. */
  said: Map<string, number>;
  /** Lines the flow log was given. */
  flowLogLines: number;
  /** Bytes the session allocated on the JavaScript heap (its whole loop: plugin, log, in-process world). */
  allocated: number;
  /** Bytes allocated inside the measured spans (the plugin's own work), spans with a collection left out. */
  allocatedMeasured: number;
  spansWithCollection: number;
  /** The session's garbage collections, and those that began inside a measured span (with their ms). */
  collections: number;
  collectionsMeasured: number;
  collectionMsMeasured: number;
}

const heapUsed = (): number => getHeapStatistics().used_heap_size;
/** The process's CPU time so far (ms): `getrusage(RUSAGE_SELF)`, every thread of the process (V8's compiler and collector threads too). */
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * The bytes allocated between `start()` and `stop()`: what the heap held at each collection
 * less what the one before left, plus the growth after the last.
 */
function allocationMeter(): { stop(): { bytes: number; collections: number } } {
  const profiler = new GCProfiler();
  const startUsed = getHeapStatistics().used_heap_size;
  profiler.start();
  return {
    stop() {
      const endUsed = getHeapStatistics().used_heap_size;
      const { statistics } = profiler.stop();
      let bytes = 0;
      let left = startUsed;
      for (const gc of statistics) {
        bytes += gc.beforeGC.heapStatistics.usedHeapSize - left;
        left = gc.afterGC.heapStatistics.usedHeapSize;
      }
      return { bytes: bytes + endUsed - left, collections: statistics.length };
    },
  };
}

/** The session's flow log: lines are made (as with `--record`) and counted, not written to disk. */
export interface CountingSink {
  write(line: string): void;
  lines: number;
}

export function countingSink(): CountingSink {
  const sink = {
    lines: 0,
    write(_line: string) {
      sink.lines += 1;
    },
  };
  return sink;
}

/** Runs one session of `calls` through the plugin `factory` makes (none: the floor). */
export async function runSession(factory: PluginFactory | undefined, calls: readonly AgentCall[], sink?: CountingSink): Promise<SessionFigures> {
  const world = retailWorld(emptyListing());
  const clock = monotonicClock();
  const log = new SessionLog(
    logHeader({ session: "bench", startedUnixMs: clock.startedUnixMs, serverCommand: ["stretto-mcp-demo", "--world", "retail"], domain: "retail" }),
    undefined,
  );
  /** The demo server's answer to one line, as it writes it; undefined when it answers nothing. */
  const serverAnswer = (request: Buffer): Buffer | undefined => {
    const a = answerMessage(request.toString("utf8"), world);
    return a === undefined ? undefined : Buffer.from(`${sortedJson(a.message)}\n`);
  };

  let own = 0;
  let lookups = 0;
  let lookupWaitMs = 0;
  const said = new Map<string, number>();
  const services = new ServiceRegistry();
  const context: PluginContext = {
    clock,
    domain: "retail",
    session: "bench",
    hostSession: undefined,
    frames$: log.frames$,
    toClient: (bytes: Buffer) => log.add(frame("proxy", clock.now(), bytes)),
    // As `runActiveSession`: the line is logged and written to the server; the server's
    // answer arrives on a later turn of the event loop, is logged as it is read, and settles
    // the request. The whole span, until the answer is handed back, counts as the wait.
    request(method: string, params: unknown): Promise<OwnAnswer> {
      const asked = performance.now();
      closeSpan(asked);
      lookups += 1;
      const id = `stretto-${++own}`;
      const bytes = line({ jsonrpc: "2.0", id, method, params });
      log.add(frame("proxy", clock.now(), bytes));
      return new Promise<OwnAnswer>((resolve) => {
        setImmediate(() => {
          const f = frame("server", clock.now(), serverAnswer(bytes)!);
          log.add(f);
          const response = responseOf(f)!;
          const heapAtAnswer = heapUsed();
          const cpuAtAnswer = cpuNow();
          const answered = performance.now();
          lookupWaitMs += answered - asked;
          openSpan(answered, heapAtAnswer, cpuAtAnswer);
          resolve({ kind: "answer", response, frame: f });
        });
      });
    },
    nextOwnId: () => `stretto-${own + 1}`,
    log: (from, bytes) => log.add(frame(from, clock.now(), bytes)),
    episode: () => log.episode(),
    say: (m: string) => said.set(m, (said.get(m) ?? 0) + 1),
    serverOpen: () => true,
    provide: (key, service) => services.provide(key, service),
    service: (key) => services.get(key),
  };
  const plugin: Plugin | undefined = factory === undefined ? undefined : await factory(context);

  let fedAt = 0;
  let waitAtFeed = 0;
  // The measured spans (answer fed → frame out, less the lookups' waits), as [start, end] pairs, to tell which collections fell inside one.
  const spans: number[] = [];
  // The heap is read outside each span (before it opens, after it closes), so reading it adds
  // nothing to the time measured; a span with a collection in it is left out of the sum.
  let spanFrom = -1;
  let heapAtOpen = 0;
  let cpuAtOpen = 0;
  let cpuInSpans = 0;
  let spanAllocated = 0;
  let spansWithCollection = 0;
  const openSpan = (at: number, heap: number, cpu: number) => {
    spanFrom = at;
    heapAtOpen = heap;
    cpuAtOpen = cpu;
  };
  const closeSpan = (at: number) => {
    if (spanFrom < 0) return;
    cpuInSpans += cpuNow() - cpuAtOpen;
    spans.push(spanFrom, at);
    const grown = heapUsed() - heapAtOpen;
    if (grown >= 0) spanAllocated += grown;
    else spansWithCollection += 1;
    spanFrom = -1;
  };
  let outAt = 0;
  let delivered: ((f: Frame) => void) | undefined;

  const client$ = new Subject<Frame>();
  const server$ = new Subject<Frame>();
  const fromServer = (bytes: Buffer) => {
    const f = frame("server", clock.now(), bytes);
    plugin?.sees?.(f);
    log.add(f);
    waitAtFeed = lookupWaitMs;
    const heap = heapUsed();
    const cpu = cpuNow();
    fedAt = performance.now();
    openSpan(fedAt, heap, cpu);
    server$.next(f);
  };
  const toServer = (f: Frame) => {
    const answer = serverAnswer(f.bytes);
    if (answer !== undefined) setImmediate(() => fromServer(answer));
  };
  const toHost = (f: Frame) => {
    outAt = performance.now();
    closeSpan(outAt);
    const d = delivered;
    delivered = undefined;
    d?.(f);
  };
  // Lines a plugin composed are logged as the proxy's before they go on, as in active mode.
  const logComposed = tap((f: Frame) => {
    if (f.from === "proxy") log.add(f);
  });
  const via = (s: Observable<Frame>, op: Plugin["client"]) => (op === undefined ? s : s.pipe(op));
  via(client$, plugin?.client).subscribe(toServer);
  via(server$, plugin?.server).pipe(logComposed).subscribe(toHost);

  /** The agent sends one request and waits for its answer. */
  const ask = (message: { id: number; method: string; params?: unknown }): Promise<Frame> =>
    new Promise<Frame>((resolve) => {
      delivered = resolve;
      const f = frame("client", clock.now(), line({ jsonrpc: "2.0", ...message }));
      plugin?.sees?.(f);
      log.add(f);
      client$.next(f);
    });

  await ask({ id: 1, method: "tools/list" });
  const gcs: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push(e.startTime, e.duration);
  });
  observer.observe({ entryTypes: ["gc"] });
  const meter = allocationMeter();
  spanAllocated = 0;
  spansWithCollection = 0;
  spans.length = 0;
  const added = new Float64Array(calls.length);
  const cpu = new Float64Array(calls.length);
  const lookupsPerCall = new Uint16Array(calls.length);
  let appended = 0;
  for (let i = 0; i < calls.length; i++) {
    const id = i + 2;
    const before = lookups;
    const cpuBefore = cpuInSpans;
    const out = await ask({ id, method: "tools/call", params: calls[i] });
    added[i] = outAt - fedAt - (lookupWaitMs - waitAtFeed);
    cpu[i] = cpuInSpans - cpuBefore;
    lookupsPerCall[i] = lookups - before;
    const answered = (jsonOf(out) as { id?: unknown } | undefined)?.id;
    if (answered !== id) throw new Error(`call ${id} was answered with id ${JSON.stringify(answered)}`);
    if (out.from === "proxy") appended += 1;
  }
  const allocation = meter.stop();
  // The observer is told of collections on a later turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();
  let collectionsMeasured = 0;
  let collectionMsMeasured = 0;
  for (let g = 0; g < gcs.length; g += 2) {
    const at = gcs[g]!;
    for (let k = 0; k < spans.length; k += 2) {
      if (at >= spans[k]! && at <= spans[k + 1]!) {
        collectionsMeasured += 1;
        collectionMsMeasured += gcs[g + 1]!;
        break;
      }
    }
  }
  client$.complete();
  server$.complete();
  log.end();
  return {
    added,
    cpu,
    lookupsPerCall,
    lookups,
    lookupWaitMs,
    appended,
    said,
    flowLogLines: sink?.lines ?? 0,
    allocated: allocation.bytes,
    allocatedMeasured: spanAllocated,
    spansWithCollection,
    collections: allocation.collections,
    collectionsMeasured,
    collectionMsMeasured,
  };
}
