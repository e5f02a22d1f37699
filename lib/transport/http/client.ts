import { createRequire } from "node:module";
import type { Agent as UndiciAgent } from "undici";
import { endpoint, type Endpoint } from "./endpoint.js";
import { Exchange, type Opened } from "./exchange.js";
import { Gate } from "./gate.js";
import { FOLLOWED_REDIRECTS, redirectTarget, TooManyRedirects } from "./redirect.js";

export type { Opened, ResponseHeaders } from "./exchange.js";

/**
 * undici's Agent, loaded alone: the package's index also loads fetch, WebSocket, EventSource,
 * the cache and the mocks, 100 ms and more at every start of the proxy. (undici 7 has no
 * `exports` map; the file is where its index takes the Agent from.)
 */
const Agent = createRequire(import.meta.url)("undici/lib/dispatcher/agent.js") as typeof UndiciAgent;
type Agent = UndiciAgent;

/** Which pool a request takes its connection from. */
export type Lane = "request" | "reply" | "stream";

/** Connect within 10 s; no other limit (an answer may stream for as long as it needs). */
const CONNECT_TIMEOUT_MS = 10_000;
/** Requests may hold an event stream open for as long as a tool runs. */
const REQUEST_SOCKETS = 64;
/** Notifications and responses are answered at once (202); they never wait behind requests. */
const REPLY_SOCKETS = 16;

/**
 * The proxy's HTTP client: undici (Node's own HTTP/1.1 client) with keep-alive pools, no
 * retries (a retry would send a request twice) and no error for a non-2xx status (the caller
 * decides what each status means). Requests and the host's replies to the server use separate
 * pools, so a server that holds every request open until the host answers one of its own
 * (elicitation, sampling) never starves the POST that carries that answer. GET streams
 * connect apart, one connection each.
 *
 * Each lane's Gate admits no more requests than its pool has connections, so what waits is
 * counted here (the host's input pauses on it) and never piles up inside undici.
 */
export class HttpClient {
  private readonly agents: Record<Lane, Agent>;
  private readonly gates: Record<Lane, Gate>;
  /** The last URL asked for, parsed (every request of a session goes to the same one). */
  private last: Endpoint | undefined;

  constructor() {
    const pool = (connections: number | null) =>
      new Agent({ connections, headersTimeout: 0, bodyTimeout: 0, connect: { timeout: CONNECT_TIMEOUT_MS } });
    this.agents = { request: pool(REQUEST_SOCKETS), reply: pool(REPLY_SOCKETS), stream: pool(null) };
    this.gates = { request: new Gate(REQUEST_SOCKETS), reply: new Gate(REPLY_SOCKETS), stream: new Gate(Infinity) };
  }

  /** Requests of a lane waiting for a connection. */
  queued(lane: Lane): number {
    return this.gates[lane].queued;
  }

  /** Resolves once no request of the lane waits for a connection. */
  drained(lane: Lane): Promise<void> {
    return this.gates[lane].drained();
  }

  /**
   * Sends a request; resolves once the response head is in, rejects if none comes. `pending`
   * is handed the function that drops the request while it waits for a slot or connects
   * (again for each redirect followed). Redirects are followed as browsers and most clients
   * do: at most 10; a 303 turns into a body-less GET, the others repeat the request; leaving
   * the origin drops the credentials.
   */
  open(
    method: "POST" | "GET" | "DELETE",
    url: string,
    headers: Record<string, string>,
    lane: Lane,
    body?: Buffer,
    pending?: (abort: () => void) => void,
  ): Promise<Opened> {
    const at = this.endpoint(url);
    const h = at.authorization === undefined ? headers : { ...headers, authorization: at.authorization };
    return this.exchange(method, at, h, lane, body, pending).then((opened) =>
      opened.status < 300 || opened.status > 308 ? opened : this.redirected(opened, method, at, headers, h, lane, body, pending),
    );
  }

  /** Follows a redirect answer, and those after it. */
  private async redirected(
    first: Opened,
    method: "POST" | "GET" | "DELETE",
    from: Endpoint,
    headers: Record<string, string>,
    sent: Record<string, string>,
    lane: Lane,
    body: Buffer | undefined,
    pending: ((abort: () => void) => void) | undefined,
  ): Promise<Opened> {
    let at = from;
    let h = sent;
    let m = method;
    let b = body;
    let opened = first;
    for (let hops = 0; ; hops++) {
      if (hops > 0) opened = await this.exchange(m, at, h, lane, b, pending);
      const next = redirectTarget(opened.status, opened.headers["location"], at);
      if (next === undefined) return opened;
      void opened.discard();
      if (hops >= FOLLOWED_REDIRECTS) throw new TooManyRedirects(); // ten followed, the eleventh refused
      if (next.sameOrigin) {
        h = next.endpoint.authorization === undefined ? h : { ...h, authorization: next.endpoint.authorization };
      } else {
        h = withoutCredentials(headers, next.endpoint.authorization);
      }
      if (opened.status === 303 && m !== "GET") {
        m = "GET";
        b = undefined;
      }
      at = next.endpoint;
    }
  }

  /** One request, once the lane has a connection for it. */
  private exchange(
    method: "POST" | "GET" | "DELETE",
    at: Endpoint,
    headers: Record<string, string>,
    lane: Lane,
    body: Buffer | undefined,
    pending: ((abort: () => void) => void) | undefined,
  ): Promise<Opened> {
    const gate = this.gates[lane];
    const ex = new Exchange(() => gate.release());
    pending?.(ex.abort);
    const go = () => {
      if (ex.isDropped) return ex.fail(new Error("the request was dropped before it was sent"));
      try {
        this.agents[lane].dispatch(
          // A GET stream lives long and is not followed by another request: its connection is not kept.
          { origin: at.origin, path: at.path, method, headers, body: body ?? null, reset: lane === "stream" },
          ex,
        );
      } catch (err) {
        ex.fail(err instanceof Error ? err : new Error(String(err)));
      }
    };
    const slot = gate.acquire();
    if (slot === undefined) go();
    else void slot.then(go);
    return ex.opened;
  }

  private endpoint(url: string): Endpoint {
    if (this.last?.url !== url) this.last = endpoint(url);
    return this.last;
  }

  /** A request whose answer does not matter beyond arriving (DELETE), within `timeoutMs`. */
  async send(method: "DELETE", url: string, headers: Record<string, string>, timeoutMs: number): Promise<void> {
    let abort = () => {};
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort();
    }, timeoutMs);
    try {
      const opened = await this.open(method, url, headers, "reply", undefined, (a) => (abort = a));
      await opened.whole();
    } catch (err) {
      throw timedOut ? new Error(`no answer within ${timeoutMs / 1000} s`) : err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes every pooled connection. */
  close(): void {
    for (const agent of Object.values(this.agents)) void agent.destroy().catch(() => {});
  }
}

/** The headers for another origin: no `authorization` or `cookie`, save the new URL's own credentials. */
function withoutCredentials(headers: Record<string, string>, authorization: string | undefined): Record<string, string> {
  const h: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name !== "authorization" && name !== "cookie") h[name] = value;
  if (authorization !== undefined) h["authorization"] = authorization;
  return h;
}
