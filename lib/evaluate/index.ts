/** Off-policy evaluation of flow policies from logged, labelled decisions. */
export { EvaluateError, decisionSchema, parseDecision, readDecisions, type Label, type LoggedDecision } from "./decisions.js";
export { parseTarget, targetChoice, type Target, type TargetDecider } from "./target.js";
export { propensity, takenChoice } from "./propensity.js";
export { LabelModel, METRICS, UNSEEN, estimate, evaluate, siteOf, type Estimates, type Evaluation, type Metrics } from "./estimate.js";
export { evaluationMarkdown } from "./markdown.js";
