/**
 * An audit: how well a flow predicts the agent's steps in recorded sessions. Per decision,
 * the log-probability of the agent's step and whether the flow's likeliest option was it;
 * summed per session, per site, and in bins of the top probability (calibration).
 */
import type { DeciderName } from "../flow/decide/index.js";
import { compareCodePoints } from "../trace/json.js";
import type { Episode } from "../trace/episode-types.js";
import type { Flow } from "../flow/ir/flow-types.js";
import { auditedFlow, episodeDecisions, likeliest, type AuditSettings } from "./decisions.js";

export interface CalibrationBin {
  /** The bin's lower edge (0, 0.1, …, 0.9). */
  from: number;
  decisions: number;
  mean_prob: number;
  agreement: number;
}

export interface SiteAudit {
  site: string;
  decisions: number;
  agreement: number;
  mean_log_prob: number;
}

export interface EpisodeAudit {
  episode: string;
  task: string;
  decisions: number;
  mean_log_prob: number;
}

export interface Audit {
  domain: string;
  decider: DeciderName;
  episodes: number;
  decisions: number;
  unanswered: number;
  log_prob: number;
  mean_log_prob: number;
  agreement: number;
  expected_agreement: number;
  ece: number;
  calibration: CalibrationBin[];
  sites: SiteAudit[];
  surprising: EpisodeAudit[];
}

/** How many of the least-fitting episodes the audit names. */
export const SURPRISING = 10;

interface Sums {
  n: number;
  agree: number;
  logp: number;
}

const share = (x: number, n: number) => (n === 0 ? 0 : x / n);

/** Audits `flow` on `episodes` (read once, in order). */
export async function auditFlow(flow: Flow, episodes: AsyncIterable<Episode> | Iterable<Episode>, settings: AuditSettings): Promise<Audit> {
  const audited = auditedFlow(flow);
  let count = 0;
  let unanswered = 0;
  const total: Sums = { n: 0, agree: 0, logp: 0 };
  let expected = 0;
  const sites = new Map<string, Sums>();
  const bins = Array.from({ length: 10 }, () => ({ n: 0, prob: 0, agree: 0 }));
  const perEpisode: EpisodeAudit[] = [];
  for await (const ep of episodes) {
    count += 1;
    const mine: Sums = { n: 0, agree: 0, logp: 0 };
    for await (const r of episodeDecisions(audited, ep, settings)) {
      if (r.kind === "unanswered") {
        unanswered += 1;
        continue;
      }
      const d = r.decision;
      const p = d.probs[d.step]!;
      const top = likeliest(d.probs);
      const agree = top === d.step ? 1 : 0;
      const lp = Math.log(p);
      for (const s of [total, mine, siteSums(sites, d.site)]) {
        s.n += 1;
        s.agree += agree;
        s.logp += lp;
      }
      expected += p;
      const topP = d.probs[top]!;
      const bin = bins[Math.min(Math.floor(10 * topP), 9)]!;
      bin.n += 1;
      bin.prob += topP;
      bin.agree += agree;
    }
    if (mine.n > 0) perEpisode.push({ episode: ep.id, task: ep.task_id, decisions: mine.n, mean_log_prob: mine.logp / mine.n });
  }
  const calibration = bins.flatMap((b, i) => (b.n === 0 ? [] : [{ from: i / 10, decisions: b.n, mean_prob: b.prob / b.n, agreement: b.agree / b.n }]));
  const ece = calibration.reduce((e, b) => e + share(b.decisions, total.n) * Math.abs(b.mean_prob - b.agreement), 0);
  const siteList = [...sites]
    .map(([site, s]) => ({ site, decisions: s.n, agreement: s.agree / s.n, mean_log_prob: s.logp / s.n }))
    .sort((a, b) => b.decisions - a.decisions || compareCodePoints(a.site, b.site));
  const surprising = perEpisode.sort((a, b) => a.mean_log_prob - b.mean_log_prob).slice(0, SURPRISING);
  return {
    domain: flow.manifest.domain,
    decider: settings.decider,
    episodes: count,
    decisions: total.n,
    unanswered,
    log_prob: total.logp,
    mean_log_prob: share(total.logp, total.n),
    agreement: share(total.agree, total.n),
    expected_agreement: share(expected, total.n),
    ece,
    calibration,
    sites: siteList,
    surprising,
  };
}

function siteSums(sites: Map<string, Sums>, site: string): Sums {
  let s = sites.get(site);
  if (s === undefined) sites.set(site, (s = { n: 0, agree: 0, logp: 0 }));
  return s;
}
