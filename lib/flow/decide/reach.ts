/**
 * The reach decider: for each lookup, the chance it comes before
 * the next write, by the same back-off over the reach counts (no group layer). Respond
 * gets 0; the values need not sum to 1.
 */
import type { Flow } from "../ir/flow-types.js";
import { backoffPredict } from "./habit.js";
import { vocabIds } from "./symbols.js";
import { FlowDecideError, RESPOND } from "./types.js";

export const NO_REACH = "this flow was learned without the counts --decider reach reads";

export function reachProbs(flow: Flow, options: readonly string[], history: readonly number[]): Map<string, number> {
  if (flow.reach === undefined) throw new FlowDecideError(NO_REACH);
  const predicted = backoffPredict(flow.reach, history);
  const id = vocabIds(flow);
  return new Map(options.map((o) => [o, o === RESPOND ? 0 : (predicted[id(o)] ?? 0)]));
}
