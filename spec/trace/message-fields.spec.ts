import assert from "node:assert/strict";
import fc from "fast-check";
import { method, outcome, requestId, responseId, type Json } from "../../lib/trace/index.js";
import { field, jsonText } from "../../lib/trace/json.js";

// The questions every message of a log is asked read their keys by name (json.ts `own`),
// which V8 caches per call site. These are the earlier readers, written with `field`,
// kept as the reference: the answers must be the same for any value.
const reference = {
  method(m: Json): string | undefined {
    const v = field(m, "method");
    return typeof v === "string" ? v : undefined;
  },
  requestId(m: Json): Json | undefined {
    if (reference.method(m) === undefined) return undefined;
    const id = field(m, "id");
    return id === null ? undefined : id;
  },
  responseId(m: Json): Json | undefined {
    if (typeof m !== "object" || m === null || Array.isArray(m) || field(m, "method") !== undefined) return undefined;
    const error = field(m, "error");
    const answers = field(m, "result") !== undefined || (error !== undefined && error !== null);
    if (!answers) return undefined;
    const id = field(m, "id");
    return id === null ? undefined : id;
  },
  outcome(response: Json): { error: boolean; content: string } {
    const error = field(response, "error");
    if (error !== undefined && error !== null) {
      const message = field(error, "message");
      return { error: true, content: typeof message === "string" ? message : jsonText(error) };
    }
    const result = field(response, "result") ?? null;
    let content: string | undefined;
    const items = field(result, "content");
    if (Array.isArray(items)) {
      for (const item of items) {
        const text = field(item, "text");
        if (typeof text !== "string" || field(item, "type") !== "text") continue;
        content = content === undefined ? text : content + "\n" + text;
      }
    }
    if (content === undefined) {
      const structured = field(result, "structuredContent");
      content = structured !== undefined ? jsonText(structured) : jsonText(result);
    }
    return { error: field(result, "isError") === true, content };
  },
};

const KEYS = ["jsonrpc", "id", "method", "params", "result", "error", "message", "content", "type", "text", "structuredContent", "isError", "toString", "constructor"];
const scalar = fc.oneof(fc.constantFrom<Json>(null, true, false, 0, 1, "1", "", "text", "tools/call"), fc.string({ maxLength: 4 }), fc.integer());
/** JSON values whose objects use the keys messages have (and two Object.prototype members). */
const value: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("v"), { maxKeys: 5 }),
  ),
})).v;
/** Messages: any of a message's keys, each with any value (often a scalar), or any value at all. */
const shaped = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.constant<Json>("2.0"),
      id: fc.oneof(scalar, value),
      method: fc.oneof(scalar, value),
      params: value,
      result: fc.oneof(value, fc.record({ content: fc.array(fc.record({ type: fc.oneof(fc.constant<Json>("text"), scalar), text: scalar }, { requiredKeys: [] }), { maxLength: 3 }), structuredContent: value, isError: scalar }, { requiredKeys: [] })),
      error: fc.oneof(scalar, value, fc.record({ code: scalar, message: scalar }, { requiredKeys: [] })),
    },
    { requiredKeys: [] },
  ),
  value,
);
/** The same values, some objects parsed from text (so `__proto__` can be an own key), some without a prototype. */
const message = fc.tuple(shaped as fc.Arbitrary<Json>, fc.nat(2)).map(([v, how]): Json => {
  if (how === 0) return v;
  const text = JSON.stringify(v).replace(/"constructor":/g, '"__proto__":');
  const parsed = JSON.parse(text) as Json;
  if (how === 1 || typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return parsed;
  return Object.assign(Object.create(null) as Record<string, Json>, parsed);
});

describe("trace: a message's method, ids and outcome, read by key name", () => {
  it("answers as the field-by-field reference does, for any JSON value", () => {
    fc.assert(
      fc.property(message, (m) => {
        assert.deepEqual(method(m), reference.method(m));
        assert.deepEqual(requestId(m), reference.requestId(m));
        assert.deepEqual(responseId(m), reference.responseId(m));
        assert.deepEqual(outcome(m), reference.outcome(m));
        // A response's shape is the usual way in: a result wrapping arbitrary content.
        const wrapped: Json = { jsonrpc: "2.0", id: 1, result: m };
        assert.deepEqual(outcome(wrapped), reference.outcome(wrapped));
      }),
      { numRuns: 3000 },
    );
  });

  it("ignores what messages inherit, and reads what they own under a member's name", () => {
    const inherits = JSON.parse('{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"hi"}]}}') as Json;
    assert.equal(responseId(inherits), undefined, "no id of its own");
    assert.deepEqual(outcome({ id: 1, result: { content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] } }), { error: false, content: "a\nb" });
    const owned = JSON.parse('{"id":"toString","method":"constructor","params":{}}') as Json;
    assert.equal(method(owned), "constructor");
    assert.equal(requestId(owned), "toString");
  });
});
