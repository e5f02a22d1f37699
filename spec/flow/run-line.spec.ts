/**
 * The flow log's run line, written directly (`runLineText`), against the plain definition:
 * `jsonText({ after, run })`; and the run's sites in log order (`runSites`, which skips the
 * sort when the sites came in order) against a plain sort by (index after `#`, address).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { runLineText, type RunLine } from "../../lib/flow/program/index.js";
import { runSites, type Choice } from "../../lib/flow/program/trace.js";
import { jsonText, type Json } from "../../lib/trace/json.js";

const text = fc.oneof(fc.string(), fc.string({ unit: "binary", maxLength: 8 }), fc.constantFrom("get_user_details", "\ud800", 'a "quoted"\n\\ line', "😀tool"));
const number = fc.oneof(fc.double(), fc.constantFrom(0, -0, 1, 0.1, 1e21, 5e-324, Number.POSITIVE_INFINITY));
const address = fc.oneof(
  fc.tuple(fc.constantFrom("decide", "outcome", "x"), fc.nat({ max: 12 })).map(([n, i]) => `${n}#${i}`),
  fc.constantFrom("decide", "outcome#", "a#b", "#3"),
  text,
);
const choice: fc.Arbitrary<Choice> = fc.record({ address, value: fc.oneof(fc.nat({ max: 9 }), fc.boolean()), logp: number });
const runLine: fc.Arbitrary<RunLine> = fc.record({
  call: text,
  failed: fc.boolean(),
  max_lookups: fc.oneof(fc.nat({ max: 64 }), fc.constant(Number.POSITIVE_INFINITY)),
  sites: fc.array(fc.tuple(address, fc.oneof(fc.nat({ max: 9 }), fc.boolean()), number), { maxLength: 6 }),
  surprise: number,
});

/** The sites as the log orders them, by the plain definition. */
function plainSites(choices: readonly Choice[]): [string, number | boolean, number][] {
  const indexOf = (a: string) => {
    const m = /#(\d+)$/.exec(a);
    return m ? Number(m[1]) : -1;
  };
  return [...choices]
    .sort((a, b) => indexOf(a.address) - indexOf(b.address) || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
    .map((c) => [c.address, c.value, c.logp]);
}

describe("the flow log's run line", function () {
  it("is jsonText of { after, run }, whatever the run", function () {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), text), runLine, (after, run) => {
        assert.equal(runLineText(after, run), jsonText({ after, run: run as unknown as Json }));
      }),
      { numRuns: 1000 },
    );
  });

  it("orders the sites by index after #, then address, whether they came in order or not", function () {
    fc.assert(
      fc.property(fc.array(choice, { maxLength: 8 }), fc.boolean(), (choices, inOrder) => {
        const given = inOrder ? plainSites(choices).map(([address, value, logp]) => ({ address, value, logp })) : choices;
        assert.deepEqual(runSites(given), plainSites(given));
      }),
      { numRuns: 1000 },
    );
  });
});
