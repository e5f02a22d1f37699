/**
 * The learner's fast paths give the very numbers of the plain computations they stand for,
 * bit for bit (a flow written from them must not change by a last digit):
 *
 * - the code-feature search's cross-validation from dense count tables equals
 *   `crossValidated` over fitted models (any order, any weights, half-life ones included);
 * - a trial map's symbols read from the candidate columns equal `encodeWith(mapOf(…))`.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Episode, EpisodeEvent } from "../../lib/trace/index.js";
import { symbol } from "../../lib/flow/decide/index.js";
import type { CodeField } from "../../lib/flow/ir/index.js";
import { CV_FOLDS, MAX_IDS, crossValidated, encodeWith, fieldTable, mapOf } from "../../lib/learn/code-features.js";
import { denseCrossValidated, denseSteps } from "../../lib/learn/dense-habit.js";
import { featureColumns, trialSymbols } from "../../lib/learn/feature-columns.js";
import { ScratchArrays } from "../../lib/learn/scratch-arrays.js";
import { actionIds, isSuccess, learnVocab, trainingSet } from "../../lib/learn/index.js";
import type { TrainingEpisode } from "../../lib/learn/training-set.js";
import { fieldKey } from "../../lib/learn/field-table.js";

const VOCAB = 4;

/** Training episodes of random actions, outcomes and features, with their weights. */
const training: fc.Arbitrary<TrainingEpisode[]> = fc
  .array(
    fc.record({
      steps: fc.array(fc.tuple(fc.integer({ min: 0, max: VOCAB - 1 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 })), { maxLength: 9 }),
      weight: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 3, noNaN: true }), fc.integer({ min: 0, max: 40 }).map((k) => Math.pow(0.5, k / 7))),
    }),
    { maxLength: 14 },
  )
  .map((eps) =>
    eps.map(({ steps, weight }) => ({
      steps: [],
      actions: steps.map(([a]) => a),
      symbols: steps.map(([a, o, f]) => symbol(a, o, f)),
      weight,
    })),
  );

describe("the learner's fast scoring equals the plain computation", () => {
  it("cross-validation from dense tables equals crossValidated over fitted models", () => {
    fc.assert(
      fc.property(training, fc.integer({ min: 0, max: 3 }), fc.double({ min: 0.01, max: 20, noNaN: true }), (train, order, alpha) => {
        const flat = train.flatMap((ep) => ep.symbols);
        const dense = denseCrossValidated(denseSteps(train, flat, order), CV_FOLDS, alpha, VOCAB + 1);
        assert.ok(Object.is(dense, crossValidated(train, alpha, VOCAB + 1, order, 1)), `${dense} vs ${crossValidated(train, alpha, VOCAB + 1, order, 1)}`);
      }),
      { numRuns: 300 },
    );
  });

  it("cross-validation from dense tables with unit weights (counted by difference) equals crossValidated", () => {
    const unit = training.map((eps) => eps.map((ep) => ({ ...ep, weight: 1 })));
    fc.assert(
      fc.property(unit, fc.integer({ min: 0, max: 3 }), fc.double({ min: 0.01, max: 20, noNaN: true }), (train, order, alpha) => {
        const flat = train.flatMap((ep) => ep.symbols);
        const dense = denseCrossValidated(denseSteps(train, flat, order), CV_FOLDS, alpha, VOCAB + 1);
        assert.ok(Object.is(dense, crossValidated(train, alpha, VOCAB + 1, order, 1)), `${dense} vs ${crossValidated(train, alpha, VOCAB + 1, order, 1)}`);
      }),
      { numRuns: 300 },
    );
  });

  it("trials scored one after another with arrays kept between them (ScratchArrays) each equal crossValidated", () => {
    // Sizes and orders vary from trial to trial, so kept arrays are both reused (smaller
    // trials after larger ones: stale counts must not leak in) and outgrown.
    const trial = fc.tuple(fc.oneof(training, training.map((eps) => eps.map((ep) => ({ ...ep, weight: 1 })))), fc.integer({ min: 0, max: 3 }));
    fc.assert(
      fc.property(fc.array(trial, { minLength: 2, maxLength: 6 }), fc.double({ min: 0.01, max: 20, noNaN: true }), (trials, alpha) => {
        const scratch = new ScratchArrays();
        for (const [train, order] of trials) {
          const flat = train.flatMap((ep) => ep.symbols);
          const kept = denseCrossValidated(denseSteps(train, flat, order, scratch), CV_FOLDS, alpha, VOCAB + 1, scratch);
          const plain = crossValidated(train, alpha, VOCAB + 1, order, 1);
          assert.ok(Object.is(kept, plain), `${kept} vs ${plain}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a trial map's symbols from the columns equal encodeWith(mapOf(…))", () => {
    const status = fc.constantFrom("open", "closed", "held", "new");
    const result = fc.oneof(
      fc.record({ status, lines: fc.array(fc.constant("x"), { maxLength: 3 }), total: fc.constantFrom(12, 30) }).map((o) => JSON.stringify(o)),
      fc.record({ status }).map((o) => JSON.stringify(o)),
      fc.constant("not json"),
      fc.constant(undefined),
    );
    const call = fc.record({ tool: fc.constantFrom("get_order", "get_user"), result });
    const episodes = fc.array(fc.array(call, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(episodes, (sessions) => {
        const eps = sessions.map((calls, n) => episodeOf(n, calls));
        const ids = actionIds(learnVocab(eps, []));
        const train = trainingSet(eps.filter(isSuccess), ids, (k) => new Array<number>(k).fill(1));
        const table = fieldTable(eps);
        const cols = featureColumns(train, table.candidates, (tool, f) => table.byTool.get(tool)!.index.get(fieldKey(f))!, table.values);
        // Every candidate alone, then all of them together.
        const trials = [...table.candidates.map((_, i) => [i]), table.candidates.map((_, i) => i), []];
        const scratch = new ScratchArrays();
        for (const chosen of trials) {
          const fields = new Map<string, number[]>();
          for (const i of chosen) fields.set(table.candidates[i]![0], [...(fields.get(table.candidates[i]![0]) ?? []), i]);
          const asFields = new Map<string, CodeField[]>([...fields].map(([t, cs]) => [t, cs.map((c) => table.candidates[c]![1])]));
          const plain = encodeWith(mapOf(asFields, train, table), train, table).flatMap((ep) => ep.symbols);
          assert.deepEqual([...trialSymbols(cols, fields, MAX_IDS)], plain);
          // And with the arrays kept from the trial before (the search's way).
          assert.deepEqual([...trialSymbols(cols, fields, MAX_IDS, scratch)], plain);
        }
      }),
      { numRuns: 150 },
    );
  });
});

let callIds = 0;
function episodeOf(n: number, calls: { tool: string; result: string | undefined }[]): Episode {
  const events: EpisodeEvent[] = [{ kind: "user", text: "hello" }];
  for (const { tool, result } of calls) {
    const id = String(++callIds);
    events.push({ kind: "assistant", text: null, calls: [{ id, name: tool, arguments: {} }], usage: null });
    events.push({ kind: "tool_result", call_id: id, name: tool, error: result === undefined, content: result ?? "failed" });
  }
  events.push({ kind: "assistant", text: "done", calls: [], usage: null });
  return { id: `s${n}`, task_id: "", trial: 0, domain: "shop", agent_model: "m", reward: 1, events };
}
