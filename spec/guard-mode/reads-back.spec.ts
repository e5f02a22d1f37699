/**
 * Whether a parsed line reads back in a strict reader (`readsBack`) decides whether the log
 * holds it as a message and whether the session's Episode reads it. The walk must say what
 * the plain definition says, on any value: strings and keys well-formed, numbers finite,
 * nesting at most MAX_DEPTH.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { MAX_DEPTH, readsBack } from "../../lib/protocol/reads-back.js";

/** The plain definition, one value at a time off a stack. */
function plain(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v === "string") {
      if (!v.isWellFormed()) return false;
    } else if (typeof v === "number") {
      if (!Number.isFinite(v)) return false;
    } else if (v !== null && typeof v === "object") {
      if (d + 1 > MAX_DEPTH) return false;
      for (const [k, x] of Object.entries(v)) {
        if (!k.isWellFormed()) return false;
        stack.push([x, d + 1]);
      }
    }
  }
  return true;
}

/** `v` inside `n` arrays or objects, alternating. */
function nested(v: unknown, n: number): unknown {
  let out = v;
  for (let i = 0; i < n; i++) out = i % 2 === 0 ? [out] : { k: out };
  return out;
}

const odd = fc.constantFrom<unknown>("\ud800", "a\udc00b", Infinity, -Infinity, NaN, 1e308, -0, "\ud83d\ude00", null, true);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.jsonValue({ maxDepth: 2 }),
    odd,
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("\udfff", "__proto__")), tie("v"), { maxKeys: 4 }),
  ),
})).v;

describe("whether a line reads back in a strict reader", function () {
  it("is the plain definition's answer on any value", function () {
    fc.assert(
      fc.property(value, fc.nat(MAX_DEPTH + 3), (v, depth) => {
        const deep = nested(v, depth);
        assert.equal(readsBack(deep), plain(deep));
      }),
      { numRuns: 3000 },
    );
  });

  it("says no to nesting past the limit however deep, without running out of stack", function () {
    assert.equal(readsBack(nested(1, MAX_DEPTH)), true);
    assert.equal(readsBack(nested(1, MAX_DEPTH + 1)), false);
    assert.equal(readsBack(JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)), false);
  });
});
