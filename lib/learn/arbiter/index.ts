/** Learning a flow's arbiter: the held-out split, the model's answers, the pooled conditional logit. */
export { learnArbiterFlow, withArbiter, noDecisions, FOLDS, type ArbiterSettings } from "./learn-arbiter.js";
export { splitTasks, taskOf, heldOutCount, tooFew, HELD_OUT_SHARE, type Split } from "./split.js";
export { decisionCases, type DecisionCase } from "./cases.js";
export { askCases, type AnsweredCase } from "./ask-cases.js";
export { siteRates } from "./rates.js";
export { fitArbiter, featureCount, logitCases } from "./fit-arbiter.js";
export { fitConditionalLogit, logitLoss, solveSpd, RIDGE, type LogitCase, type LogitFit } from "./fit-logit.js";
export { readArbiter, arbiterFileOf, arbiterOf, arbiterFileSchema, ARBITER_FORMAT, type Arbiter, type ArbiterFile } from "./arbiter-file.js";
