import assert from "node:assert/strict";
import { sortedJson } from "../../lib/util/sorted-json.js";

describe("sortedJson (compact, keys sorted by UTF-8 bytes)", () => {
  it("sorts keys by UTF-8 bytes, integer-like keys included, at every depth", () => {
    assert.equal(sortedJson({ b: 1, "10": 2, "9": 3 }), '{"10":2,"9":3,"b":1}');
    assert.equal(sortedJson({ z: [{ y: 1, x: null }], a: "é" }), '{"a":"é","z":[{"x":null,"y":1}]}');
    assert.equal(sortedJson({ "\uffff": 1, "😀": 2 }), '{"\uffff":1,"😀":2}');
  });

  it("keeps an own __proto__ key and drops undefined members", () => {
    assert.equal(sortedJson(JSON.parse('{"__proto__":1,"a":2}')), '{"__proto__":1,"a":2}');
    assert.equal(sortedJson({ a: undefined, b: [undefined] }), '{"b":[null]}');
  });
});
