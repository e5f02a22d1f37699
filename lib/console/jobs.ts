/**
 * The job queue: one job runs at a time, first come first served, each our own `stretto` CLI
 * as a child process in the data directory. Its stdout and stderr go line by line into
 * `console/jobs/{id}.log` (first line: the command), its state into `console/jobs/{id}.json`
 * at each change. Jobs found queued or running at start failed with the console that ran them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Subject } from "rxjs";
import type { Job } from "./api-types.js";
import { shellLine } from "../init/index.js";
import { isObject } from "../util/is-object.js";
import type { Found } from "./binaries.js";
import type { Plan } from "./job-plans.js";

const TAIL = 64 * 1024;
const EVERY_MS = 250;

export function jobId(now: number): string {
  const iso = new Date(now).toISOString().replace(/[-:]/g, "");
  return `${iso}-${randomBytes(2).toString("hex")}`;
}

/** The last 64 KiB of `text`, starting at a line. */
export function tail(text: string): string {
  if (text.length <= TAIL) return text;
  const cut = text.slice(text.length - TAIL);
  const nl = cut.indexOf("\n");
  return nl < 0 ? cut : cut.slice(nl + 1);
}

interface Running {
  job: Job;
  plan: Plan | undefined;
  child?: ChildProcess;
  cancelled?: boolean;
}

export class Jobs {
  readonly changes = new Subject<Job>();
  private jobs = new Map<string, Running>();
  private queue: string[] = [];
  private busy = false;

  constructor(
    readonly dir: string,
    private readonly data: string,
    private readonly cli: Found | undefined,
    private readonly readOnly: boolean,
    /** A flow's key by its absolute path, when it is in the data directory. */
    private readonly flowKey: (abs: string) => Promise<string | null>,
    /** A path as the API shows it. */
    private readonly shown: (abs: string) => string,
  ) {
    this.loadOld();
  }

  private logPath = (id: string) => join(this.dir, `${id}.log`);

  private loadOld(): void {
    if (!existsSync(this.dir)) return;
    const found: Job[] = [];
    for (const name of readdirSync(this.dir)) {
      if (name.startsWith(".") || !name.endsWith(".json") || name.split(".").length !== 3) continue;
      try {
        const j = JSON.parse(readFileSync(join(this.dir, name), "utf8")) as unknown;
        if (isObject(j) && typeof j["id"] === "string" && typeof j["status"] === "string") found.push(j as unknown as Job);
      } catch {
        // Not a job's file.
      }
    }
    found.sort((a, b) => a.created_unix_ms - b.created_unix_ms || (a.id < b.id ? -1 : 1));
    for (const job of found) {
      if (job.status === "queued" || job.status === "running") {
        job.status = "failed";
        job.finished_unix_ms = Date.now();
        if (!this.readOnly) {
          this.append(job.id, "stretto-console: the console stopped before this job finished\n");
          this.save(job);
        }
      }
      this.jobs.set(job.id, { job, plan: undefined });
    }
  }

  output(id: string): string {
    try {
      return readFileSync(this.logPath(id), "utf8");
    } catch {
      return "";
    }
  }

  /** A job with its output's tail (`full`: all of it). */
  view(id: string, full = false): Job | undefined {
    const r = this.jobs.get(id);
    if (r === undefined) return undefined;
    const out = this.output(id);
    return { ...r.job, output: full ? out : tail(out) };
  }

  /** Newest first. */
  list(): Job[] {
    return [...this.jobs.values()]
      .map((r) => r.job)
      .sort((a, b) => b.created_unix_ms - a.created_unix_ms || (a.id < b.id ? 1 : -1))
      .map((j) => this.view(j.id)!);
  }

  submit(id: string, plan: Plan, now: number): Job {
    const job: Job = {
      id,
      kind: plan.kind,
      title: plan.title,
      params: plan.params,
      status: "queued",
      created_unix_ms: now,
      started_unix_ms: null,
      finished_unix_ms: null,
      exit_code: null,
      alarm: false,
      output: "",
      artifacts: plan.artifacts.map((a) => ({ kind: a.kind, path: this.shown(a.abs), key: null })),
    };
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(this.logPath(id), `$ stretto ${shellLine(plan.args)}\n`);
    this.jobs.set(id, { job, plan });
    this.queue.push(id);
    this.changed(job);
    void this.next();
    return this.view(id)!;
  }

  /** Cancels a queued or running job; undefined when unknown, "ended" when it had ended. */
  cancel(id: string): Job | "ended" | undefined {
    const r = this.jobs.get(id);
    if (r === undefined) return undefined;
    if (r.job.status === "queued") {
      this.queue = this.queue.filter((q) => q !== id);
      r.job.status = "cancelled";
      r.job.finished_unix_ms = Date.now();
      this.append(id, "stretto-console: cancelled before it started\n");
      this.changed(r.job);
      return this.view(id);
    }
    if (r.job.status === "running") {
      r.cancelled = true;
      r.child?.kill("SIGKILL");
      return this.view(id);
    }
    return "ended";
  }

