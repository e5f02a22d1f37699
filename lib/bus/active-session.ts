import { tap, type Observable, type OperatorFunction } from "./rx.js";
import type { ExitStatus } from "./server-port.js";
import type { PluginContext, PluginFactory, OwnAnswer, Plugin } from "./runtime/api.js";
import { line, responseOf } from "./runtime/json-rpc.js";
import { ServiceRegistry } from "./runtime/services.js";
import { OwnRequests } from "./runtime/own-requests.js";
import { SessionLog } from "./runtime/session-log.js";
import { EpisodeReaders } from "./runtime/episode-readers.js";
import { wholeLines } from "./runtime/whole-lines.js";
import { decide } from "./runtime/decide.js";
import type { LogHeader } from "../trace/log-types.js";
import { CHECKED, ON_HANDLED, PARSED, REFUSAL, frame, type Frame, type Handled } from "./frame.js";
import { BatchAnswers } from "./batch-answers.js";
import { refuseUnreadable } from "./refuse-unreadable.js";
import { checkOf, composedValue, messagesOf } from "./runtime/json-rpc.js";
import { OWN_ID_PREFIX } from "./runtime/own-requests.js";
import { sessionBus, type SessionIo } from "./session.js";
import { errorText } from "../util/error-text.js";
import { isObject } from "../util/is-object.js";
import type { WireMessage } from "../protocol/line-check.js";

/** The own ids' prefix as bytes, to look for in a line without decoding it. */
const OWN_ID_BYTES = Buffer.from(OWN_ID_PREFIX);

export interface ActiveSetup {
  plugins: PluginFactory[];
  header: LogHeader;
  /** Told how each host line was handled (replay waits on it rather than on the clock). */
  watch?: SessionWatch;
  /** Keep the whole Episode whatever the plugins read (the plugin test kit returns it). */
  wholeEpisode?: boolean;
}

export interface SessionWatch {
  /** Host line `line` (numbered from 1 in the order read) went on to the server, or was kept back. */
  handled(line: number, how: Handled): void;
}

/**
 * Active mode: lines pass through the plugins' operators on their way, in order. What no
 * plugin acts on goes through byte for byte, as in passive mode. Each line is logged as it
 * is read (client, server), or as a plugin composes it (proxy, context).
 */
