import assert from "node:assert/strict";
import fc from "fast-check";
import { jsonEqual, jsonText } from "../../lib/trace/index.js";
import { compareCodePoints } from "../../lib/trace/json.js";
import { TextStore } from "../../lib/trace/text-store.js";

describe("trace: derived JSON text and searchable text", () => {
  it("writes JSON as serde_json does: compact, keys in code point order, numbers the JS way", () => {
    assert.equal(jsonText({ b: [1, 1.5, -0, 1e21], a: { y: null, x: true }, "": "é\n\u0001" }), '{"":"é\\n\\u0001","a":{"x":true,"y":null},"b":[1,1.5,0,1e+21]}');
    // UTF-16 order would put U+FF5E before U+1F600; code point order does not.
    assert.equal(jsonText({ "\uff5e": 1, "\u{1f600}": 2 }), '{"～":1,"😀":2}');
    assert.ok(compareCodePoints("\u{1f600}", "\uff5e") > 0);
    assert.ok(compareCodePoints("a", "ab") < 0);
  });

  it("compares JSON values whatever their key order, and 1 with \"1\" as different", () => {
    assert.ok(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }));
    assert.ok(!jsonEqual(1, "1"));
    assert.ok(!jsonEqual({ a: 1 }, { a: 1, b: null }));
    assert.ok(!jsonEqual([1], { 0: 1 }));
  });

  it("finds text across the chunks it keeps, including a match that straddles two", () => {
    const store = new TextStore();
    const chunk = 1 << 24;
    store.append("a".repeat(chunk - 3) + "xyz");
    store.append("123" + "b".repeat(chunk));
    store.append("tail");
    assert.equal(store.length, 2 * chunk + 7);
    assert.ok(store.includes("xyz123"));
    assert.ok(store.includes("z1"));
    assert.ok(store.includes("btail"));
    assert.ok(!store.includes("xyz1234"));
    const moved = new TextStore();
    moved.append("head:");
    moved.appendStore(store);
    assert.ok(moved.includes(":aaa"));
    assert.ok(moved.includes("xyz123"));
  });

  it("writes a number as JSON.stringify does, null for one that is not finite (5,000 numbers)", () => {
    // jsonText writes numbers without calling JSON.stringify: every call's id is shown so.
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, NaN, Infinity, -Infinity, 1e21, 1e-7, 2 ** 53 + 2, Number.MIN_VALUE)), (n) => {
        assert.equal(jsonText(n), JSON.stringify(n));
        assert.equal(jsonText([n, { a: n }]), JSON.stringify([n, { a: n }]));
      }),
      { numRuns: 5000, seed: 20261203 },
    );
  });
});
