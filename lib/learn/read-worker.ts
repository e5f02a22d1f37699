/** The reading thread of read-thread.ts: reads its run of sessions and posts it back (the blocks shared, not copied). */
import { parentPort } from "node:worker_threads";
import { errorText } from "../util/error-text.js";
import { readSessionRun } from "./session-reader.js";
import { runMessage } from "./sessions-run.js";
import { FirstPass } from "./first-pass.js";
import { movable } from "./episode-store.js";
import type { ReadJob, ReadReply } from "./read-thread.js";

/** How often the thread tells how far it has come. */
const TELL_EVERY = 64;

const post = (m: ReadReply, moved: ArrayBuffer[] = []): void => parentPort!.postMessage(m, moved);

parentPort?.once("message", (job: ReadJob) => {
  let n = 0;
  const first = job.firstPass === undefined ? undefined : new FirstPass(job.firstPass);
  readSessionRun(job.paths, job.plans, () => ++n % TELL_EVERY === 0 && post({ read: n }), first && ((ep) => first.add(ep))).then(
    (run) => {
      const message = runMessage(run, first?.digest());
      post({ ok: true, run: message }, movable(message.packed));
    },
    (e: unknown) => post({ ok: false, error: errorText(e) }),
  );
});
