import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { checkAccess } from "./access.js";
import { endpointUrl, isLoopback, needsTokenText, type ListenAddress } from "./address.js";
import { readBody } from "./body.js";
import { HostHttpSession } from "./host-session.js";
import { readMessages, type HostMessage } from "./messages.js";
import { isRefusal, refuse, sendRefusal, TEXT, type Refusal } from "./refusal.js";

/** The most sessions open at once. */
export const MAX_SESSIONS = 64;
/** How long a stop waits for the sessions' servers to go. */
export const STOP_GRACE_MS = 10_000;
/** The first revision without `initialize` or session ids. */
const MODERN = "2026-07-28";

export interface ListenOptions {
  address: ListenAddress;
  token?: string | undefined;
  /** A session with no request and no open stream for this long ends. */
  idleMs: number;
  /** A POST body must arrive within this long. */
  bodyDeadlineMs: number;
  report: (message: string) => void;
  /**
   * Runs one session's proxy core (its own server, log and plugins) on the session's host
   * transport. Resolves, once its server is gone, with why the session ended from that side.
   */
  startSession: (session: HostHttpSession) => Promise<string>;
}

/**
 * `stretto-proxy --listen`: hosts over Streamable HTTP at `/mcp`, each MCP session with a
 * proxy core of its own. node:http only: the checks, the limits and the routing are the
 * protocol's, written out here where they can be read.
 */
