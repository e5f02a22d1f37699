/**
 * A flow's bindings from its training episodes: the
 * counting pass, the tables it keeps, then the passes that score the binder's picks.
 */
import type { Episode } from "../../trace/index.js";
import type { Bindings, ToolKind } from "../../flow/ir/index.js";
import { countCalls, emptyCallCounts } from "./count-calls.js";
import { firstPassBindings } from "./finish-tables.js";
import { scorePicks } from "./score-picks.js";

/** The bindings' tables from the counting pass, with nothing scored yet. */
export function countedBindings(episodes: Iterable<Episode>, kinds: ReadonlyMap<string, ToolKind>, constants: boolean): Bindings {
  const counts = emptyCallCounts();
  for (const ep of episodes) countCalls(counts, ep, kinds);
  return firstPassBindings(counts, constants);
}

export function learnBindings(episodes: Iterable<Episode>, kinds: ReadonlyMap<string, ToolKind>, constants: boolean): Bindings {
  const bindings = countedBindings(episodes, kinds, constants);
  for (const ep of episodes) scorePicks(bindings, ep, kinds);
  return bindings;
}
