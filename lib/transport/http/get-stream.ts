import type { Opened } from "./client.js";
import { hostLineFromText } from "./hand-over.js";
import { MAX_FAILURES, reconnectDelay } from "./reconnect.js";
import { drain, readEvents } from "./response-body.js";
import { SseReader } from "./sse.js";
import type { UpstreamContext } from "./upstream-context.js";

/** How long the host's lines after `notifications/initialized` wait for the GET stream. */
const GET_READY_MS = 1_000;

/**
 * The server's own messages: the GET stream a legacy session opens after
 * `notifications/initialized`, reopened with `Last-Event-ID` when it drops, backing off,
 * and given up after 5 failures in a row, or at once on 404 or 405.
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
    let failures = 0;
    let lastEventId: string | undefined;
    let retry: number | undefined;
    while (!ctx.lifetime.closing && failures < MAX_FAILURES) {
      let opened: Opened | undefined;
      try {
        opened = await ctx.client.open("GET", ctx.url, ctx.session.getHeaders(lastEventId), "stream");
      } catch {
        failures++;
      }
      firstAnswered();
      if (opened !== undefined) {
        this.current = opened;
        if (ctx.lifetime.closing) opened.abort();
        if (opened.status === 404 || opened.status === 405) {
          await drain(opened);
          return;
        }
        if (opened.status >= 200 && opened.status <= 299) {
          failures = 0;
          const reader = new SseReader((data) => {
            const line = hostLineFromText(data);
            if (line !== undefined) ctx.host.emit(line);
          });
          reader.lastEventId = lastEventId;
          await readEvents(opened, reader, ctx.host);
          lastEventId = reader.lastEventId;
          retry = reader.retryMs ?? retry;
        } else {
          await drain(opened);
          failures++;
        }
        this.current = undefined;
      }
      if (ctx.lifetime.closing || failures >= MAX_FAILURES) return;
      await ctx.lifetime.pause(reconnectDelay(retry, failures));
    }
  }
}
