import { PassThrough, Writable } from "node:stream";
import type { ExitStatus, ServerTransport } from "../bus/server-port.js";
import { bytesOf, LineBuffer, seenOf, type ServerMessage, type SeenLine } from "./lines.js";

/** Returned by a server script (alone or in a list): after the line's other replies, the server closes its output and exits, as a server that crashes. */
export const SERVER_EXITS: unique symbol = Symbol("the server exits");

/** What the server says back: a JSON value sent as one line, a raw line, or its end. */
export type ServerReply = object | string | typeof SERVER_EXITS;

/**
 * The server, as a function of each JSON-RPC message it receives: its reply, several lines
 * (an array is a list of lines; return `[[a, b]]` for one batch line), or nothing. The
 * messages of a host batch are handed over one by one, and their object replies go back
 * as one batch line, as a server answers a batch.
 */
export type ServerScript = (message: ServerMessage) => ServerReply | readonly ServerReply[] | undefined;

/**
 * An in-memory server transport: what the proxy writes is parsed, kept in `received`, and
 * answered by the script; its input ending is the server's end.
 */
export class MemoryServer implements ServerTransport {
  readonly output = new PassThrough();
  readonly input: Writable;
  readonly exited: Promise<ExitStatus>;
  /** Every line the server got, in order, parsed (a line that is not JSON as its text). */
  readonly received: SeenLine[] = [];
  private finish!: (s: ExitStatus) => void;
  private ended = false;
  private readonly lines = new LineBuffer();

  constructor(
    private readonly script: ServerScript,
    /** Told when the script throws; the line it was given gets no reply. */
    private readonly onScriptError: (err: Error, message: ServerMessage) => void,
  ) {
    this.exited = new Promise((r) => (this.finish = r));
    this.input = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        for (const l of this.lines.push(chunk)) this.take(l);
        cb();
      },
      final: (cb) => {
        const rest = this.lines.rest();
        if (rest) this.take(rest);
        this.end();
        cb();
      },
    });
  }

  /** Closes the server's output and exits with code 0 (at most once). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.output.end();
    this.finish({ code: 0, signal: null });
  }

  shutdown(): Promise<void> {
    this.end();
    return Promise.resolve();
  }

  private take(bytes: Buffer): void {
    const value = seenOf(bytes);
    this.received.push(value);
    if (typeof value !== "object" || value === null) return;
    const batch = Array.isArray(value);
    const messages = (batch ? value : [value]) as unknown[];
    const batchAnswers: object[] = [];
    let exits = false;
    for (const m of messages) {
      if (m === null || typeof m !== "object" || Array.isArray(m)) continue;
      let reply: ServerReply | readonly ServerReply[] | undefined;
      try {
        reply = this.script(m as ServerMessage);
      } catch (e) {
        this.onScriptError(e instanceof Error ? e : new Error(String(e)), m as ServerMessage);
        continue;
      }
      const replies: readonly ServerReply[] = reply === undefined ? [] : isList(reply) ? reply : [reply];
      for (const r of replies) {
        if (r === SERVER_EXITS) exits = true;
        else if (batch && typeof r === "object" && !Array.isArray(r)) batchAnswers.push(r);
        else this.say(r);
      }
    }
    if (batchAnswers.length > 0) this.say(batchAnswers);
    if (exits) this.end();
  }

  private say(reply: object | string): void {
    if (!this.ended) this.output.write(bytesOf(reply));
  }
}

/** A script's array is a list of lines (a batch line is an array inside it). */
function isList(reply: ServerReply | readonly ServerReply[]): reply is readonly ServerReply[] {
  return Array.isArray(reply);
}
