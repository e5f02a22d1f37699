/**
 * `next_explored`: the site of the call that just returned, the gates,
 * the options, the habit prior, the decider's probabilities, the rule, and exploration.
 * Pure: the oracle, the binding and the exploration seed come in from the plugin.
 */
import type { Oracle } from "../../oracle/oracle.js";
import type { Flow } from "../ir/flow-types.js";
import { arbiterProbs } from "./arbiter.js";
import { explore, type ExploreSettings } from "./explore.js";
import { gate } from "./gates.js";
import { habitPredict, habitPrior } from "./habit.js";
import { reachProbs } from "./reach.js";
import { applyRule, lookupOptions, memoBind } from "./rule.js";
import { liveSite, NO_LOOKUPS_FOLLOWED, NOT_A_TOOL_CALL, siteOptions, type LiveSite } from "./site.js";
import type { DecisionEpisode } from "./decision-episode.js";
import type { Step } from "./steps.js";
import { encode } from "./symbols.js";
import { emptyNext, FlowDecideError, type BindFn, type DeciderName, type Next } from "./types.js";
import { mapIn, remember } from "../../util/memo.js";

export const NO_ARBITER = "this flow has no arbiter, so it decides with the habit alone";

export interface DecideInput {
  flow: Flow;
  /** The session after `afterCall(flow.after)`: its last step is the call decided after. */
  at: DecisionEpisode;
  /** `--task-id`, else the session id: picks the arbiter's fold and feeds exploration's draws. */
  taskId: string;
  decider: DeciderName;
  /** The served threshold (`--flow-threshold`, 0.3); a per-site threshold takes its place. */
  threshold: number;
  /** Binds a lookup's arguments for this episode, its calls in flight counted as passed. */
  bind: BindFn;
  /** Asked by the arbiter only. */
  oracle?: Oracle;
  /** Present only with `--flow-explore`. */
  explore?: ExploreSettings;
}

interface Prepared extends OpenSite {
  history: number[];
  habit: Map<string, number>;
}

/** The site the last step makes, past its gates, with its options. */
export interface OpenSite {
  live: LiveSite;
  threshold: number;
  options: string[];
}

/**
 * Where a decision after `last` stands before any model is asked: the site, open, with the
 * lookups it offers; or the hand-back when the last step is not a call, a gate is shut, or
 * nothing followed here in training. Every decision at this site hands back alike until a
 * lookup changes the last step.
 */
export function openSite(flow: Flow, last: Step | undefined, served: number): OpenSite | Next {
  const live = liveSite(last);
  if (live === undefined) return emptyNext(null, NOT_A_TOOL_CALL);
  const open = gate(flow, live.site, served);
  if (!open.open) return emptyNext(live.site, open.reason);
  const options = siteOptions(flow, live.prev, live.failed);
  if (options.length === 0) return emptyNext(live.site, NO_LOOKUPS_FOLLOWED);
  return { live, threshold: open.threshold, options };
}

/** Site, gates, options and habit prior; or the decision already made when one of them hands back. */
function prepare(input: DecideInput): Prepared | Next {
  const { flow } = input;
  const site = openSite(flow, input.at.last, input.threshold);
  if (isNext(site)) return site;
  const history = historyAt(flow, input.at);
  return { ...site, history, habit: servedPrior(flow, site.options, history) };
}

/** The symbols before a decision: the habit and reach read only as many steps back as their order. */
function historyAt(flow: Flow, at: DecisionEpisode): number[] {
  return encode(flow, at.recent(contextLength(flow)));
}

function priorOf(flow: Flow, options: readonly string[], history: readonly number[]): Map<string, number> {
  return habitPrior(flow, options, habitPredict(flow.habit, flow.group, history));
}

const priorsOf = new WeakMap<Flow, Map<readonly string[], Map<string, Map<string, number>>>>();

/**
 * `priorOf` at a site of the flow being served: a site's options array is the flow's own
 * (`siteOptions`) and a session meets the same few contexts again and again, so each prior
 * is worked out once (shared: a decision never changes its probabilities).
 */
