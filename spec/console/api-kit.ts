/**
 * What the console's API specs share: the built `stretto-console` started as a process over a
 * copy of the fixture data directory (fixtures/console, made by `make console-fixtures`), on a
 * port of the system's choosing, and requests and event streams against it.
 */
import { cpSync, mkdirSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { createParser } from "eventsource-parser";
import { DIST, NODE, ROOT, start, tempDir } from "../helpers/processes.js";
import type { ChildProcess } from "node:child_process";

export const CONSOLE_BIN = join(DIST, "lib/cli/stretto-console.js");
export const FIXTURES = join(ROOT, "fixtures/console");
export const TOKEN = "0123456789abcdef".repeat(4);

export interface Served {
  child: ChildProcess;
  port: number;
  base: string;
  data: string;
  stderr: () => string;
}

/** A copy of the fixtures, and a bin folder where `stretto-mcp-demo` (the registry's shop command) is found. */
export function fixtureCopy(): { data: string; bin: string } {
  const root = tempDir("stretto-console-api-");
  const data = join(root, "data");
  cpSync(FIXTURES, data, { recursive: true });
  const bin = join(root, "bin");
  mkdirSync(bin);
  const demo = join(bin, "stretto-mcp-demo");
  writeFileSync(demo, `#!/bin/sh\nexec "${NODE}" "${join(DIST, "lib/cli/stretto-mcp-demo.js")}" "$@"\n`);
  chmodSync(demo, 0o755);
  return { data, bin };
}

/** Starts the console (`bin`: the script, or a link to it elsewhere); resolves once it printed where it listens. */
export function serve(args: string[], env: NodeJS.ProcessEnv = process.env, bin: string = CONSOLE_BIN): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = start(NODE, [bin, "--listen", "127.0.0.1:0", ...args], { env });
    let err = "";
    const data = args[args.indexOf("--data") + 1] ?? "";
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      const m = / on 127\.0\.0\.1:(\d+)/.exec(err);
      if (m !== null && /open http/.test(err)) {
        const port = Number(m[1]);
        resolve({ child, port, base: `http://127.0.0.1:${port}`, data, stderr: () => err });
      }
    });
    child.once("exit", (code) => reject(new Error(`stretto-console exited with ${code}: ${err}`)));
  });
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function ask(base: string, path: string, init: RequestInit & { token?: string | null; write?: boolean } = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  const token = init.token === undefined ? TOKEN : init.token;
  if (token !== null) headers.set("Authorization", `Bearer ${token}`);
  if (init.write !== false && init.method !== undefined && init.method !== "GET") headers.set("X-Stretto-Console", "1");
  if (typeof init.body === "string") headers.set("Content-Type", "application/json");
  const res = await fetch(base + path, { ...init, headers, redirect: "manual" });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** JSON of a 200 answer, or a failure that says what came instead. */
export async function get<T>(base: string, path: string): Promise<T> {
  const a = await ask(base, path);
  if (a.status !== 200) throw new Error(`GET ${path}: ${a.status} ${a.text}`);
  return a.json as T;
}

export interface Sse {
  events: { event: string; data: string }[];
  /** Resolves with the first event (from the start) that `match` accepts. */
  until(match: (e: { event: string; data: string }) => boolean, timeoutMs?: number): Promise<{ event: string; data: string }>;
  close(): void;
}

/** Opens an event stream and collects its events. */
export async function sse(base: string, path: string): Promise<Sse> {
  const abort = new AbortController();
  const res = await fetch(base + path, { headers: { Authorization: `Bearer ${TOKEN}` }, signal: abort.signal });
  if (res.status !== 200 || res.body === null) throw new Error(`GET ${path}: ${res.status}`);
  const events: { event: string; data: string }[] = [];
  const waiters: (() => void)[] = [];
  const parser = createParser({
    onEvent: (e) => {
      events.push({ event: e.event ?? "message", data: e.data });
      for (const w of waiters.splice(0)) w();
    },
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(Buffer.from(value).toString("utf8"));
      }
    } catch {
      // Closed by the test.
    }
  })();
  return {
    events,
    until(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(events).slice(0, 2000)}`)), timeoutMs);
        const check = () => {
          const found = events.find(match);
          if (found !== undefined) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => abort.abort(),
  };
}

/** Waits until `f` holds, asking again every 100 ms (for what a job or a watcher does in its own time). */
export async function eventually<T>(f: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
