import { PassThrough, Writable } from "node:stream";
import { runActiveSession } from "../bus/active-session.js";
import type { Clock } from "../bus/clock.js";
import type { PluginContext, PluginFactory } from "../bus/runtime/api.js";
import { logHeader } from "../record/log-header.js";
import type { Episode } from "../trace/episode-types.js";
import type { LogEntry } from "../trace/log-types.js";
import { isConversationStep, stepLines, TestConversation, type ConversationStep } from "./conversation.js";
import { answeredIds, bytesOf, LineBuffer, requestIds, seenOf, type ScriptLine, type SeenLine } from "./lines.js";
import { MemoryRecorder } from "./memory-recorder.js";
import { MemoryServer, type ServerScript } from "./memory-server.js";
import { Signal } from "./signal.js";

/** How long the kit waits for one thing (an answer, the session's end) before it fails. */
export const DEFAULT_TIMEOUT_MS = 2000;

/** One step of the host: a line it sends, or lines it appends to its conversation file (`conversationSays`). */
export type HostStep = ScriptLine | ConversationStep;

export interface RunPluginsOptions {
  /** The plugins under test, in chain order, made as `--plugin` makes them. */
  plugins: readonly PluginFactory[];
  /** What the host sends, in order. */
  host: readonly HostStep[];
  /** How the server answers each message it gets; without it, the server never answers. */
  server?: ServerScript;
  /** `--domain`. */
  domain?: string;
  /**
   * Lines the host's conversation file holds when the session starts. Given (or with a
   * `conversationSays` step in `host`), the real context plugin reads the file, first in the
   * chain, as `--context FILE` does: the CONVERSATION service works and the lines are
   * logged as `context` entries before each tool call.
   */
  conversation?: readonly ScriptLine[];
  /** The session id (default `"kit"`). */
  session?: string;
  /** The host session (`STRETTO_SESSION`), if the plugin cares. */
  hostSession?: string;
  /**
   * True (the default): the host waits for the answer to each request before it sends the
   * next line, as an agent does; notifications and answers go at once. False: every line
   * is sent at once, then the host's input ends.
   */
  sequential?: boolean;
  /** Real milliseconds the kit waits for one answer, or for the session to end (default 2000). */
  timeoutMs?: number;
  /**
   * What a sequential host does when a request gets no answer in `timeoutMs`: `"fail"` (the
   * default: `runPlugins` rejects with a `KitTimeout` naming the request) or `"go-on"` (it
   * sends its next line, as a host that gave up waiting).
   */
  onNoAnswer?: "fail" | "go-on";
}

export interface PluginRun {
  /** Every line the host got, in order: JSON values, or the text of a line that is not JSON. */
  toHost: SeenLine[];
  /** Every line the server got, in order, likewise. */
  toServer: SeenLine[];
  /** The session log, entry by entry, as the recorder writes it (`message`, or `raw`). */
  log: LogEntry[];
  /** What the plugins and the proxy said on stderr (without the `stretto-proxy:` prefix). */
  said: string[];
  /** The session's Episode at its end. */
  episode: Episode;
}

/** `runPlugins` waited `timeoutMs` in vain; `run` holds what happened until then. */
export class KitTimeout extends Error {
  constructor(
    message: string,
    readonly run: Omit<PluginRun, "episode">,
  ) {
    super(message);
    this.name = "KitTimeout";
  }
}

/**
 * Runs plugins through the proxy's own active session (the same ordering, logging, own
 * requests and batch handling as live), with the host and the server in memory, a fake
 * clock (0 at the start, 1 ms more before each host line) and the log kept in memory.
 */
