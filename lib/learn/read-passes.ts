/**
 * What the learner reads of the episodes themselves, in as few passes over them as the
 * dependencies allow (each pass over a compressed store inflates and rebuilds every
 * episode, so a pass costs about as much as the work it feeds):
 *
 * 1. every episode: the tools called (the vocab) and the agent models (provenance); the
 *    successful training episodes: the fields their results offer, and their calls counted
 *    for the bindings;
 * 2. the successful training episodes: the training set (needs the vocab's ids), each
 *    offered field's values counted and recorded while the field can still be a candidate
 *    (so no third pass reads the candidates' values), the binder's picks scored (need the
 *    counted calls).
 *
 * When another thread learns the bindings (bindings-thread.ts), the passes leave them out,
 * and pass 1 may have been made already, as the sessions were read (first-pass.ts).
 *
 * Each part is the same computation it is alone (`learnVocab`, `trainingSet`,
 * `fieldTable`, `learnBindings`), fed the same episodes in the same order.
 */
import type { Episode } from "../trace/index.js";
import { compareCodePoints } from "../trace/json.js";
import { steps } from "../flow/decide/index.js";
import type { Bindings, ToolKind, VocabAction } from "../flow/ir/index.js";
import { countCalls, emptyCallCounts } from "./bindings/count-calls.js";
import { firstPassBindings } from "./bindings/finish-tables.js";
import { scorePicks } from "./bindings/score-picks.js";
import type { Episodes } from "./episode-store.js";
import { FieldTableBuilder, type FieldTable } from "./field-table.js";
import type { FirstPassDigest } from "./first-pass.js";
import { TrainingSetBuilder, halfLifeWeights, isSuccess, type TrainingEpisode } from "./training-set.js";
import { actionIds, addCalledTools, vocabOf } from "./vocab.js";

export interface ReadPasses {
  vocab: VocabAction[];
  ids: Map<string, number>;
  /** The agent models, sorted. */
  sources: string[];
  /** The successful training episodes' training set; empty when there are none (nothing else is read then). */
  plain: TrainingEpisode[];
  table: FieldTable;
  /** Undefined when another thread learns them (`bindingsHere` false). */
  bindings: Bindings | undefined;
}

export interface PassInput {
  episodes: Episodes;
  /** The episodes to train on; every episode when absent. */
  training?: Episodes | undefined;
  manifestTools: readonly string[];
  kinds: ReadonlyMap<string, ToolKind>;
  constants: boolean;
  halfLife?: number | undefined;
  /** Whether the passes learn the bindings too (default); false when another thread does. */
  bindingsHere?: boolean;
  /**
   * The first pass, made while the episodes were read (first-pass.ts): used in place of
   * pass 1 when that pass has nothing else to do (the bindings learned elsewhere, every
   * episode a training one).
   */
  firstPass?: FirstPassDigest | undefined;
}

/** One pass: every episode to `all`, the successful training ones to `success`; one read when they are the same episodes. */
function pass(input: PassInput, all: ((ep: Episode) => void) | undefined, success: (ep: Episode) => void): void {
  if (input.training === undefined) {
    for (const ep of input.episodes) {
      all?.(ep);
      if (isSuccess(ep)) success(ep);
    }
    return;
  }
  if (all !== undefined) for (const ep of input.episodes) all(ep);
  for (const ep of input.training) if (isSuccess(ep)) success(ep);
}

export function readPasses(input: PassInput): ReadPasses {
  const tools = new Set<string>(input.manifestTools);
  const models = new Set<string>();
  // The count pass records the candidates' values, so there is no third pass.
  const fields = new FieldTableBuilder(true);
  const counts = input.bindingsHere === false ? undefined : emptyCallCounts();
  let successes = 0;
  const made = input.firstPass;
  if (made !== undefined && counts === undefined && input.training === undefined) {
    for (const tool of made.called) tools.add(tool);
    for (const model of made.models) models.add(model);
    successes = made.successes;
    fields.addOffered(made.offered);
  } else {
    pass(
      input,
      (ep) => {
        addCalledTools(tools, ep);
        models.add(ep.agent_model);
      },
      (ep) => {
        successes++;
        fields.offer(steps(ep));
        if (counts !== undefined) countCalls(counts, ep, input.kinds);
      },
    );
  }
  const vocab = vocabOf(tools);
  const ids = actionIds(vocab);
  const sources = [...models].sort(compareCodePoints);
  const bindings = counts === undefined ? undefined : firstPassBindings(counts, input.constants);
  const training = new TrainingSetBuilder(ids);
  if (successes > 0) {
    pass(input, undefined, (ep) => {
      const s = steps(ep);
      training.add(s);
      fields.count(s);
      if (bindings !== undefined) scorePicks(bindings, ep, input.kinds);
    });
    if (fields.needsValues) pass(input, undefined, (ep) => fields.values(steps(ep)));
  }
  const plain = training.finish((n) => halfLifeWeights(n, input.halfLife));
  return { vocab, ids, sources, plain, table: fields.table(), bindings };
}
