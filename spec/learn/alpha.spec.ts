/**
 * α, the habit's smoothing (facts-flows §5.1 step 4): the posterior median of log α under a
 * Normal(0, 2) prior with the prequential likelihood. Checked two ways that share no code
 * with the learner's grid: the posterior mass below the median, integrated here by
 * Simpson's rule on another grid, is one half; and a random-walk Metropolis sampler (the
 * original's method: 600 draws after 300 warm-up) lands near it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Episode, EpisodeEvent } from "../../lib/trace/index.js";
import { ORDER, actionIds, learnVocab, logPosterior, posteriorMedianAlpha, prequentialCounts, trainingSet } from "../../lib/learn/index.js";

const TOOLS = ["a", "b", "c", "w"];

function episodeOf(tools: readonly string[]): Episode {
  const events: EpisodeEvent[] = [{ kind: "user", text: "hi" }];
  tools.forEach((name, i) => {
    if (name === "respond") events.push({ kind: "assistant", text: "ok", calls: [], usage: null });
    else {
      events.push({ kind: "assistant", text: null, calls: [{ id: String(i), name, arguments: {} }], usage: null });
      events.push({ kind: "tool_result", call_id: String(i), name, error: false, content: "x" });
    }
  });
  return { id: "e", task_id: "", trial: 0, domain: "d", agent_model: "m", reward: 1, events };
}

function stepCounts(episodes: Episode[]) {
  const vocab = learnVocab(episodes, TOOLS);
  const train = trainingSet(episodes, actionIds(vocab), episodes.map(() => 1));
  return { steps: prequentialCounts(ORDER, train), vocabSize: vocab.length + 1 };
}

/** ∫ f over [a, b] by Simpson's rule with n (even) intervals. */
function simpson(f: (x: number) => number, a: number, b: number, n: number): number {
  const h = (b - a) / n;
  let s = f(a) + f(b);
  for (let i = 1; i < n; i++) s += (i % 2 === 1 ? 4 : 2) * f(a + i * h);
  return (s * h) / 3;
}

/** Random-walk Metropolis on log α with a step adapted during warm-up; a small seeded PRNG. */
function metropolisMedian(lp: (x: number) => number, seed: number, warmup = 300, draws = 600): number {
  let state = seed >>> 0 || 1;
  const uniform = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  let x = 0;
  let cur = lp(x);
  let step = 1;
  let accepted = 0;
  const kept: number[] = [];
  for (let i = 0; i < warmup + draws; i++) {
    const y = x + step * normal();
    const next = lp(y);
    if (Math.log(uniform()) < next - cur) {
      x = y;
      cur = next;
      accepted++;
    }
    // Aim for about 0.44 acceptance while warming up, then hold the step.
    if (i < warmup && (i + 1) % 50 === 0) {
      step *= accepted / 50 > 0.44 ? 1.5 : 0.67;
      accepted = 0;
    }
    if (i >= warmup) kept.push(x);
  }
  kept.sort((a, b) => a - b);
  return Math.exp((kept[draws / 2 - 1]! + kept[draws / 2]!) / 2);
}

const sessions = fc.array(fc.array(fc.constantFrom(...TOOLS, "respond"), { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 12 });

describe("α, the habit's smoothing", () => {
  it("is the posterior median: the posterior mass below it is one half", () => {
    fc.assert(
      fc.property(sessions, (ss) => {
        const { steps, vocabSize } = stepCounts(ss.map(episodeOf));
        const median = Math.log(posteriorMedianAlpha(steps, vocabSize));
        const top = Math.max(...Array.from({ length: 281 }, (_, i) => logPosterior(steps, -14 + i * 0.1, vocabSize)));
        const density = (x: number) => Math.exp(logPosterior(steps, x, vocabSize) - top);
        const below = simpson(density, -14, median, 4000);
        const above = simpson(density, median, 14, 4000);
        assert.ok(Math.abs(below / (below + above) - 0.5) < 2e-3, `mass below ${below / (below + above)}`);
      }),
      { numRuns: 30 },
    );
  });

  it("is what Metropolis sampling approaches", () => {
    // The shop's habit: find, read, read twice, write, reply; one session in four stops early.
    const eps = Array.from({ length: 40 }, (_, i) => episodeOf(i % 4 === 3 ? ["a", "b", "respond"] : ["a", "b", "c", "c", "w", "respond"]));
    const { steps, vocabSize } = stepCounts(eps);
    const grid = posteriorMedianAlpha(steps, vocabSize);
    const sampled = [7, 8, 9, 10, 11].map((seed) => metropolisMedian((x) => logPosterior(steps, x, vocabSize), seed));
    for (const s of sampled) assert.ok(Math.abs(Math.log(s) - Math.log(grid)) < 0.35, `MH ${s} against the grid's ${grid}`);
  });

  it("is 1 when there is nothing to learn from (the prior's median)", () => {
    assert.equal(posteriorMedianAlpha([], 5).toFixed(6), "1.000000");
  });
});
