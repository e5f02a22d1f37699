import type { IncomingMessage, ServerResponse } from "node:http";
import { PassThrough, Writable } from "node:stream";
import { LineSplitter } from "../../bus/line-splitter.js";
import type { HostTransport } from "../../bus/host-port.js";
import { scanWire } from "../../protocol/wire-scan.js";
import { isObject } from "../../util/is-object.js";
import { EventBuffer, parseEventId, REPLAY_EVENTS } from "./event-buffer.js";
import { idKeyOf, type HostMessage } from "./messages.js";
import { refuse, TEXT, type Refusal } from "./refusal.js";
import { ReplyStream } from "./reply-stream.js";

/** The most server messages waiting for a stream to open. */
export const QUEUE_LIMIT = 1000;

export interface HostSessionOptions {
  /** The session's number in this proxy (1, 2, …), for stderr. */
  n: number;
  /** `Mcp-Session-Id`, or undefined for a 2026-07-28 session (which has none). */
  id: string | undefined;
  hostSession: string | undefined;
  report: (message: string) => void;
  now: () => number;
}

/**
 * One host session over Streamable HTTP, as a `HostTransport`: the host's POSTs become the
 * lines a stdio host would have written (`input`), and each line the session writes back
 * (`output`) is routed to the HTTP response it belongs to. Answers go to the stream of
 * their request; the server's own requests and notifications to the stream of the request
 * whose progress token they name, else the GET stream, else the newest open request stream,
 * else a queue that the next stream to open takes.
 */
export class HostHttpSession implements HostTransport {
  readonly input = new PassThrough();
  readonly output: Writable;
  private readonly buffer = new EventBuffer();
  private readonly byId = new Map<string, ReplyStream>();
  private readonly byToken = new Map<string, ReplyStream>();
  /** Every stream a host may still come back to, by number. */
  private readonly streams = new Map<number, ReplyStream>();
  private getStream: ReplyStream | undefined;
  private queue: string[] = [];
  /** Finished streams still kept, oldest first. */
  private readonly done: number[] = [];
  private streamNo = 0;
  private lastTouch: number;
  private endedWhy: string | undefined;
  private readonly endListeners: Array<(why: string) => void> = [];

