/**
 * `toolResultLine` writes a tool result's line out directly instead of serializing an object:
 * its bytes must be exactly those `resultLine` writes for the same result, for any text
 * (escapes, astral characters, lone surrogates) and any id as written.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { resultLine, toolResultLine } from "../../lib/protocol/compose.js";
import { composedValue, toolAnswer } from "../../lib/bus/runtime/json-rpc.js";
import type { WireMessage } from "../../lib/protocol/line-check.js";

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

  it("writes the same bytes when it writes one text again and again, between others (300 runs of up to 20 lines)", function () {
    // The text of the last line written is kept as bytes: a run of one text, then another, then the first again.
    const few = fc.constantFrom("Refused: a", "Refused: b", "\ud800 lone", "é and 😀");
    fc.assert(
      fc.property(fc.array(fc.tuple(idText, fc.oneof(few, text), fc.boolean()), { maxLength: 20 }), (lines) => {
        for (const [id, t, isError] of lines) assert.deepEqual(toolResultLine(id, t, isError), resultLine(id, { content: [{ type: "text", text: t }], isError }));
      }),
      { numRuns: 300, seed: 20261203 },
    );
  });
});

describe("toolAnswer", function () {
  it("keeps beside its line the value JSON.parse reads the line as, and none for other lines (1,000 lines)", function () {
    fc.assert(
      fc.property(fc.option(idText, { nil: undefined }), text, fc.boolean(), (id, t, isError) => {
        const m: WireMessage = { value: {}, text: "", idText: id, method: "tools/call" };
        const bytes = toolAnswer(m, t, isError);
        assert.deepStrictEqual(composedValue(bytes), JSON.parse(bytes.toString("utf8")));
        assert.equal(composedValue(Buffer.from(bytes)), undefined);
      }),
      { numRuns: 1000, seed: 20261203 },
    );
  });

  it("reads a number id as JSON.parse does, however it is written (2,000 lines)", function () {
    // toolAnswer reads a number id with Number, not the parser: the same double for every JSON number token.
    const digits = fc.stringMatching(/^(0|[1-9][0-9]{0,25})$/);
    const numberToken = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
      fc.tuple(fc.boolean(), digits, fc.option(digits, { nil: undefined }), fc.option(fc.tuple(fc.constantFrom("e", "E", "e+", "e-", "E-"), digits), { nil: undefined })).map(
        ([minus, int, frac, exp]) => `${minus ? "-" : ""}${int}${frac === undefined ? "" : `.${frac}`}${exp === undefined ? "" : exp.join("")}`,
      ),
      fc.constantFrom("-0", "1e400", "-1e400", "9007199254740993", "0.1e-400", "123456789012345678901234567890"),
    );
    fc.assert(
      fc.property(numberToken, text, (id, t) => {
        const m: WireMessage = { value: {}, text: "", idText: id, method: "tools/call" };
        const bytes = toolAnswer(m, t, true);
        assert.deepStrictEqual(composedValue(bytes), JSON.parse(bytes.toString("utf8")));
      }),
      { numRuns: 2000, seed: 20261203 },
    );
  });

  it("keeps the value of the line it made last only, taken once: an earlier line is parsed as any other", function () {
    const m: WireMessage = { value: {}, text: "", idText: "7", method: "tools/call" };
    const first = toolAnswer(m, "one", true);
    const second = toolAnswer(m, "two", false);
    assert.equal(composedValue(first), undefined);
    assert.deepStrictEqual(composedValue(second), JSON.parse(second.toString("utf8")));
    assert.equal(composedValue(second), undefined);
  });
});
