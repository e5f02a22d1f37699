/**
 * What drift watches in each session: the audit's decisions scored under the flow (their mean
 * surprise, and how often the flow's likeliest option was not the agent's step), each site's
 * share of them, and the tools the agent called that training never saw it call.
 */
import { episodeDecisions, likeliest, type AuditSettings } from "../audit/index.js";
import { vocabIds } from "../flow/decide/index.js";
import type { Flow } from "../flow/ir/flow-types.js";
import { recordedPoints } from "../plugins/flow/surprise.js";
import type { Episode } from "../trace/episode-types.js";

/** A site's decisions in some sessions. */
export interface SiteSums {
  decisions: number;
  agreed: number;
  /** Σ −ln p of the agent's step. */
  surprise: number;
}

export interface SessionSeries {
  id: string;
  decisions: number;
  /** Mean −ln p of the agent's steps; undefined without decisions. */
  surprise?: number;
  /** 1 − the share of decisions where the likeliest option was the agent's step. */
  disagreement?: number;
  /** The share of the tools whose results were decision points that training never saw the agent call. */
  unknown?: number;
  /** The tools of those that training never saw. */
  unseen: string[];
  sites: Map<string, SiteSums>;
}

/** Whether training saw the agent call `tool`: its count in the habit. */
export function seenInTraining(flow: Flow): (tool: string) => boolean {
  const id = vocabIds(flow);
  const counts = flow.habit.base.levels[0]?.get([]);
  return (tool) => (counts?.byAction.get(id(tool)) ?? 0) > 0;
}

/** One session's series under `flow` (already the audited flow). */
export async function sessionSeries(flow: Flow, ep: Episode, settings: AuditSettings, seen: (tool: string) => boolean): Promise<SessionSeries> {
  const sites = new Map<string, SiteSums>();
  let n = 0;
  let agreed = 0;
  let surprise = 0;
  for await (const r of episodeDecisions(flow, ep, settings)) {
    if (r.kind !== "scored") continue;
    const d = r.decision;
    const s = -Math.log(d.probs[d.step]!);
    const agree = likeliest(d.probs) === d.step ? 1 : 0;
    n += 1;
    agreed += agree;
    surprise += s;
    let site = sites.get(d.site);
    if (site === undefined) sites.set(d.site, (site = { decisions: 0, agreed: 0, surprise: 0 }));
    site.decisions += 1;
    site.agreed += agree;
    site.surprise += s;
  }
  let tools = 0;
  const unseen: string[] = [];
  let unknown = 0;
  for (const point of recordedPoints(ep)) {
    const result = ep.events[point.index]!;
    if (result.kind !== "tool_result") continue;
    tools += 1;
    if (!seen(result.name)) {
      unknown += 1;
      if (!unseen.includes(result.name)) unseen.push(result.name);
    }
  }
  return {
    id: ep.id,
    decisions: n,
    ...(n === 0 ? {} : { surprise: surprise / n, disagreement: 1 - agreed / n }),
    ...(tools === 0 ? {} : { unknown: unknown / tools }),
    unseen,
    sites,
  };
}
