/**
 * The judge's request to the System-One model, which is also what its cache key hashes: the
 * model, the exchange (the agent's last 1,500 characters, the customer's first 600) and the
 * call, and one question. Built the same way by the proxy, `stretto replay` and
 * `stretto confirm`, so the three share cached answers; the call's id is not part of it.
 */
import type { JsonValue, OracleRequest } from "../../oracle/oracle.js";
import type { Exchange } from "./exchange.js";
import { QUESTIONS, type QuestionId } from "./questions.js";

export const PROPOSAL_CHARS = 1500;
export const CUSTOMER_CHARS = 600;

/** The call as the judge is shown it. */
export interface JudgedCall {
  tool: string;
  arguments: JsonValue;
}

/** The request asking `question` about `call` after `exchange`. */
export function confirmRequest(model: string, exchange: Exchange, call: JudgedCall, question: QuestionId): OracleRequest {
  return {
    model,
    state: {
      agent_said_last: lastChars(exchange.proposal, PROPOSAL_CHARS),
      customer_replied: firstChars(exchange.customer, CUSTOMER_CHARS),
      call_about_to_be_made: { tool: call.tool, arguments: call.arguments },
    },
    questions: { [question]: QUESTIONS[question] },
  };
}

/** The last `n` characters (code points, so a surrogate pair is never split). */
export function lastChars(text: string, n: number): string {
  const chars = Array.from(text);
  return chars.length <= n ? text : chars.slice(chars.length - n).join("");
}

/** The first `n` characters (code points). */
export function firstChars(text: string, n: number): string {
  const chars = Array.from(text);
  return chars.length <= n ? text : chars.slice(0, n).join("");
}
