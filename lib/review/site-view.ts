/**
 * A flow's sites as a reviewer reads them (docs/flow-review.md, "What a site's verdict means"): after each call training
 * showed, the lookups the flow may make, what the agent did next, and what the flow does
 * there at the threshold it is served with. The likeliest lookup's probability is its
 * weighed share times its binding chance, pooled over training, so a live decision near the
 * threshold can go either way. The gates (promotion, per-site thresholds) are the serving
 * ones.
 */
import { gate } from "../flow/decide/gates.js";
import { fixed2 } from "../flow/decide/rust-format.js";
import { byteOrder, siteLookups, siteName } from "../flow/decide/site.js";
import { RESPOND } from "../flow/decide/types.js";
import type { Flow, SiteRecord } from "../flow/ir/flow-types.js";
import type { LookupBindingView } from "./lookup-bindings.js";
import { weighedBy, type WeighedBy } from "./served-decider.js";
import { nextShares, weighedShares } from "./site-shares.js";

/** The likeliest lookup after a site, and what the flow compares with the threshold. */
export interface Likely {
  tool: string;
  /** Its weighed share. */
  share: number;
  /** The chance its bound arguments are the agent's; undefined when it cannot bind them. */
  chance?: number;
}

/** The weighed share times the binding chance (0 when it cannot bind). */
export function likelyProb(l: Likely): number {
  return l.share * (l.chance ?? 0);
}

export interface LookupView {
  tool: string;
  /** How often the agent made it next here in training. */
  count: number;
  /** Its share of what the agent did next here. */
  share: number;
  /** Its share as the site is weighed (reach's, or `share`). */
  weighedShare: number;
  bindingChance?: number;
  /** `weighedShare` times the binding chance. */
  prob: number;
  /** Whether the flow makes this lookup here at the threshold. */
  acts: boolean;
}

export interface SiteView {
  /** `tool`, or `tool (error)` after a failed call. */
  name: string;
  tool: string;
  failed: boolean;
  /** The agent's steps right after such a call in training. */
  steps: number;
  weighedBy: WeighedBy;
  /** What the agent did next, largest share first, then by name. */
  next: { action: string; share: number }[];
  /** The lookups offered here, by name. */
  lookups: LookupView[];
  likely?: Likely;
  /** The site's record, when the flow was promoted and the site scored. */
  promoted?: SiteRecord;
  /** The site's own threshold, when a search set one (above 1: switched off). */
  threshold?: number;
  /** Whether the flow may act here at all. */
  active: boolean;
  /** Whether it makes the likeliest lookup here. */
  acts: boolean;
  /** What the flow does here, as `stretto flow-show` words it. */
  verdict: string;
}

/** The chance of binding `tool`'s arguments as a review weighs it (pooled over mention classes). */
export function reviewChance(flow: Flow, tool: string, bound: ReadonlyMap<string, LookupBindingView>): number | undefined {
  const b = bound.get(tool);
  if (b !== undefined) return b.bindable ? b.chances.pooled : undefined;
  // A lookup training never made binds by its documented argument names, at 1/2 (1 with none).
  const docs = flow.manifest.docs.get(tool);
  if (docs === undefined) return undefined;
  return docs.args.size === 0 ? 1 : 0.5;
}

/** Of the lookups offered, the one with the largest weighed share (the first of equals). */
function likelyAt(
  flow: Flow,
  options: readonly string[],
  weighed: ReadonlyMap<string, number>,
  bound: ReadonlyMap<string, LookupBindingView>,
): Likely | undefined {
  let best: Likely | undefined;
  for (const o of options) {
    if (o === RESPOND) continue;
    const share = weighed.get(o) ?? 0;
    if (best !== undefined && best.share >= share) continue;
    const chance = reviewChance(flow, o, bound);
    best = chance === undefined ? { tool: o, share } : { tool: o, share, chance };
  }
  return best;
}

function describe(l: Likely): string {
  if (l.chance === undefined) return `\`${l.tool}\` ${fixed2(l.share)}, which it cannot bind`;
  return `\`${l.tool}\` ${fixed2(l.share)} × ${fixed2(l.chance)} = ${fixed2(likelyProb(l))}`;
}

/** Whether the flow may act after `site`, and at which threshold; or why it hands back. */
export function siteGate(flow: Flow, site: string, served: number): { open: true; threshold: number } | { open: false; why: string } {
  const g = gate(flow, site, served);
  if (g.open) return g;
  // A site switched off reads so even where a promotion also left it out.
  const own = flow.thresholds.get(site);
  return { open: false, why: own !== undefined && own > 1 ? "switched off" : "not promoted" };
}

/** One site's view, judged at the served `threshold`. */
export function siteView(
  flow: Flow,
  tool: string,
  failed: boolean,
  threshold: number,
  bound: ReadonlyMap<string, LookupBindingView>,
): SiteView {
  const name = siteName(tool, failed);
  const next = nextShares(flow, tool, failed);
  const weighed = weighedShares(flow, tool, failed, next);
  const options = siteLookups(flow, tool, failed).sort(byteOrder);
  const likely = likelyAt(flow, options, weighed, bound);
  const open = siteGate(flow, name, threshold);
  const acts = open.open && likely !== undefined && likelyProb(likely) >= open.threshold;
  let verdict: string;
  if (!open.open) verdict = `hands back: ${open.why}`;
  else if (likely === undefined) verdict = "hands back: no lookup offered";
  else verdict = `${acts ? "looks up" : "hands back:"} ${describe(likely)}`;
  const seen = flow.sites.next.get([tool, failed]);
  const lookups = options.map((o): LookupView => {
    const chance = reviewChance(flow, o, bound);
    const weighedShare = weighed.get(o) ?? 0;
    return {
      tool: o,
      count: seen?.get(o) ?? 0,
      share: next.byAction.get(o) ?? 0,
      weighedShare,
      ...(chance === undefined ? {} : { bindingChance: chance }),
      prob: weighedShare * (chance ?? 0),
      acts: acts && likely?.tool === o,
    };
  });
  const view: SiteView = {
    name,
    tool,
    failed,
    steps: next.steps,
    weighedBy: weighedBy(flow),
    next: [...next.byAction]
      .map(([action, share]) => ({ action, share }))
      .sort((a, b) => b.share - a.share || byteOrder(a.action, b.action)),
    lookups,
    active: open.open,
    acts,
    verdict,
  };
  if (likely !== undefined) view.likely = likely;
  const record = flow.promoted?.sites.get(name);
  if (record !== undefined) view.promoted = record;
  const own = flow.thresholds.get(name);
  if (own !== undefined) view.threshold = own;
  return view;
}

/** Every site training showed, sorted by tool, then unfailed before failed. */
export function siteKeys(flow: Flow): [string, boolean][] {
  return [...flow.sites.next.keys()]
    .map(([t, f]): [string, boolean] => [t, f])
    .sort((a, b) => byteOrder(a[0], b[0]) || Number(a[1]) - Number(b[1]));
}
