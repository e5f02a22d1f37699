import { monotonicClock } from "../bus/clock.js";
import type { Frame } from "../bus/frame.js";
import { lineSource } from "../bus/line-source.js";
import type { Subscription } from "rxjs";
import { WriteSink } from "../bus/write-sink.js";
import { StdioChild } from "../transport/stdio-child.js";
import { osErrorText } from "../util/os-errors.js";
import { VERSION } from "../version.js";
import { ProcedureError } from "./error.js";
import { compact, fromPlain, isObject, jsonEqual, jsonNumber, type Json, type JsonObject } from "./json.js";
import { tryParseJson } from "./json-parse.js";
import type { ToolResult, Tools } from "./run.js";
import { errorText } from "../util/error-text.js";

export const PROTOCOL_VERSION = "2025-06-18";
/** How long a server may take to exit once its stdin is closed, before it is stopped. */
export const DEFAULT_PATIENCE_MS = 5000;

export interface McpClientOptions {
  /** Longest wait for any one answer; none by default (a slow tool may be slow). */
  timeoutMs?: number | undefined;
  /** How long shutting down waits for the server to exit on its own. */
  patienceMs?: number;
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/**
 * A minimal MCP client over a server's stdio, built on the proxy's own pieces: the child
 * in its own process group, its output read as lines by the bus's line source, requests
 * written through the bus's write sink. Requests are numbered 1, 2, 3… in order (servers
 * in tests count them); lines that are not the awaited answer are skipped, and requests
 * from the server get no answer.
 */
export class McpStdioClient implements Tools {
  private nextId = 0;
  private readonly lines: Json[] = [];
  private ended = false;
  private wake: (() => void) | undefined;
  private writeError: Error | undefined;
  private readonly subscription: Subscription;
  private readonly sink: WriteSink;

  private constructor(
    private readonly child: StdioChild,
    private readonly options: McpClientOptions,
  ) {
    this.sink = new WriteSink(child.input, {
      endOnComplete: true,
      // A server that closed its stdin will never read the request: stop waiting for it.
      onWriteError: (err) => {
        this.writeError = err;
        this.wake?.();
      },
    });
    // Whole lines only: an answer is useful only entire, however long.
    this.subscription = lineSource(child.output, {
      from: "server",
      clock: monotonicClock(),
      pieceLimit: Number.POSITIVE_INFINITY,
    }).subscribe({
      next: (f: Frame) => {
        const parsed = tryParseJson(utf8.decode(f.bytes));
        if (parsed !== undefined) this.lines.push(parsed);
        this.wake?.();
      },
      complete: () => {
        this.ended = true;
        this.wake?.();
      },
    });
  }

  /** Starts the server and says hello: `initialize`, then `notifications/initialized`. */
  static async start(command: readonly string[], options: McpClientOptions = {}): Promise<McpStdioClient> {
    const program = command[0];
    if (program === undefined) throw new ProcedureError("no server command");
    let child: StdioChild;
    try {
      child = await StdioChild.start(command, { graceMs: options.patienceMs ?? DEFAULT_PATIENCE_MS });
    } catch (err) {
      const text = errorText(err);
      const prefix = `starting ${program}: `;
      throw new ProcedureError(`starting ${program}`, text.startsWith(prefix) ? text.slice(prefix.length) : text);
    }
    const client = new McpStdioClient(child, options);
    try {
      await client.request("initialize", {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "stretto-procedure", version: VERSION },
      });
      client.send(fromPlain({ jsonrpc: "2.0", method: "notifications/initialized" }));
    } catch (err) {
      await client.shutdown();
      throw err;
    }
    return client;
  }

  async call(tool: string, args: JsonObject): Promise<ToolResult> {
    const params: JsonObject = new Map<string, Json>([
      ["name", tool],
      ["arguments", args],
    ]);
    return toolResult(await this.request("tools/call", params));
  }

  /**
   * Closes the server's stdin (MCP's way to ask it to exit), gives it the patience to go,
   * then stops its whole process group.
   */
  async shutdown(): Promise<void> {
    this.sink.complete();
    await this.child.shutdown();
    this.subscription.unsubscribe();
  }

  private send(message: Json): void {
    if (this.writeError !== undefined || this.child.input.destroyed) {
      throw new ProcedureError("the server's stdin is closed", this.writeError && osErrorText(this.writeError));
    }
    this.sink.write(Buffer.from(`${compact(message)}\n`));
  }

  /** One request and its answer's `result` (null when it has none). */
  private async request(method: string, params: unknown): Promise<Json> {
    const id = ++this.nextId;
    const idJson = jsonNumber(String(id));
    this.send(fromPlain(new Map<string, Json>([
      ["jsonrpc", "2.0"],
      ["id", idJson],
      ["method", method],
      ["params", params instanceof Map ? (params as JsonObject) : fromPlain(params)],
    ])));
    const deadline = this.options.timeoutMs === undefined ? undefined : Date.now() + this.options.timeoutMs;
    for (;;) {
      const message = this.lines.shift();
      if (message !== undefined) {
        // Only the answer to this request: a notification, another id or a request of the
        // server's own (which has a `method`) is passed over.
        if (!isObject(message) || message.has("method")) continue;
        const got = message.get("id");
        if (got === undefined || !jsonEqual(got, idJson)) continue;
        const error = message.get("error");
        if (error !== undefined) throw new ProcedureError(`${method}: ${compact(error)}`);
        return message.get("result") ?? null;
      }
      if (this.ended) throw new ProcedureError(`the server closed its output before answering ${method}`);
      if (this.writeError !== undefined) throw new ProcedureError("the server's stdin is closed", osErrorText(this.writeError));
      await this.nextLine(method, deadline);
    }
  }

  private nextLine(method: string, deadline: number | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      if (deadline !== undefined) {
        timer = setTimeout(() => {
          this.wake = undefined;
          reject(new ProcedureError(`the server did not answer ${method} within ${this.options.timeoutMs! / 1000} s`));
        }, Math.max(0, deadline - Date.now()));
      }
      this.wake = () => {
        this.wake = undefined;
        if (timer !== undefined) clearTimeout(timer);
        resolve();
      };
    });
  }
}

/**
 * A `tools/call` result as the run sees it: the text blocks' texts joined by newlines
 * (other blocks skipped), and `isError` when it is a bool.
 */
export function toolResult(result: Json): ToolResult {
  const content = isObject(result) ? result.get("content") : undefined;
  const texts = Array.isArray(content)
    ? content.flatMap((block) => {
        const text = isObject(block) ? block.get("text") : undefined;
        return typeof text === "string" ? [text] : [];
      })
    : [];
  const isError = isObject(result) ? result.get("isError") : undefined;
  return { content: texts.join("\n"), failed: typeof isError === "boolean" ? isError : false };
}