  private append(id: string, text: string): void {
    appendFileSync(this.logPath(id), text);
  }

  private save(job: Job): void {
    const { output: _omitted, ...rest } = job;
    const temp = join(this.dir, `.${job.id}.json.tmp`);
    writeFileSync(temp, `${JSON.stringify(rest, null, 2)}\n`);
    renameSync(temp, join(this.dir, `${job.id}.json`));
  }

  private changed(job: Job): void {
    this.save(job);
    this.changes.next(this.view(job.id)!);
  }

  private async next(): Promise<void> {
    if (this.busy) return;
    const id = this.queue.shift();
    if (id === undefined) return;
    this.busy = true;
    try {
      await this.run(this.jobs.get(id)!);
    } finally {
      this.busy = false;
      void this.next();
    }
  }

  private run(r: Running): Promise<void> {
    const job = r.job;
    job.status = "running";
    job.started_unix_ms = Date.now();
    this.changed(job);
    if (this.cli === undefined) {
      this.append(job.id, "stretto-console: the stretto CLI was not found beside the console or on PATH; pass --stretto PATH\n");
      return this.finish(r, null);
    }
    return new Promise((resolve) => {
      let child: ChildProcess;
      try {
        child = spawn(this.cli!.argv[0]!, [...this.cli!.argv.slice(1), ...r.plan!.args], { cwd: this.data, stdio: ["ignore", "pipe", "pipe"], env: process.env });
      } catch (e) {
        this.append(job.id, `stretto-console: ${(e as Error).message}\n`);
        void this.finish(r, null).then(resolve);
        return;
      }
      r.child = child;
      let last = 0;
      let timer: NodeJS.Timeout | undefined;
      const flowing = () => {
        const now = Date.now();
        if (now - last >= EVERY_MS) {
          last = now;
          this.changes.next(this.view(job.id)!);
        } else {
          timer ??= setTimeout(() => {
            timer = undefined;
            last = Date.now();
            if (job.status === "running") this.changes.next(this.view(job.id)!);
          }, EVERY_MS);
        }
      };
      // Lines from the two streams interleave whole: each stream keeps its partial line.
      const partial = { out: "", err: "" };
      const onData = (which: "out" | "err") => (chunk: Buffer) => {
        const text = partial[which] + chunk.toString("utf8");
        const nl = text.lastIndexOf("\n");
        if (nl < 0) {
          partial[which] = text;
          return;
        }
        partial[which] = text.slice(nl + 1);
        this.append(job.id, text.slice(0, nl + 1));
        flowing();
      };
      child.stdout!.on("data", onData("out"));
      child.stderr!.on("data", onData("err"));
      let ended = false;
      const end = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
        if (ended) return;
        ended = true;
        if (timer !== undefined) clearTimeout(timer);
        for (const which of ["out", "err"] as const) if (partial[which] !== "") this.append(job.id, `${partial[which]}\n`);
        if (error !== undefined) this.append(job.id, `stretto-console: starting ${this.cli!.path}: ${error.message}\n`);
        const exit = error !== undefined ? null : signal !== null ? 128 + (signalNumber(signal) ?? 0) : code;
        void this.finish(r, exit).then(resolve);
      };
      child.on("error", (e) => end(null, null, e));
      // A grandchild holding the pipes open must not hold the job: on a kill, wait 2 s at most.
      child.on("exit", (code, signal) => {
        if (r.cancelled) setTimeout(() => end(code, signal), 2000).unref();
      });
      child.on("close", (code, signal) => end(code, signal));
    });
  }

  private async finish(r: Running, exit: number | null): Promise<void> {
    const job = r.job;
    // The artifacts first: the job is answered as ended only once they are known, so a reader
    // never sees an ended job with its artifacts still unresolved.
    const kept = [];
    for (const a of r.plan?.artifacts ?? []) {
      if (!existsSync(a.abs)) continue;
      kept.push({ kind: a.kind, path: this.shown(a.abs), key: a.kind === "flow" ? await this.flowKey(a.abs) : null });
    }
    job.artifacts = kept;
    job.exit_code = exit;
    job.finished_unix_ms = Date.now();
    if (r.cancelled) {
      this.append(job.id, "stretto-console: cancelled\n");
      job.status = "cancelled";
    } else if (exit === 0) {
      job.status = "succeeded";
    } else if (exit === 1 && job.kind === "drift") {
      job.status = "succeeded";
      job.alarm = true;
    } else {
      job.status = "failed";
    }
    this.changed(job);
  }
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  const table: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGSEGV: 11, SIGABRT: 6, SIGPIPE: 13 };
  return table[signal];
}
