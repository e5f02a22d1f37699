/**
 * What followed a call in training: a back-off model's level-1 counts, summed over every context whose one symbol
 * is a call to a given tool that failed or not, whatever its code feature. The run
 * program's `Decide(prev, failed)` and a flow's review both read them, from the habit
 * (what the agent did next) or from the reach counts (what came before its next write).
 */
import type { BackoffModel } from "../ir/flow-types.js";
import { START } from "./symbols.js";

/** Counts by action id, and the steps they come from. */
export interface Followed {
  byAction: Map<number, number>;
  total: number;
}

/** The key of a call: its action id and whether it failed. */
function key(action: number, failed: boolean): string {
  return `${action}:${failed}`;
}

/**
 * Every call's followers in `model`, by action id and failure; calls of ids at or past
 * `vocabLength` (the unseen action) and steps that are not calls are left out, as are calls
 * nothing followed.
 */
export class FollowedIndex {
  private readonly byCall = new Map<string, Followed>();

  constructor(model: BackoffModel, vocabLength: number) {
    for (const [context, counts] of model.levels[1] ?? []) {
      if (context.length !== 1 || context[0] === START) continue;
      const step = Math.floor(context[0]! / 4096);
      const action = Math.floor(step / 4);
      const outcome = step % 4;
      if (outcome > 1 || action >= vocabLength) continue;
      const k = key(action, outcome === 1);
      const into = this.byCall.get(k) ?? { byAction: new Map<number, number>(), total: 0 };
      for (const [a, n] of counts.byAction) into.byAction.set(a, (into.byAction.get(a) ?? 0) + n);
      into.total += counts.total;
      this.byCall.set(k, into);
    }
    for (const [k, f] of [...this.byCall]) if (!(f.total > 0)) this.byCall.delete(k);
  }

  /** What followed a call to the action `action` that failed or not; undefined when nothing did. */
  after(action: number, failed: boolean): Followed | undefined {
    return this.byCall.get(key(action, failed));
  }
}
