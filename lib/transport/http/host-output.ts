import { Readable } from "node:stream";
import { errorLine } from "./errors.js";
import type { Work } from "./in-flight.js";

/**
 * The server → host side: the lines the host reads (the transport's `output`), with
 * backpressure from a slow host, and the proxy's own error answers.
 */
export class HostOutput {
  readonly stream: Readable;

  private isFull = false;
  private ended = false;
  private roomWaiters: Array<() => void> = [];

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

  emit(line: Buffer): void {
    if (this.ended) return;
    if (!this.stream.push(line)) this.isFull = true;
  }

  answerWithError(work: Work, message: string): void {
    if (work.peek.idJson === undefined || work.cancelled) return;
    this.emit(errorLine(work.peek.idJson, message));
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
