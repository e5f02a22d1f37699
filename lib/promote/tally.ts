/**
 * What scoring counts at each site (the call a decision follows): the decisions the flow
 * made there, the lookups among them, how many of those the agent made itself in a later
 * LLM turn (used), how many the proxy serving a flow had already made (served: neither used
 * nor a detour), and the tasks the lookups came from.
 */

export interface SiteTally {
  decisions: number;
  lookups: number;
  used: number;
  /** Lookups the proxy had already made, serving a flow: the agent had no reason to make them. */
  served: number;
  /** The tasks (each session is its own task) where the flow would look something up here. */
  tasks: Set<string>;
}

/** A scoring of many episodes. */
export interface Scoring {
  sites: Map<string, SiteTally>;
  /** The episodes scored. */
  episodes: number;
  /** Decisions left out: the flow could not decide, or the model gave no answer. */
  unanswered: number;
}

export function emptyScoring(): Scoring {
  return { sites: new Map(), episodes: 0, unanswered: 0 };
}

export function siteTally(scoring: Scoring, site: string): SiteTally {
  let t = scoring.sites.get(site);
  if (t === undefined) {
    t = { decisions: 0, lookups: 0, used: 0, served: 0, tasks: new Set() };
    scoring.sites.set(site, t);
  }
  return t;
}
