/**
 * The promoted flow as a file: the input flow's JSON with `promoted` set, every other field
 * as it was read (values and their key order untouched), top-level fields in the flow's
 * declaration order, one compact line.
 */
import { byteOrder } from "../plugins/flow/decide/site.js";
import type { Promotion } from "../plugins/flow/ir/flow-types.js";
import type { JsonObject } from "../trace/json.js";

/** The flow file's top-level fields in the order a flow is written. */
const FIELD_ORDER = [
  "stretto_flow",
  "provenance",
  "vocab",
  "manifest",
  "map",
  "group",
  "habit",
  "sites",
  "predicates",
  "weighed",
  "folds",
  "bindings",
  "model",
  "program",
  "promoted",
  "thresholds",
  "contracts",
  "reach",
  "surprise",
];

/** `promoted` as the file holds it: sites sorted by name. */
export function promotionJson(p: Promotion): JsonObject {
  const sites: JsonObject = {};
  for (const site of [...p.sites.keys()].sort(byteOrder)) {
    const r = p.sites.get(site)!;
    sites[site] = { decisions: r.decisions, lookups: r.lookups, used: r.used, tasks: r.tasks, lower: r.lower, promoted: r.promoted };
  }
  const { bar } = p;
  return { bar: { threshold: bar.threshold, min_used: bar.minUsed, min_lower: bar.minLower, min_tasks: bar.minTasks }, sites };
}

/** The flow file's text (with its newline) with `promotion` in place of any it had. */
export function promotedFlowText(flowJson: JsonObject, promotion: Promotion): string {
  const out: JsonObject = {};
  for (const key of FIELD_ORDER) {
    if (key === "promoted") out[key] = promotionJson(promotion);
    else if (Object.prototype.hasOwnProperty.call(flowJson, key)) out[key] = flowJson[key]!;
  }
  // Fields this build does not know are kept, after those it does.
  for (const [key, value] of Object.entries(flowJson)) if (!(key in out)) out[key] = value;
  return JSON.stringify(out) + "\n";
}
