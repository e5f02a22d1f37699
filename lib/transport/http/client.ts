import type { Readable } from "node:stream";
import { Agent, type Dispatcher } from "undici";
import { decoded } from "./content-encoding.js";
import { Gate } from "./gate.js";
import { FOLLOWED_REDIRECTS, redirectTarget, TooManyRedirects } from "./redirect.js";
import { endpoint, type Endpoint } from "./endpoint.js";

/** Response headers, names lowercase. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** A response whose head has arrived; its body is read from `body` as it comes. */
export interface Opened {
  status: number;
  reason: string;
  headers: ResponseHeaders;
  body: Readable;
  /** Drops the connection (the body then ends or errors). */
  readonly abort: () => void;
}

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
   * Sends a request; resolves once the response head is in, rejects if none comes. An abort
   * of `signal` before then drops the request (waiting for a slot or connecting) and rejects.
   */
  open(
    method: "POST" | "GET",
    url: string,
    headers: Record<string, string>,
    lane: Lane,
    body?: Buffer,
    signal?: AbortSignal,
  ): Promise<Opened> {
    const gate = this.gates[lane];
    const slot = gate.acquire();
    if (slot === undefined) return this.start(method, url, headers, lane, gate, body, signal);
    return slot.then(() => this.start(method, url, headers, lane, gate, body, signal));
  }

  private async start(
    method: "POST" | "GET",
    url: string,
    headers: Record<string, string>,
    lane: Lane,
    gate: Gate,
    body: Buffer | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Opened> {
    let response: Dispatcher.ResponseData;
    try {
      if (signal?.aborted === true) throw new Error("the request was dropped before it was sent");
      response = await this.follow(method, url, headers, lane, body, signal);
    } catch (err) {
      gate.release();
      throw err;
    }
    // The connection is free again once the exchange is over, however it ended.
    const raw = response.body;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      gate.release();
    };
    raw.once("end", release);
    raw.once("error", release);
    raw.once("close", release);
    const stream = decoded(raw, response.headers["content-encoding"]);
    return {
      status: response.statusCode,
      reason: response.statusText,
      headers: response.headers,
      body: stream,
      abort: () => stream.destroy(),
    };
  }

  /**
   * One request, following redirects as browsers and most clients do (at most 10; a 303
   * turns into a body-less GET, the others repeat the request; leaving the origin drops the
   * credentials).
   */
  private async follow(
    method: "POST" | "GET" | "DELETE",
    url: string,
    headers: Record<string, string>,
    lane: Lane,
    body: Buffer | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Dispatcher.ResponseData> {
    let at = this.endpoint(url);
    let h = at.authorization === undefined ? headers : { ...headers, authorization: at.authorization };
    let m = method;
    let b = body;
    for (let hops = 0; ; hops++) {
      const response = await this.agents[lane].request({
        origin: at.origin,
        path: at.path,
        method: m,
        headers: h,
        body: b ?? null,
        signal: signal ?? null,
        // A GET stream lives long and is not followed by another request: its connection is not kept.
        reset: lane === "stream",
      });
      const next = redirectTarget(response.statusCode, response.headers["location"], at);
      if (next === undefined) return response;
      response.body.destroy();
      if (hops + 1 >= FOLLOWED_REDIRECTS) throw new TooManyRedirects();
      if (next.sameOrigin) {
        h = next.endpoint.authorization === undefined ? h : { ...h, authorization: next.endpoint.authorization };
      } else {
        h = withoutCredentials(headers, next.endpoint.authorization);
      }
      if (response.statusCode === 303 && m !== "GET") {
        m = "GET";
        b = undefined;
      }
      at = next.endpoint;
    }
  }

  private endpoint(url: string): Endpoint {
    if (this.last?.url !== url) this.last = endpoint(url);
    return this.last;
  }

  /** A request whose answer does not matter beyond arriving (DELETE), within `timeoutMs`. */
  async send(method: "DELETE", url: string, headers: Record<string, string>, timeoutMs: number): Promise<void> {
    const response = await this.follow(method, url, headers, "reply", undefined, AbortSignal.timeout(timeoutMs));
    await response.body.dump();
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