export async function runActiveSession(io: SessionIo, setup: ActiveSetup): Promise<ExitStatus> {
  const bus = sessionBus(io);
  const log = new SessionLog(setup.header, io.recorder);
  const own = new OwnRequests();
  const batches = new BatchAnswers();
  let serverOpen = true;
  const sendToClient = (bytes: Buffer) => bus.toClient.write(bytes);

  const composed = (bytes: Buffer, refusal = false) => {
    const f = frame("proxy", io.clock.now(), bytes);
    // A tool answer a plugin made comes with the value it reads as (`composedValue`).
    f[PARSED] = composedValue(bytes);
    if (refusal) f[REFUSAL] = true;
    return f;
  };
  const services = new ServiceRegistry();
  const context: PluginContext = {
    clock: io.clock,
    domain: setup.header.domain ?? undefined,
    session: setup.header.session,
    hostSession: setup.header.host_session,
    frames$: log.frames$,
    toClient(bytes, kind) {
      log.add(composed(bytes, kind === "refusal"));
      // An answer to part of a host batch waits for the rest: one batch, one answer.
      if (batches.pending && batches.fromProxy(bytes, sendToClient)) return;
      bus.toClient.write(bytes);
    },
    request(method, params, options): Promise<OwnAnswer> {
      if (!serverOpen) return Promise.resolve({ kind: "no-answer", why: "server-gone" });
      const { id, answer } = own.open(options?.patienceMs);
      const bytes = line({ jsonrpc: "2.0", id, method, params });
      log.add(composed(bytes));
      bus.toServer.write(bytes);
      return answer;
    },
    nextOwnId: () => own.peekId(),
    log: (from, bytes) => log.add(frame(from, io.clock.now(), bytes)),
    episode: () => log.episode(),
    followEpisode: (follower) => log.follow(follower),
    followTurns: (follower) => log.followTurns(follower),
    say: io.report,
    serverOpen: () => serverOpen,
    provide: (key, service) => services.provide(key, service),
    service: (key) => services.get(key),
  };
  const plugins: Plugin[] = [];
  // The Episode keeps its history only while a plugin reads it whole (docs/session-memory.md).
  const readers = new EpisodeReaders(log, setup.wholeEpisode === true);
  for (const factory of setup.plugins) plugins.push(await factory(readers.contextFor(context, plugins.length)));
  readers.settle(plugins);

  // Lines a plugin composed are logged as the proxy's, just before they are sent. A line the
  // transport composed (an HTTP error answer) is the proxy's too, but was logged as it was read.
  const readAsProxy = new WeakSet<Frame>();
  const logComposed = tap((f: Frame) => {
    if (f.from === "proxy" && !readAsProxy.has(f)) log.add(f);
  });
  // Guard mode fails closed: every host line is checked before anything acts on it, and
  // one that fails is logged as raw text (the log shows what was sent, not a reading of it).
  const failClosed = plugins.some((p) => p.judgesHostLines === true);
  const watch = setup.watch;
  let hostLines = 0;
  const seen = (f: Frame) => {
    if (watch !== undefined && f.from === "client") f[ON_HANDLED] = onHandled(watch, ++hostLines);
    if (failClosed && f.from === "client") checkOf(f);
    for (const p of plugins) p.sees?.(f);
    log.add(f, f[CHECKED]?.ok === false);
  };
  /** Whether a host line may go on: one that failed the check is answered here instead. */
  const admitted = (f: Frame): boolean => {
    const check = f[CHECKED];
    if (check === undefined || check.ok) return true;
    refuseUnreadable(check, context);
    f[ON_HANDLED]?.("withheld");
    return false;
  };
  // Host batches are registered so their answers can be joined; a host request reusing an
  // own id still in flight waits for it, so no answer goes to the wrong asker.
  const hostIds = decide((f: Frame) => {
    const check = f[CHECKED];
    if (check?.ok && check.batch) batches.hostBatch(check.messages);
    else if (!failClosed && f.bytes[0] === 0x5b /* [ */) {
      const messages = messagesOf(f);
      if (messages && messages.length > 0) batches.hostBatch(messages);
    }
    // A checked line with no request of a string id has nothing to wait for: no need to search its bytes.
    if ((check?.ok === true && !check.messages.some(isStringIdRequest)) || !f.bytes.includes(OWN_ID_BYTES)) return [f];
    const waits: Promise<void>[] = [];
    for (const m of messagesOf(f) ?? []) {
      if (!isStringIdRequest(m)) continue;
      const wait = own.hostRequest(JSON.parse(m.idText!) as string);
      if (wait) waits.push(wait);
    }
    return waits.length === 0 ? [f] : Promise.all(waits).then(() => [f]);
  });

  const hostEnded = () => {
    for (const p of plugins) p.hostEnded?.();
  };
  const client$ = chain(
    bus.client$.pipe(
      wholeLines({
        each: (f) => {
          seen(f);
          return admitted(f);
        },
        ended: hostEnded,
      }),
      hostIds,
    ),
    plugins.map((p) => p.client),
  ).pipe(
    logComposed,
  );
  const server$ = chain(
    bus.server$.pipe(
      wholeLines({
        each: (f) => {
          if (f.from === "proxy") readAsProxy.add(f);
          seen(f);
          // Answers to the proxy's own requests go to the plugin that asked, never to the host.
          const r = mayAnswerOwn(f) ? responseOf(f) : undefined;
          return !(r && own.settle(r, f));
        },
      }),
    ),
    plugins.map((p) => p.server),
  ).pipe(logComposed);

  const serverDone = new Promise<void>((resolve) => {
    server$.subscribe({
      next: (f) => {
        if (batches.pending && batches.fromServer(f.bytes, sendToClient)) return;
        bus.toClient.next(f);
      },
      error: (e: unknown) => {
        io.report(`a plugin failed: ${errorText(e)}`);
        resolve();
      },
      complete: () => resolve(),
    });
  });
  const clientSubscription = client$.subscribe({
      next: (f) => {
        bus.toServer.next(f);
        f[ON_HANDLED]?.("forwarded");
      },
      error: (e: unknown) => {
        io.report(`a plugin failed: ${errorText(e)}`);
        serverOpen = false;
        bus.toServer.complete();
      },
      complete: () => {
        serverOpen = false;
        bus.toServer.complete();
      },
    });

  await serverDone;
  serverOpen = false;
  own.abandonAll();
  batches.flush(sendToClient);
  const status = await io.server.exited;
  bus.toClient.complete();
  await bus.toClient.done;
  clientSubscription.unsubscribe();
  log.end();
  await io.recorder?.finish();
  return status;
}

/** Whether a message is a request whose id is a string (only such a host request may reuse an own id). */
function isStringIdRequest(m: WireMessage): boolean {
  return m.method !== undefined && m.idText !== undefined && m.idText.startsWith('"');
}

/**
 * Whether a server line may answer one of the proxy's own requests: its bytes hold an own
 * id. A line already read (the Episode reads most answers) that is no response with a string
 * id answers none, and is not searched.
 */
function mayAnswerOwn(f: Frame): boolean {
  const v = f[PARSED];
  if (v !== undefined && !(isObject(v) && typeof v["id"] === "string")) return false;
  return f.bytes.includes(OWN_ID_BYTES);
}

/** The callback a watched host line carries: it reports the first way the line was handled. */
function onHandled(watch: SessionWatch, line: number): (how: Handled) => void {
  let told = false;
  return (how) => {
    if (told) return;
    told = true;
    watch.handled(line, how);
  };
}

function chain(source: Observable<Frame>, operators: Array<OperatorFunction<Frame, Frame> | undefined>): Observable<Frame> {
  return operators.reduce<Observable<Frame>>((s, op) => (op ? s.pipe(op) : s), source);
}
