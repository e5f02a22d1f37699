/**
 * The ring the proxy hands lines over in: a region it gives out must never overlap one the
 * writer thread still holds, whatever the sizes and however far the writer lags. The
 * writer's releases are simulated here (Atomics.add on the shared counter, as the thread
 * does), since what is checked is the bookkeeping, not the thread.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ByteRing } from "../../lib/record/byte-ring.js";

describe("the hand-over ring", () => {
  it("never gives out bytes the writer still holds, and reuses what it released (property)", () => {
    const step = fc.oneof(fc.record({ reserve: fc.integer({ min: 0, max: 300 }) }), fc.record({ release: fc.integer({ min: 1, max: 3 }) }));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const ring = new ByteRing(1024);
        const held: Array<[number, number]> = [];
        for (const s of steps) {
          if ("reserve" in s) {
            const at = ring.reserve(s.reserve);
            if (at < 0) {
              // Full only when the free bytes could not take it.
              const free = 1024 - held.reduce((n, [a, b]) => n + (b - a), 0);
              assert.ok(held.length > 0 ? true : s.reserve > 1024 || free < s.reserve, "an empty ring takes anything that fits");
              continue;
            }
            assert.ok(at + s.reserve <= 1024);
            for (const [a, b] of held) assert.ok(at + s.reserve <= a || at >= b || s.reserve === 0 || a === b, `[${at}, ${at + s.reserve}) overlaps [${a}, ${b})`);
            held.push([at, at + s.reserve]);
          } else {
            for (let k = 0; k < s.release && held.length > 0; k++) {
              held.shift();
              ByteRing.release(ring.released);
            }
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("hands out the whole ring again once everything is released", () => {
    const ring = new ByteRing(1024);
    assert.equal(ring.reserve(600), 0);
    assert.equal(ring.reserve(600), -1, "full: the caller uses a buffer of its own");
    ByteRing.release(ring.released);
    assert.equal(ring.reserve(1024), 0);
  });
});
