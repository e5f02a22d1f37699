/**
 * Driving `stretto-proxy --upstream …` as a host would: lines in on stdin, lines out on stdout,
 * waiting for what is expected rather than sleeping. Every process goes through the shared
 * helpers, so `killAll()` in an `after` hook stops any that a failed test left behind.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DEMO, DIST, NODE, PROXY, ROOT, start } from "../helpers/processes.js";

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
  stderr: string;
}

export class HostSession {
  readonly lines: string[] = [];
  stderr = "";
  private pending = "";
  private waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];
  private readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (text: string) => {
      const parts = (this.pending + text).split("\n");
      this.pending = parts.pop()!;
      for (const line of parts) this.took(line);
    });
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (text: string) => (this.stderr += text));
    child.stdin!.on("error", () => {});
    this.closed = new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  }

  /** Starts the proxy with these arguments (e.g. `["--upstream", url]`). */
  static start(args: string[], env: NodeJS.ProcessEnv = process.env): HostSession {
    return new HostSession(start(NODE, [PROXY, ...args], { env }));
  }

  /** Writes lines (objects are serialized; strings go as they are), each ended with `\n`. */
  send(...messages: unknown[]): void {
    for (const m of messages) this.child.stdin!.write(`${typeof m === "string" ? m : JSON.stringify(m)}\n`);
  }

  /** Resolves with the first stdout line (seen or to come) that matches. */
  waitFor(match: string | ((line: string) => boolean)): Promise<string> {
    const test = typeof match === "string" ? (l: string) => l.includes(match) : match;
    const already = this.lines.find(test);
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve) => this.waiters.push({ match: test, resolve }));
  }

  /** The answer (result or error) to the request with this id. */
  answerTo(id: number | string): Promise<Record<string, unknown>> {
    return this.waitFor((l) => {
      try {
        const m = JSON.parse(l) as Record<string, unknown>;
        return m["id"] === id && m["method"] === undefined;
      } catch {
        return false;
      }
    }).then((l) => JSON.parse(l) as Record<string, unknown>);
  }

  /** Closes stdin (the host's EOF) and waits for the proxy to exit. */
  async end(): Promise<Ended> {
    this.child.stdin!.end();
    return this.exit();
  }

  /** Waits for the proxy to exit on its own. */
  async exit(): Promise<Ended> {
    const { code, signal } = await this.closed;
    if (this.pending !== "") this.took(this.pending);
    this.pending = "";
    return { code, signal, lines: this.lines, stderr: this.stderr };
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  private took(line: string): void {
    this.lines.push(line);
    for (const w of this.waiters.splice(0)) {
      if (w.match(line)) w.resolve(line);
      else this.waiters.push(w);
    }
  }
}

export const initialize = (id: number | string = 1, protocolVersion = "2025-06-18") => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "spec", version: "0" } },
});

export const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };

export const request = (id: number | string, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };

/** The proxy's own error line for a request, exactly. */
export const proxyError = (id: number | string, message: string) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32000,"message":"stretto-proxy: ${message}"}}`;

/** Starts `stretto-mcp-demo --http 127.0.0.1:0 …` and resolves with the URL it prints. */
export function startDemoHttp(extra: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const child = start(NODE, [DEMO, "--http", "127.0.0.1:0", ...extra]);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (text: string) => {
      out += text;
      const nl = out.indexOf("\n");
      if (nl !== -1) resolve({ url: out.slice(0, nl), child });
    });
    child.once("exit", (code) => reject(new Error(`stretto-mcp-demo --http exited with ${code}`)));
  });
}

/** A loopback port nothing listens on (bound, then let go). */
export async function deadPort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts `@modelcontextprotocol/server-everything streamableHttp` on a loopback port of its
 * own choosing (PORT=0; a preload binds it to 127.0.0.1 and names the port) and resolves
 * with its endpoint.
 */
export function startEverything(): Promise<{ url: string; child: ChildProcess }> {
  const preload = join(DIST, "fixtures/http/loopback-port.js");
  const bin = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const child = start(NODE, ["--import", pathToFileURL(preload).href, bin, "streamableHttp"], {
    env: { ...process.env, PORT: "0" },
  });
  child.stdout!.resume(); // its own chatter
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (text: string) => {
      err += text;
      const m = /stretto-fixture: listening on port (\d+)\n/.exec(err);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}/mcp`, child });
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited with ${code}: ${err}`)));
  });
}
