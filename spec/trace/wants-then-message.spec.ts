/**
 * A live session asks the Episode builder whether it `wants` each message, then hands it the
 * wanted ones; the builder keeps the lookup `wants` made of an answer for the `message` that
 * follows. Asking must change nothing: the Episode built with questions asked (of every
 * message, and of others in between that are then not handed over) is the one built without,
 * over calls, answers, reused ids, cancellations and answers to no call.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { EpisodeBuilder } from "../../lib/trace/turns.js";
import type { Json } from "../../lib/trace/json.js";
import type { Peer } from "../../lib/trace/log-types.js";

const id = fc.constantFrom<number | string>(1, 2, 3, "1", "a");
const step = fc.oneof(
  fc.record({ from: fc.constant<Peer>("client"), m: fc.tuple(id, fc.constantFrom("get_order_details", "cancel_pending_order")).map(([i, name]): Json => ({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name, arguments: { order_id: `#W${String(i)}` } } })) }),
  fc.record({ from: fc.constantFrom<Peer>("server", "proxy"), m: fc.tuple(id, fc.boolean()).map(([i, ok]): Json => (ok ? { jsonrpc: "2.0", id: i, result: { order_id: `#W${String(i)}` } } : { jsonrpc: "2.0", id: i, error: { code: 1, message: "no" } })) }),
  fc.record({ from: fc.constant<Peer>("client"), m: id.map((i): Json => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: i } })) }),
);
/** Each step, and whether a question about another answer comes between asking and handing over. */
const steps = fc.array(fc.tuple(step, fc.option(step, { nil: undefined })), { maxLength: 30 });

function build(asked: ReadonlyArray<readonly [{ from: Peer; m: Json }, { from: Peer; m: Json } | undefined]>, ask: boolean): unknown {
  const b = new EpisodeBuilder({ turns: false });
  b.lazyResults = false;
  asked.forEach(([s, between], t) => {
    if (!ask) return b.message(t, s.from, s.m);
    // A message not wanted is not handed over; one that is, after any question about another.
    if (!b.wants(s.from, s.m)) return;
    if (between !== undefined) b.wants(between.from, structuredClone(between.m));
    b.message(t, s.from, s.m);
  });
  return b.events;
}

describe("EpisodeBuilder.wants then message", () => {
  it("builds the Episode built without asking (500 runs of up to 30 messages)", () => {
    fc.assert(
      fc.property(steps, (s) => {
        // Not wanted means the builder would ignore it: handing it over anyway must not matter.
        assert.deepEqual(build(s, true), build(s, false));
      }),
      { numRuns: 500, seed: 20261203 },
    );
  });
});
