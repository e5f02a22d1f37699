/**
 * The bindings' thread of bindings-thread.ts: counts a stored folder's calls, posts the
 * counted tables, then scores the blocks of episodes it takes from the counter it shares
 * with the main thread and posts its tallies.
 */
import { parentPort } from "node:worker_threads";
import { errorText } from "../../util/error-text.js";
import { PackedStore } from "../episode-store.js";
import { bindingsMessage } from "./bindings-message.js";
import { countedBindings } from "./learn-bindings.js";
import { scoreTakenBlocks, talliesOf, withEmptyTallies } from "./shared-scoring.js";
import { successfulSessions, type BindingsJob } from "./stored-bindings.js";

parentPort?.once("message", (job: BindingsJob) => {
  try {
    const store = new PackedStore(job.packed);
    const counted = countedBindings(successfulSessions(store, job.reading), job.kinds, job.constants);
    parentPort!.postMessage({ kind: "counted", bindings: bindingsMessage(counted) });
    const mine = withEmptyTallies(counted);
    scoreTakenBlocks(mine, store, job.reading, job.kinds, job.counter);
    parentPort!.postMessage({ kind: "scored", tallies: talliesOf(mine) });
  } catch (e) {
    parentPort!.postMessage({ kind: "failed", error: errorText(e) });
  }
});
