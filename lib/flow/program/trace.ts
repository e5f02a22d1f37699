/**
 * What a run recorded: each site in the order it was sampled, with its value and logp,
 * and the run's log-weights. `runSites` orders the sites as the flow log's run line
 * writes them (docs/flows.md, "Serve a flow").
 */
import type { SiteValue } from "./values.js";

export interface Choice {
  address: string;
  value: SiteValue;
  logp: number;
}

export interface Trace {
  choices: Choice[];
  /** Sum of the sample logps a handler scored as prior. */
  logPrior: number;
  /** Sum of the logps scored as likelihood (live outcomes) and of observations. */
  logLikelihood: number;
  /** Sum of the factors (-Infinity after a runtime error). */
  logFactors: number;
  /** Why a run was rejected, if it was. */
  warnings: string[];
}

export function emptyTrace(): Trace {
  return { choices: [], logPrior: 0, logLikelihood: 0, logFactors: 0, warnings: [] };
}

export function totalLogWeight(t: Trace): number {
  return t.logPrior + t.logLikelihood + t.logFactors;
}

/** A site of the run line: `[address, value, logp]`. */
export type RunSite = [string, SiteValue, number];

/** The number after `#`, or -1 for an unindexed address (which sorts first). */
function indexOf(address: string): number {
  const m = /#(\d+)$/.exec(address);
  return m ? Number(m[1]) : -1;
}

/** The sites sorted by (index after `#`, address): `decide#2` before `outcome#2` before `decide#10`. */
export function runSites(choices: readonly Choice[]): RunSite[] {
  // Each index read once; a live run samples its sites in this order already, so most runs are not sorted at all.
  const keyed = choices.map((c) => ({ index: indexOf(c.address), c }));
  const before = (a: (typeof keyed)[number], b: (typeof keyed)[number]) =>
    a.index - b.index || (a.c.address < b.c.address ? -1 : a.c.address > b.c.address ? 1 : 0);
  let sorted = true;
  for (let i = 1; i < keyed.length && sorted; i++) sorted = before(keyed[i - 1]!, keyed[i]!) <= 0;
  if (!sorted) keyed.sort(before);
  return keyed.map(({ c }) => [c.address, c.value, c.logp]);
}
