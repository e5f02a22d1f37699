/**
 * Learning a goal-free flow from episodes:
 * vocab, α, code features, the grouped habit, reach, sites and bindings from the successful episodes,
 * assembled into the flow IR with the manifest, contracts and provenance.
 */
import { availableParallelism } from "node:os";
import type { Episode, ToolManifest } from "../trace/index.js";
import { standardProgram } from "../flow/program/index.js";
import type { Bindings, Flow, ToolKind } from "../flow/ir/index.js";
import { posteriorMedianAlpha, prequentialCounts } from "./alpha.js";
import { learnFeatures } from "./code-features.js";
import type { Episodes } from "./episode-store.js";
import { ORDER, fitGrouped, fitReach } from "./fit-habit.js";
import { learnSites } from "./learn-sites.js";
import { readPasses } from "./read-passes.js";
import type { FirstPassDigest } from "./first-pass.js";

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
  /** The first pass over `episodes`, made while they were read (first-pass.ts); made here when absent. */
  firstPass?: FirstPassDigest | undefined;
}

/**
 * What {@link learnFlow} reads: as {@link LearnInput}, with the episodes any collection
 * that can be read in order more than once (an array, or an `EpisodeStore` that keeps
 * them compressed). The learner reads them in passes and keeps no episode between passes.
 */
export type LearnSource = Omit<LearnInput, "episodes" | "training"> & { episodes: Episodes; training?: Episodes };

export function learnFlow(input: LearnSource): Flow {
  const { bindings, withBindings } = learnParts(input, true);
  return withBindings(bindings!);
}

/**
 * As {@link learnFlow}, with the bindings learned meanwhile elsewhere (another thread
 * reading the same episodes): everything else is learned here first, then `bindings` is
 * asked for them (and may use this thread too). Nothing here reads the bindings, so the
 * flow is the one `learnFlow` learns.
 */
export async function learnFlowBeside(input: LearnSource, bindings: () => Promise<Bindings>): Promise<Flow> {
  const { withBindings } = learnParts(input, false);
  return withBindings(await bindings());
}

/** Everything but the bindings (learned too when `bindingsHere`), and the flow once they are known. */
function learnParts(input: LearnSource, bindingsHere: boolean): { bindings: Bindings | undefined; withBindings: (b: Bindings) => Flow } {
  const { manifest } = input;
  const kinds = new Map(Object.entries(manifest.tools)) as Map<string, ToolKind>;
  const { vocab, ids, sources, plain, table, bindings } = readPasses({
    episodes: input.episodes,
    training: input.training,
    manifestTools: Object.keys(manifest.tools),
    kinds,
    constants: input.constants,
    halfLife: input.halfLife,
    bindingsHere,
    firstPass: input.firstPass,
  });
  const vocabSize = vocab.length + 1;
  if (plain.length === 0) throw new LearnError(NO_SUCCESSES);
  // With the bindings on another thread, two cores are busy already: α's helper thread
  // would only take turns with them, and cost its start and its heap (a third isolate).
  const share = bindingsHere || availableParallelism() > 2;
  const counts = input.alpha === undefined ? prequentialCounts(ORDER, plain) : undefined;
  const firstAlpha = input.alpha ?? posteriorMedianAlpha(counts!, vocabSize, share);
  // The features are searched with the featureless α; the habit then gets the α of the encoded set.
  const { map, train } = learnFeatures(plain, table, firstAlpha, vocabSize, ORDER, GOAL_FREE_GROUP);
  const alpha = map.fields.size === 0 ? firstAlpha : (input.alpha ?? posteriorMedianAlpha(prequentialCounts(ORDER, train, counts), vocabSize, share));
  const writes = new Set([...kinds].filter(([, k]) => k === "write").map(([t]) => ids.get(t)!));
  const habit = fitGrouped(ORDER, alpha, vocabSize, GOAL_FREE_GROUP, train);
  const sites = learnSites(train.map((t) => t.steps), kinds);
  const reach = fitReach(ORDER, alpha, vocabSize, train, (a) => writes.has(a));
  // Only the count: the closure below lives while the bindings are awaited (and scored on
  // this thread too), and capturing the training set would keep it alive all that time.
  const habitEpisodes = plain.length;
  const withBindings = (b: Bindings): Flow => ({
    version: 1,
    provenance: { stretto: input.version, sources, habitEpisodes, arbiterCases: 0, compiledUnixMs: input.nowMs },
    vocab,
    manifest: {
      domain: manifest.domain,
      tools: kinds,
      docs: new Map(Object.entries(manifest.docs).map(([t, d]) => [t, { summary: d.summary, args: new Map(Object.entries(d.args)) }])),
    },
    map,
    group: GOAL_FREE_GROUP,
    habit,
    sites,
    predicates: [],
    weighed: [],
    folds: [],
    bindings: b,
    model: "",
    program: standardProgram(),
    programGiven: false,
    thresholds: new Map(),
    contracts: new Map(input.contracts),
    reach,
  });
  return { bindings, withBindings };
}
