import type { Opened } from "./client.js";
import { CUT_OFF, stderrText } from "./errors.js";
import type { Work } from "./in-flight.js";
import { Backoff, MAX_FAILURES } from "./reconnect.js";
import { readEvents } from "./response-body.js";
import { SseReader } from "./sse.js";
import type { UpstreamContext } from "./upstream-context.js";

/**
 * SEP-1699: a request's event stream closed before its answer is picked up again by GET
 * with `Last-Event-ID`, after the server's `retry`, backing off like the GET stream when
 * the resumed streams end at once (reconnect.ts). Gives up (with an error for the host) on
 * 404 or 405, or after 5 failures in a row; stops when the host cancels the request, even
 * while a GET is still connecting.
 */
export async function resumeAnswer(
  ctx: UpstreamContext,
  work: Work,
  fromId: string,
  retryMs: number | undefined,
  onData: (data: string) => void,
): Promise<void> {
  let lastEventId = fromId;
  let retry = retryMs;
  let failures = 0;
  const backoff = new Backoff();
  while (!work.answered && !work.cancelled && !ctx.lifetime.closing && failures < MAX_FAILURES) {
    await ctx.lifetime.pause(backoff.delay(retry));
    if (work.cancelled || ctx.lifetime.closing) break;
    const openedAt = Date.now();
    let opened: Opened;
    try {
      // A cancel that comes while the GET connects drops the connecting request.
      opened = await ctx.client.open("GET", ctx.url, ctx.session.getHeaders(lastEventId), "stream", undefined, (abort) => (work.abort = abort));
    } catch {
      failures++;
      backoff.failed();
      continue;
    }
    work.abort = opened.abort;
    if (work.cancelled) {
      opened.abort();
      break;
    }
    if (opened.status === 404 || opened.status === 405) {
      await opened.discard();
      break;
    }
    if (opened.status < 200 || opened.status > 299) {
      await opened.discard();
      failures++;
      backoff.failed();
      continue;
    }
    failures = 0;
    const reader = new SseReader((data) => {
      onData(data);
      if (work.answered) opened.abort(); // the answer is in: this stream has done its part
    });
    reader.lastEventId = lastEventId;
    await readEvents(opened, reader, ctx.host);
    lastEventId = reader.lastEventId ?? lastEventId;
    retry = reader.retryMs ?? retry;
    backoff.ended(Date.now() - openedAt);
  }
  if (work.answered || work.cancelled) return;
  ctx.report(stderrText.cutOff("the event stream ended before the answer, and could not be resumed"));
  ctx.host.answerWithError(work, CUT_OFF);
}
