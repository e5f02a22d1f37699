/**
 * Off-policy estimates: what a target policy would have done over the
 * logged decisions, per site and in total, for four metrics: the lookups it would make, those
 * the agent made itself later (used), the detours, and the LLM turns saved.
 *
 * - logged: the flow's own totals;
 * - direct: the labels of the target's own choices (every option is labelled);
 * - IPS: the taken option's label weighted by w = 1/propensity where the target takes it too;
 * - SNIPS: IPS × decisions / Σw;
 * - DR: the model's value of the target's choice plus w × (observed − the model's value of
 *   what was taken), the model being the mean label per (site, tool), else per tool, else
 *   a lookup that was a detour;
 * - ESS = (Σw)²/Σw². The weighted estimates are refused where the target looks something up
 *   and the ESS is below the minimum: a few heavy weights would decide them.
 */
import { byteOrder } from "../flow/decide/site.js";
import type { LoggedDecision } from "./decisions.js";
import { propensity, takenChoice } from "./propensity.js";
import { targetChoice, type Target } from "./target.js";

/** lookups, used, detours, turns. */
export type Metrics = [number, number, number, number];
export const METRICS = ["lookups", "used", "detours", "turns"] as const;

/** What the model predicts for a lookup it has no label of. */
export const UNSEEN: Metrics = [1, 0, 1, 0];
const NONE: Metrics = [0, 0, 0, 0];

export interface Estimates {
  decisions: number;
  /** Decisions where the target looks something up. */
  targetLookups: number;
  ess: number;
  logged: Metrics;
  direct: Metrics;
  /** Undefined when refused (or, for SNIPS, when no weight is left). */
  ips?: Metrics;
  snips?: Metrics;
  dr?: Metrics;
}

export interface Evaluation {
  target: Target;
  /** By site, sorted; `All` is separate. */
  sites: Map<string, Estimates>;
  all: Estimates;
}

/** The site of a decision, for grouping. */
export function siteOf(d: LoggedDecision): string {
  return d.site ?? "(no site)";
}

function metricsOf(d: LoggedDecision, i: number): Metrics {
  if (i === -1) return NONE;
  const l = d.labels[i]!;
  return [1, l.used ? 1 : 0, l.detour ? 1 : 0, l.turn];
}

const add = (a: Metrics, b: Metrics, k = 1): Metrics => [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2], a[3] + k * b[3]];
const scale = (a: Metrics, k: number): Metrics => [a[0] * k, a[1] * k, a[2] * k, a[3] * k];

/** The mean label per (site, tool) and per tool, over every labelled option. */
export class LabelModel {
  private readonly bySite = new Map<string, { n: number; sum: Metrics }>();
  private readonly byTool = new Map<string, { n: number; sum: Metrics }>();

  constructor(decisions: readonly LoggedDecision[]) {
    for (const d of decisions) {
      d.policy.options.forEach((o, i) => {
        const m = metricsOf(d, i);
        for (const [map, key] of [
          [this.bySite, JSON.stringify([siteOf(d), o.tool])],
          [this.byTool, o.tool],
        ] as const) {
          const cell = map.get(key) ?? { n: 0, sum: NONE };
          map.set(key, { n: cell.n + 1, sum: add(cell.sum, m) });
        }
      });
    }
  }

  predict(d: LoggedDecision, i: number): Metrics {
    if (i === -1) return NONE;
    const tool = d.policy.options[i]!.tool;
    const cell = this.bySite.get(JSON.stringify([siteOf(d), tool])) ?? this.byTool.get(tool);
    return cell === undefined ? UNSEEN : scale(cell.sum, 1 / cell.n);
  }
}

/** The estimates over `decisions` for `target`, refusing the weighted ones below `minEss`. */
export function estimate(target: Target, decisions: readonly LoggedDecision[], model: LabelModel, minEss: number): Estimates {
  let logged = NONE;
  let direct = NONE;
  let ips = NONE;
  let dr = NONE;
  let sumW = 0;
  let sumW2 = 0;
  let targetLookups = 0;
  for (const d of decisions) {
    const taken = takenChoice(d);
    const chosen = targetChoice(target, d);
    const observed = metricsOf(d, taken);
    logged = add(logged, observed);
    direct = add(direct, metricsOf(d, chosen));
    if (chosen !== -1) targetLookups += 1;
    const w = chosen === taken ? 1 / propensity(d, taken) : 0;
    sumW += w;
    sumW2 += w * w;
    ips = add(ips, observed, w);
    dr = add(add(dr, model.predict(d, chosen)), add(observed, model.predict(d, taken), -1), w);
  }
  const n = decisions.length;
  const ess = sumW2 === 0 ? 0 : (sumW * sumW) / sumW2;
  const out: Estimates = { decisions: n, targetLookups, ess, logged, direct };
  if (targetLookups > 0 && ess < minEss) return out;
  out.ips = ips;
  if (sumW > 0) out.snips = scale(ips, n / sumW);
  out.dr = dr;
  return out;
}

/** The estimates for a target, per site and in total. */
export function evaluate(target: Target, decisions: readonly LoggedDecision[], minEss: number): Evaluation {
  const model = new LabelModel(decisions);
  const bySite = new Map<string, LoggedDecision[]>();
  for (const d of decisions) bySite.set(siteOf(d), [...(bySite.get(siteOf(d)) ?? []), d]);
  const sites = new Map<string, Estimates>();
  for (const site of [...bySite.keys()].sort(byteOrder)) sites.set(site, estimate(target, bySite.get(site)!, model, minEss));
  return { target, sites, all: estimate(target, decisions, model, minEss) };
}
