/**
 * A lookup's binding chances side by side (docs/flow-review.md, "Bindings"), for reviewing a
 * flow rather than deciding in a session: the chance the bound arguments are the agent's
 * when the customer had not mentioned the values, when they had, pooled over both, and,
 * where the flow scores them apart, when another value was named or the described record
 * read. Each is the serving chance of `bind.ts` for that mention class.
 */
import type { Bindings } from "../ir/flow-types.js";
import { bareChance, mentionChance, requiredArgs, smoothed } from "./bind.js";

export interface BindingChances {
  notMentioned: number;
  mentioned: number;
  /** Over both: what a review weighs a lookup with, not knowing what the customer said. */
  pooled: number;
  /** Present when the flow counts picks where another value was named. */
  namedOther?: number;
  /** Present when the flow counts picks where the described record was read. */
  describedRead?: number;
}

/** The chances of binding `tool`'s arguments; undefined for a tool training never called. */
export function bindingChances(bindings: Bindings, tool: string): BindingChances | undefined {
  const required = requiredArgs(bindings, tool);
  if (required === undefined) return undefined;
  if (required.length === 0) {
    // A lookup without required arguments binds `{}`, at its bare chance whatever was said.
    const c = bareChance(bindings, tool);
    return { notMentioned: c, mentioned: c, pooled: c };
  }
  const [[a, n], [b, m]] = bindings.agreed.get(tool) ?? [
    [0, 0],
    [0, 0],
  ];
  const out: BindingChances = {
    notMentioned: mentionChance(bindings, tool, "none"),
    mentioned: mentionChance(bindings, tool, "picked"),
    pooled: smoothed([a + b, n + m]),
  };
  if (bindings.namedOther.has(tool)) out.namedOther = mentionChance(bindings, tool, "other");
  if (bindings.describedRead.has(tool)) out.describedRead = mentionChance(bindings, tool, "described");
  return out;
}
