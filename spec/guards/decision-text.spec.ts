/**
 * `decision` reuses the last refusal's reason and text when a call fails the same rules for
 * the same reasons: differential against `refusalReason` and `refusalText` made afresh, over
 * runs of decisions that repeat, alternate and vary (tools, rules, reasons, passes, unknowns,
 * failures of rules that are only logged).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { decision, fail, pass, refusalReason, refusalText, unknown, type RuleVerdict } from "../../lib/guards/index.js";

const verdict = fc.record({
  rule: fc.constantFrom("retail.a", "retail.b", "airline.c"),
  enforced: fc.boolean(),
  verdict: fc.oneof(
    fc.constant(pass()),
    fc.constantFrom("no", "not pending", "").map(fail),
    fc.string().map(fail),
    fc.constantFrom("not looked up").map(unknown),
  ),
});
const call = fc.tuple(fc.constantFrom("cancel_pending_order", "book_reservation", ""), fc.array(verdict, { maxLength: 4 }));

describe("guards: a decision's reason and text", function () {
  it("are those made afresh from its verdicts, however the decisions before it went (500 runs of up to 12)", function () {
    fc.assert(
      fc.property(fc.array(fc.oneof(call, call.map(([t, v]) => [t, v.map((x) => ({ ...x }))] as [string, RuleVerdict[]])), { maxLength: 12 }), (calls) => {
        // Each call twice in a row, then the next: repeats and changes both.
        for (const [tool, all] of calls.flatMap((c) => [c, c])) {
          const d = decision(tool, all);
          const reason = refusalReason(all);
          assert.equal(d.refused, reason !== undefined);
          assert.equal(d.reason, reason);
          assert.equal(d.text, reason === undefined ? undefined : refusalText(tool, reason));
          assert.equal(d.verdicts, all);
        }
      }),
      { numRuns: 500, seed: 20261203 },
    );
  });
});
