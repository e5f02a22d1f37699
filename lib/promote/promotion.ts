/**
 * Promotion: a site is promoted when the flow's lookups there were the
 * agent's own often enough, surely enough, and in enough tasks. Scoring first chains through
 * every site; then only through the promoted ones, as the promoted flow would be served,
 * until the promotion repeats (at most 8 rounds).
 */
import type { Flow, Promotion, PromotionBar, SiteRecord } from "../flow/ir/flow-types.js";
import { byteOrder } from "../flow/decide/site.js";
import { scoreSession, type ScoreSettings, type SentSession } from "./score.js";
import { emptyScoring, type Scoring, type SiteTally } from "./tally.js";
import { wilsonLower } from "./wilson.js";

/** The bar's defaults: `--threshold`, `--min-used`, `--min-lower`, `--min-tasks`. */
export const DEFAULT_BAR: PromotionBar = { threshold: 0.3, minUsed: 0.7, minLower: 0.5, minTasks: 3 };
/** The most scorings before the promotion is taken as it stands. */
export const MAX_ROUNDS = 8;

/**
 * A site's record against the bar. The share used is over the lookups the agent could have
 * made itself: those the proxy had already made (served) tell nothing of the agent.
 */
export function siteRecord(t: SiteTally, bar: PromotionBar): SiteRecord {
  const tasks = t.tasks.size;
  const known = t.lookups - t.served;
  const lower = wilsonLower(t.used, known);
  const promoted = known > 0 && t.used / known >= bar.minUsed && lower >= bar.minLower && tasks >= bar.minTasks;
  return { decisions: t.decisions, lookups: t.lookups, used: t.used, tasks, lower, promoted };
}

/** Every scored site's record, sorted by site. */
export function promotionOf(scoring: Scoring, bar: PromotionBar): Promotion {
  const sites = new Map<string, SiteRecord>();
  for (const site of [...scoring.sites.keys()].sort(byteOrder)) sites.set(site, siteRecord(scoring.sites.get(site)!, bar));
  return { bar, sites };
}

export interface Promoted {
  promotion: Promotion;
  /** The last round's scoring, whose records the promotion holds. */
  scoring: Scoring;
  rounds: number;
}

/** Where the sessions come from: read again for each round, so memory holds one at a time. */
export type Sessions = () => AsyncIterable<SentSession>;

/** Scores every session once. */
export async function scoreAll(sessions: Sessions, settings: ScoreSettings): Promise<Scoring> {
  const scoring = emptyScoring();
  for await (const s of sessions()) await scoreSession(s, settings, scoring);
  return scoring;
}

/**
 * Promotes the flow's sites against `sessions`. `settings.flow` is scored with its own
 * promotion cleared; `settings.threshold` is the bar's.
 */
export async function promoteServed(flow: Flow, sessions: Sessions, settings: Omit<ScoreSettings, "flow" | "threshold" | "through">, bar: PromotionBar): Promise<Promoted> {
  const open: Flow = { ...flow };
  delete open.promoted;
  const base = { ...settings, flow: open, threshold: bar.threshold };
  let scoring = await scoreAll(sessions, base);
  let promotion = promotionOf(scoring, bar);
  let rounds = 1;
  while (rounds < MAX_ROUNDS) {
    const through = promotedSites(promotion);
    scoring = await scoreAll(sessions, { ...base, through });
    const again = promotionOf(scoring, bar);
    rounds += 1;
    const same = sameSet(through, promotedSites(again));
    promotion = again;
    if (same) break;
  }
  return { promotion, scoring, rounds };
}

export function promotedSites(p: Promotion): Set<string> {
  return new Set([...p.sites].filter(([, r]) => r.promoted).map(([s]) => s));
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
