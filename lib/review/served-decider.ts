/**
 * How a flow decides when served without `--flow-decider` (docs/flows.md, "Serve a flow"): with its
 * arbiter if it has one, else with `reach` if it holds the reach counts, else with the
 * habit. A review weighs each site the way that decider would, but never asks a model: an
 * arbiter flow is reviewed with the habit alone.
 */
import type { DeciderName } from "../flow/decide/types.js";
import type { Flow } from "../flow/ir/flow-types.js";

export function servedDecider(flow: Flow): DeciderName {
  if (flow.folds.length > 0) return "arbiter";
  return flow.reach === undefined ? "habit" : "reach";
}

/** What a review weighs a site's lookups with. */
export type WeighedBy = "reach" | "habit";

export function weighedBy(flow: Flow): WeighedBy {
  return servedDecider(flow) === "reach" ? "reach" : "habit";
}

/** The words for it: `` `reach` `` or `the habit alone`. */
export function weighedByText(flow: Flow): string {
  return weighedBy(flow) === "reach" ? "`reach`" : "the habit alone";
}
