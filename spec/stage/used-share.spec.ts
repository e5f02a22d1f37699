/**
 * The used share the console's stage view answers is the one `stretto stage` prints: over the
 * lookups the agent could have made itself (lookups the proxy had already made left out).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { fixed } from "../../lib/review/numbers.js";
import { usedCell, usedShare } from "../../lib/stage/index.js";

describe("the staged flow's used share", () => {
  it("is null with nothing the agent could have made, else inside its 90% interval", () => {
    assert.equal(usedShare({ decisions: 3, lookups: 2, used: 0, served: 2 }), null);
    const s = usedShare({ decisions: 10, lookups: 12, used: 6, served: 2 })!;
    assert.equal(s.share, 0.6);
    assert.ok(s.lower < 0.6 && 0.6 < s.upper, JSON.stringify(s));
  });

  it("is what the report's cell prints, for any counts", () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(50), fc.nat(50), (used, served, rest) => {
        const c = { decisions: 1, lookups: used + served + rest, used, served };
        const s = usedShare(c);
        if (s === null) return usedCell(c) === "—";
        const pct = (x: number) => fixed(100 * x, 0);
        return usedCell(c) === `${used} (${pct(s.share)}%, ${pct(s.lower)}–${pct(s.upper)}%)`;
      }),
    );
  });
});
