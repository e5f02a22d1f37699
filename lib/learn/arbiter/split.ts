/**
 * The held-out split: which tasks train the habit and which the arbiter is fitted on.
 *
 * A task is an episode's `task_id`, or its session id when it has none (a recorded session
 * is its own task). 30% of the tasks are held out, rounded, leaving at least one task on
 * each side. Which ones: the tasks ordered by the FNV-1a-64 hash of their id (ties, which
 * need equal hashes of different ids, by the id itself), and the first ones in that order
 * held out. The choice depends on the task ids alone, never on file names or the order the
 * sessions were read in, and the same folder always splits the same way.
 */
import type { Episode } from "../../trace/index.js";
import { compareCodePoints } from "../../trace/json.js";
import { fnv1a64 } from "../../flow/decide/fnv.js";
import { LearnError } from "../learn-flow.js";

/** The share of tasks held out. */
export const HELD_OUT_SHARE = 0.3;

export function tooFew(episodes: number, tasks: number): string {
  return `${episodes} episodes of ${tasks} tasks are too few to split into training and held-out tasks`;
}

/** The task an episode belongs to. */
export function taskOf(ep: Episode): string {
  return ep.task_id === "" ? ep.id : ep.task_id;
}

/** How many of `tasks` tasks are held out: 30%, rounded, at least 1 and at most `tasks − 1`. */
export function heldOutCount(tasks: number): number {
  return Math.min(tasks - 1, Math.max(1, Math.round(HELD_OUT_SHARE * tasks)));
}

export interface Split<E extends Episode = Episode> {
  training: E[];
  heldOut: E[];
  /** The held-out task ids, in hash order. */
  heldOutTasks: string[];
  tasks: number;
}

/** Splits `episodes` (in their own order on each side). Throws a LearnError with fewer than 2 tasks. */
export function splitTasks<E extends Episode>(episodes: readonly E[]): Split<E> {
  const ids = [...new Set(episodes.map(taskOf))];
  if (ids.length < 2) throw new LearnError(tooFew(episodes.length, ids.length));
  const hashed = ids.map((id) => ({ id, h: fnv1a64(id) }));
  hashed.sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : compareCodePoints(a.id, b.id)));
  const heldOutTasks = hashed.slice(0, heldOutCount(ids.length)).map((t) => t.id);
  const held = new Set(heldOutTasks);
  return {
    training: episodes.filter((e) => !held.has(taskOf(e))),
    heldOut: episodes.filter((e) => held.has(taskOf(e))),
    heldOutTasks,
    tasks: ids.length,
  };
}
