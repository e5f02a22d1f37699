/**
 * A run of a folder's sessions read on a second thread (read-worker.ts) while this one
 * reads others. The thread's episodes come back as its store's compressed blocks. A
 * thread that cannot start, fails or exits gives no run (`undefined`): the caller reads
 * those sessions itself, so a log's error is told as it would be without the thread.
 */
import { Worker } from "node:worker_threads";
import type { SessionPlan } from "./session-reader.js";
import type { EpisodeReading } from "./session-episode.js";
import type { RunMessage } from "./sessions-run.js";

/** What the reading thread is sent. */
export interface ReadJob {
  paths: readonly string[];
  plans: readonly SessionPlan[];
  /** Make the learner's first pass over the episodes as they are read, read this way (first-pass.ts). */
  firstPass?: EpisodeReading | undefined;
}

/** What it posts: how many sessions it has read, then its run or its failure. */
export type ReadReply = { read: number } | { ok: true; run: RunMessage } | { ok: false; error: string };

export interface RunOnThread {
  run: Promise<RunMessage | undefined>;
  stop(): void;
}

export function readOnThread(paths: readonly string[], plans: readonly SessionPlan[], read: (n: number) => void, firstPass?: EpisodeReading): RunOnThread {
  let worker: Worker | undefined;
  const run = new Promise<RunMessage | undefined>((resolve) => {
    try {
      worker = new Worker(new URL("./read-worker.js", import.meta.url));
    } catch {
      resolve(undefined);
      return;
    }
    worker.on("message", (m: ReadReply) => {
      if ("read" in m) read(m.read);
      else resolve(m.ok ? m.run : undefined);
    });
    worker.once("error", () => resolve(undefined));
    worker.once("exit", () => resolve(undefined));
    const job: ReadJob = { paths, plans, firstPass };
    worker.postMessage(job);
  }).finally(() => void worker?.terminate());
  return { run, stop: () => void worker?.terminate() };
}
