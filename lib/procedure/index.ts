/** Compiled procedures: load one, run it on a ticket against some tools, print the run. */
export { ProcedureError } from "./error.js";
export type { Check, Leaf, Node, Procedure, Split } from "./ir.js";
export { loadProcedure, procedureFromJson, procedureToJson } from "./load.js";
export { runProcedure, type Call, type Run, type ToolResult, type Tools, type Verdict } from "./run.js";
export { runJson, runSummary, verdictMeaning } from "./output.js";