export class ListenServer {
  private readonly sessions = new Map<string, HostHttpSession>();
  /** 2026-07-28 hosts have no session id: their sessions are found by `Stretto-Session`. */
  private readonly sessionless = new Map<string, HostHttpSession>();
  private readonly running = new Set<Promise<unknown>>();
  private opened = 0;
  private stopping = false;
  private sweep: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: ListenOptions,
    private readonly server: Server,
    readonly url: string,
    private readonly port: number,
  ) {}

  /** Binds, or fails with `listening on {addr}: …`. */
  static async open(options: ListenOptions): Promise<ListenServer> {
    if (options.token === undefined && !isLoopback(options.address.host)) throw new Error(needsTokenText(options.address));
    // A client that never finishes its headers is cut off too, checked every second (node's
    // default looks every 30 s); the body has a deadline of its own (body.ts).
    const server = createServer({
      headersTimeout: Math.min(options.bodyDeadlineMs, 60_000),
      requestTimeout: 0,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, options.bodyDeadlineMs / 2)),
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", (err) => reject(new Error(`listening on ${options.address.family === 6 ? `[${options.address.host}]` : options.address.host}:${options.address.port}: ${err.message}`)));
      server.listen(options.address.port, options.address.host, () => resolve());
    });
    const bound = server.address();
    const port = typeof bound === "object" && bound !== null ? bound.port : options.address.port;
    const listen = new ListenServer(options, server, endpointUrl({ ...options.address, port }), port);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => listen.handle(req, res));
    const every = Math.min(60_000, Math.max(10, options.idleMs / 4));
    listen.sweep = setInterval(() => listen.sweepIdle(), every);
    listen.sweep.unref();
    return listen;
  }

  /** Ends every session, stops serving, and waits (at most the grace) for their servers. */
  async close(): Promise<void> {
    this.stopping = true;
    if (this.sweep) clearInterval(this.sweep);
    for (const s of [...this.sessions.values(), ...this.sessionless.values()]) s.end("stretto-proxy is stopping");
    this.server.close();
    this.server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      Promise.allSettled([...this.running]).then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), STOP_GRACE_MS))),
    ]);
    clearTimeout(timer);
    if (!waited) this.options.report(`${this.running.size} sessions' servers were still running after ${STOP_GRACE_MS / 1000}s; leaving them`);
    this.server.closeAllConnections();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    void this.answer(req, res).then(
      (r) => r && sendRefusal(res, r),
      (err: unknown) => sendRefusal(res, refuse(500, String(err))),
    );
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<Refusal | undefined> {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/mcp") return refuse(404, TEXT.path);
    const method = req.method ?? "";
    if (method !== "POST" && method !== "GET" && method !== "DELETE") return refuse(405, TEXT.method, { headers: { Allow: "POST, GET, DELETE" } });
    const denied = checkAccess(req, { token: this.options.token, port: this.port });
    if (denied) return denied;
    if (this.stopping) return refuse(503, "stretto-proxy is stopping");
    if (method === "GET") {
      if (!acceptsEvents(req)) return refuse(406, TEXT.getAccept);
      const found = this.lookup(req);
      return isRefusal(found) ? found : found.get(req, res);
    }
    if (method === "DELETE") {
      const found = this.lookup(req);
      if (isRefusal(found)) return found;
      found.end("its host ended it");
      res.writeHead(200).end();
      return undefined;
    }
    return this.post(req, res);
  }

  private async post(req: IncomingMessage, res: ServerResponse): Promise<Refusal | undefined> {
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") return refuse(415, TEXT.contentType);
    const body = await readBody(req, this.options.bodyDeadlineMs);
    if (isRefusal(body)) {
      if (body.status === 408) res.setHeader("Connection", "close");
      return body;
    }
    const read = readMessages(body);
    if (isRefusal(read)) return read;
    const { messages, batch } = read;
    const sse = acceptsEvents(req);
    const initialize = messages.some((m) => m.kind === "request" && m.method === "initialize");
    const sessionHeader = req.headers["mcp-session-id"];
    if (initialize) {
      if (batch || sessionHeader !== undefined) return refuse(400, TEXT.initializeAlone);
      const opened = this.openSession(req, false);
      if (isRefusal(opened)) return opened;
      return opened.post(messages, batch, res, sse, { "Mcp-Session-Id": opened.options.id! });
    }
    if (sessionHeader === undefined && isModern(req, messages)) {
      const session = this.modernSession(req);
      return isRefusal(session) ? session : session.post(messages, batch, res, sse, {});
    }
    const found = this.lookup(req);
    return isRefusal(found) ? found : found.post(messages, batch, res, sse, {});
  }

  private lookup(req: IncomingMessage): HostHttpSession | Refusal {
    const header = req.headers["mcp-session-id"];
    if (typeof header !== "string") return refuse(400, TEXT.noSessionId);
    const session = this.sessions.get(header.trim());
    return session && !session.ended ? session : refuse(404, TEXT.noSession);
  }

  /** The session a 2026-07-28 host's requests go to: one per `Stretto-Session` name (or none). */
  private modernSession(req: IncomingMessage): HostHttpSession | Refusal {
    const name = req.headers["stretto-session"];
    const key = typeof name === "string" ? name : "";
    const known = this.sessionless.get(key);
    if (known && !known.ended) return known;
    return this.openSession(req, true);
  }

  private openSession(req: IncomingMessage, modern: boolean): HostHttpSession | Refusal {
    const named = req.headers["stretto-session"];
    if (named !== undefined && (typeof named !== "string" || !/^[A-Za-z0-9._:-]{1,128}$/.test(named))) return refuse(400, TEXT.hostSession);
    if (this.sessions.size + this.sessionless.size >= MAX_SESSIONS) return refuse(503, TEXT.full);
    const n = ++this.opened;
    const id = modern ? undefined : randomBytes(16).toString("hex");
    const session = new HostHttpSession({ n, id, hostSession: named, report: this.options.report, now: () => performance.now() });
    if (id !== undefined) this.sessions.set(id, session);
    else this.sessionless.set(named ?? "", session);
    this.options.report(`session ${n} opened${named === undefined ? "" : `, for host session ${named}`}`);
    session.onEnd((why) => {
      if (id !== undefined) this.sessions.delete(id);
      else if (this.sessionless.get(named ?? "") === session) this.sessionless.delete(named ?? "");
      this.options.report(`session ${n} ended: ${why}`);
    });
    const core = this.options.startSession(session).then(
      (why) => session.end(why),
      (err: unknown) => session.end(err instanceof Error ? err.message : String(err)),
    );
    this.running.add(core);
    void core.finally(() => this.running.delete(core));
    return session;
  }

  private sweepIdle(): void {
    const idle = durationText(this.options.idleMs);
    for (const s of [...this.sessions.values(), ...this.sessionless.values()]) {
      if (s.idleFor(this.options.idleMs)) s.end(`no request and no open stream for ${idle}`);
    }
  }
}

/** Any Accept header naming `text/event-stream` (any case). */
function acceptsEvents(req: IncomingMessage): boolean {
  const accept = req.headersDistinct["accept"] ?? [];
  return accept.some((v) => v.toLowerCase().includes("text/event-stream"));
}

/** A 2026-07-28 request: it names its revision in `_meta`, or in the header. */
function isModern(req: IncomingMessage, messages: readonly HostMessage[]): boolean {
  const header = req.headers["mcp-protocol-version"];
  if (typeof header === "string" && header >= MODERN) return true;
  return messages.some((m) => m.modernVersion !== undefined);
}

/** `14400s`, `300ms`: a duration as the session's end says it. */
export function durationText(ms: number): string {
  return ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`;
}
