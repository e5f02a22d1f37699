/**
 * Driving `stretto-proxy --listen` as hosts over HTTP would: the proxy as a process, raw
 * HTTP requests through node:http (so Host, Origin and broken bodies are sent exactly as
 * written), and the proxy's stderr watched for the lines it promises rather than slept on.
 */
import type { ChildProcess } from "node:child_process";
import { request } from "node:http";
import { NODE, PROXY, start } from "../helpers/processes.js";

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "spec", version: "1" } },
};
export const JSON_ONLY = { "Content-Type": "application/json", Accept: "application/json" };
export const SSE = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

export class Listening {
  stderr = "";
  readonly url: string;
  readonly port: number;
  private waiters: Array<() => void> = [];
  private readonly closed: Promise<number | null>;

  private constructor(
    readonly child: ChildProcess,
    url: string,
  ) {
    this.url = url;
    this.port = Number(new URL(url).port);
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (t: string) => {
      this.stderr += t;
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => child.once("close", (code) => resolve(code)));
  }

  /** Starts the proxy and resolves once it has printed its URL. */
  /** `shell`: a shell line run before the proxy (`ulimit -f 32`), which then replaces the shell. */
  static async start(args: string[], env: NodeJS.ProcessEnv = process.env, shell?: string): Promise<Listening> {
    const proxy = [PROXY, "--listen", "127.0.0.1:0", ...args];
    const child = shell === undefined ? start(NODE, proxy, { env }) : start("sh", ["-c", `${shell}; exec "$0" "$@"`, NODE, ...proxy], { env });
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (t: string) => {
        out += t;
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      child.once("close", (code) => reject(new Error(`the proxy exited with ${code} before listening`)));
    });
    return new Listening(child, url);
  }

  /** Resolves once stderr holds `text`. */
  async said(text: string | RegExp): Promise<void> {
    const has = () => (typeof text === "string" ? this.stderr.includes(text) : text.test(this.stderr));
    while (!has()) await new Promise<void>((r) => this.waiters.push(r));
  }

  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null> {
    this.child.kill("SIGTERM");
    return this.closed;
  }

  /** A request as written: headers and body go out exactly so. */
  send(method: string, headers: Record<string, string>, body?: string | Buffer): Promise<Reply> {
    return raw(this.url, method, { Host: `127.0.0.1:${this.port}`, ...headers }, body);
  }

  post(body: unknown, headers: Record<string, string> = JSON_ONLY): Promise<Reply> {
    return this.send("POST", headers, typeof body === "string" ? body : JSON.stringify(body));
  }

  /** Opens a session (JSON answer) and returns its id. */
  async open(headers: Record<string, string> = {}): Promise<string> {
    const r = await this.post(INIT, { ...JSON_ONLY, ...headers });
    const id = r.headers["mcp-session-id"];
    if (r.status !== 200 || typeof id !== "string") throw new Error(`initialize: ${r.status} ${r.body}`);
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, { ...JSON_ONLY, "Mcp-Session-Id": id });
    return id;
  }
}

export function raw(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The `data:` payloads of an event stream, parsed. */
export function events(body: string): Array<Record<string, unknown>> {
  return body
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l.length > 6)
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

/** The JSON-RPC error of a refusal body. */
export function refusal(r: Reply): { code: number; message: string } {
  const body = JSON.parse(r.body) as { id: unknown; error: { code: number; message: string } };
  if (body.id !== null) throw new Error(`a refusal has id null, not ${JSON.stringify(body.id)}`);
  return body.error;
}

/** An open event stream: what has come so far, and a wait for more. */
export interface OpenStream {
  status: number;
  text: () => string;
  /** Resolves once the stream holds `part`. */
  has: (part: string) => Promise<void>;
  rest: Promise<Reply>;
  close: () => void;
}

/** A GET whose headers have come: the rest of its body resolves when the stream ends. */
export function openStream(proxy: Listening, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = request(proxy.url, { method: "GET", headers: { Host: `127.0.0.1:${proxy.port}`, ...headers }, setHost: false }, (res) => {
      let text = "";
      let waiters: Array<() => void> = [];
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        text += c;
        for (const w of waiters.splice(0)) w();
      });
      const rest = new Promise<Reply>((done) => res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text })));
      const has = async (part: string) => {
        while (!text.includes(part)) await new Promise<void>((r) => (waiters = [...waiters, r]));
      };
      resolve({ status: res.statusCode ?? 0, text: () => text, has, rest, close: () => req.destroy() });
    });
    req.on("error", reject);
    req.end();
  });
}