  constructor(readonly options: HostSessionOptions) {
    this.lastTouch = options.now();
    const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
    this.output = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        for (const p of splitter.push(chunk)) this.fromServer(p.bytes);
        done();
      },
      final: (done) => {
        for (const p of splitter.end()) this.fromServer(p.bytes);
        done();
      },
    });
  }

  get n(): number {
    return this.options.n;
  }

  get ended(): boolean {
    return this.endedWhy !== undefined;
  }

  /** Called once, with the reason, when the session ends. */
  onEnd(listener: (why: string) => void): void {
    this.endListeners.push(listener);
  }

  touch(): void {
    this.lastTouch = this.options.now();
  }

  /** Idle: no stream open and no request for `idleMs`. */
  idleFor(idleMs: number): boolean {
    if (this.ended) return false;
    for (const s of this.streams.values()) if (s.attached) return false;
    return this.options.now() - this.lastTouch >= idleMs;
  }

  /** A request id of this POST already waits (here or earlier in the same POST). */
  duplicate(messages: readonly HostMessage[]): Refusal | undefined {
    const seen = new Set<string>();
    for (const m of messages) {
      if (m.kind !== "request") continue;
      if (this.byId.has(m.idKey!) || seen.has(m.idKey!)) return refuse(400, `request ${m.idText} is already waiting for its answer`);
      seen.add(m.idKey!);
    }
    return undefined;
  }

  /** Hands the host's messages to the server. Requests are answered on `res`. */
  post(messages: readonly HostMessage[], batch: boolean, res: ServerResponse, sse: boolean, headers: Record<string, string>): Refusal | undefined {
    if (this.ended) return refuse(404, TEXT.noSession);
    this.touch();
    const requests = messages.filter((m) => m.kind === "request");
    if (requests.length === 0) {
      for (const m of messages) this.input.write(m.line);
      res.writeHead(202, headers).end();
      return undefined;
    }
    const dup = this.duplicate(messages);
    if (dup) return dup;
    const stream = this.newStream("post", sse, batch);
    for (const r of requests) {
      stream.waiting.add(r.idKey!);
      this.byId.set(r.idKey!, stream);
      if (r.progressToken !== undefined) this.byToken.set(r.progressToken, stream);
    }
    stream.attach(res, headers);
    if (sse) this.flushQueue(stream);
    for (const m of messages) this.input.write(m.line);
    return undefined;
  }

  /**
   * A GET: the session's stream for the server's own messages (a newer one replaces it), or,
   * with `Last-Event-ID`, the stream the host lost, given what it missed and then the rest.
   */
  get(req: IncomingMessage, res: ServerResponse): Refusal | undefined {
    if (this.ended) return refuse(404, TEXT.noSession);
    this.touch();
    const last = req.headers["last-event-id"];
    const resume = typeof last === "string" ? parseEventId(last) : undefined;
    const lost = resume ? this.streams.get(resume.stream) : undefined;
    if (resume && lost && lost.kind === "post") {
      const missed = this.buffer.after(resume.stream, resume.seq);
      lost.attach(res, {}, missed);
      if (lost.finished) res.end();
      return undefined;
    }
    const missed = resume && lost ? this.buffer.after(resume.stream, resume.seq) : [];
    const old = this.getStream;
    const stream = lost ?? this.newStream("get", true);
    if (old && old !== stream) {
      old.drop();
      this.streams.delete(old.no);
    }
    this.getStream = stream;
    stream.attach(res, {}, missed);
    this.flushQueue(stream);
    return undefined;
  }

  /**
   * Ends the session (once): each request still waiting is answered with the reason, every
   * stream closes, and the server's input ends, as when a stdio host goes.
   */
  end(why: string): void {
    if (this.endedWhy !== undefined) return;
    this.endedWhy = why;
    const message = JSON.stringify(`the session ended: ${why}`);
    for (const [key, stream] of this.byId) {
      const idText = key.startsWith("j:") ? key.slice(2) : idTextOfKey(key);
      stream.answer(key, `{"jsonrpc":"2.0","id":${idText},"error":{"code":-32000,"message":${message}}}`);
    }
    this.byId.clear();
    this.byToken.clear();
    for (const s of this.streams.values()) s.finish();
    this.streams.clear();
    this.getStream = undefined;
    this.queue = [];
    this.input.end();
    for (const l of this.endListeners) l(why);
  }

  /**
   * A stream that had all its answers: kept a while, so a host that lost its connection just
   * before the last answer can still come back for it; the oldest go past REPLAY_EVENTS.
   */
  private finished(stream: ReplyStream): void {
    for (const [token, s] of this.byToken) if (s === stream) this.byToken.delete(token);
    this.done.push(stream.no);
    if (this.done.length > REPLAY_EVENTS) this.streams.delete(this.done.shift()!);
  }

  private newStream(kind: "post" | "get", sse: boolean, batch = false): ReplyStream {
    const s = new ReplyStream(++this.streamNo, kind, sse, this.buffer, batch);
    if (sse) this.streams.set(s.no, s);
    return s;
  }

  /** One line the session wrote for the host. */
  private fromServer(bytes: Buffer): void {
    if (this.ended) return;
    const text = bytes.toString("utf8").replace(/\r/g, " ").trim();
    if (text === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.options.report(`session ${this.n}: the server wrote a line that is not JSON, which a host over HTTP cannot take; dropped`);
      return;
    }
    if (!Array.isArray(value)) {
      this.route(value, text);
      return;
    }
    const parts = scanWire(text).parts;
    for (const [i, v] of (value as unknown[]).entries()) {
      const p = parts[i];
      this.route(v, p ? text.slice(p.offset, p.offset + p.length) : JSON.stringify(v));
    }
  }

  private route(message: unknown, text: string): void {
    if (!isObject(message)) return;
    if (message["method"] === undefined && ("result" in message || "error" in message)) {
      const key = idKeyOf(message["id"] ?? null);
      const stream = this.byId.get(key);
      if (!stream) {
        this.options.report(`session ${this.n}: an answer to request ${JSON.stringify(message["id"] ?? null)}, which no host request is waiting for; dropped`);
        return;
      }
      this.byId.delete(key);
      stream.answer(key, text);
      if (stream.finished) this.finished(stream);
      return;
    }
    const target = this.ownTarget(message);
    if (target) target.send(text);
    else {
      this.queue.push(text);
      if (this.queue.length > QUEUE_LIMIT) {
        this.queue.shift();
        this.options.report(`session ${this.n}: ${QUEUE_LIMIT} of the server's messages wait for a stream; dropped the oldest`);
      }
    }
  }

  /** Where the server's own request or notification goes, if a stream is open for it. */
  private ownTarget(message: Record<string, unknown>): ReplyStream | undefined {
    const params = message["params"];
    const token = isObject(params) ? params["progressToken"] : undefined;
    if (token !== undefined) {
      const s = this.byToken.get(JSON.stringify(token));
      if (s?.attached && !s.finished) return s;
    }
    if (this.getStream?.attached) return this.getStream;
    let newest: ReplyStream | undefined;
    for (const s of this.streams.values()) {
      if (s.kind === "post" && s.attached && !s.finished && (!newest || s.no > newest.no)) newest = s;
    }
    return newest;
  }

  private flushQueue(stream: ReplyStream): void {
    const q = this.queue;
    this.queue = [];
    for (const text of q) stream.send(text);
  }
}

/** The id text of a key made by idKeyOf (strings and numbers). */
function idTextOfKey(key: string): string {
  return key.startsWith("s:") ? JSON.stringify(key.slice(2)) : key.slice(2);
}
