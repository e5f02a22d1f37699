import assert from "node:assert/strict";
import { describeJsonSyntaxError, jsonSyntaxError } from "../../lib/util/json-syntax-error.js";

describe("where a JSON text stops being JSON", () => {
  const cases: Array<[string, string]> = [
    ["", "EOF while parsing a value at line 1 column 1"],
    ["secret", "expected value at line 1 column 1"],
    ["\uFEFF{}", "expected value at line 1 column 1"],
    ['{"a":1', "EOF while parsing an object at line 1 column 7"],
    ["[1,2", "EOF while parsing a list at line 1 column 5"],
    ["[", "EOF while parsing a list at line 1 column 2"],
    ["{", "EOF while parsing an object at line 1 column 2"],
    ['{"a" 1}', "expected `:` at line 1 column 6"],
    ['{"a":1 "b":2}', "expected `,` or `}` at line 1 column 8"],
    ["[1 2]", "expected `,` or `]` at line 1 column 4"],
    ["[1,]", "trailing comma at line 1 column 4"],
    ['{"a":1,}', "trailing comma at line 1 column 8"],
    ["{a:1}", "key must be a string at line 1 column 2"],
    ['"a\\x"', "invalid escape at line 1 column 4"],
    ['"\\u12g4"', "invalid escape at line 1 column 3"],
    ['"a\tb"', "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3"],
    ["-", "invalid number at line 1 column 2"],
    ["1.", "invalid number at line 1 column 3"],
    ["1e+", "invalid number at line 1 column 4"],
    ["01", "trailing characters at line 1 column 2"],
    ["{} {}", "trailing characters at line 1 column 4"],
    ["nul", "expected ident at line 1 column 1"],
    ["NaN", "expected value at line 1 column 1"],
    ['{\n  "é€😀": x}', "expected value at line 2 column 10"],
  ];
  for (const [text, want] of cases) {
    it(`${JSON.stringify(text)}: ${want}`, () => {
      assert.throws(() => JSON.parse(text));
      assert.equal(describeJsonSyntaxError(text), want);
    });
  }

  it("finds nothing wrong in JSON, however deep (no recursion)", () => {
    for (const ok of ['{"a":[1,-2.5e+3,true,false,null,"\\u00e9\\n"],"b":{}}', " [] ", "[".repeat(100000) + "]".repeat(100000)]) {
      assert.equal(jsonSyntaxError(ok), undefined, ok.slice(0, 40));
    }
    assert.equal(describeJsonSyntaxError("[".repeat(100000)), "EOF while parsing a list at line 1 column 100001");
  });
});
