/** The bindings' thread of bindings-thread.ts: learns a stored folder's bindings and posts them back. */
import { parentPort } from "node:worker_threads";
import { errorText } from "../../util/error-text.js";
import { bindingsMessage } from "./bindings-message.js";
import { storedBindings, type BindingsJob } from "./stored-bindings.js";

parentPort?.once("message", (job: BindingsJob) => {
  try {
    parentPort!.postMessage({ ok: true, bindings: bindingsMessage(storedBindings(job)) });
  } catch (e) {
    parentPort!.postMessage({ ok: false, error: errorText(e) });
  }
});
