/** A flow's fugue program: the format, the compile check, and the interpreter with its three handlers. */
export * from "./program-types.js";
export { ProgramError } from "./program-error.js";
export { parseProgram, parseProgramText, isIdentifier } from "./parse-program.js";
export { checkProgram, FLOW_DISTRIBUTIONS, RUN_DATA_NAMES } from "./compile-program.js";
export { standardProgram, STANDARD_PROGRAM_JSON, STANDARD_PROGRAM_TEXT } from "./standard-program.js";
export { RunModel, HAND_BACK, RESPOND, siteName, logProb, draw } from "./run-model.js";
export type { SiteDistribution, DecideDistribution, OutcomeDistribution } from "./run-model.js";
export { FlowProgram, runLine, runLineText, type RunLine } from "./flow-program.js";
export { liveHandler, simulateHandler, scoreGivenTraceHandler, baseTrace } from "./handlers.js";
export type { LiveCallbacks, DecisionRequest, Handler, AsyncHandler, Drawn, SampleSite } from "./handlers.js";
export { runSites, totalLogWeight, type Trace, type Choice, type RunSite } from "./trace.js";
export type { RunResult } from "./drive.js";
export { seededRandom } from "./seeded-random.js";
export type { Value, SiteValue } from "./values.js";
