/** Whether a flow runs the standard program (standard-program.ts), however its file spelled it. */
import { standardProgram } from "../flow/program/standard-program.js";
import type { Program } from "../flow/program/program-types.js";

let standard: string | undefined;

/** Programs are compared by their parsed form, so key order in the file does not matter. */
export function programKey(program: Program): string {
  return JSON.stringify(program);
}

export function isStandardRun(program: Program): boolean {
  standard ??= programKey(standardProgram());
  return programKey(program) === standard;
}
