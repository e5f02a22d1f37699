/**
 * What a decision produces, and what deciding
 * takes from the outside: the binding of a lookup's arguments,
 * given as a function so the two parts meet at the flow plugin.
 */
import type { JsonObject } from "../../trace/json.js";

/** Which decider turns the site's options into probabilities. */
export type DeciderName = "arbiter" | "habit" | "reach";
export const DECIDERS: readonly DeciderName[] = ["arbiter", "habit", "reach"];

/** The option that stands for handing back to the agent. */
export const RESPOND = "respond";

/** A lookup's arguments bound, with the chance they are the ones the agent would pass. */
export interface Bound {
  ok: true;
  arguments: JsonObject;
  chance: number;
}

/** Why a lookup's arguments cannot be bound: the `{why}` of `{tool}: {why}`. */
export interface Unbound {
  ok: false;
  why: string;
}

export type BindResult = Bound | Unbound;

/**
 * Binds the arguments of a lookup of `tool` for the episode being decided (its calls in
 * flight included). Supplied by the binding module; deciding only calls it.
 */
export type BindFn = (tool: string) => BindResult;

export type Proposal =
  | { action: "lookup"; tool: string; arguments: JsonObject }
  | { action: "hand_back"; reason: string };

/** One option of the `policy` object, in option order, respond excluded. */
export interface PolicyOption {
  tool: string;
  p: number;
  habit: number;
  binding: number | null;
  arguments: JsonObject | null;
  /** The binding error; absent when the option binds. */
  unbound?: string;
}

/** What exploration logs. */
export interface Policy {
  decider: DeciderName;
  threshold: number;
  epsilon: number;
  explored: boolean;
  greedy: string | null;
  propensity: number;
  task_id: string;
  events: number;
  options: PolicyOption[];
}

/** A decision: the proposal and what it was made from. */
export interface Next {
  proposal: Proposal;
  /** The site (`tool` or `tool (error)`), or null when the last step is not a tool call. */
  site: string | null;
  /** Every option (respond included) → its decider probability, in option order. */
  probs: Map<string, number>;
  /** The probability of the lookup the rule considered. */
  prob: number | null;
  /** The binding chance of that lookup's arguments. */
  binding: number | null;
  /** The arbiter's one-question answer over the options; empty without the arbiter. */
  oracle: Map<string, number>;
  /** Predicate id → P(yes); empty without the arbiter. */
  predicates: Map<string, number>;
  /** The arbiter request's cache key, once asked (whether or not it was answered). */
  key: string | null;
  /** Present only with exploration. */
  policy?: Policy;
}

export function handBack(reason: string): Proposal {
  return { action: "hand_back", reason };
}

/**
 * The empty map of a decision that has no probabilities of that kind. One for every
 * decision (a decision's maps are replaced, never changed), so the many decisions that
 * hand back, and every one without the arbiter, make none.
 */
const NONE: Map<string, number> = new Map();

/** A decision that hands back before any probability was computed. */
export function emptyNext(site: string | null, reason: string): Next {
  return {
    proposal: handBack(reason),
    site,
    probs: NONE,
    prob: null,
    binding: null,
    oracle: NONE,
    predicates: NONE,
    key: null,
  };
}

/**
 * An error of the flow itself (it cannot decide at all): the engine
 * prints `stretto-proxy: the flow failed, handing back: {message}` and logs no decision.
 */
export class FlowDecideError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FlowDecideError";
  }
}
