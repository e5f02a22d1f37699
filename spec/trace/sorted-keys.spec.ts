/**
 * `sortedKeys` sorts an object's few keys in place by insertion (no copy of the array, as
 * `sort()` makes): it must give exactly the code point order of the plain definition, for
 * any keys, few or many, with or without surrogates.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { compareCodePoints, sortedKeys, type JsonObject } from "../../lib/trace/json.js";

/** The plain definition: every key, sorted by code point. */
function plain(o: JsonObject): string[] {
  return Object.keys(o).sort(compareCodePoints);
}

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: "grapheme", maxLength: 4 }), fc.string({ unit: "binary", maxLength: 4 }), fc.constantFrom("0", "1", "10", "__proto__", "id", "\uff5e", "\u{1f600}"));

describe("sortedKeys", function () {
  it("gives the plain definition's code point order, for few keys and many (2,000 objects)", function () {
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 40 }), (keys) => {
        const o: JsonObject = {};
        for (const k of keys) Object.defineProperty(o, k, { value: 1, enumerable: true, configurable: true, writable: true });
        assert.deepEqual(sortedKeys(o), plain(o));
      }),
      { numRuns: 2000, seed: 20261203 },
    );
  });
});
