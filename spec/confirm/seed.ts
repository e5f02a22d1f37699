/**
 * What the confirm specs share: a fresh answer cache seeded with the judge's answers to exact
 * requests (what `--oracle replay` reads), and the retail world's events as the judge sees them.
 */
import { AnswerCache, requestKey, type Answer, type OracleRequest } from "../../lib/oracle/index.js";
import { confirmRequest, type Exchange, type QuestionId } from "../../lib/guards/confirm/index.js";
import { tempDir } from "../helpers/processes.js";

export const MODEL = "jev-latest";

/** A new empty cache folder. */
export function cacheDir(): string {
  return tempDir("stretto-confirm-cache-");
}

/** Stores `answer` for `request` in the cache at `dir`; returns the request's key. */
export async function seed(dir: string, request: OracleRequest, answer: Answer): Promise<string> {
  const key = requestKey(request);
  await new AnswerCache(dir).write(key, { model: "jev-1.13.0", answers: { [Object.keys(request.questions)[0]!]: answer }, usage: { input_tokens: 10, output_tokens: 1 } });
  return key;
}

/** Seeds P(yes) = `p` for question `q` about `tool(args)` after `exchange`. */
export function seedYes(dir: string, exchange: Exchange, tool: string, args: Record<string, unknown>, p: number, q: QuestionId = "confirmed"): Promise<string> {
  return seed(dir, confirmRequest(MODEL, exchange, { tool, arguments: args as never }, q), { type: "noul", noul: p });
}
