/**
 * α's grid shared with a helper thread (lib/learn/alpha-grid.ts): with enough step counts
 * to start the helper, every point's log posterior, and so the median, must be the number
 * one thread computes alone, bit for bit. The list form of the same counts (scored on this
 * thread, never shared) is the reference.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { PackedStepCounts, logPosterior, posteriorMedianAlpha, type StepCounts } from "../../lib/learn/alpha.js";
import { logPosteriors } from "../../lib/learn/alpha-grid.js";

/** `n` distinct entries of `levels` (count, total) pairs, as packed and as a list. */
function counts(seed: number, n: number, levels: number): { packed: PackedStepCounts; list: StepCounts[] } {
  let s = seed;
  const rand = (k: number): number => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % k;
  };
  const packed = new PackedStepCounts(2 * levels);
  const list: StepCounts[] = [];
  for (let i = 0; i < n; i++) {
    const c: number[] = [];
    for (let j = 0; j < levels; j++) {
      const total = i + rand(50);
      c.push(rand(total + 1), total);
    }
    const weight = 1 + rand(3) / 4;
    packed.add(c, weight);
    list.push({ counts: c, weight });
  }
  return { packed, list };
}

describe("α's grid on two threads", () => {
  it("gives every point and the median exactly as one thread does", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        // 6,000 entries × 158 points is above the size that starts the helper.
        const { packed, list } = counts(seed, 6000, 3);
        assert.equal(packed.length, 6000);
        const xs = Array.from({ length: 101 }, (_, i) => -5 + i * 0.1);
        assert.deepEqual(
          logPosteriors(packed.values, packed.width, 7, xs.concat(xs, xs, xs, xs)),
          xs.concat(xs, xs, xs, xs).map((x) => logPosterior(list, x, 7)),
        );
        assert.equal(posteriorMedianAlpha(packed, 7), posteriorMedianAlpha(list, 7));
      }),
      { numRuns: 3 },
    );
  });
});
