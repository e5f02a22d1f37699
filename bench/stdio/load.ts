/**
 * The host side of the stdio benchmark: writes JSON-RPC requests of a fixed size to a
 * chain's stdin and times each answer on its stdout.
 *
 * The host must cost as little as it can, since on a small machine it shares the CPUs with
 * the relay and the server it measures. Requests are copies of one template with the id
 * stamped in place; answers are never joined or decoded: a scanner keeps the first bytes
 * of each line (for its id) and counts the rest, and the answer's length is checked
 * against the expected one, so a lost or mangled byte is caught without parsing.
 */
import type { Readable, Writable } from "node:stream";

const HEAD = '{"jsonrpc":"2.0","id":';
const METHOD_AND_PARAMS = ',"method":"echo","params":';
const RESULT = ',"result":';
/** Ids are 10 digits wide (ID_BASE + sequence), so every request has the same length. */
const ID_BASE = 1_000_000_000;
const ID_WIDTH = 10;
const INIT_ID = 1;
const HEAD_KEEP = 48;

/** Requests of one size: `{"jsonrpc":"2.0","id":N,"method":"echo","params":{"data":"…"}}\n`. */
export class RequestFactory {
  /** Bytes of each request line, `\n` included. */
  readonly requestBytes: number;
  /** Bytes of the echo server's answer line, `\n` included. */
  readonly responseBytes: number;
  private readonly template: Buffer;

  constructor(lineBytes: number) {
    const open = `${HEAD}${"0".repeat(ID_WIDTH)}${METHOD_AND_PARAMS}{"data":"`;
    const close = '"}}\n';
    const filler = lineBytes - open.length - close.length;
    if (filler < 0) throw new Error(`a request cannot be as short as ${lineBytes} bytes`);
    this.template = Buffer.allocUnsafe(lineBytes);
    this.template.write(open, 0, "latin1");
    // Printable, varied and JSON-safe: no quote, no backslash.
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:,;+=*!?~#";
    const block = Buffer.from(alphabet.repeat(Math.ceil(4096 / alphabet.length)).slice(0, 4096), "latin1");
    for (let at = open.length; at < open.length + filler; at += block.length) {
      block.copy(this.template, at, 0, Math.min(block.length, open.length + filler - at));
    }
    this.template.write(close, open.length + filler, "latin1");
    this.requestBytes = lineBytes;
    this.responseBytes = lineBytes - METHOD_AND_PARAMS.length + RESULT.length;
  }

  /** A fresh request line with id `ID_BASE + seq` (a copy: a written buffer is not reused). */
  make(seq: number): Buffer {
    const buf = Buffer.allocUnsafe(this.template.length);
    this.template.copy(buf);
    buf.write(String(ID_BASE + seq), HEAD.length, "latin1");
    return buf;
  }
}

/** One `initialize` request: what a host sends first. */
const INIT = Buffer.from(
  `${JSON.stringify({
    jsonrpc: "2.0",
    id: INIT_ID,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "stretto-bench-host", version: "0.0.0" },
    },
  })}\n`,
);

export interface RunResult {
  /** Round-trip times in microseconds, ascending. */
  latenciesUs: Float64Array;
  /** First request written to last answer read. */
  elapsedMs: number;
  /** Bytes of requests and answers moved. */
  bytes: number;
}

type OnLine = (id: number, length: number, now: number) => void;

/** The host end of one chain. */
export class Host {
  private readonly head = Buffer.allocUnsafe(HEAD_KEEP);
  private headLength = 0;
  private lineLength = 0;
  private onLine: OnLine | undefined;
  private failure: ((err: Error) => void) | undefined;
  private nextSeq = 0;

  constructor(
    private readonly input: Writable,
    output: Readable,
    exited: Promise<unknown>,
  ) {
    output.on("data", (chunk: Buffer) => this.scan(chunk, performance.now()));
    void exited.then(() => this.failure?.(new Error("the chain exited mid-run")));
  }

