/**
 * The three handlers that answer a run's sample sites:
 *
 * - **live**: a decision comes from the decider (the engine), with logp 0; an outcome
 *   comes from making the lookup, scored `ln P_Outcome(ok)` into the likelihood;
 * - **simulate**: draws from the site's distribution with an injected RNG;
 * - **ScoreGivenTrace**: takes each site's value from a logged run and scores it under
 *   the program's own distributions.
 */
import { draw, HAND_BACK, logProb, type DecideDistribution, type SiteDistribution } from "./run-model.js";
import type { Choice } from "./trace.js";
import type { SiteValue } from "./values.js";

export interface SampleSite {
  address: string;
  dist: SiteDistribution;
}

/** A handler's answer at a site. `likelihood` counts the logp in the likelihood, else the prior. */
export interface Drawn {
  value: SiteValue;
  logp: number;
  likelihood?: boolean;
}

export interface Handler {
  sample(site: SampleSite): Drawn;
}

export interface AsyncHandler {
  sample(site: SampleSite): Drawn | Promise<Drawn>;
}

/** Draws every site from its distribution; `random()` is uniform in [0, 1). */
export function simulateHandler(random: () => number): Handler {
  return {
    sample({ dist }) {
      const value = draw(dist, random);
      return { value, logp: logProb(dist, value) };
    },
  };
}

/** Takes each site's value from `base` (address → value) and scores it. */
export function scoreGivenTraceHandler(base: ReadonlyMap<string, SiteValue>): Handler {
  return {
    sample({ address, dist }) {
      const value = base.get(address);
      if (value === undefined) throw new Error(`the trace has no value at ${address}`);
      return { value, logp: logProb(dist, value) };
    },
  };
}

/** The base trace of a logged run: its `run.sites` as address → value. */
export function baseTrace(sites: Iterable<readonly [string, SiteValue, ...unknown[]]> | readonly Choice[]): Map<string, SiteValue> {
  const base = new Map<string, SiteValue>();
  for (const site of sites as Iterable<unknown>) {
    if (Array.isArray(site)) base.set(site[0] as string, site[1] as SiteValue);
    else base.set((site as Choice).address, (site as Choice).value);
  }
  return base;
}

/** A decision site as the engine sees it. */
export interface DecisionRequest {
  /** `decide#i`. */
  address: string;
  /** The tool that just returned, with ` (error)` when it failed. */
  site: string;
  /** Respond (0, hand back), then every lookup the flow could make. */
  options: readonly string[];
}

export interface LiveCallbacks {
  /** The engine's decision: an option index, 0 to hand back. Anything else hands back. */
  decide(request: DecisionRequest): number | Promise<number>;
  /**
   * Makes the pending lookup and says whether it succeeded; `undefined` when nothing is
   * pending (the run asked for an outcome with no lookup chosen), which counts as failed.
   */
  outcome(request: { address: string; tool: string }): boolean | undefined | Promise<boolean | undefined>;
}

export function liveHandler(callbacks: LiveCallbacks): AsyncHandler {
  const drawn = (answer: number, dist: DecideDistribution): Drawn => {
    const valid = Number.isInteger(answer) && answer >= 0 && answer < dist.options.length;
    return { value: valid ? answer : HAND_BACK, logp: 0 };
  };
  const outcome = async (address: string, dist: Extract<SiteDistribution, { kind: "outcome" }>): Promise<Drawn> => {
    const ok = (await callbacks.outcome({ address, tool: dist.tool })) === true;
    return { value: ok, logp: logProb(dist, ok), likelihood: true };
  };
  return {
    sample({ address, dist }) {
      if (dist.kind !== "decide") return outcome(address, dist);
      // A decision the engine makes at once is drawn at once: no promise for each of the run's decisions.
      const answer = callbacks.decide({ address, site: dist.site, options: dist.options });
      return isPromiseLike(answer) ? Promise.resolve(answer).then((a) => drawn(a, dist)) : drawn(answer, dist);
    },
  };
}

/** Whether a handler's or callback's answer is still to come. */
export function isPromiseLike<T>(v: T | PromiseLike<T>): v is PromiseLike<T> {
  return typeof (v as { then?: unknown } | null | undefined)?.then === "function";
}
