/**
 * `stretto flow-show`'s Markdown (docs/flow-review.md has an example): one flow as a reviewer
 * reads it, section by section, the optional ones only when the flow holds what they show.
 */
import { fixed2, rustDisplay } from "../flow/decide/rust-format.js";
import { byteOrder } from "../flow/decide/site.js";
import type { CodeField, Flow, ToolKind } from "../flow/ir/flow-types.js";
import { printProgram } from "../flow/program/print-program.js";
import { meanWeights, modelRecord, oneFit, samePredicate, weightNames } from "./arbiter-summary.js";
import { flowView } from "./flow-view.js";
import { siteOrders, type LookupBindingView } from "./lookup-bindings.js";
import { fixed, percent, thousands } from "./numbers.js";
import { promotionMarkdown } from "./promotion-table.js";
import { isStandardRun } from "./standard-run.js";
import { describeGate } from "./surprise-text.js";
import { servedDecider, weighedByText } from "./served-decider.js";

/** `` `tool` `` or `` `tool` (failed) ``. */
export function siteLabel(tool: string, failed: boolean): string {
  return failed ? `\`${tool}\` (failed)` : `\`${tool}\``;
}

/** A code field as a review names it: `status`, or `len(items)`. */
export function fieldName(f: CodeField): string {
  return f.kind === "len" ? `len(${f.path})` : f.path;
}

/** Each tool's code feature fields, backticked, by tool. */
export function featureFields(flow: Flow): Map<string, string[]> {
  return new Map(
    [...flow.map.fields]
      .sort(([a], [b]) => byteOrder(a, b))
      .map(([tool, fields]) => [tool, fields.map((f) => `\`${fieldName(f)}\``)] as const),
  );
}

const TOOL_GROUPS: [string, ToolKind][] = [
  ["Read, the only tools it may call", "read"],
  ["Write, never called", "write"],
  ["Neither, never called", "generic"],
];

function deciderSentence(flow: Flow): string {
  const p = flow.provenance;
  switch (servedDecider(flow)) {
    case "arbiter":
      return `Its arbiter was fitted on ${thousands(p.arbiterCases)} held-out decisions and asks \`${flow.model}\`.`;
    case "reach":
      return "It has no arbiter and asks no one: it decides by how often each lookup came before the agent's next write (`reach`).";
    case "habit":
      return "It has no arbiter: it decides with the habit alone and asks no one.";
  }
}

