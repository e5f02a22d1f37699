/**
 * A plain re-count, from a flow file's JSON, of the numbers a review prints: what the agent
 * did next after a call (the habit's level-1 counts), and a lookup's pooled binding chance.
 * Written apart from lib/review so the specs check it against the file, not against itself.
 */
import type { FlowJson } from "./review-helpers.js";

const START = 4294967295;

/** Action id of `name` in the flow's vocab (`respond` is 0). */
export function actionId(flow: FlowJson, name: string): number {
  if (name === "respond") return 0;
  return flow["vocab"].findIndex((a) => typeof a === "object" && a.Tool === name);
}

/** Of the steps right after a call to `tool` (failed or not), each action's count and their total. */
export function after(flow: FlowJson, tool: string, failed = false): { counts: Map<number, number>; total: number } {
  const id = actionId(flow, tool);
  const counts = new Map<number, number>();
  let total = 0;
  for (const [context, c] of flow["habit"]["base"]["levels"][1]!) {
    const s = context[0]!;
    if (context.length !== 1 || s === START) continue;
    const step = Math.floor(s / 4096);
    if (Math.floor(step / 4) !== id || step % 4 !== (failed ? 1 : 0)) continue;
    for (const [a, k] of c.by_action) counts.set(a, (counts.get(a) ?? 0) + k);
    total += c.total;
  }
  return { counts, total };
}

/** The share of `lookup` among the steps right after a call to `tool`. */
export function share(flow: FlowJson, tool: string, lookup: string): number {
  const { counts, total } = after(flow, tool);
  return (counts.get(actionId(flow, lookup)) ?? 0) / total;
}

/** `(agreed + 1) / (tried + 2)` over both mention classes. */
export function pooledChance(flow: FlowJson, tool: string): number {
  const [[a, n], [b, m]] = flow["bindings"]["agreed"][tool] ?? [
    [0, 0],
    [0, 0],
  ];
  return (a + b + 1) / (n + m + 2);
}
