/** Running `stretto init` as a user would, with a PATH and a HOME of the test's choosing, and flows of each kind. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { Writable } from "node:stream";
import { main } from "../../lib/cli/stretto/main.js";
import { VERSION } from "../../lib/version.js";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NODE, STRETTO, run, tempDir } from "../helpers/processes.js";
import { usualSession, writeSessions } from "../learn/shop-logs.js";
import { withArbiter, withReach } from "../review/flow-kinds.js";
import { parseFlowJson, type FlowJson } from "../review/review-helpers.js";

export interface Out {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `stretto …` with PATH, HOME and the working folder given (by default a PATH with no stretto-proxy). */
export async function stretto(args: string[], opts: { path?: string; cwd?: string; env?: NodeJS.ProcessEnv; exe?: string } = {}): Promise<Out> {
  const env: NodeJS.ProcessEnv = { HOME: "/home/me", PATH: opts.path ?? "/nonexistent", ...opts.env };
  const r = await run(NODE, [opts.exe ?? STRETTO, ...args], { env, ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }) });
  return { code: r.code, stdout: r.stdout.toString("utf8"), stderr: r.stderr };
}

/**
 * `stretto …` through the binary's own entry point (lib/cli/stretto/main.ts), in this process:
 * for tables of cases, since each start of the binary costs most of a second of CPU. The
 * environment variables given are set for the run and restored after it. What crosses the
 * process boundary (exit status, PATH, the binary's own path, files) is tested with `stretto`.
 */
export async function inProcess(args: string[], env: Record<string, string | undefined> = {}): Promise<Out> {
  const vars = { HOME: "/home/me", PATH: "/nonexistent", ...env };
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  const sink = () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer | string, _enc, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    return { stream, text: () => chunks.join("") };
  };
  const out = sink();
  const err = sink();
  set(vars);
  try {
    const code = await main(args, { stdout: out.stream, stderr: err.stream, stderrIsTty: false }, VERSION);
    return { code, stdout: out.text(), stderr: err.text() };
  } finally {
    set(saved);
  }
}

/** A folder holding an executable `name` that prints `text` for --version. */
export function fakeBin(dir: string, name: string, script: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** The words bash reads back from a command line (so a snippet is checked as the shell runs it). */
export function shellWords(line: string): string[] {
  const out = execFileSync("bash", ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8", env: { HOME: "/home/me", PATH: process.env["PATH"] } });
  return out.split("\0").slice(0, -1);
}

export interface Flows {
  habit: string;
  reach: string;
  arbiter: string;
}

let made: Flows | undefined;

/** A flow learned from six shop sessions (habit alone), and copies with reach counts and with an arbiter; learned once. */
export async function makeFlows(): Promise<Flows> {
  // Another suite's cleanTemp() may have removed them: learn again then.
  if (made !== undefined && existsSync(made.arbiter)) return made;
  made = await learnFlows();
  return made;
}

async function learnFlows(): Promise<Flows> {
  const dir = tempDir("stretto-init-flows-");
  const logs = join(dir, "logs");
  mkdirSync(logs);
  writeSessions(logs, Array.from({ length: 6 }, (_, i) => ({ file: `s${i}`, session: `s${i}`, steps: usualSession(i + 1) })));
  const learned = join(dir, "learned.flow.json");
  const r = await inProcess(["learn", "--sessions", logs, "--domain", "shop", "--out", learned, "--habit-only", "--quiet"]);
  if (r.code !== 0) throw new Error(`learn failed: ${r.stderr}`);
  const json = parseFlowJson(readFileSync(learned, "utf8"));
  const write = (name: string, flow: FlowJson): string => {
    const path = join(dir, `${name}.flow.json`);
    writeFileSync(path, JSON.stringify(flow));
    return path;
  };
  const habit = structuredClone(json);
  delete habit["reach"];
  return { habit: write("habit", habit), reach: write("reach", withReach(habit)), arbiter: write("arbiter", withArbiter(habit)) };
}

/** `after` is `before` with one run of text inserted: every other byte is where it was. */
export function assertInsertion(before: string, after: string): void {
  let p = 0;
  while (p < before.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  assert.ok(p + s >= before.length, `not a pure insertion:\n${after}`);
}
