/**
 * The flow's actions: `Respond`, then every tool the episodes called or
 * the manifest lists, sorted by name. An action's id is its place in that list.
 */
import type { Episode } from "../trace/index.js";
import { compareCodePoints } from "../trace/json.js";
import type { VocabAction } from "../flow/ir/index.js";

export function learnVocab(episodes: Iterable<Episode>, manifestTools: Iterable<string>): VocabAction[] {
  const tools = new Set<string>(manifestTools);
  for (const ep of episodes) addCalledTools(tools, ep);
  return vocabOf(tools);
}

/** Adds the tools `ep` called to `tools`. */
export function addCalledTools(tools: Set<string>, ep: Episode): void {
  for (const e of ep.events) if (e.kind === "assistant") for (const c of e.calls) tools.add(c.name);
}

/** `Respond`, then `tools` sorted by name. */
export function vocabOf(tools: Iterable<string>): VocabAction[] {
  return [{ kind: "respond" }, ...[...tools].sort(compareCodePoints).map((tool): VocabAction => ({ kind: "tool", tool }))];
}

/** Tool name → action id in `vocab`. */
export function actionIds(vocab: readonly VocabAction[]): Map<string, number> {
  const ids = new Map<string, number>();
  vocab.forEach((a, i) => {
    if (a.kind === "tool") ids.set(a.tool, i);
  });
  return ids;
}
