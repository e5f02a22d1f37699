/**
 * `isIdText` tells a string or a number id by its first characters, without a regular
 * expression: it must say what the plain definition (`/^"|^-?[0-9]/`) says, for any text.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { isIdText } from "../../lib/protocol/line-check.js";

const PLAIN = /^"|^-?[0-9]/;
const text = fc.oneof(fc.string({ maxLength: 4 }), fc.string({ unit: "binary", maxLength: 3 }), fc.constantFrom("", "-", "-0", "-a", '"', "[1]", "null", "9"));

describe("isIdText", function () {
  it("says what /^\"|^-?[0-9]/ says (2,000 texts)", function () {
    fc.assert(
      fc.property(text, (t) => {
        assert.equal(isIdText(t), PLAIN.test(t), JSON.stringify(t));
      }),
      { numRuns: 2000, seed: 20261203 },
    );
  });
});
