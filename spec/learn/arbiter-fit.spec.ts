/**
 * The arbiter's pieces on their own: the conditional logit fitted by Newton's method
 * against optima worked out by hand, and the held-out split.
 */
import assert from "node:assert/strict";
import { fitConditionalLogit, heldOutCount, logitLoss, splitTasks, taskOf, tooFew } from "../../lib/learn/arbiter/index.js";
import { LearnError } from "../../lib/learn/index.js";
import type { Episode } from "../../lib/trace/index.js";

/*
 * The optima, re-derived.
 *
 * With ridge 1 the fit minimises L(w) = Σ_cases [log Σ_o exp(w·x_o) − w·x_label] + ½‖w‖².
 *
 * (a) One weight, one case with two options, rows x_0 = c and x_1 = 0, label 0:
 *     L(w) = log(e^{cw} + 1) − cw + ½w², so L'(w) = c·σ(cw) − c + w = w − c·σ(−cw).
 *     At the optimum w = c·σ(−cw). Take c = 2√(ln 3): if w = √(ln 3)/2 then cw = ln 3,
 *     σ(−ln 3) = 1/(1 + 3) = 1/4 and c/4 = √(ln 3)/2 = w. L is strictly convex (L'' ≥ 1),
 *     so that is the one optimum: w* = √(ln 3)/2 ≈ 0.5241.
 *
 * (b) One weight, three options, rows c, 0, 0, label 0:
 *     L'(w) = c·e^{cw}/(e^{cw} + 2) − c + w = w − c·2/(e^{cw} + 2).
 *     Take c = √(2 ln 2) and w = √(ln 2 / 2): cw = ln 2, 2/(2 + 2) = 1/2, c/2 = w.
 *     So w* = √(ln 2 / 2) ≈ 0.5887.
 *
 * (c) Two weights, (a) on the first feature and (a) with its label on the other option on
 *     the second: rows [c, 0] / [0, 0] label 0, and rows [0, 0] / [0, c] label 1. The cases
 *     share no feature, so L splits into the two one-weight problems: w* = (√(ln 3)/2, √(ln 3)/2).
 *
 * (d) No cases: L(w) = ½‖w‖², minimised at 0.
 */
describe("the arbiter's conditional logit (ridge 1, Newton)", () => {
  const c3 = 2 * Math.sqrt(Math.log(3));
  const w3 = Math.sqrt(Math.log(3)) / 2;

  it("finds w = √(ln 3)/2 for one case of two options", () => {
    const fit = fitConditionalLogit([{ rows: [[c3], [0]], label: 0 }], 1);
    assert.ok(fit.converged);
    assert.ok(Math.abs(fit.weights[0]! - w3) < 1e-12, String(fit.weights[0]));
    assert.ok(fit.iterations <= 10, `${fit.iterations} iterations`);
  });

  it("finds w = √(ln 2 / 2) for one case of three options", () => {
    const c = Math.sqrt(2 * Math.log(2));
    const fit = fitConditionalLogit([{ rows: [[c], [0], [0]], label: 0 }], 1);
    assert.ok(fit.converged);
    assert.ok(Math.abs(fit.weights[0]! - Math.sqrt(Math.log(2) / 2)) < 1e-12, String(fit.weights[0]));
  });

  it("fits two weights whose cases share no feature as two one-weight problems", () => {
    const fit = fitConditionalLogit(
      [
        { rows: [[c3, 0], [0, 0]], label: 0 },
        { rows: [[0, 0], [0, c3]], label: 1 },
      ],
      2,
    );
    assert.ok(fit.converged);
    for (const w of fit.weights) assert.ok(Math.abs(w - w3) < 1e-12, String(w));
  });

  it("stays at 0 with no cases, and its loss is the penalty alone", () => {
    const fit = fitConditionalLogit([], 5);
    assert.deepEqual(fit.weights, [0, 0, 0, 0, 0]);
    assert.equal(logitLoss([], [3, 4]), 12.5);
  });

  it("stops where no nearby weights do better, even on cases that pull hard (separable)", () => {
    const cases = [
      { rows: [[5, 1, 0], [0, 0, 1]], label: 0 },
      { rows: [[4, 0, 0], [0, 1, 1], [1, 0, 0]], label: 0 },
      { rows: [[0, 2, 1], [3, 0, 0]], label: 1 },
    ];
    const fit = fitConditionalLogit(cases, 3);
    assert.ok(fit.converged);
    for (let k = 0; k < 3; k++) {
      for (const d of [1e-4, -1e-4]) {
        const w = [...fit.weights];
        w[k]! += d;
        assert.ok(logitLoss(cases, w) > fit.loss, `moving weight ${k} by ${d}`);
      }
    }
  });
});

function ep(id: string, task = ""): Episode {
  return { id, task_id: task, trial: 0, domain: "shop", agent_model: "t", reward: 1, events: [] };
}

describe("the held-out split", () => {
  it("holds out 30% of the tasks, rounded, with at least one on each side", () => {
    assert.deepEqual([2, 3, 4, 5, 10, 60].map(heldOutCount), [1, 1, 1, 2, 3, 18]);
  });

  it("takes the task id, else the session id", () => {
    assert.equal(taskOf(ep("s1", "t9")), "t9");
    assert.equal(taskOf(ep("s1")), "s1");
  });

  it("keeps the episodes of one task together", () => {
    const eps = ["a", "b", "c", "d", "e", "f"].flatMap((t) => [ep(`${t}1`, t), ep(`${t}2`, t)]);
    const split = splitTasks(eps);
    assert.equal(split.tasks, 6);
    assert.equal(split.heldOut.length, 4);
    const held = new Set(split.heldOut.map(taskOf));
    assert.ok(split.training.every((e) => !held.has(taskOf(e))));
  });

  it("does not depend on the order the episodes come in", () => {
    const eps = Array.from({ length: 23 }, (_, i) => ep(`session-${i}`));
    const a = splitTasks(eps).heldOutTasks;
    const b = splitTasks([...eps].reverse()).heldOutTasks;
    const c = splitTasks([...eps.slice(7), ...eps.slice(0, 7)]).heldOutTasks;
    assert.deepEqual(b, a);
    assert.deepEqual(c, a);
    assert.equal(a.length, 7);
  });

  it("refuses fewer than two tasks", () => {
    assert.throws(() => splitTasks([ep("s1", "t"), ep("s2", "t")]), (e: Error) => e instanceof LearnError && e.message === tooFew(2, 1));
    assert.equal(tooFew(2, 1), "2 episodes of 1 tasks are too few to split into training and held-out tasks");
    assert.throws(() => splitTasks([]), LearnError);
  });
});
