/**
 * The rules that turn the decider's probabilities into a proposal, each with its exact hand-back reasons. Only options the flow may look up count: not
 * respond, and in a flow learned across servers, only tools on `prev`'s server.
 */
import type { Flow } from "../ir/flow-types.js";
import { serverOf } from "../../trace/qualify.js";
import { fixed2, rustDisplay } from "./rust-format.js";
import { handBack, RESPOND, type BindFn, type BindResult, type DeciderName, type Proposal } from "./types.js";

export const NO_LOOKUP = "no lookup to make";

/** What a rule decided: the proposal, and the probability and chance it weighed. */
export interface RuleOutcome {
  proposal: Proposal;
  prob: number | null;
  binding: number | null;
}

/** `{tool} at {p:.2}, below {threshold}`. */
export function belowReason(tool: string, p: number, threshold: number): string {
  return `${tool} at ${fixed2(p)}, below ${rustDisplay(threshold)}`;
}

/** `{tool} at {p:.2}, times {chance:.2} for its arguments, below {threshold}`. */
export function timesReason(tool: string, p: number, chance: number, threshold: number): string {
  return `${tool} at ${fixed2(p)}, times ${fixed2(chance)} for its arguments, below ${rustDisplay(threshold)}`;
}

/** `{tool}: {why}`. */
export function unboundReason(tool: string, why: string): string {
  return `${tool}: ${why}`;
}

/** The servers a flow's manifest names; empty for a flow learned on one server. */
export function flowServers(flow: Flow): ReadonlySet<string> {
  // Asked at every decision: worked out again only when the manifest has grown.
  const known = serversOf.get(flow);
  if (known !== undefined && known.tools === flow.manifest.tools.size) return known.servers;
  const servers = new Set<string>();
  for (const tool of flow.manifest.tools.keys()) {
    const s = serverOf(tool);
    if (s !== undefined) servers.add(s);
  }
  serversOf.set(flow, { tools: flow.manifest.tools.size, servers });
  return servers;
}
const serversOf = new WeakMap<Flow, { tools: number; servers: ReadonlySet<string> }>();

/** The options the flow may look up after `prev`, in option order. */
export function lookupOptions(flow: Flow, options: readonly string[], prev: string): string[] {
  const multi = flowServers(flow).size > 0;
  return options.filter((o) => o !== RESPOND && (!multi || serverOf(o) === serverOf(prev)));
}

/** Binds each tool at most once per decision. */
export function memoBind(bind: BindFn): BindFn {
  const seen = new Map<string, BindResult>();
  return (tool) => {
    let r = seen.get(tool);
    if (r === undefined) {
      r = bind(tool);
      seen.set(tool, r);
    }
    return r;
  };
}

/**
 * Lookup first (the habit and arbiter deciders): the likeliest lookup (the first of
 * equals) must reach the threshold, then bind, then reach it times its binding chance.
 */
export function lookupFirst(lookups: readonly string[], probs: ReadonlyMap<string, number>, threshold: number, bind: BindFn): RuleOutcome {
  let tool: string | undefined;
  let p = 0;
  for (const o of lookups) {
    const q = probs.get(o) ?? 0;
    if (tool === undefined || q > p) [tool, p] = [o, q];
  }
  if (tool === undefined) return { proposal: handBack(NO_LOOKUP), prob: null, binding: null };
  if (p < threshold) return { proposal: handBack(belowReason(tool, p, threshold)), prob: p, binding: null };
  const bound = bind(tool);
  if (!bound.ok) return { proposal: handBack(unboundReason(tool, bound.why)), prob: p, binding: null };
  if (p * bound.chance < threshold) {
    return { proposal: handBack(timesReason(tool, p, bound.chance, threshold)), prob: p, binding: bound.chance };
  }
  return { proposal: { action: "lookup", tool, arguments: bound.arguments }, prob: p, binding: bound.chance };
}

/**
 * Reach best-of: each lookup judged on its own. Among those reaching the threshold that
 * bind, the highest `p·chance` (the first unless a later one is strictly greater). With
 * none: the last binding error, else the likeliest lookup below the threshold, else
 * nothing to look up.
 */
export function reachBest(lookups: readonly string[], probs: ReadonlyMap<string, number>, threshold: number, bind: BindFn): RuleOutcome {
  let best: { tool: string; p: number; chance: number; score: number; bound: BindResult & { ok: true } } | undefined;
  let lastError: { tool: string; p: number; why: string } | undefined;
  let below: { tool: string; p: number } | undefined;
  for (const tool of lookups) {
    const p = probs.get(tool) ?? 0;
    if (p < threshold) {
      if (below === undefined || p > below.p) below = { tool, p };
      continue;
    }
    const bound = bind(tool);
    if (!bound.ok) {
      lastError = { tool, p, why: bound.why };
      continue;
    }
    const score = p * bound.chance;
    if (best === undefined || score > best.score) best = { tool, p, chance: bound.chance, score, bound };
  }
  if (best === undefined) {
    if (lastError !== undefined) {
      return { proposal: handBack(unboundReason(lastError.tool, lastError.why)), prob: lastError.p, binding: null };
    }
    if (below !== undefined) return { proposal: handBack(belowReason(below.tool, below.p, threshold)), prob: below.p, binding: null };
    return { proposal: handBack(NO_LOOKUP), prob: null, binding: null };
  }
  if (best.score < threshold) {
    return { proposal: handBack(timesReason(best.tool, best.p, best.chance, threshold)), prob: best.p, binding: best.chance };
  }
  return { proposal: { action: "lookup", tool: best.tool, arguments: best.bound.arguments }, prob: best.p, binding: best.chance };
}

/** The rule a decider serves with. */
export function applyRule(decider: DeciderName, lookups: readonly string[], probs: ReadonlyMap<string, number>, threshold: number, bind: BindFn): RuleOutcome {
  return decider === "reach" ? reachBest(lookups, probs, threshold, bind) : lookupFirst(lookups, probs, threshold, bind);
}
