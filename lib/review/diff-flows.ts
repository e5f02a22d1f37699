/**
 * `stretto flow-diff` (docs/flow-review.md, "What needs review"): what changed from one flow to the next,
 * under the headings a review uses, and the changes a reviewer must look at — the flow runs
 * another program, or may call a tool, make a lookup, bind an argument from a source, pass a
 * constant, act at a site, or ask a model or a question it did not before. Everything else
 * (removals, a site acting less, shares and chances that moved) is listed only.
 */
import { fixed2, rustDisplay } from "../flow/decide/rust-format.js";
import { byteOrder } from "../flow/decide/site.js";
import type { Flow, ToolKind } from "../flow/ir/flow-types.js";
import { printProgram } from "../flow/program/print-program.js";
import { meanWeights, predicateIds, samePredicate, weightNames } from "./arbiter-summary.js";
import { lookupBindings, siteOrders, type LookupBindingView } from "./lookup-bindings.js";
import { fixed, percent, thousands } from "./numbers.js";
import { promotionSummary } from "./promotion-table.js";
import { weighedByText } from "./served-decider.js";
import { constantsOf, featureFields, siteLabel } from "./show-flow.js";
import { siteGate, siteKeys, siteView, likelyProb, type SiteView } from "./site-view.js";
import { programKey } from "./standard-run.js";
import { describeGate } from "./surprise-text.js";

export interface DiffSection {
  title: string;
  changes: string[];
}

export interface FlowDiff {
  markdown: string;
  /** The changes a reviewer must look at; empty when nothing needs review. */
  needsReview: string[];
  /** Every change, under its heading; only headings with changes. */
  sections: DiffSection[];
}

export interface DiffSettings {
  /** Shares, chances and weights that moved less than this are left out. */
  tolerance: number;
  /** The threshold the flows will be served with. */
  threshold: number;
}

function union(...lists: Iterable<string>[]): string[] {
  const all = new Set<string>();
  for (const l of lists) for (const x of l) all.add(x);
  return [...all].sort(byteOrder);
}

function kindName(kind: ToolKind | undefined): string {
  if (kind === undefined) return "absent";
  return kind === "generic" ? "neither" : kind;
}

/** Whether the flow makes its likeliest lookup after a site, at its gate's threshold. */
function clears(flow: Flow, site: SiteView, served: number): boolean {
  const g = siteGate(flow, site.name, served);
  return g.open && site.likely !== undefined && likelyProb(site.likely) >= g.threshold;
}

