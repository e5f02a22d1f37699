/**
 * The arbiter decider: ask the System-One model the v2
 * questions, then weigh its answers with the habit prior by the fold's conditional logit.
 */
import { requestKey } from "../../oracle/cache.js";
import type { ChoiceAnswer, Oracle, OracleResponse } from "../../oracle/oracle.js";
import type { Episode } from "../../trace/episode-types.js";
import type { Flow } from "../ir/flow-types.js";
import { arbiterFeatures, conditionalLogit } from "./arbiter-features.js";
import { arbiterRequest } from "./arbiter-request.js";
import { foldOf } from "./fnv.js";
import type { LiveSite } from "./site.js";
import { RESPOND } from "./types.js";
import { errorText } from "../../util/error-text.js";

export const INCOMPLETE = "the System-One answer was incomplete";

export function modelFailed(message: string): string {
  return `the System-One model failed: ${message}`;
}

export interface ArbiterInput {
  flow: Flow;
  episode: Episode;
  taskId: string;
  live: LiveSite;
  options: readonly string[];
  habit: ReadonlyMap<string, number>;
  oracle: Oracle;
}

export type ArbiterResult =
  | { ok: true; key: string; probs: Map<string, number>; oracle: Map<string, number>; predicates: Map<string, number> }
  | { ok: false; key: string; reason: string };

function choice(response: OracleResponse, id: string): ChoiceAnswer | undefined {
  const a = Object.hasOwn(response.answers, id) ? response.answers[id] : undefined;
  return a?.type === "choice" ? a : undefined;
}

function noulOf(response: OracleResponse, id: string): number | undefined {
  const a = Object.hasOwn(response.answers, id) ? response.answers[id] : undefined;
  return a?.type === "noul" ? a.noul : undefined;
}

function probability(answer: ChoiceAnswer, option: string): number {
  return Object.hasOwn(answer.probabilities, option) ? answer.probabilities[option]! : 0;
}

/** The model's answers as the arbiter reads them, over a site's options. */
export interface ArbiterAnswers {
  /** The one-question answer: `next`'s probability of each option (0 where it gives none). */
  one: Map<string, number>;
  /** The split answer: respond `1 − go_on`; a lookup `go_on` times its share in `tool` (or `go_on` alone when it is the only lookup). */
  two: Map<string, number>;
  /** Predicate id → P(yes), for the flow's predicates answered. */
  predicates: Map<string, number>;
  /** The option `next` picked. */
  pick: string;
}

/** The answers to the request over `options`, or undefined when `next`, `go_on` or (two lookups or more) `tool` is missing. */
export function readAnswers(flow: Flow, options: readonly string[], response: OracleResponse): ArbiterAnswers | undefined {
  const next = choice(response, "next");
  const goOn = noulOf(response, "go_on");
  const lookups = options.filter((o) => o !== RESPOND);
  const toolAnswer = lookups.length >= 2 ? choice(response, "tool") : undefined;
  if (next === undefined || goOn === undefined || (lookups.length >= 2 && toolAnswer === undefined)) return undefined;
  const one = new Map(options.map((o) => [o, probability(next, o)]));
  const two = new Map(
    options.map((o) => [o, o === RESPOND ? 1 - goOn : toolAnswer === undefined ? goOn : goOn * probability(toolAnswer, o)]),
  );
  const predicates = new Map<string, number>();
  for (const p of flow.predicates) {
    const a = noulOf(response, `pred_${p.id}`);
    if (a !== undefined) predicates.set(p.id, a);
  }
  return { one, two, predicates, pick: next.choice };
}

export async function arbiterProbs(input: ArbiterInput): Promise<ArbiterResult> {
  const { flow, options, live } = input;
  const request = arbiterRequest(flow, input.episode, live, options);
  const key = requestKey(request);
  let response: OracleResponse;
  try {
    response = await input.oracle.ask(request);
  } catch (err) {
    return { ok: false, key, reason: modelFailed(errorText(err)) };
  }
  const answers = readAnswers(flow, options, response);
  if (answers === undefined) return { ok: false, key, reason: INCOMPLETE };
  const { one, two, predicates } = answers;
  const fitted = flow.folds[foldOf(input.taskId) % flow.folds.length]!;
  const rows = arbiterFeatures({
    options,
    prev: live.prev,
    site: live.site,
    habit: input.habit,
    one,
    two,
    weighed: flow.weighed,
    answers: predicates,
    pick: answers.pick,
    fitted,
  });
  const p = conditionalLogit(rows, fitted, live.site);
  return { ok: true, key, probs: new Map(options.map((o, i) => [o, p[i]!])), oracle: one, predicates };
}
