/**
 * The site of a decision: the tool whose call just returned,
 * marked ` (error)` when it failed, and the lookups the flow offers there.
 */
import { compareCodePoints } from "../../trace/json.js";
import type { Flow } from "../ir/flow-types.js";
import { RESPOND } from "./types.js";
import { ERR, type Step } from "./steps.js";

export const NOT_A_TOOL_CALL = "the last step is not a tool call";
export const NO_LOOKUPS_FOLLOWED = "no lookups followed here in training";

/** The call a decision follows. */
export interface LiveSite {
  /** The tool that just returned. */
  prev: string;
  failed: boolean;
  /** `prev`, or `{prev} (error)` when it failed. */
  site: string;
}

/** The site name of a call to `tool`. */
export function siteName(tool: string, failed: boolean): string {
  return failed ? `${tool} (error)` : tool;
}

/** The site after the last step, or undefined when the last step is not a tool call. */
export function liveSite(last: Step | undefined): LiveSite | undefined {
  if (last === undefined || last.kind !== "call") return undefined;
  const failed = last.outcome === ERR;
  return { prev: last.tool, failed, site: siteName(last.tool, failed) };
}

/** The lookups offered after `(prev, failed)`: what followed in training, or every read. */
export function siteLookups(flow: Flow, prev: string, failed: boolean): string[] {
  if (flow.sites.everyRead) return [...flow.sites.reads];
  return [...(flow.sites.next.get([prev, failed])?.keys() ?? [])];
}

/** Code point (UTF-8 byte) order, as a Rust `BTreeMap<String, _>` sorts its keys. */
export const byteOrder = compareCodePoints;

/**
 * A decision's options: `respond` plus the lookups, sorted (respond sorts among the tool
 * names). This order decides ties. Empty when nothing is offered. The array is the site's
 * own, shared by every decision there, and frozen.
 */
export function siteOptions(flow: Flow, prev: string, failed: boolean): string[] {
  // A flow never changes once loaded: each site's options are worked out once.
  let bySite = optionsOf.get(flow);
  if (bySite === undefined) optionsOf.set(flow, (bySite = new Map<string, string[]>()));
  const site = siteName(prev, failed);
  let options = bySite.get(site);
  if (options === undefined) {
    const lookups = siteLookups(flow, prev, failed).filter((t) => t !== RESPOND);
    options = lookups.length === 0 ? [] : [...new Set([RESPOND, ...lookups])].sort(byteOrder);
    Object.freeze(options);
    bySite.set(site, options);
  }
  return options;
}
const optionsOf = new WeakMap<Flow, Map<string, string[]>>();
