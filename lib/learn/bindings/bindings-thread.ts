/**
 * The bindings learned on a second thread while the main thread learns the rest of the
 * flow: they depend only on the successful episodes and the tool kinds, and they are the
 * learner's largest part (the binder's picks after every result), so on a machine with a
 * free core the flow takes about that much less time. The thread reads its own copy of
 * the compressed store; a thread that cannot start, fails or exits leaves the bindings to
 * be learned here, from the same episodes, so the flow is the same either way.
 */
import { Worker } from "node:worker_threads";
import type { Bindings } from "../../flow/ir/index.js";
import { bindingsOf, type BindingsMessage } from "./bindings-message.js";
import { learnBindings } from "./learn-bindings.js";
import { storedBindings, type BindingsJob } from "./stored-bindings.js";

type Reply = { ok: true; bindings: BindingsMessage } | { ok: false; error: string };

/** A running job: its bindings (never rejected: learned here if the thread gives none), and a way to stop it. */
export interface BindingsOnThread {
  bindings: Promise<Bindings>;
  stop(): void;
}

export function bindingsOnThread(job: BindingsJob): BindingsOnThread {
  let worker: Worker | undefined;
  let stopped = false;
  const fromThread = new Promise<Bindings>((resolve, reject) => {
    worker = new Worker(new URL("./bindings-worker.js", import.meta.url));
    worker.once("message", (m: Reply) => (m.ok ? resolve(bindingsOf(m.bindings)) : reject(new Error(m.error))));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the bindings' thread exited (${code})`)));
    worker.postMessage(job);
  });
  // Stopped (the learning failed): nobody waits for the bindings, so none are learned here.
  const bindings = fromThread
    .catch(() => (stopped ? learnBindings([], job.kinds, job.constants) : storedBindings(job)))
    .finally(() => void worker?.terminate());
  const stop = (): void => {
    stopped = true;
    void worker?.terminate();
  };
  return { bindings, stop };
}