function servedPrior(flow: Flow, options: readonly string[], history: readonly number[]): Map<string, number> {
  let bySite = priorsOf.get(flow);
  if (bySite === undefined) priorsOf.set(flow, (bySite = new Map<readonly string[], Map<string, Map<string, number>>>()));
  // The habit priors kept per site are bounded (MEMO_LIMIT): a long session meets ever new histories.
  const byHistory = mapIn(bySite, options);
  const key = history.join(",");
  return byHistory.get(key) ?? remember(byHistory, key, priorOf(flow, options, history));
}

/** The habit prior over a site's `options` at a decision point, as the deciders start from it. */
export function habitAt(flow: Flow, at: DecisionEpisode, options: readonly string[]): Map<string, number> {
  return priorOf(flow, options, historyAt(flow, at));
}

/** How many steps back the flow's models look. */
export function contextLength(flow: Flow): number {
  return Math.max(flow.habit.base.order, flow.reach?.order ?? 0);
}

export function isNext(x: object): x is Next {
  return "proposal" in x;
}

/** The rule and exploration over the decider's probabilities. */
function conclude(input: DecideInput, prep: Prepared, next: Next, bind: BindFn): Next {
  const lookups = lookupOptions(input.flow, prep.options, prep.live.prev);
  const rule = applyRule(input.decider, lookups, next.probs, prep.threshold, bind);
  next.proposal = rule.proposal;
  next.prob = rule.prob;
  next.binding = rule.binding;
  if (input.explore !== undefined) {
    const explored = explore({
      decider: input.decider,
      threshold: prep.threshold,
      settings: input.explore,
      taskId: input.taskId,
      episode: input.at.episode,
      lookups,
      probs: next.probs,
      habit: prep.habit,
      bind,
      greedy: rule.proposal,
    });
    next.proposal = explored.proposal;
    next.policy = explored.policy;
  }
  return next;
}

/**
 * A decision with the habit or reach decider, which never ask the oracle. Throws
 * {@link FlowDecideError} for the arbiter, and for reach on a flow without reach counts.
 */
export function nextLocal(input: DecideInput): Next {
  const prep = prepare(input);
  if (isNext(prep)) return prep;
  const next = emptyNext(prep.live.site, "");
  if (input.decider === "arbiter") throw new FlowDecideError("the arbiter asks the System-One model: decide with nextExplored");
  next.probs = input.decider === "habit" ? prep.habit : reachProbs(input.flow, prep.options, prep.history);
  return conclude(input, prep, next, memoBind(input.bind));
}

/**
 * The next lookup after a call, or a hand-back, with exploration applied. Resolves to the decision (a hand-back carries its
 * reason); rejects with {@link FlowDecideError} when the flow cannot decide at all (reach
 * without reach counts, the arbiter without folds or without an oracle): the engine then
 * prints `stretto-proxy: the flow failed, handing back: {message}` and logs no decision.
 */
export async function nextExplored(input: DecideInput): Promise<Next> {
  if (input.decider !== "arbiter") return nextLocal(input);
  const prep = prepare(input);
  if (isNext(prep)) return prep;
  const { flow } = input;
  if (flow.folds.length === 0) throw new FlowDecideError(NO_ARBITER);
  if (input.oracle === undefined) throw new FlowDecideError("the arbiter has no System-One model to ask");
  const next = emptyNext(prep.live.site, "");
  // Read before the model is awaited, so the binding after it sees the session as it was.
  const episode = input.at.episode;
  const judged = await arbiterProbs({
    flow,
    episode,
    taskId: input.taskId,
    live: prep.live,
    options: prep.options,
    habit: prep.habit,
    oracle: input.oracle,
  });
  next.key = judged.key;
  if (!judged.ok) {
    next.proposal = { action: "hand_back", reason: judged.reason };
    return next;
  }
  next.probs = judged.probs;
  next.oracle = judged.oracle;
  next.predicates = judged.predicates;
  return conclude(input, prep, next, memoBind(input.bind));
}
