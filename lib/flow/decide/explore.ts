/**
 * Exploration: after
 * the rule, with chance ε take another lookup that binds, weighted by its probability,
 * and log the `policy` with the propensity of what was taken.
 */
import type { Episode } from "../../trace/episode-types.js";
import type { Json } from "../../trace/json.js";
import { compareCodePoints, isObject } from "../../trace/json.js";
import { seededRandom } from "../program/seeded-random.js";
import { fnv1a64 } from "./fnv.js";
import type { BindFn, DeciderName, Policy, PolicyOption, Proposal } from "./types.js";

export interface ExploreSettings {
  epsilon: number;
  /** `--flow-explore-seed` (default 0), a u64. */
  seed: bigint | number;
}

const DROPPED = new Set(["id", "call_id", "usage"]);

/** A JSON value as serde_json's `Value` writes it (keys sorted), with keys `id`, `call_id` and `usage` removed at every depth. */
function stripped(v: Json): Json {
  if (Array.isArray(v)) return v.map(stripped);
  if (!isObject(v)) return v;
  const out: { [key: string]: Json } = {};
  for (const k of Object.keys(v).filter((k) => !DROPPED.has(k)).sort(compareCodePoints)) out[k] = stripped(v[k]!);
  return out;
}

/**
 * The episode's events as JSON, without host-assigned ids, so ids do not change the draws.
 * Events keep serde's field order (the tag `kind`, then the struct's fields); JSON values
 * inside (a call's arguments) have sorted keys, as serde_json's `Value` writes them.
 */
export function contentKey(ep: Episode): string {
  const events: Json[] = ep.events.map((e): Json => {
    switch (e.kind) {
      case "user":
        return { kind: "user", text: e.text };
      case "assistant":
        return {
          kind: "assistant",
          text: e.text,
          calls: e.calls.map((c) => ({ name: c.name, arguments: stripped(c.arguments) })),
        };
      case "tool_result":
        return { kind: "tool_result", name: e.name, error: e.error, content: e.content };
    }
  });
  return JSON.stringify(events);
}

/** The two uniform draws of one decision: splitmix64 seeded `seed XOR FNV1a64("{task_id}/{content_key}")`. */
export function explorationDraws(seed: bigint | number, taskId: string, ep: Episode): () => number {
  const mixed = (BigInt(seed) & ((1n << 64n) - 1n)) ^ fnv1a64(`${taskId}/${contentKey(ep)}`);
  return seededRandom(mixed);
}

export interface ExploreInput {
  decider: DeciderName;
  threshold: number;
  settings: ExploreSettings;
  taskId: string;
  episode: Episode;
  /** The options the flow may look up, in option order. */
  lookups: readonly string[];
  probs: ReadonlyMap<string, number>;
  habit: ReadonlyMap<string, number>;
  bind: BindFn;
  /** The rule's proposal. */
  greedy: Proposal;
}

/** The proposal after exploring, and the policy to log. */
export function explore(input: ExploreInput): { proposal: Proposal; policy: Policy } {
  const { settings, greedy } = input;
  const greedyTool = greedy.action === "lookup" ? greedy.tool : null;
  const options: PolicyOption[] = input.lookups.map((tool) => {
    const p = input.probs.get(tool) ?? 0;
    const habit = input.habit.get(tool) ?? 0;
    const bound = input.bind(tool);
    return bound.ok
      ? { tool, p, habit, binding: bound.chance, arguments: bound.arguments }
      : { tool, p, habit, binding: null, arguments: null, unbound: bound.why };
  });
  const alternatives = options.filter((o) => o.arguments !== null && o.p > 0 && o.tool !== greedyTool);
  let proposal = greedy;
  let explored = false;
  let propensity = 1;
  if (alternatives.length > 0 && settings.epsilon > 0) {
    const random = explorationDraws(settings.seed, input.taskId, input.episode);
    const first = random();
    if (first < settings.epsilon) {
      const total = alternatives.reduce((sum, o) => sum + o.p, 0);
      const target = random() * total;
      let cumulative = 0;
      let chosen = alternatives[alternatives.length - 1]!;
      for (const o of alternatives) {
        cumulative += o.p;
        if (target < cumulative) {
          chosen = o;
          break;
        }
      }
      proposal = { action: "lookup", tool: chosen.tool, arguments: chosen.arguments! };
      explored = true;
      propensity = (settings.epsilon * chosen.p) / total;
    } else {
      propensity = 1 - settings.epsilon;
    }
  }
  return {
    proposal,
    policy: {
      decider: input.decider,
      threshold: input.threshold,
      epsilon: settings.epsilon,
      explored,
      greedy: greedyTool,
      propensity,
      task_id: input.taskId,
      events: input.episode.events.length,
      options,
    },
  };
}
