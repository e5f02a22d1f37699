/**
 * The flow log's decision line, written field by field (`decisionLine`), against the plain
 * definition: the decision as a JSON object (`decisionJson`) written by `jsonText` (keys
 * sorted at every depth, compact). Random decisions: lookups and hand-backs, option names
 * out of order and beyond the BMP, texts with what JSON escapes, odd numbers, exploration's
 * policy, shadow and withheld.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { decisionJson, decisionLine, type DecisionFields, type Next, type Policy } from "../../lib/flow/decide/index.js";
import { jsonText, type JsonObject } from "../../lib/trace/json.js";

/** Texts with and without what JSON escapes: quotes, backslashes, control characters, lone surrogates. */
const text = fc.oneof(fc.string(), fc.string({ unit: "binary", maxLength: 8 }), fc.constantFrom("", "\ud800", "x\udc00", 'a "quoted"\n\\ line', "\u2028\u2029", "\u007f", "tab\there"));
const name = fc.oneof(fc.constantFrom("respond", "get_order_details", "get_user_details", "shop::get_user_details", "__proto__", "Ωmega", "😀tool", "\uE000x"), text);
const number = fc.oneof(fc.double(), fc.constantFrom(0, -0, 1, 0.1, 1e21, 5e-324));
const probs = fc.array(fc.tuple(name, number), { maxLength: 5 }).map((pairs) => new Map(pairs));
const args = fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.constant(null))) as fc.Arbitrary<JsonObject>;
const policy: fc.Arbitrary<Policy> = fc.record({
  decider: fc.constantFrom("habit" as const, "reach" as const, "arbiter" as const),
  threshold: number,
  epsilon: number,
  explored: fc.boolean(),
  greedy: fc.option(name, { nil: null }),
  propensity: number,
  task_id: fc.string(),
  events: fc.nat(),
  options: fc.array(
    fc.record({ tool: name, p: number, habit: number, binding: fc.option(number, { nil: null }), arguments: fc.option(args, { nil: null }) }),
    { maxLength: 3 },
  ),
});
const next: fc.Arbitrary<Next> = fc.record(
  {
    proposal: fc.oneof(
      fc.record({ action: fc.constant("lookup" as const), tool: name, arguments: args }),
      fc.record({ action: fc.constant("hand_back" as const), reason: text }),
    ),
    site: fc.option(name, { nil: null }),
    probs,
    prob: fc.option(number, { nil: null }),
    binding: fc.option(number, { nil: null }),
    oracle: probs,
    predicates: probs,
    key: fc.option(text, { nil: null }),
    policy,
  },
  { requiredKeys: ["proposal", "site", "probs", "prob", "binding", "oracle", "predicates", "key"] },
);
const fields: fc.Arbitrary<DecisionFields> = fc.record(
  {
    after: fc.oneof(fc.integer(), text),
    address: text,
    ms: fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constant(2.7)),
    shadow: fc.boolean(),
    withheld: text,
  },
  { requiredKeys: ["after", "address", "ms"] },
);

describe("the flow log's decision line", function () {
  it("is jsonText of the decision as a JSON object, whatever the decision", function () {
    fc.assert(
      fc.property(next, fields, (n, f) => {
        assert.equal(decisionLine(n, f), jsonText(decisionJson(n, f)));
      }),
      { numRuns: 2000 },
    );
  });
});
