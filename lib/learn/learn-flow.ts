/**
 * Learning a goal-free flow from episodes:
 * vocab, α, code features, the grouped habit, reach, sites and bindings from the successful episodes,
 * assembled into the flow IR with the manifest, contracts and provenance.
 */
import type { Episode, ToolManifest } from "../trace/index.js";
import { compareCodePoints } from "../trace/json.js";
import { standardProgram } from "../flow/program/index.js";
import type { Flow, ToolKind } from "../flow/ir/index.js";
import { posteriorMedianAlpha, prequentialCounts } from "./alpha.js";
import { learnBindings } from "./bindings/learn-bindings.js";
import { fieldTable, learnFeatures } from "./code-features.js";
import type { Episodes } from "./episode-store.js";
import { ORDER, fitGrouped, fitReach } from "./fit-habit.js";
import { learnSites } from "./learn-sites.js";
import { halfLifeWeights, isSuccess, trainingSet } from "./training-set.js";
import { actionIds, learnVocab } from "./vocab.js";

/** The group a goal-free flow's habit is conditioned on. */
export const GOAL_FREE_GROUP = 1;

export const NO_SUCCESSES = "no successful training episodes to learn a habit from (set rewards to 1)";

/** Why a flow cannot be learned; the message is what the command says. */
export class LearnError extends Error {
  override name = "LearnError";
}

export interface LearnInput {
  /** Every episode, in session order; `domain` and `reward` already set. */
  episodes: readonly Episode[];
  /**
   * The episodes the habit, reach, sites and bindings learn from (their successful ones);
   * every episode when absent. The vocab and provenance's sources read every episode.
   */
  training?: readonly Episode[];
  manifest: ToolManifest;
  contracts: ReadonlyMap<string, string>;
  /** Learn arguments always passed with one value (`--constants`). */
  constants: boolean;
  /** Weigh an episode by `0.5^(age / halfLife)` (`--half-life`). */
  halfLife?: number;
  /** The learner's version, for provenance. */
  version: string;
  nowMs: number;
  /** Fixes α instead of estimating it (tests). */
  alpha?: number;
}

/**
 * What {@link learnFlow} reads: as {@link LearnInput}, with the episodes any collection
 * that can be read in order more than once (an array, or an `EpisodeStore` that keeps
 * them compressed). The learner reads them in passes and keeps no episode between passes.
 */
export type LearnSource = Omit<LearnInput, "episodes" | "training"> & { episodes: Episodes; training?: Episodes };

/** The episodes of `from` that `keep` keeps, read anew at each pass. */
function kept(from: Episodes, keep: (ep: Episode) => boolean): Iterable<Episode> {
  return {
    *[Symbol.iterator]() {
      for (const ep of from) if (keep(ep)) yield ep;
    },
  };
}

export function learnFlow(input: LearnSource): Flow {
  const { episodes, manifest } = input;
  const kinds = new Map(Object.entries(manifest.tools)) as Map<string, ToolKind>;
  const vocab = learnVocab(episodes, Object.keys(manifest.tools));
  const ids = actionIds(vocab);
  const vocabSize = vocab.length + 1;
  const successes = kept(input.training ?? episodes, isSuccess);
  const plain = trainingSet(successes, ids, (n) => halfLifeWeights(n, input.halfLife));
  if (plain.length === 0) throw new LearnError(NO_SUCCESSES);
  const firstAlpha = input.alpha ?? posteriorMedianAlpha(prequentialCounts(ORDER, plain), vocabSize);
  // The features are searched with the featureless α; the habit then gets the α of the encoded set.
  const { map, train } = learnFeatures(plain, fieldTable(successes), firstAlpha, vocabSize, ORDER, GOAL_FREE_GROUP);
  const alpha = map.fields.size === 0 ? firstAlpha : (input.alpha ?? posteriorMedianAlpha(prequentialCounts(ORDER, train), vocabSize));
  const writes = new Set([...kinds].filter(([, k]) => k === "write").map(([t]) => ids.get(t)!));
  const models = new Set<string>();
  for (const e of episodes) models.add(e.agent_model);
  const sources = [...models].sort(compareCodePoints);
  return {
    version: 1,
    provenance: { stretto: input.version, sources, habitEpisodes: plain.length, arbiterCases: 0, compiledUnixMs: input.nowMs },
    vocab,
    manifest: {
      domain: manifest.domain,
      tools: kinds,
      docs: new Map(Object.entries(manifest.docs).map(([t, d]) => [t, { summary: d.summary, args: new Map(Object.entries(d.args)) }])),
    },
    map,
    group: GOAL_FREE_GROUP,
    habit: fitGrouped(ORDER, alpha, vocabSize, GOAL_FREE_GROUP, train),
    sites: learnSites(train.map((t) => t.steps), kinds),
    predicates: [],
    weighed: [],
    folds: [],
    bindings: learnBindings(successes, kinds, input.constants),
    model: "",
    program: standardProgram(),
    programGiven: false,
    thresholds: new Map(),
    contracts: new Map(input.contracts),
    reach: fitReach(ORDER, alpha, vocabSize, train, (a) => writes.has(a)),
  };
}
