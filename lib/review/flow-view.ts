/**
 * A flow as a reviewer reads it, as data (docs/flow-review.md): how it decides, what it does after
 * each call, and how its lookups' arguments are bound. `stretto flow-show` renders it as
 * Markdown and `stretto flow-diff` compares two of them, so the review and the diff cannot
 * disagree; a console can render the same data.
 */
import type { DeciderName } from "../flow/decide/types.js";
import type { Flow } from "../flow/ir/flow-types.js";
import { lookupBindings, type LookupBindingView } from "./lookup-bindings.js";
import { servedDecider, weighedBy, type WeighedBy } from "./served-decider.js";
import { siteKeys, siteView, type SiteView } from "./site-view.js";

export interface FlowView {
  /** The threshold the flow will be served with, which every site is judged at. */
  threshold: number;
  /** The decider it is served with by default. */
  decider: DeciderName;
  weighedBy: WeighedBy;
  /** After each call training showed, sorted by tool, then unfailed before failed. */
  sites: SiteView[];
  /** Every lookup training made, by name. */
  bindings: LookupBindingView[];
}

export function flowView(flow: Flow, threshold: number): FlowView {
  const bindings = lookupBindings(flow.bindings);
  const bound = new Map(bindings.map((b) => [b.tool, b]));
  return {
    threshold,
    decider: servedDecider(flow),
    weighedBy: weighedBy(flow),
    sites: siteKeys(flow).map(([tool, failed]) => siteView(flow, tool, failed, threshold, bound)),
    bindings,
  };
}