/** The changes from `old` to `next`, and its Markdown. */
export function diffFlows(old: Flow, next: Flow, settings: DiffSettings): FlowDiff {
  const { tolerance, threshold } = settings;
  const review: string[] = [];
  const sections: DiffSection[] = [];
  const section = (title: string, changes: string[]) => sections.push({ title, changes });

  // Tools and their kinds.
  const tools: string[] = [];
  for (const t of union(old.manifest.tools.keys(), next.manifest.tools.keys())) {
    const a = old.manifest.tools.get(t);
    const b = next.manifest.tools.get(t);
    if (a === b) continue;
    tools.push(`\`${t}\`: ${kindName(a)} → ${kindName(b)}`);
    if (b === "read") review.push(`\`${t}\` is now marked read-only, so the flow may call it`);
  }
  section("Tools", tools);

  // The run, line by line.
  const run: string[] = [];
  if (programKey(old.program) !== programKey(next.program)) {
    const la = printProgram(old.program).split("\n");
    const lb = printProgram(next.program).split("\n");
    for (const line of la) if (!lb.includes(line)) run.push(`no longer runs \`${line.trim()}\``);
    for (const line of lb) if (!la.includes(line)) run.push(`now runs \`${line.trim()}\``);
    if (run.length === 0) run.push("runs the same lines in another order");
    review.push("the flow's run changed: its program is not the one it was");
  }
  section("Run", run);

  // Sites and the lookups offered there.
  const sites: string[] = [];
  if (next.sites.everyRead && !old.sites.everyRead) {
    sites.push("every read tool is now offered after every call");
    review.push("every read tool is now offered after every call");
  }
  if (old.sites.everyRead && !next.sites.everyRead) sites.push("only the lookups training showed are offered now");
  const keyed = new Map<string, [string, boolean]>();
  for (const k of [...siteKeys(old), ...siteKeys(next)]) keyed.set(JSON.stringify(k), k);
  const allKeys = [...keyed.values()].sort((a, b) => byteOrder(a[0], b[0]) || Number(a[1]) - Number(b[1]));
  for (const [tool, failed] of allKeys) {
    const label = siteLabel(tool, failed);
    const a = old.sites.next.get([tool, failed]);
    const b = next.sites.next.get([tool, failed]);
    const la = new Set(a?.keys() ?? []);
    const lb = new Set(b?.keys() ?? []);
    for (const l of [...lb].filter((x) => !la.has(x)).sort(byteOrder)) {
      sites.push(`after ${label}: may now look up \`${l}\``);
      review.push(`a new lookup: \`${l}\` after ${label}`);
    }
    for (const l of [...la].filter((x) => !lb.has(x)).sort(byteOrder)) sites.push(`after ${label}: no longer looks up \`${l}\``);
    if (a === undefined || b === undefined) continue;
    const name = failed ? `${tool} (error)` : tool;
    const before = siteGate(old, name, threshold);
    const after = siteGate(next, name, threshold);
    if (!before.open && after.open) {
      sites.push(`after ${label}: now acts`);
      review.push(`the flow now acts after ${label}, where it handed back`);
    } else if (before.open && !after.open) {
      sites.push(`after ${label}: no longer acts (${after.why})`);
    }
  }
  const describeThreshold = (t: number | undefined) => (t === undefined ? "the served threshold" : t > 1 ? "off" : fixed2(t));
  for (const site of union(old.thresholds.keys(), next.thresholds.keys())) {
    const a = old.thresholds.get(site);
    const b = next.thresholds.get(site);
    if (a !== b) sites.push(`after \`${site}\`: ${describeThreshold(b)} (was: ${describeThreshold(a)})`);
  }
  section("Sites", sites);

  // What each flow does after each call of the new one, and what the agent did next.
  const boundOld = lookupBindings(old.bindings);
  const boundNew = lookupBindings(next.bindings);
  const byToolOld = new Map(boundOld.map((b) => [b.tool, b]));
  const byToolNew = new Map(boundNew.map((b) => [b.tool, b]));
  const acting: string[] = [];
  const nextSteps: string[] = [];
  for (const [tool, failed] of siteKeys(next)) {
    const label = siteLabel(tool, failed);
    const vb = siteView(next, tool, failed, threshold, byToolNew);
    const clearsB = clears(next, vb, threshold);
    if (!old.sites.next.has([tool, failed])) {
      if (clearsB) acting.push(`after ${label}, a new site: ${vb.verdict}`);
      continue;
    }
    const va = siteView(old, tool, failed, threshold, byToolOld);
    const clearsA = clears(old, va, threshold);
    if (clearsA !== clearsB || (clearsB && va.likely?.tool !== vb.likely?.tool)) {
      acting.push(`after ${label}: ${vb.verdict} (was: ${va.verdict})`);
    }
    const sa = new Map(va.next.map((n) => [n.action, n.share]));
    const sb = new Map(vb.next.map((n) => [n.action, n.share]));
    for (const act of union(sa.keys(), sb.keys())) {
      const x = sa.get(act) ?? 0;
      const y = sb.get(act) ?? 0;
      if (Math.abs(x - y) >= tolerance) nextSteps.push(`after ${label}: ${act} ${percent(x)} → ${percent(y)}`);
    }
  }
  section(`With ${weighedByText(next)}, at ${rustDisplay(threshold)}`, acting);
  section("What the agent did next in training", nextSteps);

  section("Bindings", bindingChanges(byToolOld, byToolNew, tolerance, review));

  // The source a binding tries first at each site where it orders them.
  const firsts = (flow: Flow) =>
    new Map(siteOrders(flow.bindings).map((o) => [JSON.stringify([o.tool, o.arg, o.site]), { ...o, first: o.sources[0]![0] }]));
  const was = firsts(old);
  const now = firsts(next);
  const bySite: string[] = [];
  const orderKeys = [...new Set([...was.keys(), ...now.keys()])]
    .map((k) => JSON.parse(k) as [string, string, string])
    .sort((x, y) => byteOrder(x[0], y[0]) || byteOrder(x[1], y[1]) || byteOrder(x[2], y[2]));
  for (const k of orderKeys) {
    const [tool, arg, site] = k;
    const a = was.get(JSON.stringify(k))?.first;
    const b = now.get(JSON.stringify(k))?.first;
    const head = `\`${tool}\` \`${arg}\` after \`${site}\``;
    if (a !== undefined && b !== undefined && (a[0] !== b[0] || a[1] !== b[1])) {
      bySite.push(`${head}: first from \`${a[0]}\` \`${a[1]}\` → \`${b[0]}\` \`${b[1]}\``);
    } else if (a === undefined && b !== undefined) {
      bySite.push(`${head}: first from \`${b[0]}\` \`${b[1]}\` (was: the most recent output)`);
    } else if (a !== undefined && b === undefined) {
      bySite.push(`${head}: the most recent output first (was: \`${a[0]}\` \`${a[1]}\`)`);
    }
  }
  section("Sources by site", bySite);

  // Constants: a new or changed one could be one user's value every training session shared.
  const constants: string[] = [];
  const ca = new Map(constantsOf(old).map(([t, a, v]) => [JSON.stringify([t, a]), v]));
  const cb = new Map(constantsOf(next).map(([t, a, v]) => [JSON.stringify([t, a]), v]));
  const constantKeys = [...new Set([...ca.keys(), ...cb.keys()])]
    .map((k) => JSON.parse(k) as [string, string])
    .sort((x, y) => byteOrder(x[0], y[0]) || byteOrder(x[1], y[1]));
  for (const key of constantKeys) {
    const [tool, arg] = key;
    const a = ca.get(JSON.stringify(key));
    const b = cb.get(JSON.stringify(key));
    if (a !== undefined && b !== undefined && a !== b) {
      constants.push(`\`${tool}\` \`${arg}\`: \`${a}\` → \`${b}\``);
      review.push(`a changed constant: \`${tool}\`'s \`${arg}\` is now \`${b}\``);
    } else if (a === undefined && b !== undefined) {
      constants.push(`\`${tool}\` \`${arg}\`: \`${b}\``);
      review.push(`a new constant: \`${tool}\`'s \`${arg}\` is always \`${b}\``);
    } else if (a !== undefined && b === undefined) {
      constants.push(`\`${tool}\` \`${arg}\` no longer passes \`${a}\``);
    }
  }
  section("Constants", constants);

  // Pinned input contracts.
  const pinned: string[] = [];
  for (const t of union(old.contracts.keys(), next.contracts.keys())) {
    const a = old.contracts.get(t);
    const b = next.contracts.get(t);
    if (a !== undefined && b !== undefined && a !== b) pinned.push(`\`${t}\`: \`${a}\` → \`${b}\``);
    else if (a === undefined && b !== undefined && old.contracts.size > 0) pinned.push(`\`${t}\` pinned: \`${b}\``);
    else if (a !== undefined && b === undefined && next.contracts.size > 0) pinned.push(`\`${t}\` no longer pinned`);
  }
  section("Pinned inputs", pinned);

  // Code features.
  const features: string[] = [];
  const fa = featureFields(old);
  const fb = featureFields(next);
  for (const t of union(fa.keys(), fb.keys())) {
    const a = fa.get(t);
    const b = fb.get(t);
    const list = (f: string[] | undefined) => (f === undefined ? "none" : f.join(", "));
    if (list(a) !== list(b)) features.push(`\`${t}\`: ${list(a)} → ${list(b)}`);
  }
  section("Code features", features);

  section("Arbiter", arbiterChanges(old, next, tolerance, review));

  const promotion: string[] = [];
  if (promotionKey(old) !== promotionKey(next)) promotion.push(`${promotionSummary(old.promoted)} → ${promotionSummary(next.promoted)}`);
  section("Promotion", promotion);

  // A gate only hands back: adding, removing or moving it is listed, never flagged.
  const gate = (f: Flow) => (f.surprise === undefined ? "none: it never hands back for surprise" : `it ${describeGate(f.surprise)}`);
  const gateKey = (f: Flow) => JSON.stringify(f.surprise === undefined ? null : [f.surprise.window, f.surprise.threshold, f.surprise.quantile ?? null]);
  section("Surprise", gateKey(old) === gateKey(next) ? [] : [`${gate(old)} → ${gate(next)}`]);

  const pa = old.provenance;
  const pb = next.provenance;
  const provenance: string[] = [];
  if (JSON.stringify(pa.sources) !== JSON.stringify(pb.sources)) provenance.push(`sources: ${pa.sources.join(", ")} → ${pb.sources.join(", ")}`);
  if (pa.habitEpisodes !== pb.habitEpisodes) {
    provenance.push(`the habit learned from ${thousands(pa.habitEpisodes)} → ${thousands(pb.habitEpisodes)} successful sessions or episodes`);
  }
  if (pa.arbiterCases !== pb.arbiterCases) {
    provenance.push(`held-out decisions behind the arbiter: ${thousands(pa.arbiterCases)} → ${thousands(pb.arbiterCases)}`);
  }
  section("Provenance", provenance);

  const kept = sections.filter((s) => s.changes.length > 0);
  let md = `# Flow diff: ${next.manifest.domain}\n\n`;
  if (review.length === 0) {
    md +=
      "Nothing needs review: the flow runs the same program, and calls no tool, makes no lookup, binds no argument and asks no model or question it did not before.\n";
  } else {
    md += "**Needs review:**\n\n";
    for (const r of review) md += `- ${r}\n`;
  }
  for (const s of kept) {
    md += `\n## ${s.title}\n\n`;
    for (const c of s.changes) md += `- ${c}\n`;
  }
  return { markdown: md, needsReview: review, sections: kept };
}

