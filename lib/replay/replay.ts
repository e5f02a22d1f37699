import { PassThrough, Writable } from "node:stream";

import { runActiveSession } from "../bus/active-session.js";
import type { Clock } from "../bus/clock.js";
import type { Frame } from "../bus/frame.js";
import type { PluginContext, PluginFactory } from "../bus/runtime/api.js";
import { isRequest, isResponse } from "../bus/runtime/json-rpc.js";
import { OWN_ID_PREFIX } from "../bus/runtime/own-requests.js";
import type { LogEntry, McpLog } from "../trace/log-types.js";
import { actionOf, type ReplayAction } from "./actions.js";
import { LogServer } from "./log-server.js";
import { isErrorAnswer } from "../transport/http/errors.js";

export interface ReplayOptions {
  /** The built-in and user plugins, made exactly as the live proxy makes them. */
  plugins: PluginFactory[];
  /** Feed the log's own `context` entries (when no --context file stands in for them). */
  useLoggedContext: boolean;
  onAction: (a: ReplayAction) => void;
  say?: (message: string) => void;
}

/**
 * Replays a recorded session through the same plugins and the same active session as the
 * live proxy: the host's lines come from the log, and so do the server's, played in the
 * recorded order (each host line waits until the lines before it have been handled). A
 * server answer to a request the plugins now withhold is not played.
 */
export async function replay(log: McpLog, options: ReplayOptions): Promise<void> {
  const server = new LogServer(log.entries);
  const hostIn = new PassThrough();
  const hostOut = new Writable({ write: (_c, _e, cb) => cb() });
  const requests = new Map<string, { method: string; tool: string | null }>();
  const serverAnswered = new Set<string>();
  const proxyAnswered = new Set<string>();
  let ownAsked = 0;
  let session: PluginContext | undefined;
  let seen = 0;

  const observer: PluginFactory = (ctx) => {
    session = ctx;
    ctx.frames$.subscribe((f: Frame) => {
      if (f.from === "client" || f.from === "server") seen++;
      if (f.from !== "proxy") return;
      const a = actionOf(f, requests, (id) => serverAnswered.has(JSON.stringify(id)));
      if (a?.action === "looked_up") ownAsked++;
      else if (a && "id" in a) proxyAnswered.add(JSON.stringify(a.id));
      if (a) options.onAction(a);
    });
    return { name: "replay-observer" };
  };

  let t = 0;
  const clock: Clock = { now: () => t, startedUnixMs: log.header.started_unix_ms };
  const done = runActiveSession(
    { hostIn, hostOut, server, clock, recorder: undefined, report: options.say ?? (() => {}) },
    { plugins: [...options.plugins, observer], header: log.header },
  );
  while (session === undefined) await tick();

  for (const e of log.entries) {
    t = Math.max(t, e.t_ms);
    const played = play(e, server, hostIn, session, options, requests, serverAnswered);
    if (played) {
      const target = seen + 1;
      await waitUntil(() => seen >= target);
    }
    // A host request is handled once it reached the server, the proxy answered it (a
    // refusal), or the proxy asked the server something for it (a commit's first call).
    const id = e.from === "client" && isRequest(e.message) ? e.message.id : undefined;
    const asked = ownAsked;
    if (id !== undefined) await waitUntil(() => server.got(id) || proxyAnswered.has(JSON.stringify(id)) || ownAsked > asked);
    await settle();
  }
  hostIn.end();
  await settle();
  await waitUntil(() => server.input.writableFinished || server.input.writableEnded);
  server.end();
  await done;
}

/** Puts one recorded line where it belongs; true if the session will read it. */
function play(
  e: LogEntry,
  server: LogServer,
  hostIn: PassThrough,
  session: PluginContext,
  options: ReplayOptions,
  requests: Map<string, { method: string; tool: string | null }>,
  serverAnswered: Set<string>,
): boolean {
  const bytes = e.message !== undefined ? Buffer.from(`${JSON.stringify(e.message)}\n`) : rawLine(e.raw ?? "");
  // The HTTP transport's error answers are logged as the proxy's but came in the server's
  // place (an unreachable or refusing server): the replay's server gives them again.
  switch (e.from === "proxy" && isErrorAnswer(e.message) ? "server" : e.from) {
    case "client": {
      for (const m of Array.isArray(e.message) ? e.message : [e.message]) {
        if (isRequest(m)) {
          const params = m.params as { name?: unknown } | undefined;
          requests.set(JSON.stringify(m.id), { method: m.method, tool: typeof params?.name === "string" ? params.name : null });
        }
      }
      hostIn.write(bytes);
      return true;
    }
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

function tick(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

/** Lets the session handle what was just played (decisions, own requests and answers). */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await tick();
}

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !condition(); i++) await tick();
}