export async function runPlugins(options: RunPluginsOptions): Promise<PluginRun> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sequential = options.sequential ?? true;
  const signal = new Signal();
  const said: string[] = [];
  const toHost: SeenLine[] = [];
  let failure: Error | undefined;

  const hostIn = new PassThrough();
  const hostLines = new LineBuffer();
  const hostOut = new Writable({
    write: (chunk: Buffer, _enc, cb) => {
      for (const l of hostLines.push(chunk)) toHost.push(seenOf(l));
      signal.notify();
      cb();
    },
  });
  const server = new MemoryServer(options.server ?? (() => undefined), (err, m) => {
    failure ??= new Error(`runPlugins: the server script threw on ${JSON.stringify(m)}: ${err.message}`);
    signal.notify();
  });
  const recorder = new MemoryRecorder();
  let t = 0;
  const clock: Clock = { now: () => t, startedUnixMs: 0 };

  const wantsConversation = options.conversation !== undefined || options.host.some(isConversationStep);
  const conversation = wantsConversation ? new TestConversation(options.conversation ?? []) : undefined;
  let context: PluginContext | undefined;
  const observer: PluginFactory = (session) => {
    context = session;
    return { name: "test-kit" };
  };
  const plugins = [...(conversation ? [conversation.plugin()] : []), ...options.plugins, observer];
  const header = logHeader({
    session: options.session ?? "kit",
    startedUnixMs: 0,
    serverCommand: ["stretto-proxy/testing"],
    domain: options.domain,
    hostSession: options.hostSession,
  });

  let ended = false;
  const done = runActiveSession(
    { hostIn, hostOut, server, clock, recorder, report: (m) => said.push(m) },
    // The run returns the whole Episode, so it is kept whatever the plugins read.
    { plugins, header, wholeEpisode: true },
  ).finally(() => {
    ended = true;
    signal.notify();
  });
  done.catch(() => {}); // awaited below; a setup error is thrown from there

  const sofar = () => ({ toHost, toServer: server.received, log: recorder.entries, said });
  /** Waits until `ready()`; false when the session ended first; a KitTimeout after `timeoutMs`. */
  const until = async (ready: () => boolean, what: string): Promise<boolean> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (failure) throw failure;
      if (ready()) return true;
      if (ended) return false;
      const left = deadline - Date.now();
      if (left <= 0) throw new KitTimeout(`runPlugins: ${what}; waited ${timeoutMs} ms (timeoutMs)`, sofar());
      await signal.wait(left);
    }
  };
  const clientLinesLogged = () => recorder.entries.filter((e) => e.from === "client").length;

  try {
    let sent = 0;
    for (const step of options.host) {
      if (ended) break;
      if (isConversationStep(step)) {
        // The customer speaks after the host's lines so far were read, never before.
        await until(() => clientLinesLogged() >= sent, "the session did not read the host's lines before a conversation step");
        conversation?.append(stepLines(step));
        continue;
      }
      t += 1;
      const bytes = bytesOf(step);
      const value = seenOf(bytes);
      const ids = sequential ? requestIds(value) : [];
      const from = toHost.length;
      hostIn.write(bytes);
      sent++;
      if (ids.length === 0) continue;
      const answered = () => {
        const got = new Set<string>();
        for (const l of toHost.slice(from)) for (const id of answeredIds(l)) got.add(id);
        // An error without an id answers a line the proxy could not read.
        return ids.every((id) => got.has(id)) || got.has("null");
      };
      try {
        await until(answered, `no answer to the host's request ${requestsText(value)} came (answer it in the server script, or set onNoAnswer: "go-on" or sequential: false)`);
      } catch (e) {
        if (!(e instanceof KitTimeout) || options.onNoAnswer !== "go-on") throw e;
      }
    }
    hostIn.end();
    await until(() => false, "the session did not end after the host's last line (a plugin still holds a line, or awaits the answer to its own request: give it a shorter patience)");
  } catch (e) {
    // Stop the session, so nothing of it outlives the test.
    hostIn.end();
    server.end();
    await Promise.race([done.catch(() => {}), new Promise((r) => setTimeout(r, 100).unref())]);
    conversation?.remove();
    throw e;
  }
  try {
    await done;
  } finally {
    conversation?.remove();
  }
  if (failure) throw failure;
  if (!context) throw new Error("runPlugins: the session never set up its plugins");
  return { ...sofar(), episode: context.episode() };
}

/** The requests of a host line, for a message: `1 (tools/call get_order_details)`. */
function requestsText(value: SeenLine): string {
  const messages = (Array.isArray(value) ? value : [value]) as Array<{ id?: unknown; method?: unknown; params?: { name?: unknown } }>;
  return messages
    .filter((m) => typeof m?.method === "string" && m.id !== undefined)
    .map((m) => `${JSON.stringify(m.id)} (${String(m.method)}${typeof m.params?.name === "string" ? ` ${m.params.name}` : ""})`)
    .join(", ");
}