/** A promotion compared whole: its bar and every site's record. */
function promotionKey(flow: Flow): string {
  const p = flow.promoted;
  if (p === undefined) return "none";
  const sites = [...p.sites].sort(([a], [b]) => byteOrder(a, b));
  return JSON.stringify([p.bar, sites]);
}

/** Each required argument's sources, as `[arg, tool, path]` keys. */
function sourceSet(b: LookupBindingView | undefined): Map<string, [string, string, string]> {
  const out = new Map<string, [string, string, string]>();
  for (const arg of b?.arguments ?? []) for (const s of arg.sources) out.set(JSON.stringify([arg.name, s.tool, s.path]), [arg.name, s.tool, s.path]);
  return out;
}

function sortedTriples(m: Map<string, [string, string, string]>, minus: Map<string, unknown>): [string, string, string][] {
  return [...m]
    .filter(([k]) => !minus.has(k))
    .map(([, v]) => v)
    .sort((x, y) => byteOrder(x[0], y[0]) || byteOrder(x[1], y[1]) || byteOrder(x[2], y[2]));
}

function bindingChanges(
  old: ReadonlyMap<string, LookupBindingView>,
  next: ReadonlyMap<string, LookupBindingView>,
  tolerance: number,
  review: string[],
): string[] {
  const changes: string[] = [];
  for (const l of union(old.keys(), next.keys())) {
    const x = old.get(l);
    const y = next.get(l);
    const sa = sourceSet(x);
    const sb = sourceSet(y);
    for (const [arg, t, p] of sortedTriples(sb, sa)) {
      changes.push(`\`${l}\` binds \`${arg}\` from \`${t}\` at \`${p}\``);
      review.push(`a new binding: \`${l}\`'s \`${arg}\` from \`${t}\` at \`${p}\``);
    }
    for (const [arg, t, p] of sortedTriples(sa, sb)) changes.push(`\`${l}\` no longer binds \`${arg}\` from \`${t}\` at \`${p}\``);
    if (x === undefined || y === undefined) continue;
    const pairs: [string, number, number][] = [
      ["not mentioned", x.chances.notMentioned, y.chances.notMentioned],
      ["mentioned", x.chances.mentioned, y.chances.mentioned],
    ];
    for (const [when, a, b] of pairs) if (Math.abs(a - b) >= tolerance) changes.push(`\`${l}\`'s chance (${when}): ${fixed2(a)} → ${fixed2(b)}`);
    // A flow without the count gives such picks the unmentioned chance.
    const ox = x.chances.namedOther ?? x.chances.notMentioned;
    const oy = y.chances.namedOther ?? y.chances.notMentioned;
    if ((x.namedOther !== undefined || y.namedOther !== undefined) && Math.abs(ox - oy) >= tolerance) {
      changes.push(`\`${l}\`'s chance (another named): ${fixed2(ox)} → ${fixed2(oy)}`);
    }
    const dx = x.chances.describedRead ?? x.chances.notMentioned;
    const dy = y.chances.describedRead ?? y.chances.notMentioned;
    if ((x.describedRead !== undefined || y.describedRead !== undefined) && Math.abs(dx - dy) >= tolerance) {
      changes.push(`\`${l}\`'s chance (the described record read): ${fixed2(dx)} → ${fixed2(dy)}`);
    }
  }
  return changes;
}

