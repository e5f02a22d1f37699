/**
 * An arbiter flow for the end-to-end tests, made at test time from the published flow
 * (`../shared/fixtures/flows/retail-5-sessions.flow.json`, which has no arbiter): the same
 * habit, sites and bindings, plus a System-One model id, one predicate and five folds.
 *
 * The folds differ on purpose, so a test can see which one `--task-id` picked
 * (fold = FNV-1a-64(task_id) % 5):
 * - the fold of {@link TASK} trusts the model: score = ln one + ln two + logit(predicate)
 *   on a lookup, so the arbiter follows the model's answers;
 * - every other fold only favours handing back (weight 10 on the respond feature), so
 *   with {@link OTHER_TASK} the arbiter hands back whatever the model says.
 * Both fold kinds cover every decision (`cover` 1) and put no weight on reliability, so the
 * probabilities can be worked out by hand from the model's answers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FLOW as PUBLISHED_FLOW } from "./flow-support.js";

/** The model id the flow asks for; it is the request's `model`. */
export const FLOW_MODEL = "jev-latest";

/** The one predicate; it bears on every lookup (`any_lookup`). */
export const PREDICATE = {
  id: "needs_lookup",
  favors: "any_lookup",
  question: "Does the agent still need facts about the customer's account that a lookup would give?",
  yes: "It still needs facts it can look up.",
  no: "It already has the facts it needs.",
} as const;

/** Feature order (as the arbiter's weights are stored): ln habit, ln one, ln two, respond, the predicate, reliability. */
export const TRUSTING_WEIGHTS = [0, 1, 1, 0, 1, 0];
export const HAND_BACK_WEIGHTS = [0, 0, 0, 10, 0, 0];

/** FNV-1a-64 over UTF-8 bytes, written out here so the test does not take the fold from the code it checks. */
export function fnvFold(taskId: string, folds = 5): number {
  let h = 1469598103934665603n;
  for (const byte of Buffer.from(taskId, "utf8")) h = ((h ^ BigInt(byte)) * 1099511628211n) & 0xffffffffffffffffn;
  return Number(h % BigInt(folds));
}

/** The task whose fold trusts the model. */
export const TASK = "arbiter-e2e";
export const TRUSTING_FOLD = fnvFold(TASK);

/** The first `other-<n>` task id whose fold is not the trusting one. */
export const OTHER_TASK = (() => {
  for (let n = 0; ; n++) if (fnvFold(`other-${n}`) !== TRUSTING_FOLD) return `other-${n}`;
})();

/** Writes the arbiter flow into `dir` and returns its path. */
export function writeArbiterFlow(dir: string): string {
  const flow = JSON.parse(readFileSync(PUBLISHED_FLOW, "utf8")) as Record<string, unknown>;
  const fold = (weights: number[]) => ({ weights, rates: { sites: [], agree: 0.5, cover: 1 } });
  flow["model"] = FLOW_MODEL;
  flow["predicates"] = [PREDICATE];
  flow["weighed"] = [PREDICATE];
  flow["folds"] = [0, 1, 2, 3, 4].map((i) => fold(i === TRUSTING_FOLD ? TRUSTING_WEIGHTS : HAND_BACK_WEIGHTS));
  const path = join(dir, "retail-arbiter.flow.json");
  writeFileSync(path, JSON.stringify(flow));
  return path;
}
