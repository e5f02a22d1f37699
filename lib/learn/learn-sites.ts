/**
 * Where a flow may look something up: for each pair of
 * consecutive steps that are both tool calls with the second a read, the read counts as
 * what came next after the first (and whether it failed). Parallel calls of one turn are
 * consecutive steps; a reply or a write after a call adds nothing.
 */
import { compareCodePoints } from "../trace/json.js";
import { ERR, type Step } from "../flow/decide/index.js";
import { PairMap, type Sites, type ToolKind } from "../flow/ir/index.js";

export function learnSites(episodeSteps: readonly (readonly Step[])[], tools: ReadonlyMap<string, ToolKind>): Sites {
  const next = new PairMap<[string, boolean], Map<string, number>>();
  for (const steps of episodeSteps) {
    for (let t = 1; t < steps.length; t++) {
      const a = steps[t - 1]!;
      const b = steps[t]!;
      if (a.kind !== "call" || b.kind !== "call" || tools.get(b.tool) !== "read") continue;
      const key: [string, boolean] = [a.tool, a.outcome === ERR];
      let m = next.get(key);
      if (m === undefined) next.set(key, (m = new Map<string, number>()));
      m.set(b.tool, (m.get(b.tool) ?? 0) + 1);
    }
  }
  const reads = [...tools].filter(([, k]) => k === "read").map(([t]) => t).sort(compareCodePoints);
  return { reads, next, feeds: new Map(), everyRead: false };
}
