/**
 * Drift: the sessions a flow served, in the order they started, each scored on three series
 * (surprise, disagreement, unknown tools), watched by change-point detection. An alarm sounds
 * when a change within the last `window` sessions, after enough sessions and followed by
 * enough of the new run, reaches `threshold`; each alarm names the sites that moved across it.
 */
import { auditedFlow, type AuditSettings } from "../audit/index.js";
import type { Flow } from "../flow/ir/flow-types.js";
import { compareCodePoints } from "../trace/json.js";
import type { Episode } from "../trace/episode-types.js";
import { ChangeDetector, fitPrior, recentChange, type Observation } from "./bocpd.js";
import { seenInTraining, sessionSeries, type SessionSeries, type SiteSums } from "./series.js";

export interface DriftSettings extends AuditSettings {
  hazard: number;
  window: number;
  threshold: number;
}

export interface SiteSide {
  decisions: number;
  agreement: number;
  surprise: number;
}

export interface MovedSite {
  site: string;
  before: SiteSide | null;
  after: SiteSide;
}

export interface Alarm {
  /** The session after which it sounded (index). */
  at: number;
  /** The first session of the new run (index). */
  change: number;
  probability: number;
  moved: MovedSite[];
}

export interface DriftSession {
  id: string;
  decisions: number;
  surprise: number | null;
  disagreement: number | null;
  unknown: number | null;
  /** P(a change in the last few sessions) after this one. */
  change: number;
}

export interface Drift {
  domain: string;
  decider: string;
  settings: { hazard: number; window: number; threshold: number };
  sessions: DriftSession[];
  alarms: Alarm[];
  sounding: boolean;
  /** Each tool training never saw, with the first session (index) it was called in. */
  unknown_tools: Record<string, number>;
}

const SERIES = ["surprise", "disagreement", "unknown"] as const;

/** Scores every episode, then runs the detector over the whole series (its priors need them all). */
export async function drift(flow: Flow, episodes: AsyncIterable<Episode> | Iterable<Episode>, settings: DriftSettings): Promise<Drift> {
  const audited = auditedFlow(flow);
  const seen = seenInTraining(flow);
  const scored: SessionSeries[] = [];
  for await (const ep of episodes) scored.push(await sessionSeries(audited, ep, settings, seen));
  return detect(flow, scored, settings);
}

/** The detector, alarms and moved sites over sessions already scored. */
export function detect(flow: Flow, scored: readonly SessionSeries[], settings: DriftSettings): Drift {
  const observations: Observation[] = scored.map((s) => SERIES.map((k) => s[k]));
  const priors = SERIES.map((_, i) => fitPrior(observations.flatMap((o) => (o[i] === undefined ? [] : [o[i]]))));
  const detector = new ChangeDetector(priors, settings.hazard);
  const sessions: DriftSession[] = [];
  const alarms: Alarm[] = [];
  let previous = 0;
  let since = 0;
  observations.forEach((o, t) => {
    detector.observe(o);
    const { probability, run } = recentChange(detector.posterior(), t + 1, settings.window);
    const s = scored[t]!;
    sessions.push({ id: s.id, decisions: s.decisions, surprise: s.surprise ?? null, disagreement: s.disagreement ?? null, unknown: s.unknown ?? null, change: probability });
    if (probability >= settings.threshold && previous < settings.threshold && run !== undefined) {
      const change = t + 1 - run;
      alarms.push({ at: t, change, probability, moved: moved(scored.slice(since, change), scored.slice(change, t + 1)) });
      since = change;
    }
    previous = probability;
  });
  const unknownTools: Record<string, number> = {};
  scored.forEach((s, i) => {
    for (const tool of s.unseen) if (!(tool in unknownTools)) unknownTools[tool] = i;
  });
  return {
    domain: flow.manifest.domain,
    decider: settings.decider,
    settings: { hazard: settings.hazard, window: settings.window, threshold: settings.threshold },
    sessions,
    alarms,
    sounding: previous >= settings.threshold && sessions.length > 0,
    unknown_tools: unknownTools,
  };
}

function sums(sessions: readonly SessionSeries[]): Map<string, SiteSums> {
  const out = new Map<string, SiteSums>();
  for (const s of sessions) {
    for (const [site, x] of s.sites) {
      const into = out.get(site) ?? { decisions: 0, agreed: 0, surprise: 0 };
      into.decisions += x.decisions;
      into.agreed += x.agreed;
      into.surprise += x.surprise;
      out.set(site, into);
    }
  }
  return out;
}

const side = (x: SiteSums): SiteSide => ({ decisions: x.decisions, agreement: x.agreed / x.decisions, surprise: x.surprise / x.decisions });

/** The sites reached after the change against before it: sites new after it first, then by how much their surprise rose. */
export function moved(before: readonly SessionSeries[], after: readonly SessionSeries[]): MovedSite[] {
  const b = sums(before);
  const out: MovedSite[] = [...sums(after)].map(([site, x]) => {
    const was = b.get(site);
    return { site, before: was === undefined ? null : side(was), after: side(x) };
  });
  const rise = (m: MovedSite) => (m.before === null ? Infinity : m.after.surprise - m.before.surprise);
  return out.sort((x, y) => {
    if ((x.before === null) !== (y.before === null)) return x.before === null ? -1 : 1;
    return rise(y) - rise(x) || compareCodePoints(x.site, y.site);
  });
}
