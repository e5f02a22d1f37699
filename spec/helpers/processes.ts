/**
 * Shared helpers for specs that drive the real binaries as processes.
 * Every process started here is killed in `killAll()` (call it from an `after` hook).
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root (specs run from dist/spec/…). */
export const ROOT = resolve(here, "../../..");
export const DIST = join(ROOT, "dist");
export const PROXY = join(DIST, "lib/cli/stretto-proxy.js");
export const DEMO = join(DIST, "lib/cli/stretto-mcp-demo.js");
export const STRETTO = join(DIST, "lib/cli/stretto.js");
/** A compiled fixture server: `fixtureServer("noisy-stdout")`. */
export const fixtureServer = (name: string) => join(DIST, "fixtures/servers", `${name}.js`);
export const NODE = process.execPath;

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

const live = new Set<ChildProcess>();

/** Starts a process and tracks it for cleanup. */
export function start(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], ...options });
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

/** Runs a process to completion with `input` on its stdin (closed afterwards unless keepStdinOpen). */
export function run(
  command: string,
  args: string[],
  opts: { input?: Buffer | string; env?: NodeJS.ProcessEnv; cwd?: string; keepStdinOpen?: boolean; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolvePromise, reject) => {
    const child = start(command, args, { env: opts.env ?? process.env, cwd: opts.cwd });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on("data", (c: Buffer) => out.push(c));
    child.stderr!.on("data", (c: Buffer) => err.push(c));
    child.stdin!.on("error", () => {});
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} did not finish in ${opts.timeoutMs ?? 20000} ms`));
    }, opts.timeoutMs ?? 20000);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") });
    });
    if (opts.input !== undefined) child.stdin!.write(opts.input);
    if (!opts.keepStdinOpen) child.stdin!.end();
  });
}

/** Runs `stretto-proxy` with node. */
export function runProxy(args: string[], opts: Parameters<typeof run>[2] = {}): Promise<Ran> {
  return run(NODE, [PROXY, ...args], opts);
}

export function killAll(): void {
  for (const child of live) child.kill("SIGKILL");
  live.clear();
}

/** A fresh temporary directory, removed by `cleanTemp()`. */
const temps: string[] = [];
export function tempDir(prefix = "stretto-spec-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
export function cleanTemp(): void {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** The session logs (`*.jsonl`, not side logs) in a directory. */
export function sessionLogs(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl") && !f.endsWith(".flow.jsonl") && !f.endsWith(".confirm.jsonl"))
    .map((f) => join(dir, f));
}

/** A log's lines: the header object and the entry lines as text. */
export function readLogLines(path: string): { header: Record<string, unknown>; entries: string[] } {
  const lines = readFileSync(path, "utf8").split("\n").filter((l) => l !== "");
  return { header: JSON.parse(lines[0]!) as Record<string, unknown>, entries: lines.slice(1) };
}

/** Lines of a JSON-RPC script, each with its `\n`. */
export function jsonLines(...messages: unknown[]): string {
  return messages.map((m) => (typeof m === "string" ? m : JSON.stringify(m)) + "\n").join("");
}
