// The API's JSON shapes: one definition shared with the server (lib/console/api-types.ts),
// imported for types only, so nothing of the server reaches the bundle.
export type * from "../../lib/console/api-types.js";
import type { FlowSiteView } from "../../lib/console/api-types.js";

/** A site of a flow as `stretto flow-show --json` describes it (lib/review/site-view.ts). */
export interface SiteLookup {
  tool: string;
  count: number;
  share: number;
  weighedShare: number;
  bindingChance?: number;
  prob: number;
  acts: boolean;
}

export interface Site {
  name: string;
  tool: string;
  failed: boolean;
  steps: number;
  next: { action: string; share: number }[];
  lookups: SiteLookup[];
  likely?: { tool: string; share: number; chance?: number };
  promoted?: unknown;
  threshold?: number;
  active: boolean;
  acts: boolean;
  verdict: string;
}

export function asSite(s: FlowSiteView): Site {
  return s as unknown as Site;
}
