/**
 * The log posterior of log α at each point of a grid, over packed step counts, shared with
 * a second thread when the work is large: the points are independent, so the two threads
 * take them from one shared counter, each computing a point whole with the same code, and
 * every value is the number one thread alone would compute (the median does not depend
 * on which thread computed a point, or on whether the helper ran at all).
 *
 * The learner is synchronous, so the main thread takes points too, then waits only for the
 * points the helper took and has not finished. A helper that never starts (or stops) takes
 * nothing: the main thread takes every point left, and a point the helper holds for too
 * long is computed again here. The helper is one `worker_threads` thread per process,
 * started at the first large grid and never keeping the process alive.
 */
import { Worker } from "node:worker_threads";
import { PRIOR_SD } from "./alpha-prior.js";

/** Below this many step entries × points a grid is computed here alone (a thread costs ~30 ms to start). */
const SHARE_ABOVE = 2_000_000;
/** How long to wait for a point the helper took before computing it here (it normally takes milliseconds). */
const HELPER_PATIENCE_MS = 2_000;

/** Point states in the shared `state` array. */
const FREE = 0;
const TAKEN = 1;
const DONE = 2;

/** A product of this many probabilities, each at least {@link PRODUCT_FLOOR}, cannot underflow (≥ 1e-240). */
const PRODUCT_RUN = 8;
const PRODUCT_FLOOR = 1e-30;

/**
 * The prequential log-likelihood at `alpha` over packed entries (`width` counts, then the
 * weight). Most entries weigh 1, and their log-probabilities are summed as the log of
 * their product, a run of a few at a time: one `Math.log` per run rather than per entry,
 * which halves a grid point's cost. An entry with another weight, or a probability small
 * enough that a run could underflow, adds its own weighted log.
 */
export function packedLogLik(v: Float64Array, width: number, alpha: number, vocabSize: number): number {
  let sum = 0;
  let product = 1;
  let run = 0;
  for (let at = 0; at < v.length; at += width + 1) {
    let p = 1 / vocabSize;
    for (let k = 0; k < width; k += 2) p = (v[at + k]! + alpha * p) / (v[at + k + 1]! + alpha);
    const weight = v[at + width]!;
    if (weight === 1 && p >= PRODUCT_FLOOR) {
      product *= p;
      if (++run === PRODUCT_RUN) {
        sum += Math.log(product);
        product = 1;
        run = 0;
      }
    } else sum += weight * Math.log(p);
  }
  return sum + Math.log(product);
}

/** The unnormalized log posterior of log α over packed entries. */
export function packedLogPosterior(v: Float64Array, width: number, logAlpha: number, vocabSize: number): number {
  return packedLogLik(v, width, Math.exp(logAlpha), vocabSize) - (logAlpha * logAlpha) / (2 * PRIOR_SD * PRIOR_SD);
}

/** One grid's work as both threads see it. */
export interface GridJob {
  values: Float64Array;
  width: number;
  vocabSize: number;
  xs: Float64Array;
  out: Float64Array;
  /** Per point: FREE, TAKEN or DONE. */
  state: Int32Array;
}

/** Takes free points one by one and computes them; returns when none is left. */
export function takePoints(job: GridJob): void {
  for (let i = 0; i < job.xs.length; i++) {
    if (Atomics.compareExchange(job.state, i, FREE, TAKEN) !== FREE) continue;
    job.out[i] = packedLogPosterior(job.values, job.width, job.xs[i]!, job.vocabSize);
    Atomics.store(job.state, i, DONE);
    Atomics.notify(job.state, i);
  }
}

let helper: Worker | undefined;
let helperFailed = false;

function startHelper(): Worker | undefined {
  if (helper !== undefined || helperFailed) return helper;
  try {
    helper = new Worker(new URL("./alpha-worker.js", import.meta.url));
    helper.unref();
    // A helper that fails only stops helping: the main thread computes every point.
    helper.on("error", () => {
      helperFailed = true;
      helper = undefined;
    });
  } catch {
    helperFailed = true;
  }
  return helper;
}

/** The log posterior at each of `xs` over packed entries; the helper shares a large grid unless `share` is false. */
export function logPosteriors(values: Float64Array, width: number, vocabSize: number, xs: readonly number[], share = true): number[] {
  const entries = values.length / (width + 1);
  const worker = share && entries * xs.length > SHARE_ABOVE ? startHelper() : undefined;
  if (worker === undefined) return xs.map((x) => packedLogPosterior(values, width, x, vocabSize));
  const shared = (n: number, bytes: number): SharedArrayBuffer => new SharedArrayBuffer(n * bytes);
  const job: GridJob = {
    values: values.buffer instanceof SharedArrayBuffer ? values : new Float64Array(shared(values.length, 8)),
    width,
    vocabSize,
    xs: new Float64Array(shared(xs.length, 8)),
    out: new Float64Array(shared(xs.length, 8)),
    state: new Int32Array(shared(xs.length, 4)),
  };
  if (job.values !== values) job.values.set(values);
  job.xs.set(xs);
  worker.postMessage(job);
  takePoints(job);
  for (let i = 0; i < xs.length; i++) {
    if (Atomics.load(job.state, i) === DONE) continue;
    // Taken by the helper: wait for it, and compute it here if it does not come.
    if (Atomics.wait(job.state, i, TAKEN, HELPER_PATIENCE_MS) === "timed-out" && Atomics.load(job.state, i) !== DONE) {
      job.out[i] = packedLogPosterior(job.values, width, job.xs[i]!, vocabSize);
    }
  }
  return Array.from(job.out);
}
