import type { ServerResponse } from "node:http";
import type { EventBuffer, BufferedEvent } from "./event-buffer.js";
import { eventId } from "./event-buffer.js";

/** A keep-alive comment this often on every open event stream. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * Where messages for the host go: the event stream (or JSON answer) of one POST, or the
 * session's GET stream. An event stream keeps its messages in the session's buffer with an
 * id, so when its connection drops it lives on, detached, and a GET with `Last-Event-ID`
 * takes it up again where the host lost it.
 */
export class ReplyStream {
  /** Requests (by id key) whose answers this stream is owed. */
  readonly waiting = new Set<string>();
  /** JSON mode: the answers so far, in the order they came. */
  private readonly answers: string[] = [];
  private res: ServerResponse | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  finished = false;

  constructor(
    readonly no: number,
    readonly kind: "post" | "get",
    /** False: one `application/json` body once every answer is in. */
    readonly sse: boolean,
    private readonly buffer: EventBuffer,
    /** A JSON body is one answer, or (for a batch) an array of them. */
    private readonly batch = false,
  ) {}

  get attached(): boolean {
    return this.res !== undefined;
  }

  /** Starts answering on `res`: an event stream at once (replaying `missed`), or JSON later. */
  attach(res: ServerResponse, headers: Record<string, string>, missed: readonly BufferedEvent[] = []): void {
    this.res = res;
    res.once("close", () => {
      if (this.res === res) this.detach();
    });
    if (!this.sse) {
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      return;
    }
    res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache",
      "X-Accel-Buffering": "no",
      Connection: "keep-alive",
      ...headers,
    });
    res.flushHeaders();
    for (const e of missed) res.write(`id: ${eventId(e)}\ndata: ${e.data}\n\n`);
    this.keepAlive = setInterval(() => res.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
    this.keepAlive.unref();
    if (this.kind === "post" && this.waiting.size === 0) this.finish();
  }

  /** A message on this stream; false when it could not go (a JSON body takes only answers). */
  send(data: string): boolean {
    if (!this.sse) return false;
    const id = this.buffer.add(this.no, data);
    this.res?.write(`id: ${id}\ndata: ${data}\n\n`);
    return true;
  }

  /** The answer to one of the requests this stream is owed; the stream ends after the last. */
  answer(idKey: string, data: string): void {
    this.waiting.delete(idKey);
    if (this.sse) this.send(data);
    else this.answers.push(data);
    if (this.waiting.size === 0) this.finish();
  }

  /** Ends the stream (and sends the JSON body, if that is what it owes). */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    const res = this.res;
    this.detach();
    if (!res || res.destroyed) return;
    if (this.sse) {
      res.end();
      return;
    }
    const body = this.batch ? `[${this.answers.join(",")}]` : (this.answers[0] ?? "");
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(body);
  }

  /** The connection went away (or the stream ended): the stream itself may live on. */
  detach(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.res = undefined;
  }

  /** Ends the connection without finishing the stream (replaced by a newer GET). */
  drop(): void {
    const res = this.res;
    this.detach();
    res?.end();
  }
}
