/**
 * A flow's statistics as its program draws on them: tool ids, and the two distributions `Decide(prev, failed)` and
 * `Outcome(d)`, both read from the habit base's level-1 counts.
 */
import { FollowedIndex, type Followed } from "../decide/followed.js";
import type { Flow } from "../ir/flow-types.js";
import { remember } from "../../util/memo.js";

/** Option 0 at every decision: hand back. */
export const HAND_BACK = 0;
/** The name of option 0. */
export const RESPOND = "respond";

/** A decision site: a categorical over `options` (respond, then every read). */
export interface DecideDistribution {
  kind: "decide";
  /** The tool that just returned, with ` (error)` when it failed. */
  site: string;
  options: readonly string[];
  probs: readonly number[];
}

/** An outcome site: whether the lookup `tool` succeeds. */
export interface OutcomeDistribution {
  kind: "outcome";
  tool: string;
  pOk: number;
}

export type SiteDistribution = DecideDistribution | OutcomeDistribution;

/** The site name of a call to `tool`: the tool, marked ` (error)` when it failed. */
export function siteName(tool: string, failed: boolean): string {
  return failed ? `${tool} (error)` : tool;
}

export class RunModel {
  /** Every tool by id: respond, the reads, then the manifest's other tools. */
  readonly tools: readonly string[];
  private readonly followed: FollowedIndex;
  /** Each site's and each lookup's distribution, worked out once: the flow never changes, and a live run asks for them after every call. */
  private readonly decided = [new Map<string, DecideDistribution>(), new Map<string, DecideDistribution>()] as const;
  private readonly outcomes = new Map<string, OutcomeDistribution>();

  constructor(private readonly flow: Flow) {
    const options = [RESPOND, ...flow.sites.reads];
    const others = [...flow.manifest.tools.keys()].filter((t) => !options.includes(t)).sort();
    this.tools = [...options, ...others];
    this.followed = new FollowedIndex(flow.habit.base, flow.vocab.length);
  }

  /** A tool's id; a tool the flow does not know gets the id one past the last. */
  id(tool: string): number {
    const i = this.tools.indexOf(tool);
    return i < 0 ? this.tools.length : i;
  }

  /** Every decision's options: respond, then every read. */
  options(): string[] {
    return this.tools.slice(0, this.flow.sites.reads.length + 1);
  }

  /** The lookups offered after a call to `tool` (failed or not), sorted. */
  offered(tool: string, failed: boolean): string[] {
    if (this.flow.sites.everyRead) return [...this.flow.sites.reads];
    return [...(this.flow.sites.next.get([tool, failed])?.keys() ?? [])].sort();
  }

  private vocabId(tool: string): number {
    const i = this.flow.vocab.findIndex((a) => a.kind === "tool" && a.tool === tool);
    return i < 0 ? this.flow.vocab.length : i;
  }

  private counts(tool: string, failed: boolean): Followed | undefined {
    return this.followed.after(this.vocabId(tool), failed);
  }

  /**
   * The decision after a call to `tool`: handing back and each lookup offered there get
   * the flat Dirichlet predictive `(n + 1) / (Σn + K)` given what followed in training;
   * everything else that followed counts as handing back; lookups not offered get 0.
   */
  decide(tool: string, failed: boolean): DecideDistribution {
    const byTool = this.decided[failed ? 1 : 0];
    // Any name the server gives a tool can come here: the memo is bounded.
    return byTool.get(tool) ?? remember(byTool, tool, this.decideAfresh(tool, failed));
  }

  private decideAfresh(tool: string, failed: boolean): DecideDistribution {
    const options = this.options();
    const offered = this.offered(tool, failed);
    const followed = this.counts(tool, failed);
    const seen = (lookup: string) => followed?.byAction.get(this.vocabId(lookup)) ?? 0;
    const looked = offered.reduce((sum, l) => sum + seen(l), 0);
    const counts = [Math.max((followed?.total ?? 0) - looked, 0), ...offered.map(seen)].map((n) => Math.round(n));
    const sum = counts.reduce((a, b) => a + b, 0);
    const predictive = counts.map((n) => (n + 1) / (sum + counts.length));
    const probs = options.map((option, i) => {
      if (i === HAND_BACK) return predictive[0]!;
      const j = offered.indexOf(option);
      return j < 0 ? 0 : predictive[j + 1]!;
    });
    return { kind: "decide", site: siteName(tool, failed), options, probs };
  }

  /** Whether a call to `tool` succeeds: the flat Beta mean `(1 + n_ok) / (2 + n_ok + n_err)`. */
  outcome(tool: string): OutcomeDistribution {
    let dist = this.outcomes.get(tool);
    if (dist === undefined) {
      const n = (failed: boolean) => Math.round(this.counts(tool, failed)?.total ?? 0);
      dist = remember(this.outcomes, tool, { kind: "outcome", tool, pOk: (1 + n(false)) / (2 + n(false) + n(true)) });
    }
    return dist;
  }
}

/** ln P(value) under a site's distribution; -Infinity for a value it cannot take. */
export function logProb(dist: SiteDistribution, value: number | boolean): number {
  if (dist.kind === "outcome") {
    if (typeof value !== "boolean") return -Infinity;
    return Math.log(value ? dist.pOk : 1 - dist.pOk);
  }
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value >= dist.probs.length) {
    return -Infinity;
  }
  return Math.log(dist.probs[value]!);
}

/** A draw from a site's distribution with `random()` uniform in [0, 1). */
export function draw(dist: SiteDistribution, random: () => number): number | boolean {
  const u = random();
  if (dist.kind === "outcome") return u < dist.pOk;
  let cumulative = 0;
  let last = HAND_BACK;
  for (let i = 0; i < dist.probs.length; i++) {
    const p = dist.probs[i]!;
    if (p <= 0) continue;
    cumulative += p;
    last = i;
    if (u < cumulative) return i;
  }
  return last;
}
