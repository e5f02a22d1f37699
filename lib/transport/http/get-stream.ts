import type { Opened } from "./client.js";
import { hostLineFromText } from "./hand-over.js";
import { answeredHttp, errorText } from "./errors.js";
import { Backoff, MAX_FAILURES } from "./reconnect.js";
import { readEvents } from "./response-body.js";
import { SseReader } from "./sse.js";
import type { UpstreamContext } from "./upstream-context.js";

/** How long the host's lines after `notifications/initialized` wait for the GET stream. */
const GET_READY_MS = 1_000;

/**
 * The server's own messages: the GET stream a legacy session opens after
 * `notifications/initialized`, reopened with `Last-Event-ID` when it drops. Reopening backs
 * off exponentially (reconnect.ts: 1 s doubling to 30 s while streams end at once or
 * attempts fail, starting over after a stream that lived 10 s), and stops after 5 failures
 * in a row, or at once on 404 or 405 (a server may refuse the stream).
 */
export class GetStream {
  private started = false;
  private current: Opened | undefined;

  constructor(private readonly ctx: UpstreamContext) {}

  /**
   * Starts the GET stream, the first time only. Resolves once its first attempt has an
   * answer (or failed), 1 s at most: a server may speak on it as soon as the session is
   * initialized (a question for the host, a `list_changed`) and, without an event store,
   * drops what it says while no stream is open, so the host's next lines wait that long.
   */
  start(): Promise<void> {
    if (this.started) return Promise.resolve();
    this.started = true;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, GET_READY_MS);
      void this.loop(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Drops the stream open now, if any. */
  abort(): void {
    this.current?.abort();
  }

  private async loop(firstAnswered: () => void): Promise<void> {
    const { ctx } = this;
    const backoff = new Backoff();
    let failures = 0;
    let served = false;
    let lastFailure = "";
    let lastEventId: string | undefined;
    let retry: number | undefined;
    while (!ctx.lifetime.closing) {
      let opened: Opened | undefined;
      const openedAt = Date.now();
      try {
        opened = await ctx.client.open("GET", ctx.url, ctx.session.getHeaders(lastEventId), "stream");
      } catch (err) {
        failures++;
        backoff.failed();
        lastFailure = errorText(err);
      }
      firstAnswered();
      if (opened !== undefined) {
        this.current = opened;
        if (ctx.lifetime.closing) opened.abort();
        if (opened.status === 404 || opened.status === 405) {
          // The server offers no such stream (405), or no longer knows the session (404).
          await opened.discard();
          this.current = undefined;
          // A server that never offered the stream is within its rights and needs no word;
          // one that stops offering it after serving it is worth a line, once.
          if (served && !ctx.lifetime.closing) ctx.report(GET_ENDED(answeredHttp(opened.status, opened.reason)));
          return;
        }
        if (opened.status >= 200 && opened.status <= 299) {
          failures = 0;
          served = true;
          const reader = new SseReader((data) => {
            const line = hostLineFromText(data);
            if (line !== undefined) ctx.host.emit(line);
          });
          reader.lastEventId = lastEventId;
          await readEvents(opened, reader, ctx.host);
          lastEventId = reader.lastEventId;
          retry = reader.retryMs ?? retry;
          backoff.ended(Date.now() - openedAt);
        } else {
          await opened.discard();
          failures++;
          backoff.failed();
          lastFailure = answeredHttp(opened.status, opened.reason);
        }
        this.current = undefined;
      }
      if (ctx.lifetime.closing) return;
      if (failures >= MAX_FAILURES) {
        ctx.report(GET_ENDED(`${MAX_FAILURES} tries in a row failed, the last with: ${lastFailure}`));
        return;
      }
      await ctx.lifetime.pause(backoff.delay(retry));
    }
  }
}

/** Said once on stderr when the server's own stream is given up. */
const GET_ENDED = (why: string) => `the server's own event stream (GET) is not reopened: ${why}`;
