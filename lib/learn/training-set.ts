/**
 * The episodes a habit is learned from, as the models read them: each successful episode's
 * steps, the action id of each step, the symbol it leaves in the history (feature 0 until
 * code features are chosen), and the episode's weight.
 *
 * A training episode keeps no result texts: a step is its tool and outcome. What the code
 * features need of the results is read in passes of their own (code-features.ts), so the
 * training set stays a few numbers a step however long the results are.
 */
import type { Episode } from "../trace/index.js";
import { steps, symbol, type Step } from "../flow/decide/index.js";

/** A reward at least this close to 1 is a success. */
export const SUCCESS_TOLERANCE = 1e-9;

/** A step as the models read it: its tool and outcome, without the result's text. */
export type TrainingStep = Omit<Extract<Step, { kind: "call" }>, "output"> | Extract<Step, { kind: "respond" }>;

export interface TrainingEpisode {
  steps: TrainingStep[];
  /** Each step's action id (0 for Respond). */
  actions: number[];
  /** Each step's symbol: `(action * 4 + outcome) * 4096 + feature`. */
  symbols: number[];
  weight: number;
}

export function isSuccess(ep: Episode): boolean {
  return ep.reward >= 1 - SUCCESS_TOLERANCE;
}

/**
 * The weight of each of `n` episodes in order: 1, or with a half-life `0.5^(age/h)` where
 * age counts the episodes after it, so the newest weighs 1 and older habits fade.
 */
export function halfLifeWeights(n: number, halfLife: number | undefined): number[] {
  return Array.from({ length: n }, (_, i) => (halfLife === undefined ? 1 : Math.pow(0.5, (n - 1 - i) / halfLife)));
}

/**
 * Steps without their results' texts, one object for each tool and outcome: the training
 * set refers to a handful of them, however many steps it has. They are never changed.
 */
class StepPool {
  private readonly pool = new Map<string, TrainingStep>();

  of(s: Step): TrainingStep {
    const key = s.kind === "respond" ? `respond ${s.outcome}` : `${s.outcome} ${s.tool}`;
    let step = this.pool.get(key);
    if (step === undefined) {
      step = s.kind === "respond" ? { kind: "respond", outcome: s.outcome } : { kind: "call", tool: s.tool, outcome: s.outcome };
      this.pool.set(key, step);
    }
    return step;
  }
}

/**
 * The training episodes of `episodes`, read once in order. `weights` are the episodes'
 * weights, or how to weigh them once their number is known.
 */
export function trainingSet(
  episodes: Iterable<Episode>,
  ids: ReadonlyMap<string, number>,
  weights: readonly number[] | ((n: number) => readonly number[]),
): TrainingEpisode[] {
  const b = new TrainingSetBuilder(ids);
  for (const episode of episodes) b.add(steps(episode));
  return b.finish(weights);
}

/** The training set built one episode's steps at a time, within a pass that does other work too. */
export class TrainingSetBuilder {
  private readonly out: TrainingEpisode[] = [];
  private readonly pool = new StepPool();

  constructor(private readonly ids: ReadonlyMap<string, number>) {}

  add(episodeSteps: readonly Step[]): void {
    const s = episodeSteps.map((step) => this.pool.of(step));
    const actions = s.map((step) => (step.kind === "respond" ? 0 : this.ids.get(step.tool)!));
    this.out.push({ steps: s, actions, symbols: actions.map((a, t) => symbol(a, s[t]!.outcome, 0)), weight: 0 });
  }

  finish(weights: readonly number[] | ((n: number) => readonly number[])): TrainingEpisode[] {
    const w = typeof weights === "function" ? weights(this.out.length) : weights;
    this.out.forEach((ep, k) => (ep.weight = w[k]!));
    return this.out;
  }
}
