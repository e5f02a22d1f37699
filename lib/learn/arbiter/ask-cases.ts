/**
 * Asking the System-One model about each held-out decision: the request the arbiter
 * would send there when serving (same questions, same state, same model, so the same
 * cache key), and its answers read as the arbiter reads them. A few questions are in
 * flight at once, as a held-out folder may hold thousands of decisions.
 */
import type { Oracle } from "../../oracle/oracle.js";
import { arbiterRequest, readAnswers, INCOMPLETE, type ArbiterAnswers } from "../../flow/decide/index.js";
import type { Flow } from "../../flow/ir/index.js";
import { LearnError } from "../learn-flow.js";
import type { DecisionCase } from "./cases.js";

/** How many questions are in flight at once. */
export const ASK_CONCURRENCY = 8;

export interface AnsweredCase extends DecisionCase {
  answers: ArbiterAnswers;
}

function failed(c: DecisionCase, why: string): LearnError {
  return new LearnError(`asking the System-One model about the decision after ${c.live.site} in session ${c.session}: ${why}`);
}

async function ask(flow: Flow, c: DecisionCase, oracle: Oracle): Promise<AnsweredCase> {
  const request = arbiterRequest(flow, c.at.episode, c.live, c.options);
  let answers: ArbiterAnswers | undefined;
  try {
    answers = readAnswers(flow, c.options, await oracle.ask(request));
  } catch (e) {
    throw failed(c, e instanceof Error ? e.message : String(e));
  }
  if (answers === undefined) throw failed(c, INCOMPLETE);
  return { ...c, answers };
}

/**
 * The answers to every case, in the cases' order; `progress(done, total)` after each.
 * `flow.model` is the model asked. A question that fails or is answered incompletely stops
 * learning (no new question is sent; the first failing case in order is reported): an
 * arbiter fitted on the decisions that happened to be answered would be fitted on others.
 */
export async function askCases(
  flow: Flow,
  cases: readonly DecisionCase[],
  oracle: Oracle,
  progress?: (done: number, total: number) => void,
): Promise<AnsweredCase[]> {
  const out = new Array<AnsweredCase | undefined>(cases.length);
  const errors = new Map<number, unknown>();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (errors.size === 0 && next < cases.length) {
      const i = next++;
      try {
        out[i] = await ask(flow, cases[i]!, oracle);
        progress?.(++done, cases.length);
      } catch (e) {
        errors.set(i, e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ASK_CONCURRENCY, cases.length) }, worker));
  if (errors.size > 0) throw errors.get(Math.min(...errors.keys()));
  return out as AnsweredCase[];
}
