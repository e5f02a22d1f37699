/**
 * Drives a run (the `execute` generator) with a handler, recording its trace: the sync
 * driver for simulation and re-scoring, the async one for a live run whose answers
 * come from the network.
 */
import type { Effect } from "./execute.js";
import { isPromiseLike, type AsyncHandler, type Drawn, type Handler } from "./handlers.js";
import { emptyTrace, type Trace } from "./trace.js";
import type { SiteValue, Value } from "./values.js";

export interface RunResult {
  /** The program's value (`pure(prev)`: the id of the last tool called). */
  value: Value;
  trace: Trace;
}

type Run = Generator<Effect, Value, SiteValue>;

/** Records a non-sample effect. */
function record(trace: Trace, effect: Exclude<Effect, { kind: "sample" }>): void {
  if (effect.kind === "observe") {
    trace.logLikelihood += effect.logp;
  } else {
    trace.logFactors += effect.logw;
    if (effect.warning !== undefined) trace.warnings.push(effect.warning);
  }
}

function recordSample(trace: Trace, address: string, drawn: Drawn): SiteValue {
  trace.choices.push({ address, value: drawn.value, logp: drawn.logp });
  if (drawn.likelihood === true) trace.logLikelihood += drawn.logp;
  else trace.logPrior += drawn.logp;
  return drawn.value;
}

export function driveSync(run: Run, handler: Handler): RunResult {
  const trace = emptyTrace();
  let step = run.next();
  while (!step.done) {
    const effect = step.value;
    if (effect.kind === "sample") {
      step = run.next(recordSample(trace, effect.address, handler.sample(effect)));
    } else {
      record(trace, effect);
      step = run.next(undefined as unknown as SiteValue);
    }
  }
  return { value: step.value, trace };
}

export async function driveAsync(run: Run, handler: AsyncHandler): Promise<RunResult> {
  const trace = emptyTrace();
  let step = run.next();
  while (!step.done) {
    const effect = step.value;
    if (effect.kind === "sample") {
      // A site answered at once goes on at once (a live run's decisions): no await for each.
      const answer = handler.sample(effect);
      step = run.next(recordSample(trace, effect.address, isPromiseLike(answer) ? await answer : answer));
    } else {
      record(trace, effect);
      step = run.next(undefined as unknown as SiteValue);
    }
  }
  return { value: step.value, trace };
}