/** The flow's review at the served `threshold`. */
export function showFlow(flow: Flow, threshold: number): string {
  const view = flowView(flow, threshold);
  const p = flow.provenance;
  let md = `# Flow: ${flow.manifest.domain}\n\n`;
  const reachNote =
    flow.folds.length > 0 && flow.reach !== undefined
      ? " It also counts how often each action came before the agent's next write, which `--flow-decider reach` serves."
      : "";
  md += `Written by stretto ${p.stretto} from ${p.sources.length === 0 ? "no named source" : p.sources.join(", ")}. The habit learned from ${thousands(p.habitEpisodes)} successful sessions or episodes. ${deciderSentence(flow)}${reachNote}\n\n`;

  md += "## Tools\n\n";
  const tools = [...flow.manifest.tools].sort(([a], [b]) => byteOrder(a, b));
  for (const [label, kind] of TOOL_GROUPS) {
    const names = tools.filter(([, k]) => k === kind).map(([t]) => `\`${t}\``);
    if (names.length > 0) md += `- **${label}:** ${names.join(", ")}\n`;
  }

  md += "\n## Run\n\n";
  md += `What the flow does after each call, as a fugue program (\`program\`): \`Decide\` is a decision between handing back (0) and the lookups offered after the call just made, and \`Outcome\` whether a lookup succeeds. The proxy decides with the decider it serves the flow with (\`--flow-decider\`: the arbiter, the habit alone, or \`reach\`) and takes each outcome from the server. ${
    isStandardRun(flow.program)
      ? "This is the standard run: decide, look up, and decide again, until the flow hands back or has made `max_lookups` lookups (`--flow-per-call`)."
      : "**This is not the standard run.** Review it as code the flow runs."
  }\n\n`;
  md += `~~~text\n${printProgram(flow.program)}\n~~~\n`;

  md += "\n## Sites\n\n";
  if (flow.sites.everyRead) {
    md += "Every read tool is offered after every call (`--manifest-options`); the table lists those training showed.\n\n";
  }
  const by = weighedByText(flow);
  const reachShare = view.weighedBy === "reach" ? " of the times the agent made it before its next write," : "";
  md += `After each call: the lookups the flow may make next, what the agent did next in training, and what the flow does there with ${by} at a threshold of ${rustDisplay(threshold)}, which is the likeliest lookup's share${reachShare} times the chance its bound arguments are the agent's. The share pools over the calls before and the code features, so a live decision near the threshold can go either way.\n\n`;
  if (flow.thresholds.size > 0) {
    md += `A search set the threshold at ${flow.thresholds.size} of these sites (\`thresholds\`), and the table uses those. A site set above 1 is switched off.\n\n`;
  }
  md += `| After | Lookups it may make next (times seen) | What the agent did next in training | With ${by} |\n|---|---|---|---|\n`;
  for (const site of view.sites) {
    // The lookups training showed here; with every read offered, the others were never seen.
    const offered = site.lookups.filter((l) => l.count > 0).map((l) => `\`${l.tool}\` (${l.count})`);
    const next = site.next.slice(0, 4).map((n) => `${n.action} ${percent(n.share)}`);
    md += `| ${siteLabel(site.tool, site.failed)} | ${offered.join(", ")} | ${next.join(", ")} (of ${thousands(site.steps)}) | ${site.verdict} |\n`;
  }

  if (flow.promoted !== undefined) {
    md += "\n## Promotion\n\n";
    md += "The flow acts only after the promoted calls, and hands back after the rest (`stretto promote`).\n\n";
    md += promotionMarkdown(flow.promoted);
  }

  if (flow.surprise !== undefined) {
    md += "\n## Surprise\n\n";
    md += `The flow ${describeGate(flow.surprise)} (\`learn --surprise\`). A step's surprise is −ln of the habit's probability of what the agent did, after a call where the flow decides; a step it does not offer there counts as handing back, and the flow's own lookups are not the agent's steps. \`stretto-proxy --flow-surprise off\` serves the flow without the gate, and \`--flow-surprise NATS\` with another threshold.\n`;
  }

  md += bindingsSection(view.bindings);
  md += constantsSection(flow);
  md += sourcesBySiteSection(flow);

  const bound = new Set(view.bindings.map((b) => b.tool));
  const pinned = [...flow.contracts].filter(([t]) => bound.has(t)).sort(([a], [b]) => byteOrder(a, b));
  if (pinned.length > 0) {
    md += "\n## Pinned inputs\n\n";
    md += "Each lookup's arguments as the server listed them when the sessions were recorded. `stretto-proxy` makes no lookup of a tool whose server lists other arguments now.\n\n";
    for (const [tool, contract] of pinned) md += `- \`${tool}\`: \`${contract}\`\n`;
  }

  const features = featureFields(flow);
  if (features.size > 0) {
    md += "\n## Code features\n\n";
    md += "Output fields that sharpen the habit. Their values are copied from training outputs into the flow (`map.ids`).\n\n";
    for (const [tool, fields] of features) {
      const combinations = [...flow.map.ids.keys()].filter(([t]) => t === tool).length;
      md += `- \`${tool}\`: ${fields.join(", ")}; ${combinations} combinations of values\n`;
    }
  }

  if (flow.folds.length > 0) md += arbiterSection(flow);
  return md;
}

function bindingsSection(bindings: readonly LookupBindingView[]): string {
  const namedOther = bindings.some((b) => b.namedOther !== undefined);
  const described = bindings.some((b) => b.describedRead !== undefined);
  let md = "\n## Bindings\n\n";
  md += `Where each lookup's required arguments come from, and how often binding them that way gave the agent's own arguments in training, when the customer had not mentioned the values and when they had. With nothing tried, the chance is 1/2.${
    namedOther
      ? " Where the customer had named another value at the sources, a column counts the values the binding would pass instead, and how many of them the agent went on to pass: the chance there."
      : ""
  }${
    described
      ? " Where the record the customer described had been read (another of the same list returned a value they gave, such as their phone number), a column counts the same for the next of that list."
      : ""
  }\n\n`;
  let header = "| Lookup | Argument | Bound from (values found there, of the values it took) | Chance it is the agent's (right/tried): not mentioned, mentioned |";
  let rule = "|---|---|---|---|";
  if (namedOther) {
    header += " Another named (used/passed) |";
    rule += "---|";
  }
  if (described) {
    header += " The described record read (used/passed) |";
    rule += "---|";
  }
  md += `${header}\n${rule}\n`;
  for (const b of bindings) md += bindingRows(b, namedOther, described);
  return md;
}

