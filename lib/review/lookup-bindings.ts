/**
 * How each lookup's arguments are bound, for review (docs/flow-review.md, "Bindings"): its
 * required arguments, the source rules the binding trusts for each, whether it
 * can bind them at all, and its chances. The rules, the site orders and the chances are the
 * binding's own (lib/flow/bind), read rather than recomputed.
 */
import { bindingChances, type BindingChances } from "../flow/bind/chances.js";
import { requiredArgs } from "../flow/bind/bind.js";
import { atSite, sourceRules } from "../flow/bind/sources.js";
import type { AgreedCount, Bindings, UsedCount } from "../flow/ir/flow-types.js";
import { compareCodePoints } from "../trace/json.js";

/** A source of an argument's values: an earlier output of `tool` at `path`, and the values found there. */
export interface SourceView {
  tool: string;
  /** The path; a list argument takes every value there, and says so. */
  path: string;
  count: number;
}

export interface ArgumentView {
  name: string;
  /** The string values (for a list argument, lists) it took in training. */
  values: number;
  /** The sources the binding takes it from; none means the flow never makes the lookup. */
  sources: SourceView[];
}

export interface LookupBindingView {
  tool: string;
  /** The agent's calls to it in training. */
  calls: number;
  /** Its required arguments, by name. */
  arguments: ArgumentView[];
  /** `[agreed, tried]` when the customer had not mentioned the values picked, and when they had. */
  agreed: [AgreedCount, AgreedCount];
  namedOther?: UsedCount;
  describedRead?: UsedCount;
  /** Whether every required argument has a source. */
  bindable: boolean;
  chances: BindingChances;
}

/** Every lookup training made, by name. */
export function lookupBindings(bindings: Bindings): LookupBindingView[] {
  const tools = [...bindings.args.keys()].sort(compareCodePoints);
  return tools.map((tool) => {
    const args = (requiredArgs(bindings, tool) ?? []).map((name) => argumentView(bindings, tool, name));
    const view: LookupBindingView = {
      tool,
      calls: bindings.args.get(tool)!.calls,
      arguments: args,
      agreed: bindings.agreed.get(tool) ?? [
        [0, 0],
        [0, 0],
      ],
      bindable: args.every((a) => a.sources.length > 0),
      chances: bindingChances(bindings, tool)!,
    };
    const namedOther = bindings.namedOther.get(tool);
    if (namedOther !== undefined) view.namedOther = namedOther;
    const describedRead = bindings.describedRead.get(tool);
    if (describedRead !== undefined) view.describedRead = describedRead;
    return view;
  });
}

function argumentView(bindings: Bindings, tool: string, name: string): ArgumentView {
  const list = bindings.lists.get([tool, name]);
  const traced = list ?? bindings.sources.get([tool, name]);
  if (traced === undefined) return { name, values: 0, sources: [] };
  const sources = sourceRules(traced).map(([from, path]) => ({
    tool: from,
    path: list === undefined ? path : `${path} (every value)`,
    count: traced.found.get([from, path])!,
  }));
  return { name, values: traced.values, sources };
}

/** The order a binding tries an argument's sources at a site where the agent's own order decides. */
export interface SiteOrder {
  tool: string;
  arg: string;
  site: string;
  /** `[source tool, path]` and the values taken from it there, most used first. */
  sources: [[string, string], number][];
}

/** Every site order of the flow, sorted by lookup, argument and site. */
export function siteOrders(bindings: Bindings): SiteOrder[] {
  const keys = new Map<string, [string, string, string]>();
  for (const s of bindings.siteSources) keys.set(JSON.stringify([s.tool, s.arg, s.site]), [s.tool, s.arg, s.site]);
  const sorted = [...keys.values()].sort(
    (a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]) || compareCodePoints(a[2], b[2]),
  );
  const out: SiteOrder[] = [];
  for (const [tool, arg, site] of sorted) {
    const traced = bindings.sources.get([tool, arg]);
    if (traced === undefined) continue;
    const order = atSite(bindings, tool, arg, site, sourceRules(traced));
    // One source has no order to review.
    if (order === undefined || order.length < 2) continue;
    out.push({ tool, arg, site, sources: order.map(([[t, p], n]) => [[t, p], n]) });
  }
  return out;
}
