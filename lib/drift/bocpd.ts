/**
 * Bayesian online change-point detection (Adams & MacKay, 2007) over sessions, each scored on
 * a few series that may be missing. Each series has a normal model with unknown mean and
 * variance (a normal-gamma prior, fitted once over the whole series), so a run's predictive
 * is a Student-t; a session may also be an outlier (a 5% chance), which then neither counts
 * as a change nor moves the run. The posterior is over the run length: how many of the
 * latest sessions belong to the current run.
 */
import { logSumExp, studentTLogPdf } from "./student-t.js";

/** The chance any one session is an outlier, judged by the prior alone. */
export const OUTLIER = 0.05;
/** A new run counts as a change once it is this many sessions long… */
export const MIN_RUN = 3;
/** …and at least this many sessions came before it. */
export const MIN_BEFORE = 10;

/** A normal-gamma prior: the mean's guess and weight (κ), and the precision's shape and rate. */
export interface Prior {
  mean: number;
  kappa: number;
  alpha: number;
  beta: number;
}

/** A run's weighted moments of one series (Welford's sums). */
export interface Moments {
  n: number;
  mean: number;
  m2: number;
}

const EMPTY: Moments = { n: 0, mean: 0, m2: 0 };

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The prior of one series, from its present values in order: centred on their median, weak
 * (κ 0.1, α 1), its scale the median successive difference as a robust standard deviation
 * (×1.4826/√2), never below 0.05.
 */
export function fitPrior(values: readonly number[]): Prior {
  const diffs: number[] = [];
  for (let i = 1; i < values.length; i++) diffs.push(Math.abs(values[i]! - values[i - 1]!));
  const scale = Math.max((median(diffs) * 1.4826) / Math.SQRT2, 0.05);
  return { mean: median(values), kappa: 0.1, alpha: 1, beta: scale * scale };
}

/** `m` with `x` added at weight `w`. */
export function addWeighted(m: Moments, x: number, w: number): Moments {
  if (!(w > 0)) return m;
  const n = m.n + w;
  const delta = x - m.mean;
  const mean = m.mean + (w * delta) / n;
  return { n, mean, m2: m.m2 + w * delta * (x - mean) };
}

/** ln of the run's predictive density at `x`: the Student-t of the posterior given its moments. */
export function predictive(prior: Prior, m: Moments, x: number): number {
  const { kappa, mean: mu, alpha, beta } = prior;
  const k = kappa + m.n;
  const loc = (kappa * mu + m.n * m.mean) / k;
  const a = alpha + m.n / 2;
  const b = beta + m.m2 / 2 + (kappa * m.n * (m.mean - mu) ** 2) / (2 * k);
  return studentTLogPdf(x, 2 * a, loc, Math.sqrt((b * (k + 1)) / (a * k)));
}

/** One session's values, one per series; undefined where missing. */
export type Observation = readonly (number | undefined)[];

interface Run {
  /** ln of its posterior probability. */
  logp: number;
  moments: Moments[];
}

/** The detector over a fixed set of series. */
export class ChangeDetector {
  /** Index r: the run of the last r sessions. */
  private runs: Run[];

  constructor(
    private readonly priors: readonly Prior[],
    private readonly hazard: number,
  ) {
    this.runs = [{ logp: 0, moments: priors.map(() => EMPTY) }];
  }

  /** Adds a session; afterwards `posterior()[r]` is the probability that the last r sessions are the current run. */
  observe(x: Observation): void {
    const lnIn = Math.log(1 - OUTLIER);
    const lnOut = Math.log(OUTLIER);
    const joint: number[] = [];
    const grown: Moments[][] = [];
    for (const run of this.runs) {
      let density = 0;
      const moments = run.moments.map((m, s) => {
        const v = x[s];
        if (v === undefined) return m;
        const prior = this.priors[s]!;
        const inRun = lnIn + predictive(prior, m, v);
        const outlier = lnOut + predictive(prior, EMPTY, v);
        const both = logSumExp([inRun, outlier]);
        density += both;
        return addWeighted(m, v, Math.exp(inRun - both));
      });
      joint.push(run.logp + density);
      grown.push(moments);
    }
    const next: Run[] = [{ logp: logSumExp(joint) + Math.log(this.hazard), moments: this.priors.map(() => EMPTY) }];
    const stay = Math.log1p(-this.hazard);
    joint.forEach((j, r) => next.push({ logp: j + stay, moments: grown[r]! }));
    const total = logSumExp(next.map((r) => r.logp));
    for (const r of next) r.logp -= total;
    this.runs = next;
  }

  /** The run-length posterior: index r, the probability the current run is the last r sessions. */
  posterior(): number[] {
    return this.runs.map((r) => Math.exp(r.logp));
  }
}

/**
 * The probability the agent changed in the last few sessions, after `seen` sessions: the
 * posterior mass on runs of at least {@link MIN_RUN} sessions, at most `window`, with at least
 * {@link MIN_BEFORE} sessions before them; and the likeliest such run's length.
 */
export function recentChange(posterior: readonly number[], seen: number, window: number): { probability: number; run: number | undefined } {
  const top = Math.min(window, seen - MIN_BEFORE);
  let probability = 0;
  let run: number | undefined;
  for (let r = MIN_RUN; r <= top; r++) {
    const p = posterior[r] ?? 0;
    probability += p;
    if (run === undefined || p > (posterior[run] ?? 0)) run = r;
  }
  return { probability, run };
}
