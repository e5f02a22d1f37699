/**
 * The learner: flows from recorded episodes. An engine library: it reads episodes and
 * manifests (trace/) and writes the flow IR (flow/ir), reusing the serving code's
 * steps, symbols, back-off contexts and binder so that what is learned is what is served.
 */
export { learnFlow, LearnError, NO_SUCCESSES, GOAL_FREE_GROUP, type LearnInput, type LearnSource } from "./learn-flow.js";
export { EpisodeStore, mapEpisodes, type Episodes } from "./episode-store.js";
export { agentOnly, PROXY_CALL_PREFIX } from "./agent-only.js";
export { posteriorMedianAlpha, prequentialCounts, prequentialLogLik, logPosterior, PRIOR_SD } from "./alpha.js";
export { readFolderSessions, type FolderSessions } from "./read-sessions.js";
export type { EpisodeReading } from "./session-episode.js";
export { halfLifeWeights, isSuccess, trainingSet } from "./training-set.js";
export { learnVocab, actionIds } from "./vocab.js";
export { fitGrouped, fitReach, ORDER } from "./fit-habit.js";
export { learnSites } from "./learn-sites.js";
export { learnBindings } from "./bindings/learn-bindings.js";
export { learnFromSessions, learnFromSessionsThreaded, learnInput, BINDINGS_THREAD_FROM, type SessionsOptions } from "./learn-sessions.js";
export { candidateFields, crossValidated, fieldTable, FieldTableBuilder, learnFeatures, mapOf, MAX_FIELDS, MIN_GAIN_NATS, type FieldTable } from "./code-features.js";
