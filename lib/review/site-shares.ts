/**
 * What followed a call in training, as shares: of the habit's
 * steps right after a call to a tool that failed or not, each action's share (`respond` is a
 * message to the customer); and, for a flow served with `reach`, of the reach counts there,
 * how often each action came before the agent's next write.
 */
import { compareCodePoints } from "../trace/json.js";
import { FollowedIndex } from "../flow/decide/followed.js";
import { vocabIds } from "../flow/decide/symbols.js";
import { RESPOND } from "../flow/decide/types.js";
import type { BackoffModel, Flow } from "../flow/ir/flow-types.js";
import { weighedBy } from "./served-decider.js";

/** Each action's share, by name, and the steps they are shares of. */
export interface Shares {
  byAction: Map<string, number>;
  steps: number;
}

// A flow is reviewed site by site: index each model's followers once.
const indexes = new WeakMap<BackoffModel, FollowedIndex>();

function indexOf(model: BackoffModel, vocabLength: number): FollowedIndex {
  let index = indexes.get(model);
  if (index === undefined) indexes.set(model, (index = new FollowedIndex(model, vocabLength)));
  return index;
}

function shares(flow: Flow, model: BackoffModel, tool: string, failed: boolean): Shares {
  const followed = indexOf(model, flow.vocab.length).after(vocabIds(flow)(tool), failed);
  const byAction = new Map<string, number>();
  if (followed === undefined) return { byAction, steps: 0 };
  const names = [...followed.byAction]
    .flatMap(([a, n]): [string, number][] => {
      const action = flow.vocab[a];
      if (action === undefined) return [];
      return [[action.kind === "respond" ? RESPOND : action.tool, n]];
    })
    .sort(([a], [b]) => compareCodePoints(a, b));
  for (const [name, n] of names) byAction.set(name, n / followed.total);
  return { byAction, steps: followed.total };
}

/** What the agent did next after a call to `tool`, in training. */
export function nextShares(flow: Flow, tool: string, failed: boolean): Shares {
  return shares(flow, flow.habit.base, tool, failed);
}

/** The shares a review weighs the lookups after `tool` with: reach's, or the next shares. */
export function weighedShares(flow: Flow, tool: string, failed: boolean, next: Shares): Map<string, number> {
  if (weighedBy(flow) === "reach" && flow.reach !== undefined) return shares(flow, flow.reach, tool, failed).byAction;
  return next.byAction;
}
