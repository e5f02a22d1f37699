import { PassThrough, Writable } from "node:stream";

import { runActiveSession, type SessionWatch } from "../bus/active-session.js";
import type { Clock } from "../bus/clock.js";
import type { Frame, Handled } from "../bus/frame.js";
import type { PluginContext, PluginFactory } from "../bus/runtime/api.js";
import { isRequest, isResponse } from "../bus/runtime/json-rpc.js";
import { OWN_ID_PREFIX } from "../bus/runtime/own-requests.js";
import type { LogEntry, McpLog } from "../trace/log-types.js";
import { actionOf, type ReplayAction } from "./actions.js";
import { LogServer } from "./log-server.js";
import { isErrorAnswer } from "../transport/http/errors.js";
import { Progress } from "./progress.js";

export interface ReplayOptions {
  /** The built-in and user plugins, made exactly as the live proxy makes them. */
  plugins: PluginFactory[];
  /** Feed the log's own `context` entries (when no --context file stands in for them). */
  useLoggedContext: boolean;
  onAction: (a: ReplayAction) => void;
  say?: (message: string) => void;
  /** How long the session may do nothing while the replay waits on it (30 s). */
  quietLimitMs?: number;
}

/**
 * Replays a recorded session through the same plugins and the same active session as the
 * live proxy: the host's lines come from the log, and so do the server's, played in the
 * recorded order. Each step waits for what the live session reports, never for time: a
 * host line goes in once the answers the host had by then in the recording are settled,
 * and the next entry waits until the plugins say how they handled it (forwarded, or kept
 * back: answered, refused, taken over). A server answer to a request the plugins now
 * withhold is not played. The same log and plugins give the same actions, however busy
 * the machine.
 */
export async function replay(log: McpLog, options: ReplayOptions): Promise<void> {
  const server = new LogServer(log.entries);
  const progress = new Progress(options.quietLimitMs);
  const hostIn = new PassThrough();
  const answered = new HostAnswers(() => progress.changed());
  const requests = new Map<string, { method: string; tool: string | null }>();
  const serverAnswered = new Set<string>();
  const answeredInLog = serverAnswersIn(log.entries);
  /** How each host line was handled, by its number (from 1, in the order written). */
  const handled = new Map<number, Handled>();
  /** Each host request id's line, and how many own requests had been asked before it. */
  const lineOf = new Map<string, { line: number; askedBefore: number }>();
  let ownAsked = 0;
  let session: PluginContext | undefined;
  let seen = 0;

  const observer: PluginFactory = (ctx) => {
    session = ctx;
    ctx.frames$.subscribe((f: Frame) => {
      if (f.from === "client" || f.from === "server") seen++;
      if (f.from === "proxy") {
        const a = actionOf(f, requests, (id) => serverAnswered.has(JSON.stringify(id)));
        if (a?.action === "looked_up") ownAsked++;
        if (a) options.onAction(a);
      }
      progress.changed();
    });
    progress.changed();
    return { name: "replay-observer" };
  };

  let t = 0;
  const clock: Clock = { now: () => t, startedUnixMs: log.header.started_unix_ms };
  /** Host lines the session sent on; each is there once the replay's server has read it. */
  let forwarded = 0;
  const forwardedAs = new Map<number, number>();
  const watch: SessionWatch = {
    handled: (line, how) => {
      handled.set(line, how);
      if (how === "forwarded") forwardedAs.set(line, ++forwarded);
      progress.changed();
    },
  };
  server.onLine = () => progress.changed();
  /** The plugins have handled host line `line`, and if they sent it on, the server has it. */
  const lineDone = (line: number): boolean => {
    const nth = forwardedAs.get(line);
    return handled.has(line) && (nth === undefined || server.hostLines >= nth);
  };
  server.input.on("finish", () => progress.changed());
  const done = runActiveSession(
    { hostIn, hostOut: answered.sink, server, clock, recorder: undefined, report: options.say ?? (() => {}) },
    { plugins: [...options.plugins, observer], header: log.header, watch },
  );
  void done.then(
    () => progress.end(),
    () => progress.end(),
  );
  await progress.until(() => session !== undefined, "the plugins to start");

  /**
   * Whether the replay has done all it will for a host request the log shows answered: the
   * host got an answer, or none is coming — it went to the server, whose answer the log does
   * not hold, or the plugins kept it and nobody asks the server anything for it.
   */
  const settled = (key: string): boolean => {
    if (answered.has(key)) return true;
    const sent = lineOf.get(key);
    if (sent === undefined) return true;
    const how = handled.get(sent.line);
    if (how === undefined) return false;
    if (how === "forwarded") return !answeredInLog.has(key);
    return ownAsked === sent.askedBefore;
  };
  /** Host requests the log shows answered so far: the host had those answers before it went on. */
  const expected = new Set<string>();
  let hostLines = 0;

  for (const e of log.entries) {
    t = Math.max(t, e.t_ms);
    if (e.from === "client") {
      await progress.until(() => [...expected].every(settled), "the answers the host had before its next line");
      for (const m of Array.isArray(e.message) ? e.message : [e.message]) {
        if (!isRequest(m)) continue;
        const key = JSON.stringify(m.id);
        const params = m.params as { name?: unknown } | undefined;
        requests.set(key, { method: m.method, tool: typeof params?.name === "string" ? params.name : null });
        lineOf.set(key, { line: hostLines + 1, askedBefore: ownAsked });
      }
      const line = ++hostLines;
      hostIn.write(hostBytes(e));
      await progress.until(() => lineDone(line), `the plugins to handle host line ${line}`);
      continue;
    }
    for (const key of hostAnswerKeys(e)) expected.add(key);
    // Counted before it is played: a line can reach the plugins while it is being written.
    const target = seen + 1;
    if (play(e, server, session!, options, serverAnswered)) {
      await progress.until(() => seen >= target, "a recorded server line to reach the plugins");
    }
  }
  await progress.until(() => [...expected].every(settled), "the last answers the log shows");
  hostIn.end();
  await progress.until(() => server.input.writableFinished, "the session to close the server's input");
  server.end();
  await done;
}

