import { Readable, Writable } from "node:stream";
import { LineSplitter } from "../../bus/line-splitter.js";
import type { ExitStatus, ServerTransport } from "../server-transport.js";
import { HttpClient, type Opened } from "./client.js";
import { EraDetector, headerValue, isObject, peek, type EraInfo, type Peek } from "../../bus/protocol-era.js";
import { CUT_OFF, SESSION_ENDED, UNREACHABLE, answeredHttp, errorLine, errorText, stderrText } from "./errors.js";
import { hostLineFromBytes, hostLineFromText } from "./hand-over.js";
import type { UpstreamHeader } from "./headers.js";
import { ParamHeaders } from "./param-headers.js";
import { SseReader } from "./sse.js";

export interface HttpUpstreamOptions {
  /** The server's MCP endpoint. */
  url: string;
  /** `--upstream-header` pairs, resolved; sent on every request, never logged. */
  headers?: readonly UpstreamHeader[];
  /** Says something on stderr (the caller adds `stretto-proxy: `). */
  report: (message: string) => void;
  /** Told when the session's protocol era is settled or changes (for the log header). */
  onEra?: (era: EraInfo) => void;
}

/** GET (and resumption) attempts that fail in a row before the proxy stops trying. */
const MAX_FAILURES = 5;
/** How long the host's lines after `notifications/initialized` wait for the GET stream. */
const GET_READY_MS = 1_000;
/** The wait before reopening a stream when the server named none (`retry`). */
const DEFAULT_RECONNECT_MS = 500;
/** Requests waiting for a connection before the host's input is paused (backpressure). */
const MAX_QUEUED = 4096;
/** How long the DELETE that ends a session may take. */
const DELETE_TIMEOUT_MS = 5_000;

/** One host message on its way to the server, and what became of it. */
interface Work {
  readonly peek: Peek;
  /** Resolves once the host has what it waits for: the answer, an error, or (not a request) the end. */
  settled: Promise<void>;
  answered: boolean;
  /** True once `settled` has resolved. */
  isSettled: boolean;
  cancelled: boolean;
  /** Drops the connection currently carrying this work's answer. */
  abort: () => void;
}

/**
 * The server as a Streamable HTTP endpoint (facts-proxy-core §4, 2025-06-18 and 2025-11-25,
 * and MCP 2026-07-28), behind the same `ServerTransport` as a child process: the host's lines
 * go in through `input`, the server's messages come out of `output` as lines, so recording
 * and everything above it work unchanged.
 *
 * - Each host line is POSTed. `initialize` and `notifications/initialized` go one at a time
 *   (later lines wait for their whole answer); everything else goes concurrently.
 * - Answers come back as JSON bodies or event streams, handed to the host as one line each,
 *   the server's text as sent (line breaks removed). 202 sends nothing; so does an empty
 *   (priming) event. An event stream that ends before its answer is resumed by GET with
 *   `Last-Event-ID` after the server's `retry` (SEP-1699); one that cannot be resumed is
 *   answered with an error, so the host never waits forever.
 * - After `notifications/initialized`, a GET stream carries the server's own messages; it is
 *   reopened with `Last-Event-ID` when it drops, backing off, and given up after 5 failures
 *   in a row, or at once on 404 or 405.
 * - When the host's input ends: wait for what is in flight, DELETE the session (5 s at
 *   most), end `output`, and exit 0.
 * - MCP 2026-07-28 requests (their `_meta` names the version) carry `MCP-Protocol-Version`,
 *   `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`; nothing waits for a session id, no GET
 *   stream is opened, and a `4xx` that carries the server's JSON-RPC error for the request
 *   reaches the host as the server wrote it (it is how a modern server negotiates versions).
 */
export class HttpUpstream implements ServerTransport {
  readonly input: Writable;
  readonly output: Readable;
  readonly exited: Promise<ExitStatus>;

  private readonly url: string;
  private readonly configured: readonly UpstreamHeader[];
  private readonly report: (message: string) => void;
  private readonly onEra: ((era: EraInfo) => void) | undefined;
  private readonly client = new HttpClient();
  private readonly eras = new EraDetector();
  private readonly params = new ParamHeaders();
  private readonly splitter = new LineSplitter(Infinity);

