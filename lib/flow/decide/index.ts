/**
 * Deciding: after each call, which read-only lookup
 * the flow makes next, or why it hands back. Pure; the oracle, the binding of arguments
 * and the exploration seed are the caller's.
 */
export * from "./types.js";
export { decisionAfter, decisionAt, type DecisionEpisode } from "./decision-episode.js";
export { LiveDecisions } from "./live-decisions.js";
export { FollowedEpisode, FOLD_AT, LET_GO_AT, type PastReader } from "./followed-episode.js";
export { steps, OK, ERR, REPLY, END, type Step, type StepOutcome } from "./steps.js";
export { liveSite, siteName, siteLookups, siteOptions, NOT_A_TOOL_CALL, NO_LOOKUPS_FOLLOWED, type LiveSite } from "./site.js";
export { encode, featureIn, featureOf, fieldValues, symbol, vocabIds, START, MISSING } from "./symbols.js";
export { backoffPredict, context, habitPredict, habitPrior } from "./habit.js";
export { reachProbs, NO_REACH } from "./reach.js";
export { gate, NOT_PROMOTED, SWITCHED_OFF, type GateResult } from "./gates.js";
export {
  applyRule,
  belowReason,
  flowServers,
  lookupFirst,
  lookupOptions,
  memoBind,
  reachBest,
  timesReason,
  unboundReason,
  NO_LOOKUP,
  type RuleOutcome,
} from "./rule.js";
export { fixed2, rustDisplay } from "./rust-format.js";
export { fnv1a64, foldOf } from "./fnv.js";
export { contentKey, explorationDraws, explore, type ExploreInput, type ExploreSettings } from "./explore.js";
export { arbiterRequest, clip, stateSlice, CTX } from "./arbiter-request.js";
export { arbiterFeatures, conditionalLogit, coverage, reliability, logit } from "./arbiter-features.js";
export { arbiterProbs, readAnswers, INCOMPLETE, modelFailed, type ArbiterAnswers, type ArbiterResult } from "./arbiter.js";
export { contextLength, habitAt, isNext, nextExplored, nextLocal, openSite, NO_ARBITER, type DecideInput, type OpenSite } from "./next.js";
export { decisionJson, decisionLine, policyJson, type DecisionFields } from "./decision-line.js";
