/**
 * Learning a flow with an arbiter: the habit, reach, sites and bindings from the training
 * tasks, the System-One model asked about every decision of the held-out tasks' successful
 * episodes, one pooled arbiter fitted on its answers and copied into the five folds (so a
 * task's fold never matters). With `refitHabit` the habit, reach, sites and bindings are
 * learned again from every episode once the arbiter is fitted. With an arbiter given
 * (`--arbiter-from`) nothing is held out or asked: the flow learns from every episode and
 * takes that arbiter.
 */
import type { Oracle } from "../../oracle/oracle.js";
import { PairMap, type Fitted, type Flow } from "../../flow/ir/index.js";
import { LearnError, learnFlow, type LearnInput } from "../learn-flow.js";
import { isSuccess } from "../training-set.js";
import type { Arbiter } from "./arbiter-file.js";
import { askCases } from "./ask-cases.js";
import { decisionCases } from "./cases.js";
import { fitArbiter } from "./fit-arbiter.js";
import { splitTasks } from "./split.js";

/** The arbiter is one fit, served by every fold. */
export const FOLDS = 5;

export interface ArbiterSettings {
  /** The System-One model asked (and named in the flow). */
  model: string;
  /** Asked about the held-out decisions; unused with `from`. */
  oracle?: Oracle;
  refitHabit: boolean;
  /** `--arbiter-from`: the arbiter to take instead of fitting one. */
  from?: Arbiter;
  /** `(done, total)` as the held-out decisions are answered. */
  progress?: (done: number, total: number) => void;
}

export function noDecisions(tasks: number): string {
  return `the successful sessions of the ${tasks} held-out tasks hold no decision at a site the training tasks learned, so there is nothing to fit an arbiter on`;
}

function copyFitted(f: Fitted): Fitted {
  return { weights: [...f.weights], rates: { sites: new PairMap([...f.rates.sites].map(([s, r]) => [s, [...r]] as const)), agree: f.rates.agree, cover: f.rates.cover } };
}

/** `flow` serving `arbiter`. */
export function withArbiter(flow: Flow, arbiter: Arbiter): Flow {
  return {
    ...flow,
    model: arbiter.model,
    predicates: [...arbiter.predicates],
    weighed: [...arbiter.weighed],
    folds: arbiter.folds.map(copyFitted),
    provenance: { ...flow.provenance, arbiterCases: arbiter.cases },
  };
}

export async function learnArbiterFlow(input: LearnInput, s: ArbiterSettings): Promise<Flow> {
  if (s.from !== undefined) return withArbiter(learnFlow(input), s.from);
  if (s.oracle === undefined) throw new LearnError("learning an arbiter needs a System-One model to ask");
  const split = splitTasks(input.episodes);
  const trained: Flow = { ...learnFlow({ ...input, training: split.training }), model: s.model };
  const cases = split.heldOut.filter(isSuccess).flatMap((ep) => decisionCases(trained, ep));
  if (cases.length === 0) throw new LearnError(noDecisions(split.heldOutTasks.length));
  const answered = await askCases(trained, cases, s.oracle, s.progress);
  const { fitted } = fitArbiter(answered, trained.weighed);
  const base = s.refitHabit ? learnFlow(input) : trained;
  return withArbiter(base, {
    model: s.model,
    cases: cases.length,
    predicates: trained.predicates,
    weighed: trained.weighed,
    folds: Array.from({ length: FOLDS }, () => fitted),
  });
}