function arbiterChanges(old: Flow, next: Flow, tolerance: number, review: string[]): string[] {
  const changes: string[] = [];
  const had = old.folds.length > 0;
  const has = next.folds.length > 0;
  if (!had && has) {
    const asked = next.predicates.length === 0 ? "" : `, with the predicates ${predicateIds(next.predicates)}`;
    changes.push(`now has an arbiter, fitted on ${thousands(next.provenance.arbiterCases)} held-out decisions, which asks \`${next.model}\`${asked}`);
    review.push(`the flow now asks \`${next.model}\` at each decision${asked}`);
  } else if (had && !has) {
    changes.push(`no longer has an arbiter: ${weighedByText(next)} decides`);
  } else if (had && has) {
    if (old.model !== next.model) {
      changes.push(`asks \`${next.model}\` instead of \`${old.model}\``);
      review.push(`the System-One model is now \`${next.model}\``);
    }
    const asked = next.predicates.filter((q) => !old.predicates.some((o) => samePredicate(o, q)));
    if (asked.length > 0) {
      changes.push(`asks new or reworded predicates: ${predicateIds(asked)}`);
      review.push(`the flow asks new or reworded predicates: ${predicateIds(asked)}`);
    }
    const dropped = old.predicates.filter((q) => !next.predicates.some((n) => n.id === q.id));
    if (dropped.length > 0) changes.push(`no longer asks ${predicateIds(dropped)}`);
    const sameWeighed =
      old.weighed.length === next.weighed.length && old.weighed.every((q, i) => q.id === next.weighed[i]!.id);
    if (sameWeighed) {
      const names = weightNames(next);
      const wa = meanWeights(old);
      const wb = meanWeights(next);
      for (let i = 0; i < Math.min(names.length, wa.length, wb.length); i++) {
        if (Math.abs(wa[i]! - wb[i]!) >= tolerance) changes.push(`weight on ${names[i]}: ${fixed(wa[i]!, 3)} → ${fixed(wb[i]!, 3)}`);
      }
    } else {
      changes.push(`weighs ${predicateIds(next.weighed)} (was ${predicateIds(old.weighed)})`);
    }
  }
  return changes;
}