/** A column of chances scored apart: the count, the unmentioned chance in its place, or none. */
function apartCell(b: LookupBindingView, count: [number, number] | undefined, chance: number | undefined): string {
  if (!b.bindable) return "—";
  if (count !== undefined && chance !== undefined) return `${fixed2(chance)} (${count[0]}/${count[1]})`;
  return `${fixed2(b.chances.notMentioned)}, as not mentioned`;
}

function bindingRows(b: LookupBindingView, namedOther: boolean, described: boolean): string {
  const [[a, n], [c, m]] = b.agreed;
  let chance = b.bindable ? `${fixed2(b.chances.notMentioned)} (${a}/${n}), ${fixed2(b.chances.mentioned)} (${c}/${m})` : "—";
  if (namedOther) chance += ` | ${apartCell(b, b.namedOther, b.chances.namedOther)}`;
  if (described) chance += ` | ${apartCell(b, b.describedRead, b.chances.describedRead)}`;
  if (b.arguments.length === 0) return `| \`${b.tool}\` | none | made once | ${chance} |\n`;
  let md = "";
  for (const arg of b.arguments) {
    const from =
      arg.sources.length === 0
        ? "nothing: the flow never makes this lookup"
        : arg.sources.map((s) => `\`${s.tool}\` at \`${s.path}\` (${s.count} of ${arg.values})`).join("; ");
    md += `| \`${b.tool}\` | \`${arg.name}\` | ${from} | ${chance} |\n`;
  }
  return md;
}

/** The constants a binding passes, by lookup and argument, with their JSON text. */
export function constantsOf(flow: Flow): [string, string, string][] {
  return [...flow.bindings.constants]
    .map(([[tool, arg], value]): [string, string, string] => [tool, arg, JSON.stringify(value)])
    .sort((x, y) => byteOrder(x[0], y[0]) || byteOrder(x[1], y[1]));
}

function constantsSection(flow: Flow): string {
  const constants = constantsOf(flow);
  if (constants.length === 0) return "";
  let md = "\n## Constants\n\n";
  md += "Arguments the agent passed with one value in every call of a lookup (`learn --constants`), which the binding passes as it did:\n\n";
  for (const [tool, arg, value] of constants) md += `- \`${tool}\` \`${arg}\`: \`${value}\`\n`;
  return md;
}

function sourcesBySiteSection(flow: Flow): string {
  const orders = siteOrders(flow.bindings);
  if (orders.length === 0) return "";
  let md = "\n## Sources by site\n\n";
  md += "Where an argument has more than one source, the order the binding tries them at a site: the sources the agent took its values from there, most used first, each the most recent output first. At other sites, the most recent output first.\n\n";
  for (const o of orders) {
    const list = o.sources.map(([[t, p], n]) => `\`${t}\` \`${p}\` (${n})`);
    md += `- \`${o.tool}\` \`${o.arg}\`, after \`${o.site}\`: ${list.join(", ")}\n`;
  }
  return md;
}

function arbiterSection(flow: Flow): string {
  let md = "\n## Arbiter\n\n";
  md += `${oneFit(flow) ? "One fit, which judges every session." : "Folds fitted apart, each judging the tasks the others saw; the weights are their mean."}\n\n`;
  md += "| Weight on | Value |\n|---|---|\n";
  const names = weightNames(flow);
  const weights = meanWeights(flow);
  for (let i = 0; i < Math.min(names.length, weights.length); i++) md += `| ${names[i]} | ${fixed(weights[i]!, 3)} |\n`;
  const record = modelRecord(flow);
  md += `\nThe System-One model's record, at the held-out decisions of ${record.sites} sites: its pick was the agent's step at ${percent(record.agree)}, and the agent's step was among its options at ${percent(record.cover)}.\n`;
  if (flow.predicates.length > 0) {
    md += "\nThe predicates it asks with each next-step question, with the conversation so far:\n\n";
    for (const q of flow.predicates) {
      const weighed = flow.weighed.some((w) => samePredicate(w, q)) ? "weighed" : "asked, not weighed";
      md += `- \`${q.id}\` (${weighed}): ${q.question}\n`;
    }
  }
  return md;
}
