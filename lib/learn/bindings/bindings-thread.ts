/**
 * The bindings learned mostly on a second thread while the main thread learns the rest of
 * the flow: they depend only on the successful episodes and the tool kinds, and they are
 * the learner's largest part (the binder's picks after every result). The thread counts
 * the calls from the compressed store (its blocks shared, not copied); the scoring is then shared: the
 * main thread, once its own part is learned, takes blocks of episodes from the same
 * counter as the thread (shared-scoring.ts), and the two threads' tallies are added. A
 * thread that cannot start, fails or exits leaves the bindings to be learned here, from
 * the same episodes, so the flow is the same either way.
 */
import { Worker } from "node:worker_threads";
import type { Bindings } from "../../flow/ir/index.js";
import { movable, type EpisodeBlocks, type Episodes } from "../episode-store.js";
import { bindingsOf, type BindingsMessage } from "./bindings-message.js";
import { learnBindings } from "./learn-bindings.js";
import { addTallies, blockCounter, scoreTakenBlocks, talliesOf, withEmptyTallies, type PickTallies } from "./shared-scoring.js";
import { successfulSessions, type BindingsJob } from "./stored-bindings.js";

type Reply = { kind: "counted"; bindings: BindingsMessage } | { kind: "scored"; tallies: PickTallies } | { kind: "failed"; error: string };

/** A running job: the bindings once asked for (never rejected: learned here if the thread gives none), and a way to stop it. */
export interface BindingsOnThread {
  /** Shares the scoring with the thread (call it once this thread's own work is done). */
  bindings(this: void): Promise<Bindings>;
  stop(): void;
}

/** A promise and its settling functions, with its rejection handled (it may never be awaited). */
function settled<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** `job.packed`'s pending bytes are moved to the thread (detached here): give it a copy made for it. */
export function bindingsOnThread(job: Omit<BindingsJob, "counter">, store: Episodes & EpisodeBlocks): BindingsOnThread {
  const counter = blockCounter();
  const counted = settled<Bindings>();
  const scored = settled<PickTallies>();
  const fail = (e: unknown): void => {
    counted.reject(e);
    scored.reject(e);
  };
  let worker: Worker | undefined;
  try {
    worker = new Worker(new URL("./bindings-worker.js", import.meta.url));
    worker.on("message", (m: Reply) => {
      if (m.kind === "counted") counted.resolve(bindingsOf(m.bindings));
      else if (m.kind === "scored") scored.resolve(m.tallies);
      else fail(new Error(m.error));
    });
    worker.once("error", fail);
    worker.once("exit", (code) => fail(new Error(`the bindings' thread exited (${code})`)));
    // The blocks are shared with the thread; the pending bytes, a copy made for it, are moved.
    worker.postMessage({ ...job, counter } satisfies BindingsJob, movable(job.packed));
  } catch (e) {
    fail(e);
  }
  const bindings = async (): Promise<Bindings> => {
    try {
      const tables = await counted.promise;
      const mine = withEmptyTallies(tables);
      scoreTakenBlocks(mine, store, job.reading, job.kinds, counter);
      return addTallies(addTallies(tables, await scored.promise), talliesOf(mine));
    } catch {
      // Blocks the thread took may be lost with it: every episode is scored again here.
      return learnBindings(successfulSessions(store, job.reading), job.kinds, job.constants);
    } finally {
      void worker?.terminate();
    }
  };
  return { bindings, stop: () => void worker?.terminate() };
}
