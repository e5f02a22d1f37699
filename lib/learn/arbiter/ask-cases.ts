/**
 * Asking the System-One model about each held-out decision: the request the arbiter
 * would send there when serving (same questions, same state, same model, so the same
 * cache key), and its answers read as the arbiter reads them.
 */
import type { Oracle } from "../../oracle/oracle.js";
import { arbiterRequest, readAnswers, INCOMPLETE, type ArbiterAnswers } from "../../flow/decide/index.js";
import type { Flow } from "../../flow/ir/index.js";
import { LearnError } from "../learn-flow.js";
import type { DecisionCase } from "./cases.js";

export interface AnsweredCase extends DecisionCase {
  answers: ArbiterAnswers;
}

function where(c: DecisionCase): string {
  return `the decision after ${c.live.site} in session ${c.session}`;
}

/**
 * The answers to every case, in order; `progress(done, total)` after each. `flow.model` is
 * the model asked. An oracle that fails or answers incompletely stops learning: an
 * arbiter fitted on the decisions that happened to be answered would be fitted on others.
 */
export async function askCases(
  flow: Flow,
  cases: readonly DecisionCase[],
  oracle: Oracle,
  progress?: (done: number, total: number) => void,
): Promise<AnsweredCase[]> {
  const out: AnsweredCase[] = [];
  for (const c of cases) {
    const request = arbiterRequest(flow, c.at.episode, c.live, c.options);
    let answers: ArbiterAnswers | undefined;
    try {
      answers = readAnswers(flow, c.options, await oracle.ask(request));
    } catch (e) {
      throw new LearnError(`asking the System-One model about ${where(c)}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (answers === undefined) throw new LearnError(`asking the System-One model about ${where(c)}: ${INCOMPLETE}`);
    out.push({ ...c, answers });
    progress?.(out.length, cases.length);
  }
  return out;
}
