import type { Opened } from "./client.js";
import { answerMismatch, isAnswerTo, isErrorFor } from "./answer-match.js";
import { CUT_OFF, EMPTY_ANSWER, MISMATCHED, SESSION_ENDED, UNREACHABLE, answeredHttp, errorLines, errorText, stderrText } from "./errors.js";
import { hostLineFromBytes, hostLineFromText } from "./hand-over.js";
import type { Work } from "./in-flight.js";
import { resumeAnswer } from "./resume.js";
import { readEvents } from "./response-body.js";
import { SseReader } from "./sse.js";
import type { UpstreamContext } from "./upstream-context.js";

/**
 * POSTs one host message and hands its answer to the host: nothing for a 202, the body of a
 * JSON answer, the events of a stream answer, or an error when the server refuses or fails.
 */
export async function deliverByPost(ctx: UpstreamContext, work: Work, body: Buffer, answered: () => void): Promise<void> {
  const p = work.peek;
  let opened: Opened;
  try {
    const lane = p.idJson === undefined ? "reply" : "request";
    // A cancel that comes while the POST waits or connects drops it.
    opened = await ctx.client.open("POST", ctx.url, ctx.session.postHeaders(p), lane, body, (abort) => (work.abort = abort));
  } catch (err) {
    if (work.cancelled) return;
    ctx.report(stderrText.unreachable(errorText(err)));
    ctx.host.answerWithError(work, UNREACHABLE);
    return;
  }
  work.abort = opened.abort;
  if (work.cancelled) return opened.abort();
  ctx.session.learnSessionId(p, opened.headers);
  if (opened.status === 202) return opened.discard();
  if (opened.status < 200 || opened.status > 299) return refused(ctx, work, opened);
  if (isEventStream(opened.headers["content-type"])) return readPostStream(ctx, work, opened, answered);
  return readJsonBody(ctx, work, body, opened, answered);
}

/**
 * A non-2xx answer: the host gets an error for a request (or, modern, the server's own), and
 * stderr says why. Work the host cancelled meanwhile gets neither.
 */
async function refused(ctx: UpstreamContext, work: Work, opened: Opened): Promise<void> {
  const p = work.peek;
  const ended = opened.status === 404 && ctx.session.sessionId !== undefined;
  const reason = ended ? SESSION_ENDED : answeredHttp(opened.status, opened.reason);
  let body: Buffer | undefined;
  try {
    body = await opened.whole();
  } catch {
    body = undefined;
  }
  if (work.cancelled) return;
  ctx.report(reason);
  if (p.idJson === undefined) return;
  const modern = ctx.session.isModernFor(p);
  if (!ended && modern && body !== undefined) {
    const own = hostLineFromBytes(body);
    if (own !== undefined && isErrorFor(own, p.idJson)) {
      ctx.host.emit(own);
      return;
    }
  }
  ctx.host.answerWithError(work, reason);
}

async function readJsonBody(ctx: UpstreamContext, work: Work, posted: Buffer, opened: Opened, answered: () => void): Promise<void> {
  let body: Buffer;
  try {
    body = await opened.whole();
  } catch (err) {
    if (work.cancelled) return;
    ctx.report(stderrText.cutOff(errorText(err)));
    ctx.host.answerWithError(work, CUT_OFF);
    return;
  }
  if (work.cancelled) return;
  const line = hostLineFromBytes(body);
  if (line === undefined) {
    // Nothing in a 2xx JSON answer: a request would wait for ever, so it is told.
    if (work.peek.idJson !== undefined) {
      ctx.report(EMPTY_ANSWER);
      ctx.host.answerWithError(work, EMPTY_ANSWER);
    }
    return;
  }
  // The body must answer what was POSTed: the request's id (or each request of a batch).
  // Handed over, an answer with another id would reach the host as a wrong answer.
  const mismatch = answerMismatch(posted, work.peek, line, isJsonType(opened.headers["content-type"]));
  if (mismatch !== undefined) {
    ctx.report(`${MISMATCHED}: ${mismatch.why}`);
    ctx.host.emit(errorLines(mismatch.ids, mismatch.batch, MISMATCHED), "proxy");
    return;
  }
  ctx.session.learnFrom(work.peek, line);
  ctx.host.emit(line);
  answered();
}

/** An answer as an event stream: its events in order, resumed by GET if it breaks off. */
async function readPostStream(ctx: UpstreamContext, work: Work, opened: Opened, answered: () => void): Promise<void> {
  const p = work.peek;
  const onData = (data: string) => {
    const line = hostLineFromText(data);
    if (line === undefined || work.cancelled) return;
    const answer = p.idJson !== undefined && !work.answered && isAnswerTo(line, p.idJson);
    if (answer) ctx.session.learnFrom(p, line);
    ctx.host.emit(line);
    if (answer) answered();
  };
  const reader = new SseReader((data) => onData(data));
  const failure = await readEvents(opened, reader, ctx.host);
  if (work.answered || work.cancelled || p.idJson === undefined) return;

  const resumable = !ctx.session.isModernFor(p) && reader.lastEventId !== undefined;
  if (!resumable) {
    ctx.report(stderrText.cutOff(failure ?? "the event stream ended before the answer"));
    ctx.host.answerWithError(work, CUT_OFF);
    return;
  }
  await resumeAnswer(ctx, work, reader.lastEventId!, reader.retryMs, onData);
}

/** `application/json`, whatever its parameters. */
function isJsonType(header: string | string[] | undefined): boolean {
  const contentType = Array.isArray(header) ? header[0] : header;
  return contentType !== undefined && /^\s*application\/json\s*(;|$)/i.test(contentType);
}

function isEventStream(header: string | string[] | undefined): boolean {
  const contentType = Array.isArray(header) ? header[0] : header;
  return contentType !== undefined && contentType.trimStart().toLowerCase().startsWith("text/event-stream");
}
