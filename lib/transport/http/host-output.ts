import { Readable } from "node:stream";
import { errorLine } from "./errors.js";
import type { Work } from "./in-flight.js";

/**
 * The server → host side: the lines the host reads (the transport's `output`), with
 * backpressure from a slow host, and the proxy's own error answers.
 *
 * Every `emit` is one whole line (one `\n`, at its end: `hand-over.ts` and `errorLine` make
 * them so), so the n-th line read from `stream` is the n-th emitted, and which of them the
 * proxy composed can be told by counting.
 */
export class HostOutput {
  readonly stream: Readable;

  private isFull = false;
  private ended = false;
  private roomWaiters: Array<() => void> = [];
  /** Which lines (numbered from 0 in `stream`) the proxy composed, until they are read. */
  private readonly composed = new Set<number>();
  private emitted = 0;
  private read = 0;

  constructor() {
    this.stream = new Readable({
      read: () => {
        this.isFull = false;
        const waiters = this.roomWaiters;
        this.roomWaiters = [];
        for (const w of waiters) w();
      },
    });
  }

  /** True while the host has not read what it was last given. */
  get full(): boolean {
    return this.isFull;
  }

  /** Hands the host one line: the server's, unless `from` says the proxy composed it. */
  emit(line: Buffer, from: "server" | "proxy" = "server"): void {
    if (this.ended) return;
    if (from === "proxy") this.composed.add(this.emitted);
    this.emitted++;
    if (!this.stream.push(line)) this.isFull = true;
  }

  answerWithError(work: Work, message: string): void {
    if (work.peek.idJson === undefined || work.cancelled) return;
    this.emit(errorLine(work.peek.idJson, message), "proxy");
  }

  /** Who wrote the next line read from `stream` (asked once per line, in order). */
  nextLineFrom(): "server" | "proxy" {
    return this.composed.delete(this.read++) ? "proxy" : "server";
  }

  /** Resolves when the host side has room again (backpressure from a slow host). */
  room(): Promise<void> {
    if (!this.isFull || this.ended) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Nothing more goes to the host. */
  end(): void {
    this.ended = true;
    this.stream.push(null);
  }
}
