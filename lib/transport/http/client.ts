import { Agent as HttpAgent, type AgentOptions, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Duplex } from "node:stream";
import type { Readable } from "node:stream";
import got, { type Got, type Request } from "got";
import { VERSION } from "../../version.js";

/** A response whose head has arrived; its body is read from `body` as it comes. */
export interface Opened {
  status: number;
  reason: string;
  headers: IncomingHttpHeaders;
  body: Readable;
  /** Drops the connection (the body then ends or errors). */
  readonly abort: () => void;
}

/** Which pool a request takes its connection from. */
export type Lane = "request" | "reply" | "stream";

/**
 * At most `limit` at once; the rest wait in order. Node's own agent queue is an array it
 * shifts from, which turns thousands of pipelined requests quadratic, so the agent is never
 * asked for more sockets than it has.
 */
class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private head = 0;
  private emptied: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** Resolves with a slot; `undefined` means one was free at once. */
  acquire(): Promise<void> | undefined {
    if (this.active < this.limit) {
      this.active++;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head]!;
      this.waiting[this.head++] = undefined as unknown as () => void;
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      next(); // the slot passes on
    } else {
      this.active--;
    }
    if (this.queued === 0 && this.emptied.length > 0) for (const e of this.emptied.splice(0)) e();
  }

  /** Resolves once nothing waits for a slot. */
  drained(): Promise<void> {
    if (this.queued === 0) return Promise.resolve();
    return new Promise((resolve) => this.emptied.push(resolve));
  }
}

/** Connect within 10 s; no overall limit (an answer may stream for as long as it needs). */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The connect limit lives on the agents' sockets rather than in got's per-request timers:
 * a reused keep-alive connection needs none, and got's timers cost every request.
 */
function connectWithin<A extends HttpAgent | HttpsAgent>(agent: A): A {
  const create = (agent as unknown as { createConnection: (o: AgentOptions, cb?: unknown) => Duplex }).createConnection.bind(agent);
  (agent as unknown as { createConnection: (o: AgentOptions, cb?: unknown) => Duplex }).createConnection = (options, callback) => {
    const socket = create(options, callback) as Duplex & { setTimeout(ms: number): void; connecting?: boolean };
    if (socket.connecting === false) return socket;
    socket.setTimeout(CONNECT_TIMEOUT_MS);
    const onTimeout = () => {
      const err = new Error(`connect ETIMEDOUT: no connection within ${CONNECT_TIMEOUT_MS / 1000} s`) as Error & { code: string };
      err.code = "ETIMEDOUT";
      socket.destroy(err);
    };
    socket.once("timeout", onTimeout);
    socket.once("connect", () => {
      socket.off("timeout", onTimeout);
      socket.setTimeout(0);
    });
    return socket;
  };
  return agent;
}
/** Requests may hold an event stream open for as long as a tool runs. */
const REQUEST_SOCKETS = 64;
/** Notifications and responses are answered at once (202); they never wait behind requests. */
const REPLY_SOCKETS = 16;

/**
 * The proxy's HTTP client: `got` 14 over keep-alive agents, with no retries (a retry would
 * send a request twice) and no error for a non-2xx status (the caller decides what each
 * status means). Requests and the host's replies to the server use separate pools, so a
 * server that holds every request open until the host answers one of its own (elicitation,
 * sampling) never starves the POST that carries that answer. GET streams connect apart.
 */
export class HttpClient {
  private readonly agents: Record<Lane, { http: HttpAgent; https: HttpsAgent }>;
  private readonly gates: Record<Lane, Gate>;
  /** One got instance per lane, its agent among its defaults (merging it per call costs). */
  private readonly got: Record<Lane, Got>;

  constructor() {
    const pool = (maxSockets: number, keepAlive: boolean) => ({
      http: connectWithin(new HttpAgent({ keepAlive, maxSockets })),
      https: connectWithin(new HttpsAgent({ keepAlive, maxSockets })),
    });
    this.agents = {
      request: pool(REQUEST_SOCKETS, true),
      reply: pool(REPLY_SOCKETS, true),
      stream: pool(Infinity, false),
    };
    this.gates = { request: new Gate(REQUEST_SOCKETS), reply: new Gate(REPLY_SOCKETS), stream: new Gate(Infinity) };
    const base = got.extend({
      retry: { limit: 0 },
      throwHttpErrors: false,
      headers: { "user-agent": `stretto-proxy/${VERSION}` },
    });
    this.got = {
      request: base.extend({ agent: this.agents.request }),
      reply: base.extend({ agent: this.agents.reply }),
      stream: base.extend({ agent: this.agents.stream }),
    };
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

  private start(
    method: "POST" | "GET",
    url: string,
    headers: Record<string, string>,
    lane: Lane,
    gate: Gate,
    body?: Buffer,
    signal?: AbortSignal,
  ): Promise<Opened> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) {
        gate.release();
        reject(new Error("the request was dropped before it was sent"));
        return;
      }
      let stream: Request;
      try {
        stream = this.got[lane].stream(url, body === undefined ? { method, headers } : { method, headers, body });
      } catch (err) {
        gate.release();
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      // The connection is free again once the exchange is over, however it ended (got's
      // stream says `end` after a whole body, `error` or `close` otherwise).
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        gate.release();
      };
      stream.once("end", release);
      stream.once("error", release);
      stream.once("close", release);
      const onError = (err: Error) => reject(err);
      stream.once("error", onError);
      const onAbort = () => {
        stream.destroy();
        reject(new Error("the request was dropped before its answer began"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      stream.once("close", () => signal?.removeEventListener("abort", onAbort));
      stream.once("response", (response: { statusCode: number; statusMessage?: string; headers: IncomingHttpHeaders }) => {
        stream.off("error", onError);
        signal?.removeEventListener("abort", onAbort);
        resolve({
          status: response.statusCode,
          reason: response.statusMessage ?? "",
          headers: response.headers,
          body: stream,
          abort: () => stream.destroy(),
        });
      });
    });
  }

  /** A request whose answer does not matter beyond arriving (DELETE), within `timeoutMs`. */
  async send(method: "DELETE", url: string, headers: Record<string, string>, timeoutMs: number): Promise<void> {
    await this.got.reply(url, { method, headers, timeout: { request: timeoutMs } });
  }

  /** Closes every pooled connection. */
  close(): void {
    for (const pool of Object.values(this.agents)) {
      pool.http.destroy();
      pool.https.destroy();
    }
  }
}
