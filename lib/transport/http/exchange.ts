import { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { decoded } from "./content-encoding.js";

/** Response headers, names lowercase. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** A response whose head has arrived; its body is read whole, as a stream, or thrown away. */
export interface Opened {
  readonly status: number;
  readonly reason: string;
  readonly headers: ResponseHeaders;
  /** The body as it comes (created on first use). */
  readonly body: Readable;
  /** The whole body, once it has all arrived. */
  whole(): Promise<Buffer>;
  /** Reads the body to its end and drops it, so the connection is free again; never rejects. */
  discard(): Promise<void>;
  /** Drops the connection (the body then ends or errors). */
  readonly abort: () => void;
}

/** Said when a request is dropped before its answer began. */
const DROPPED = "the request was dropped before its answer began";

/**
 * One request and its response, as undici's dispatcher hands it over. A response body is
 * mostly one small JSON answer read whole: its chunks are kept as they come, with no stream
 * in between; a stream is made only for a body read as one (an event stream). The connection
 * slot (`release`) is given back once undici is done with the exchange, however it ended.
 */
export class Exchange implements Dispatcher.DispatchHandler, Opened {
  status = 0;
  reason = "";
  headers: ResponseHeaders = {};
  /** Resolves once the response head is in; rejects if none comes. */
  readonly opened: Promise<Opened>;
  /** Drops the exchange, whatever it is at (bound, for handing around). */
  readonly abort = (): void => this.drop();

  private controller: Dispatcher.DispatchController | undefined;
  private started = false;
  private dropped = false;
  private released = false;
  private ended = false;
  private failure: Error | undefined;
  private chunks: Buffer[] = [];
  private stream: Readable | undefined;
  private decodedStream: Readable | undefined;
  private collector: { resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined;
  private resolveOpened!: (o: Opened) => void;
  private rejectOpened!: (e: Error) => void;

  constructor(private readonly release: () => void) {
    this.opened = new Promise((resolve, reject) => {
      this.resolveOpened = resolve;
      this.rejectOpened = reject;
    });
  }

  /** True once the exchange was dropped before it was sent: it is not to be dispatched. */
  get isDropped(): boolean {
    return this.dropped;
  }

  /** The exchange will never reach undici (dropped while waiting, or refused by it). */
  fail(err: Error): void {
    this.onResponseError(undefined, err);
  }

  // ---- undici's side -----------------------------------------------------------------

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.dropped) controller.abort(new Error(DROPPED));
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: ResponseHeaders, statusMessage?: string): void {
    this.status = status;
    this.reason = statusMessage ?? "";
    this.headers = headers;
    this.started = true;
    this.resolveOpened(this);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.stream === undefined) this.chunks.push(chunk);
    else if (!this.stream.push(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.done();
    if (this.stream !== undefined) this.stream.push(null);
    else if (this.collector !== undefined) this.collector.resolve(this.joined());
  }

  onResponseError(_c: Dispatcher.DispatchController | undefined, err: Error): void {
    this.failure = err;
    this.done();
    if (!this.started) this.rejectOpened(err);
    this.stream?.destroy(err);
    this.collector?.reject(err);
  }

  // ---- the caller's side -------------------------------------------------------------

  get body(): Readable {
    if (this.stream === undefined) {
      const stream = new Readable({
        read: () => this.controller?.resume(),
        destroy: (err, callback) => {
          if (!this.ended && this.failure === undefined) this.drop();
          callback(err);
        },
      });
      this.stream = stream;
      for (const c of this.chunks) stream.push(c);
      this.chunks = [];
      if (this.ended) stream.push(null);
      else if (this.failure !== undefined) stream.destroy(this.failure);
      this.decodedStream = decoded(stream, this.headers["content-encoding"]);
    }
    return this.decodedStream!;
  }

  whole(): Promise<Buffer> {
    if (this.headers["content-encoding"] !== undefined || this.stream !== undefined) return readAll(this.body);
    if (this.ended) return Promise.resolve(this.joined());
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.collector = { resolve, reject }));
  }

  discard(): Promise<void> {
    return this.whole().then(
      () => {},
      () => {},
    );
  }

  // ---- inside ------------------------------------------------------------------------

  private drop(): void {
    if (this.ended || this.failure !== undefined) {
      this.stream?.destroy();
      return;
    }
    const err = new Error(DROPPED);
    this.dropped = true;
    if (this.stream !== undefined && !this.stream.destroyed) this.stream.destroy();
    if (this.controller !== undefined) this.controller.abort(err);
    else if (!this.started) this.rejectOpened(err); // undici ends it (and frees the slot) once it starts
  }

  private done(): void {
    if (this.released) return;
    this.released = true;
    this.release();
  }

  private joined(): Buffer {
    const c = this.chunks;
    this.chunks = [];
    return c.length === 1 ? c[0]! : Buffer.concat(c);
  }
}

/** A whole stream, once it has all arrived. */
function readAll(body: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on("data", (c: Buffer) => chunks.push(c));
    body.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    body.once("error", reject);
  });
}