  private sessionId: string | undefined;
  private agreedVersion: string | undefined;
  private modernVersion: string | undefined;
  private readonly inFlight = new Set<Work>();
  private readonly byId = new Map<string, Work>();
  private getStreamStarted = false;
  private getStream: Opened | undefined;
  private closing = false;
  private outputEnded = false;
  private readonly closed: Promise<void>;
  private markClosed!: () => void;
  private full = false;
  private roomWaiters: Array<() => void> = [];
  private resolveExited!: (status: ExitStatus) => void;
  private finishing: Promise<void> | undefined;

  constructor(options: HttpUpstreamOptions) {
    this.url = options.url;
    this.configured = options.headers ?? [];
    this.report = options.report;
    this.onEra = options.onEra;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.output = new Readable({
      read: () => {
        this.full = false;
        const waiters = this.roomWaiters;
        this.roomWaiters = [];
        for (const w of waiters) w();
      },
    });
    this.input = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        this.take(this.splitter.push(chunk).map((p) => p.bytes)).then(() => callback(), callback);
      },
      final: (callback) => {
        this.take(this.splitter.end().map((p) => p.bytes))
          .then(() => this.finish())
          .then(() => callback(), callback);
      },
    });
  }

  /** The session's protocol era, once a host message has settled it. */
  get era(): EraInfo | undefined {
    return this.eras.info;
  }

  /** Stops at once (a signal): drops what is in flight, ends the session, ends `output`. */
  shutdown(): Promise<void> {
    for (const work of this.inFlight) {
      work.cancelled = true;
      work.abort();
    }
    return this.finish();
  }

  // ---- host → server ---------------------------------------------------------------

  private async take(lines: Buffer[]): Promise<void> {
    for (const raw of lines) {
      if (this.finishing !== undefined) return; // stopped by a signal: nothing more goes out
      const body = trimEnd(raw);
      if (body.length === 0) continue;
      const p = peek(body);
      this.noteEra(this.eras.observe(p));
      if (p.modernVersion !== undefined) this.modernVersion = p.modernVersion;
      if (p.method === "notifications/cancelled" && this.eras.isModern) {
        // 2026-07-28 over HTTP: closing the request's stream is the cancellation.
        this.cancel(p.cancels);
        continue;
      }
      const work = this.post(body, p);
      if (p.method === "initialize" || p.method === "notifications/initialized") {
        await work.settled;
        if (p.method === "notifications/initialized" && !this.eras.isModern) await this.startGetStream();
      } else if (this.client.queued("request") > MAX_QUEUED) {
        await this.client.drained("request");
      }
    }
  }

  private cancel(idJson: string | undefined): void {
    const work = idJson === undefined ? undefined : this.byId.get(idJson);
    if (work === undefined) return;
    work.cancelled = true;
    work.abort();
  }

  private post(body: Buffer, p: Peek): Work {
    let markSettled!: () => void;
    const work: Work = {
      peek: p,
      settled: new Promise<void>((resolve) => (markSettled = resolve)),
      answered: false,
      isSettled: false,
      cancelled: false,
      abort: () => {},
    };
    work.settled = work.settled.then(() => {
      work.isSettled = true;
    });
    this.inFlight.add(work);
    if (p.idJson !== undefined) this.byId.set(p.idJson, work);
    const answered = () => {
      work.answered = true;
      markSettled();
    };
    void this.deliver(work, body, answered)
      .catch((err: unknown) => this.report(`the HTTP upstream failed: ${errorText(err)}`))
      .finally(() => {
        markSettled();
        this.inFlight.delete(work);
        if (p.idJson !== undefined && this.byId.get(p.idJson) === work) this.byId.delete(p.idJson);
      });
    return work;
  }

  private async deliver(work: Work, body: Buffer, answered: () => void): Promise<void> {
    const p = work.peek;
    let opened: Opened;
    try {
      opened = await this.client.open("POST", this.url, this.postHeaders(p), p.idJson === undefined ? "reply" : "request", body);
    } catch (err) {
      if (work.cancelled) return;
      this.report(stderrText.unreachable(errorText(err)));
      this.answerWithError(work, UNREACHABLE);
      return;
    }
    work.abort = opened.abort;
    if (work.cancelled) return opened.abort();
    if (p.method === "initialize") {
      const sid = headerText(opened.headers["mcp-session-id"]);
      if (sid !== undefined) this.sessionId = sid;
    }
    if (opened.status === 202) return drain(opened);
    if (opened.status < 200 || opened.status > 299) return this.refused(work, opened);
    if (isEventStream(opened.headers["content-type"])) return this.readPostStream(work, opened, answered);
    return this.readJsonBody(work, opened, answered);
  }

  /** A non-2xx answer: the host gets an error for a request (or, modern, the server's own). */
  private async refused(work: Work, opened: Opened): Promise<void> {
    const p = work.peek;
    const ended = opened.status === 404 && this.sessionId !== undefined;
    const reason = ended ? SESSION_ENDED : answeredHttp(opened.status, opened.reason);
    this.report(reason);
    let body: Buffer | undefined;
    try {
      body = await readAll(opened.body);
    } catch {
      body = undefined;
    }
    if (work.cancelled || p.idJson === undefined) return;
    const modern = p.modernVersion !== undefined || this.eras.isModern;
    if (!ended && modern && body !== undefined) {
      const own = hostLineFromBytes(body);
      if (own !== undefined && isErrorFor(own, p.idJson)) {
        this.emit(own);
        return;
      }
    }
    this.answerWithError(work, reason);
  }

  private async readJsonBody(work: Work, opened: Opened, answered: () => void): Promise<void> {
    let body: Buffer;
    try {
      body = await readAll(opened.body);
    } catch (err) {
      if (work.cancelled) return;
      this.report(stderrText.cutOff(errorText(err)));
      this.answerWithError(work, CUT_OFF);
      return;
    }
    if (work.cancelled) return;
    const line = hostLineFromBytes(body);
    if (line === undefined) return;
    this.learnFrom(work.peek, line);
    this.emit(line);
    answered();
  }

  /** An answer as an event stream: its events in order, resumed by GET if it breaks off. */
  private async readPostStream(work: Work, opened: Opened, answered: () => void): Promise<void> {
    const p = work.peek;
    const onData = (data: string) => {
      const line = hostLineFromText(data);
      if (line === undefined || work.cancelled) return;
      const answer = p.idJson !== undefined && !work.answered && isAnswerTo(line, p.idJson);
      if (answer) this.learnFrom(p, line);
      this.emit(line);
      if (answer) answered();
    };
    const reader = new SseReader((data) => onData(data));
    const failure = await this.readEvents(opened, reader);
    if (work.answered || work.cancelled || p.idJson === undefined) return;

    const resumable = !this.eras.isModern && p.modernVersion === undefined && reader.lastEventId !== undefined;
    if (!resumable) {
      this.report(stderrText.cutOff(failure ?? "the event stream ended before the answer"));
      this.answerWithError(work, CUT_OFF);
      return;
    }
    await this.resume(work, reader.lastEventId!, reader.retryMs, onData);
  }

  /**
   * SEP-1699: a request's event stream closed before its answer is picked up again by GET
   * with `Last-Event-ID`, after the server's `retry`. Gives up (with an error for the host)
   * on 404 or 405, or after 5 failures in a row.
   */
  private async resume(work: Work, fromId: string, retryMs: number | undefined, onData: (data: string) => void): Promise<void> {
    let lastEventId = fromId;
    let retry = retryMs;
    let failures = 0;
    while (!work.answered && !work.cancelled && !this.closing && failures < MAX_FAILURES) {
      await this.pause((retry ?? DEFAULT_RECONNECT_MS) * Math.max(failures, 1));
      if (work.cancelled || this.closing) break;
      let opened: Opened;
      try {
        opened = await this.client.open("GET", this.url, this.getHeaders(lastEventId), "stream");
      } catch {
        failures++;
        continue;
      }
      work.abort = opened.abort;
      if (opened.status === 404 || opened.status === 405) {
        await drain(opened);
        break;
      }
      if (opened.status < 200 || opened.status > 299) {
        await drain(opened);
        failures++;
        continue;
      }
      failures = 0;
      const reader = new SseReader((data) => {
        onData(data);
        if (work.answered) opened.abort(); // the answer is in: this stream has done its part
      });
      reader.lastEventId = lastEventId;
      await this.readEvents(opened, reader);
      lastEventId = reader.lastEventId ?? lastEventId;
      retry = reader.retryMs ?? retry;
    }
    if (work.answered || work.cancelled) return;
    this.report(stderrText.cutOff("the event stream ended before the answer, and could not be resumed"));
    this.answerWithError(work, CUT_OFF);
  }

  // ---- the server's own messages: the GET stream ------------------------------------

  /**
   * Starts the GET stream, the first time only. Resolves once its first attempt has an
   * answer (or failed), 1 s at most: a server may speak on it as soon as the session is
   * initialized (a question for the host, a `list_changed`) and, without an event store,
   * drops what it says while no stream is open, so the host's next lines wait that long.
   */
  private startGetStream(): Promise<void> {
    if (this.getStreamStarted) return Promise.resolve();
    this.getStreamStarted = true;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, GET_READY_MS);
      void this.getLoop(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private async getLoop(firstAnswered: () => void): Promise<void> {
    let failures = 0;
    let lastEventId: string | undefined;
    let retry: number | undefined;
    while (!this.closing && failures < MAX_FAILURES) {
      let opened: Opened | undefined;
      try {
        opened = await this.client.open("GET", this.url, this.getHeaders(lastEventId), "stream");
      } catch {
        failures++;
      }
      firstAnswered();
      if (opened !== undefined) {
        this.getStream = opened;
        if (this.closing) opened.abort();
        if (opened.status === 404 || opened.status === 405) {
          await drain(opened);
          return;
        }
        if (opened.status >= 200 && opened.status <= 299) {
          failures = 0;
          const reader = new SseReader((data) => {
            const line = hostLineFromText(data);
            if (line !== undefined) this.emit(line);
          });
          reader.lastEventId = lastEventId;
          await this.readEvents(opened, reader);
          lastEventId = reader.lastEventId;
          retry = reader.retryMs ?? retry;
        } else {
          await drain(opened);
          failures++;
        }
        this.getStream = undefined;
      }
      if (this.closing || failures >= MAX_FAILURES) return;
      await this.pause((retry ?? DEFAULT_RECONNECT_MS) * Math.max(failures, 1));
    }
  }

  // ---- reading ------------------------------------------------------------------------

  /** Feeds a stream's body to `reader` as it comes; resolves with the read error, if any. */
  private async readEvents(opened: Opened, reader: SseReader): Promise<string | undefined> {
    let failure: string | undefined;
    try {
      for await (const chunk of opened.body) {
        reader.feed(chunk as Buffer);
        if (this.full) await this.room();
      }
    } catch (err) {
      failure = errorText(err);
    }
    reader.end();
    return failure;
  }

  /** Notes what the answers to `initialize` and (modern) `tools/list` tell the proxy. */
  private learnFrom(p: Peek, line: Buffer): void {
    if (p.method !== "initialize" && !(p.method === "tools/list" && this.eras.isModern)) return;
    let answer: unknown;
    try {
      answer = JSON.parse(line.toString("utf8"));
    } catch {
      return;
    }
    if (p.method === "tools/list") {
      this.params.learn(answer);
      return;
    }
    const version = isObject(answer) && isObject(answer["result"]) ? answer["result"]["protocolVersion"] : undefined;
    if (typeof version === "string") {
      this.agreedVersion = version;
      this.noteEra(this.eras.agreed(version));
    }
  }

  // ---- server → host --------------------------------------------------------------------

  private emit(line: Buffer): void {
    if (this.outputEnded) return;
    if (!this.output.push(line)) this.full = true;
  }

  private answerWithError(work: Work, message: string): void {
    if (work.peek.idJson === undefined || work.cancelled) return;
    this.emit(errorLine(work.peek.idJson, message));
  }

  /** Resolves when the host side has room again (backpressure from a slow host). */
  private room(): Promise<void> {
    if (!this.full || this.outputEnded) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  private noteEra(era: EraInfo | undefined): void {
    if (era !== undefined) this.onEra?.(era);
  }

  // ---- headers ----------------------------------------------------------------------------

  private postHeaders(p: Peek): Record<string, string> {
    const h: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const modern = p.modernVersion !== undefined || this.eras.isModern;
    if (this.sessionId !== undefined) h["mcp-session-id"] = this.sessionId;
    const version = p.modernVersion ?? (modern ? this.modernVersion : this.agreedVersion);
    if (version !== undefined) h["mcp-protocol-version"] = version;
    if (modern && p.method !== undefined) {
      h["mcp-method"] = p.method;
      if (p.name !== undefined) h["mcp-name"] = headerValue(p.name);
      if (p.method === "tools/call") {
        for (const [name, value] of this.params.headersFor(p.name, p.toolArguments)) h[name] = value;
      }
    }
    return this.withConfigured(h);
  }

  private getHeaders(lastEventId: string | undefined): Record<string, string> {
    const h: Record<string, string> = { accept: "text/event-stream" };
    this.addSession(h);
    if (lastEventId !== undefined) h["last-event-id"] = lastEventId;
    return this.withConfigured(h);
  }

  private addSession(h: Record<string, string>): void {
    if (this.sessionId !== undefined) h["mcp-session-id"] = this.sessionId;
    if (this.agreedVersion !== undefined) h["mcp-protocol-version"] = this.agreedVersion;
  }

  private withConfigured(h: Record<string, string>): Record<string, string> {
    for (const [name, value] of this.configured) h[name] = value;
    return h;
  }

  // ---- the end ----------------------------------------------------------------------------

  /** Waits a while, or less if the session closes meanwhile. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      void this.closed.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * The host's input ended (or a signal came): wait for every request in flight to be
   * answered, stop the streams still open, DELETE the session, then end `output`.
   */
  private finish(): Promise<void> {
    this.finishing ??= (async () => {
      // A subscription (2026-07-28 `subscriptions/listen`) never ends by itself.
      for (;;) {
        const waiting = [...this.inFlight].filter(
          (w) => !w.isSettled && !w.cancelled && w.peek.method !== "subscriptions/listen",
        );
        if (waiting.length === 0) break;
        await Promise.all(waiting.map((w) => w.settled));
      }
      this.closing = true;
      this.markClosed();
      this.getStream?.abort();
      for (const work of this.inFlight) {
        work.cancelled = true;
        work.abort();
      }
      if (this.sessionId !== undefined) {
        const h: Record<string, string> = {};
        this.addSession(h);
        try {
          await this.client.send("DELETE", this.url, this.withConfigured(h), DELETE_TIMEOUT_MS);
        } catch (err) {
          this.report(stderrText.ending(errorText(err)));
        }
      }
      this.outputEnded = true;
      this.output.push(null);
      this.client.close();
      this.resolveExited({ code: 0, signal: null });
    })();
    return this.finishing;
  }
}

function trimEnd(line: Buffer): Buffer {
  let end = line.length;
  while (end > 0 && (line[end - 1] === 0x20 || (line[end - 1]! >= 0x09 && line[end - 1]! <= 0x0d))) end--;
  return line.subarray(0, end);
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function isEventStream(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.trimStart().toLowerCase().startsWith("text/event-stream");
}

function readAll(body: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on("data", (c: Buffer) => chunks.push(c));
    body.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    body.once("error", reject);
  });
}

function drain(opened: Opened): Promise<void> {
  return readAll(opened.body).then(
    () => {},
    () => {},
  );
}

/** Whether a line is the response (result or error) to the request with this id. */
function isAnswerTo(line: Buffer, idJson: string): boolean {
  let m: unknown;
  try {
    m = JSON.parse(line.toString("utf8"));
  } catch {
    return false;
  }
  return isObject(m) && m["method"] === undefined && JSON.stringify(m["id"]) === idJson && ("result" in m || "error" in m);
}

function isErrorFor(line: Buffer, idJson: string): boolean {
  let m: unknown;
  try {
    m = JSON.parse(line.toString("utf8"));
  } catch {
    return false;
  }
  return isObject(m) && JSON.stringify(m["id"]) === idJson && isObject(m["error"]);
}