/** The ids (as JSON) of host requests a log entry answers: a response from the server or the proxy. */
function hostAnswerKeys(e: LogEntry): string[] {
  if (e.from !== "server" && e.from !== "proxy") return [];
  const keys: string[] = [];
  for (const m of Array.isArray(e.message) ? e.message : [e.message]) {
    if (!isResponse(m)) continue;
    if (typeof m.id === "string" && m.id.startsWith(OWN_ID_PREFIX)) continue;
    keys.push(JSON.stringify(m.id));
  }
  return keys;
}

/** The host request ids (as JSON) the log holds a server answer for. */
function serverAnswersIn(entries: readonly LogEntry[]): Set<string> {
  const out = new Set<string>();
  for (const e of entries) if (e.from === "server") for (const k of hostAnswerKeys(e)) out.add(k);
  return out;
}

/** A recorded line as the bytes the host or server wrote. */
function hostBytes(e: LogEntry): Buffer {
  return e.message !== undefined ? Buffer.from(`${JSON.stringify(e.message)}\n`) : rawLine(e.raw ?? "");
}

/** What the replay's host receives: the ids it got answers for, read off each line. */
class HostAnswers {
  private readonly ids = new Set<string>();
  private pending = "";
  readonly sink: Writable;

  constructor(onAnswer: () => void) {
    this.sink = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        const text = this.pending + chunk.toString("utf8");
        const lines = text.split("\n");
        this.pending = lines.pop() ?? "";
        for (const l of lines) this.read(l);
        onAnswer();
        cb();
      },
    });
  }

  has(key: string): boolean {
    return this.ids.has(key);
  }

  private read(text: string): void {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return;
    }
    for (const m of Array.isArray(v) ? v : [v]) {
      if (isResponse(m)) this.ids.add(JSON.stringify(m.id));
    }
  }
}

/** Puts one recorded line where it belongs; true if the session will read it. */
function play(e: LogEntry, server: LogServer, session: PluginContext, options: ReplayOptions, serverAnswered: Set<string>): boolean {
  const bytes = hostBytes(e);
  // The HTTP transport's error answers are logged as the proxy's but came in the server's
  // place (an unreachable or refusing server): the replay's server gives them again.
  switch (e.from === "proxy" && isErrorAnswer(e.message) ? "server" : e.from) {
    case "client":
      return false; // the conductor writes host lines itself
    case "server": {
      const m = e.message;
      if (isResponse(m)) {
        if (typeof m.id === "string" && m.id.startsWith(OWN_ID_PREFIX)) return server.releaseOwn(m.id, m);
        if (!server.got(m.id)) return false; // the plugins kept its request from the server
        serverAnswered.add(JSON.stringify(m.id));
      }
      server.say(bytes);
      return true;
    }
    case "context":
      if (options.useLoggedContext) session.log("context", bytes);
      return false;
    case "proxy":
      return false; // what the proxy did then is what this replay recomputes
  }
}

/**
 * A line logged as `raw`, as bytes again. The log holds U+FFFD where the line had bytes
 * that were not UTF-8; they become such a byte again (0xFF), so a check that refused the
 * line live for its encoding refuses it in the replay too.
 */
function rawLine(raw: string): Buffer {
  const pieces = raw.split("\ufffd").map((p) => Buffer.from(p, "utf8"));
  const parts: Buffer[] = [];
  pieces.forEach((p, i) => {
    if (i > 0) parts.push(INVALID_BYTE);
    parts.push(p);
  });
  parts.push(NEWLINE);
  return Buffer.concat(parts);
}
const INVALID_BYTE = Buffer.from([0xff]);
const NEWLINE = Buffer.from("\n");
