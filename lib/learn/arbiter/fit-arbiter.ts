/**
 * One pooled arbiter from the answered held-out decisions: the model's rates per site,
 * then each covered decision's feature rows (as serving computes them, reliability read
 * from those rates) and the conditional logit fitted on them.
 */
import { arbiterFeatures } from "../../flow/decide/index.js";
import type { Fitted, Predicate } from "../../flow/ir/index.js";
import type { AnsweredCase } from "./ask-cases.js";
import { fitConditionalLogit, type LogitCase, type LogitFit } from "./fit-logit.js";
import { siteRates } from "./rates.js";

/** ln habit, ln one-question answer, ln split answer, respond, then one per weighed predicate, then reliability. */
export function featureCount(weighed: readonly Predicate[]): number {
  return 4 + weighed.length + 1;
}

/** The decisions the logit learns from: those where the agent's step was among the options. */
export function logitCases(cases: readonly AnsweredCase[], weighed: readonly Predicate[], rated: Fitted): LogitCase[] {
  return cases
    .filter((c) => c.options.includes(c.label))
    .map((c) => ({
      rows: arbiterFeatures({
        options: c.options,
        prev: c.live.prev,
        site: c.live.site,
        habit: c.habit,
        one: c.answers.one,
        two: c.answers.two,
        weighed,
        answers: c.answers.predicates,
        pick: c.answers.pick,
        fitted: rated,
      }),
      label: c.options.indexOf(c.label),
    }));
}

export function fitArbiter(cases: readonly AnsweredCase[], weighed: readonly Predicate[]): { fitted: Fitted; fit: LogitFit } {
  const rated: Fitted = { weights: [], rates: siteRates(cases) };
  const fit = fitConditionalLogit(logitCases(cases, weighed, rated), featureCount(weighed));
  return { fitted: { weights: fit.weights, rates: rated.rates }, fit };
}
