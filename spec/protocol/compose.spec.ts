/**
 * `toolResultLine` writes a tool result's line out directly instead of serializing an object:
 * its bytes must be exactly those `resultLine` writes for the same result, for any text
 * (escapes, astral characters, lone surrogates) and any id as written.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { resultLine, toolResultLine } from "../../lib/protocol/compose.js";

const idText = fc.oneof(
  fc.integer().map(String),
  fc.string().map((s) => JSON.stringify(s)),
  fc.constantFrom("9007199254740993", "1e2", '"stretto-1"', "null"),
);
const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.constantFrom("", "\ud800", 'a "quoted"\n\\ line', "\u2028\u2029"));

describe("toolResultLine", function () {
  it("writes the bytes resultLine writes for the same tool result (2,000 lines)", function () {
    fc.assert(
      fc.property(idText, text, fc.boolean(), (id, t, isError) => {
        assert.deepEqual(toolResultLine(id, t, isError), resultLine(id, { content: [{ type: "text", text: t }], isError }));
      }),
      { numRuns: 2000, seed: 20261203 },
    );
  });
});
