/**
 * Drives the built `stretto-mcp-demo` binary as a real process, and talks raw HTTP to it.
 * Every process started here is remembered, so a suite's `afterEach(stopAll)` ends them.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";

export const DEMO = fileURLToPath(new URL("../../lib/cli/stretto-mcp-demo.js", import.meta.url));
export const USAGE =
  "usage: stretto-mcp-demo [--world echo|retail|telecom] [--hide TOOL] [--hint TOOL=false|none] " +
  "[--http ADDR [--require-auth VALUE]]";

const running = new Set<ChildProcessWithoutNullStreams>();

export function spawnDemo(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [DEMO, ...args], { stdio: "pipe" });
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/** Kills every demo still running and waits until each has gone. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        }),
    ),
  );
}

export interface Finished {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Waits for a child to exit, with everything it wrote. */
export function finished(child: ChildProcessWithoutNullStreams): Promise<Finished> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => err.push(c));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    // `close`, not `exit`: the pipes are drained by then.
    child.once("close", (code) =>
      resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }),
    );
  });
}

/** Runs the demo with `args` on `input` (stdin then closed) until it exits. */
export function runDemo(args: string[], input: string | Buffer = ""): Promise<Finished> {
  const child = spawnDemo(args);
  const done = finished(child);
  child.stdin.end(input);
  return done;
}

/** The answer lines of a finished stdio run (each without its `\n`). */
export function lines(stdout: Buffer): string[] {
  const text = stdout.toString("utf8");
  assertEndsWithNewline(text);
  return text === "" ? [] : text.slice(0, -1).split("\n");
}

function assertEndsWithNewline(text: string): void {
  if (text !== "" && !text.endsWith("\n")) throw new Error(`output does not end a line: ${text}`);
}

/** A JSON-RPC line. */
export function rpc(message: object): string {
  return JSON.stringify({ jsonrpc: "2.0", ...message });
}

export function call(id: number, name: string, args?: object): string {
  return rpc({ id, method: "tools/call", params: args === undefined ? { name } : { name, arguments: args } });
}

export interface HttpDemo {
  url: string;
  host: string;
  port: number;
  child: ChildProcessWithoutNullStreams;
}

/** Starts `--http 127.0.0.1:0` plus `extra`, and reads the URL it prints. */
export async function startHttpDemo(extra: string[] = []): Promise<HttpDemo> {
  const child = spawnDemo(["--http", "127.0.0.1:0", ...extra]);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout.on("data", (c: Buffer) => {
      seen += c.toString("utf8");
      if (seen.includes("\n")) resolve(seen);
    });
    child.once("exit", (code) => reject(new Error(`demo exited ${code} before printing its URL`)));
  });
  const m = /^http:\/\/(127\.0\.0\.1):(\d+)\/mcp\n$/.exec(url);
  if (!m) throw new Error(`unexpected URL line: ${JSON.stringify(url)}`);
  return { url: url.trim(), host: m[1]!, port: Number(m[2]), child };
}

/**
 * Sends raw bytes on a fresh connection and reads everything until the server closes it.
 * With `halfClose`, our side is shut for writing after sending (the end of input).
 */
export function exchange(port: number, bytes: string | Buffer, halfClose = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: "127.0.0.1", port, allowHalfOpen: true }, () => {
      if (halfClose) socket.end(bytes);
      else socket.write(bytes);
    });
    const received = () => Buffer.concat(chunks).toString("utf8");
    socket.on("data", (c: Buffer) => chunks.push(c));
    // A dropped connection may end with a reset rather than a clean close.
    socket.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "ECONNRESET" ? resolve(received()) : reject(err),
    );
    socket.on("end", () => {
      socket.destroy();
      resolve(received());
    });
  });
}

/** A request to `path` with `headers` and `body`, written out by hand (so a test controls every byte). */
export function request(
  method: string,
  headers: Array<[string, string]>,
  body = "",
  path = "/mcp",
): string {
  let head = `${method} ${path} HTTP/1.1\r\nHost: demo\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  return `${head}\r\n${body}`;
}

export function status(response: string): string {
  return response.split("\r\n")[0]!;
}

export function header(response: string, name: string): string | undefined {
  const head = response.split("\r\n\r\n")[0]!;
  for (const line of head.split("\r\n").slice(1)) {
    const i = line.indexOf(": ");
    if (i !== -1 && line.slice(0, i).toLowerCase() === name.toLowerCase()) return line.slice(i + 2);
  }
  return undefined;
}

export function body(response: string): string {
  const i = response.indexOf("\r\n\r\n");
  if (i === -1) throw new Error(`no head in ${JSON.stringify(response)}`);
  return response.slice(i + 4);
}