  /** Sends `initialize` and resolves with `performance.now()` when its answer is read. */
  first(timeoutMs = 30_000): Promise<number> {
    return this.expect(timeoutMs, (done) => {
      this.onLine = (id, _length, now) => {
        if (id === INIT_ID) done(now);
      };
      this.input.write(INIT);
    });
  }

  /**
   * Sends `count` requests, keeping `inFlight` outstanding (a new one for each answer), or
   * with `inFlight` 0 pipelined: written as fast as the pipe takes them, never waiting for
   * an answer. Resolves once every answer is in.
   */
  run(factory: RequestFactory, count: number, inFlight: number, timeoutMs = 120_000): Promise<RunResult> {
    const base = this.nextSeq;
    this.nextSeq += count;
    const sentAt = new Float64Array(count);
    const latencies = new Float64Array(count).fill(Number.NaN);
    let sent = 0;
    let received = 0;
    let over = false;
    const send = (): boolean => {
      const seq = sent++;
      const line = factory.make(base + seq);
      sentAt[seq] = performance.now();
      return this.input.write(line);
    };
    return this.expect<RunResult>(timeoutMs, (resolve, reject) => {
      const done = (r: RunResult) => ((over = true), resolve(r));
      const fail = (e: Error) => ((over = true), reject(e));
      this.onLine = (id, length, now) => {
        const seq = id - ID_BASE - base;
        if (!(seq >= 0 && seq < count) || !Number.isNaN(latencies[seq]!)) {
          return fail(new Error(`an answer with an unexpected id ${id}`));
        }
        if (length !== factory.responseBytes) {
          return fail(new Error(`answer ${id} has ${length} bytes, not ${factory.responseBytes}`));
        }
        latencies[seq] = (now - sentAt[seq]!) * 1000;
        if (++received === count) {
          return done({
            latenciesUs: latencies.sort(),
            elapsedMs: now - sentAt[0]!,
            bytes: count * (factory.requestBytes + factory.responseBytes),
          });
        }
        if (inFlight > 0 && sent < count) send();
      };
      if (inFlight > 0) {
        while (sent < Math.min(inFlight, count)) send();
      } else {
        const pump = () => {
          while (sent < count && !over) {
            if (!send()) {
              this.input.once("drain", pump);
              return;
            }
          }
        };
        pump();
      }
    });
  }

  private expect<T>(timeoutMs: number, start: (done: (v: T) => void, fail: (e: Error) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      const finish = (err: Error | undefined, value?: T) => {
        clearTimeout(timer);
        this.onLine = undefined;
        this.failure = undefined;
        if (err) reject(err);
        else resolve(value as T);
      };
      this.failure = (err) => finish(err);
      start(
        (v) => finish(undefined, v),
        (e) => finish(e),
      );
    });
  }

  /** Splits answers on `\n` without joining them: keeps each line's head, counts the rest. */
  private scan(chunk: Buffer, now: number): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const stop = nl === -1 ? chunk.length : nl + 1;
      if (this.headLength < HEAD_KEEP) {
        this.headLength += chunk.copy(this.head, this.headLength, start, Math.min(stop, start + HEAD_KEEP - this.headLength));
      }
      this.lineLength += stop - start;
      start = stop;
      if (nl === -1) break;
      const length = this.lineLength;
      const id = idOf(this.head.subarray(0, this.headLength));
      this.headLength = 0;
      this.lineLength = 0;
      this.onLine?.(id, length, now);
    }
  }
}

/** The integer id of an answer that starts `{"jsonrpc":"2.0","id":<digits>`; -1 otherwise. */
function idOf(head: Buffer): number {
  if (head.length <= HEAD.length || head.toString("latin1", 0, HEAD.length) !== HEAD) return -1;
  let id = 0;
  let i = HEAD.length;
  for (; i < head.length; i++) {
    const d = head[i]! - 0x30;
    if (d < 0 || d > 9) break;
    id = id * 10 + d;
  }
  return i === HEAD.length ? -1 : id;
}
