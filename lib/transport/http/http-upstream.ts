import { Readable, Writable } from "node:stream";
import { LineSplitter } from "../../bus/line-splitter.js";
import { peek, type EraInfo, type Peek } from "../../protocol/protocol-era.js";
import type { ExitStatus, ServerTransport } from "../../bus/server-port.js";
import { HttpClient } from "./client.js";
import { errorText, stderrText } from "./errors.js";
import { GetStream } from "./get-stream.js";
import type { UpstreamHeader } from "./headers.js";
import { HostOutput } from "./host-output.js";
import { InFlight, type Work } from "./in-flight.js";
import { Lifetime } from "./lifetime.js";
import { deliverByPost } from "./post.js";
import { HttpSession } from "./session.js";
import type { UpstreamContext } from "./upstream-context.js";

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

/**
 * Requests, or notifications and answers, waiting for a connection before the host's input is
 * paused (backpressure): without it a host writing faster than the server takes its POSTs
 * would grow the proxy's memory without bound.
 */
const MAX_QUEUED = 4096;
/** The lanes whose queue can pause the host's input. */
const LANES = ["request", "reply"] as const;
/** How long the DELETE that ends a session may take. */
const DELETE_TIMEOUT_MS = 5_000;

/**
 * The server as a Streamable HTTP endpoint (docs/http-upstream.md; MCP 2025-06-18 and 2025-11-25,
 * and MCP 2026-07-28), behind the same `ServerTransport` as a child process: the host's lines
 * go in through `input`, the server's messages come out of `output` as lines, so recording
 * and everything above it work unchanged.
 *
 * - Each host line is POSTed. `initialize` and `notifications/initialized` go one at a time
 *   (later lines wait for their whole answer); everything else goes concurrently.
 * - Answers come back as JSON bodies or event streams, handed to the host as one line each,
 *   the server's text as sent (line breaks removed), once a JSON body is seen to answer
 *   the request POSTed (another id is answered with an error). 202 sends nothing; so does
 *   an empty (priming) event. An event stream that ends before its answer is resumed by GET with
 *   `Last-Event-ID` after the server's `retry` (SEP-1699); one that cannot be resumed is
 *   answered with an error, so the host never waits forever.
 * - After `notifications/initialized`, a GET stream carries the server's own messages; it is
 *   reopened with `Last-Event-ID` when it drops, backing off exponentially while streams end
 *   at once, and given up after 5 failures in a row, or at once on 404 or 405.
 * - A `notifications/cancelled` is POSTed (before 2026-07-28) and the cancelled request's
 *   stream, or the GET resuming it, is closed; nothing more is said about it.
 * - When the host's input ends: wait for what is in flight, DELETE the session (5 s at
 *   most), end `output`, and exit 0.
 * - MCP 2026-07-28 requests (their `_meta` names the version) carry `MCP-Protocol-Version`,
 *   `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`; nothing waits for a session id, no GET
 *   stream is opened, and a `4xx` that carries the server's JSON-RPC error for the request
 *   reaches the host as the server wrote it (it is how a modern server negotiates versions).
 *
 * This class wires the pieces: `post.ts` (and `resume.ts`) deliver each message,
 * `get-stream.ts` carries the server's own, `session.ts` keeps the headers, `host-output.ts`
 * is the host's side, and `in-flight.ts` follows what is on its way.
 */
export class HttpUpstream implements ServerTransport {
  readonly input: Writable;
  readonly output: Readable;
  readonly exited: Promise<ExitStatus>;
  /** The proxy's own error answers are its lines, not the server's (see HostOutput). */
  readonly lineFrom = (): "server" | "proxy" => this.host.nextLineFrom();

  private readonly url: string;
  private readonly report: (message: string) => void;
  private readonly client = new HttpClient();
  private readonly splitter = new LineSplitter(Infinity);
  private readonly session: HttpSession;
  private readonly host = new HostOutput();
  private readonly lifetime = new Lifetime();
  private readonly inFlight = new InFlight();
  private readonly ctx: UpstreamContext;
  private readonly getStream: GetStream;
  private resolveExited!: (status: ExitStatus) => void;
  private finishing: Promise<void> | undefined;

  constructor(options: HttpUpstreamOptions) {
    this.url = options.url;
    this.report = options.report;
    this.session = new HttpSession(options.headers ?? [], options.onEra);
    this.ctx = {
      url: this.url,
      client: this.client,
      session: this.session,
      host: this.host,
      lifetime: this.lifetime,
      report: this.report,
    };
    this.getStream = new GetStream(this.ctx);
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.output = this.host.stream;
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
    return this.session.era;
  }

  /** Stops at once (a signal): drops what is in flight, ends the session, ends `output`. */
  shutdown(): Promise<void> {
    this.inFlight.cancelAll();
    return this.finish();
  }

  // ---- host → server ---------------------------------------------------------------

  private async take(lines: Buffer[]): Promise<void> {
    for (const raw of lines) {
      if (this.finishing !== undefined) return; // stopped by a signal: nothing more goes out
      const body = trimEnd(raw);
      if (body.length === 0) continue;
      const p = peek(body);
      this.session.observe(p);
      if (p.method === "notifications/cancelled" && this.session.isModern) {
        // 2026-07-28 over HTTP: closing the request's stream is the cancellation.
        this.inFlight.cancel(p.cancels);
        continue;
      }
      const work = this.post(body, p);
      if (p.method === "notifications/cancelled") {
        // Earlier revisions: the server is told by the notification itself, and the host
        // waits for nothing more, so the request's stream (or the GET resuming it) is closed.
        this.inFlight.cancel(p.cancels);
      }
      if (p.method === "initialize" || p.method === "notifications/initialized") {
        await work.settled;
        if (p.method === "notifications/initialized" && !this.session.isModern) await this.getStream.start();
      } else {
        // Requests and the host's notifications and answers wait in pools of their own;
        // past MAX_QUEUED in either the host's input is paused.
        for (const lane of LANES) {
          if (this.client.queued(lane) > MAX_QUEUED) await this.client.drained(lane);
        }
      }
    }
  }

  private post(body: Buffer, p: Peek): Work {
    return this.inFlight.track(p, (work, answered) =>
      deliverByPost(this.ctx, work, body, answered).catch((err: unknown) =>
        this.report(`the HTTP upstream failed: ${errorText(err)}`),
      ),
    );
  }

  // ---- the end ----------------------------------------------------------------------------

  /**
   * The host's input ended (or a signal came): wait for every request in flight to be
   * answered, stop the streams still open, DELETE the session, then end `output`.
   */
  private finish(): Promise<void> {
    this.finishing ??= (async () => {
      // A subscription (2026-07-28 `subscriptions/listen`) never ends by itself.
      for (;;) {
        const waiting = this.inFlight.unsettled();
        if (waiting.length === 0) break;
        await Promise.all(waiting.map((w) => w.settled));
      }
      this.lifetime.close();
      this.getStream.abort();
      this.inFlight.cancelAll();
      if (this.session.sessionId !== undefined) {
        try {
          await this.client.send("DELETE", this.url, this.session.deleteHeaders(), DELETE_TIMEOUT_MS);
        } catch (err) {
          this.report(stderrText.ending(errorText(err)));
        }
      }
      this.host.end();
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
