/**
 * The gates before any probability: the promotion gate, and
 * the per-site threshold that switches a site off or takes the served threshold's place.
 */
import type { Flow } from "../ir/flow-types.js";

export const NOT_PROMOTED = "the site is not promoted";
export const SWITCHED_OFF = "the site is switched off";

export type GateResult = { open: true; threshold: number } | { open: false; reason: string };

/** Whether a decision at `site` goes on, and at which threshold. */
export function gate(flow: Flow, site: string, served: number): GateResult {
  if (flow.promoted !== undefined && flow.promoted.sites.get(site)?.promoted !== true) {
    return { open: false, reason: NOT_PROMOTED };
  }
  const own = flow.thresholds.get(site);
  if (own === undefined) return { open: true, threshold: served };
  if (own > 1) return { open: false, reason: SWITCHED_OFF };
  return { open: true, threshold: own };
}
