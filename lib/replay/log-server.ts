import { PassThrough, Writable } from "node:stream";
import type { ExitStatus, ServerTransport } from "../bus/server-port.js";
import type { LogEntry } from "../trace/log-types.js";
import type { Json } from "../trace/json.js";
import { idKey, isRequest, line, type RpcId } from "../bus/runtime/json-rpc.js";
import { OWN_ID_PREFIX } from "../bus/runtime/own-requests.js";

/**
 * The server's side of a recorded session, played back: what the server said comes from
 * the log instead of a process. The replay conductor pushes the recorded lines; the
 * proxy's own requests (whose ids may differ from the recording's) are answered with the
 * recorded answer to the same request (method and params), or an error saying the log
 * does not have it.
 */
export class LogServer implements ServerTransport {
  readonly output = new PassThrough();
  readonly input: Writable;
  readonly exited: Promise<ExitStatus>;
  private finish!: (s: ExitStatus) => void;
  /** Host request ids the server was sent in this replay. */
  private readonly received = new Set<string>();
  /** Lines of the host's (not the proxy's own requests) the server has read. */
  hostLines = 0;
  /** Called after each line the server reads. */
  onLine: () => void = () => {};
  /** Recorded own requests: id → `method params`, and every such key. */
  private readonly recordedAsk = new Map<string, string>();
  private readonly recordedKeys = new Set<string>();
  /** Replay requests waiting for their recorded answer's turn, and answers whose turn came first. */
  private readonly waitingOwn = new Map<string, string[]>();
  private readonly released = new Map<string, Json[]>();

  constructor(entries: readonly LogEntry[]) {
    this.exited = new Promise((r) => (this.finish = r));
    this.indexOwnRequests(entries);
    this.input = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        for (const text of chunk.toString("utf8").split("\n")) if (text.trim() !== "") this.take(text);
        cb();
        this.onLine();
      },
    });
  }

  /** Whether the server got the host's request with this id in this replay. */
  got(id: RpcId): boolean {
    return this.received.has(idKey(id));
  }

  /** Says a recorded line. */
  say(bytes: Buffer): void {
    this.output.write(bytes);
  }

  end(): void {
    this.output.end();
    this.finish({ code: 0, signal: null });
  }

  shutdown(): Promise<void> {
    this.end();
    return Promise.resolve();
  }

  private take(text: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.hostLines++;
      return;
    }
    const messages: unknown[] = Array.isArray(msg) ? msg : [msg];
    const own = messages.length === 1 && isRequest(messages[0]) && typeof messages[0].id === "string" && messages[0].id.startsWith(OWN_ID_PREFIX);
    if (!own) this.hostLines++;
    for (const m of messages) {
      if (!isRequest(m)) continue;
      if (typeof m.id === "string" && m.id.startsWith(OWN_ID_PREFIX)) this.answerOwn(m.id, m.method, m.params);
      else this.received.add(idKey(m.id));
    }
  }

  private answerOwn(id: string, method: string, params: unknown): void {
    const key = `${method} ${JSON.stringify(params ?? null)}`;
    if (!this.recordedKeys.has(key)) {
      const error = { jsonrpc: "2.0", id, error: { code: -32000, message: "stretto replay: this request is not in the log" } };
      setImmediate(() => this.output.write(line(error)));
      return;
    }
    const ready = this.released.get(key)?.shift();
    if (ready !== undefined) {
      setImmediate(() => this.output.write(line({ ...(ready as object), id })));
      return;
    }
    const list = this.waitingOwn.get(key) ?? [];
    list.push(id);
    this.waitingOwn.set(key, list);
  }

  /**
   * The log has reached the recorded answer to one of the proxy's own requests: it goes to
   * the replay's request with the same method and params, at this point of the session, so
   * what the plugins see next comes in the recorded order.
   */
  releaseOwn(recordedId: string, answer: Json): boolean {
    const key = this.recordedAsk.get(recordedId);
    if (key === undefined) return false;
    const waiting = this.waitingOwn.get(key)?.shift();
    if (waiting !== undefined) {
      this.output.write(line({ ...(answer as object), id: waiting }));
      return true;
    }
    const list = this.released.get(key) ?? [];
    list.push(answer);
    this.released.set(key, list);
    return false;
  }

  private indexOwnRequests(entries: readonly LogEntry[]): void {
    for (const e of entries) {
      const m = e.message;
      if (e.from === "proxy" && isRequest(m) && typeof m.id === "string" && m.id.startsWith(OWN_ID_PREFIX)) {
        const key = `${m.method} ${JSON.stringify(m.params ?? null)}`;
        this.recordedAsk.set(m.id, key);
        this.recordedKeys.add(key);
      }
    }
  }
}
