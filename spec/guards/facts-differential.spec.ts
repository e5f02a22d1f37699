/**
 * The guards' facts, fed differently, answer alike. Fast-check differentials over runs of
 * calls and results (records, text items, `structuredContent`, errors, strings, numbers; ids
 * reused, tools that read, write and look up flights), comparing every question the facts
 * answer and every rule's verdict on calls drawn after them:
 *
 * - a live guarded session hands the facts its tool results read lazily (`LazyToolResult`):
 *   a result without text items gives its record as is, where an eager event gives its
 *   sorted JSON for the facts to parse back. Records are compared as JSON (their key order,
 *   and a -0, are all a round trip through text changes; no rule reads either);
 * - the facts keep only the calls whose results read them (writes, flight statuses): against
 *   facts that keep every call in flight, as they did.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { AIRLINE_RULES, Facts, ITEM_CHANGES, RETAIL_RULES, verdicts, type CallFact } from "../../lib/guards/index.js";
import { LazyToolResult } from "../../lib/trace/lazy-result.js";
import { outcome, readResult } from "../../lib/trace/outcome.js";
import type { Json } from "../../lib/trace/json.js";

const IDS = ["#W1", "#W2", "user_1", "user_2", "p1", "R1", "HAT1"];
const TOOLS = [
  "get_order_details",
  "get_user_details",
  "get_product_details",
  "get_reservation_details",
  "get_flight_status",
  "find_user_id_by_email",
  "find_user_id_by_name_zip",
  "cancel_pending_order",
  "modify_pending_order_items",
  "exchange_delivered_order_items",
  "update_reservation_flights",
  "cancel_reservation",
  "calculate",
];
const id = fc.constantFrom(...IDS);
const scalar = fc.oneof(id, fc.string(), fc.integer(), fc.constantFrom(-0, 0.5, 1e21, true, null, "yes", "business", "pending", "delivered", "cancelled"));
// Records with the keys the facts and rules read, and whatever else.
const record: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    scalar,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(
      fc.oneof(fc.constantFrom("order_id", "user_id", "product_id", "reservation_id", "payment_methods", "status", "insurance", "cabin", "flights", "flight_number", "date", "items", "__proto__"), fc.string()),
      tie("value"),
      { maxKeys: 5 },
    ),
  ),
})).value;
const text = fc.oneof(fc.string(), fc.constantFrom("user_1", '"user_2"', "  user_1\n", "available", '{"order_id":"#W1","status":"pending"}'), record.map((r) => JSON.stringify(r)));
const answer = (result: Json): Json => ({ jsonrpc: "2.0", id: 1, result });
const errorAnswer = (error: Json): Json => ({ jsonrpc: "2.0", id: 1, error });
const response: fc.Arbitrary<Json> = fc.oneof(
  record.map(answer),
  fc.record({ content: fc.array(fc.record({ type: fc.constantFrom("text", "image"), text }), { maxLength: 2 }), isError: fc.boolean() }).map(answer),
  fc.record({ content: fc.constant([] as Json[]), structuredContent: record }).map(answer),
  fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), fc.record({ code: fc.integer(), message: record }), fc.record({ code: fc.integer() })).map(errorAnswer),
);
const args: fc.Arbitrary<Json> = fc.record({ order_id: id, user_id: id, reservation_id: id, payment_method_id: id, flight_number: id, date: fc.constantFrom("2024-05-15", "2024-05-16"), flights: fc.array(fc.record({ flight_number: id, date: fc.constantFrom("2024-05-15") }), { maxLength: 2 }), item_ids: fc.array(id, { maxLength: 2 }) }, { requiredKeys: [] });
const step = fc.oneof(
  fc.record({ kind: fc.constant("call" as const), id: fc.constantFrom("1", "2", "3"), name: fc.constantFrom(...TOOLS), args }),
  fc.record({ kind: fc.constant("result" as const), id: fc.constantFrom("1", "2", "3"), name: fc.constantFrom(...TOOLS), response }),
  fc.record({ kind: fc.constant("user" as const), text: fc.constantFrom("yes", "no, wait", "Yes please") }),
);

const asJson = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/** Every question the facts answer, records as JSON (the calls in flight they hold aside). */
function answers(f: Facts): unknown {
  const { calls: _calls, ...sizes } = f.sizes();
  return {
    sizes,
    users: f.authenticatedUsers().sort(),
    said: f.lastSaid(),
    writes: f.writeCount,
    applied: f.applied,
    any: [f.anyAuthenticated(), f.anyUser(), f.anyReservation(), f.authenticatedDetailsKnown(), f.itemsChanged(undefined)],
    each: IDS.map((k) => [
      asJson(f.order(k)),
      asJson(f.user(k)),
      asJson(f.product(k)),
      asJson(f.reservation(k)),
      f.isAuthenticated(k),
      f.anyUserHasMethod(k),
      f.authenticatedHasMethod(k),
      f.coveredReservationOf(k),
      f.itemsChanged(k),
      f.flightStatus(k, "2024-05-15"),
    ]),
  };
}

describe("guards: tool results read lazily", function () {
  it("give the text an eager event gives, and the facts the same answers and the rules the same verdicts (300 runs)", function () {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.array(fc.record({ name: fc.constantFrom(...TOOLS), args }), { minLength: 1, maxLength: 3 }), (steps, probes) => {
        const eager = new Facts();
        const lazy = new Facts();
        for (const s of steps) {
          if (s.kind === "user") {
            eager.addUser(s.text);
            lazy.addUser(s.text);
          } else if (s.kind === "call") {
            eager.addCall({ id: s.id, name: s.name, arguments: s.args });
            lazy.addCall({ id: s.id, name: s.name, arguments: s.args });
          } else {
            const o = outcome(s.response);
            const r = new LazyToolResult(s.id, s.name, readResult(s.response));
            assert.equal(r.error, o.error);
            eager.apply({ kind: "tool_result", call_id: s.id, name: s.name, error: o.error, content: o.content });
            lazy.apply(r);
            // Read after the facts took the record: the text is the eager event's.
            assert.equal(r.content, o.content);
          }
          assert.deepEqual(answers(lazy), answers(eager));
        }
        for (const p of probes) {
          for (const rules of [RETAIL_RULES, AIRLINE_RULES]) {
            assert.deepEqual(verdicts(rules, lazy, { name: p.name, arguments: p.args }), verdicts(rules, eager, { name: p.name, arguments: p.args }));
          }
        }
      }),
      { numRuns: 300, seed: 20261203 },
    );
  });
});

/** The facts as they were: every call kept until its result, a read's with no arguments. */
class KeepingEveryCall extends Facts {
  override addCall(call: CallFact): void {
    this.applied++;
    const keep = call.name === "get_flight_status" || ITEM_CHANGES.includes(call.name);
    (this as unknown as { calls: Map<string, unknown> }).calls.set(call.id, { name: call.name, arguments: keep ? call.arguments : null });
  }
}

describe("guards: the calls the facts keep", function () {
  it("are those whose results read them, and the facts answer as when they kept every call (300 runs)", function () {
    const numericOrNot = fc.constantFrom("1", "2", "3");
    fc.assert(
      fc.property(fc.array(fc.oneof(step, fc.record({ kind: fc.constant("call" as const), id: numericOrNot, name: fc.constantFrom("get_flight_status", "get_order_details", "modify_pending_order_items"), args })), { maxLength: 16 }), fc.array(fc.record({ name: fc.constantFrom(...TOOLS), args }), { minLength: 1, maxLength: 3 }), (steps, probes) => {
        const every = new KeepingEveryCall();
        const some = new Facts();
        for (const s of steps) {
          for (const f of [every, some]) {
            if (s.kind === "user") f.addUser(s.text);
            else if (s.kind === "call") f.addCall({ id: s.id, name: s.name, arguments: s.args });
            else {
              const o = outcome(s.response);
              f.apply({ kind: "tool_result", call_id: s.id, name: s.name, error: o.error, content: o.content });
            }
          }
          assert.deepEqual(answers(some), answers(every));
        }
        for (const p of probes) {
          for (const rules of [RETAIL_RULES, AIRLINE_RULES]) {
            assert.deepEqual(verdicts(rules, some, { name: p.name, arguments: p.args }), verdicts(rules, every, { name: p.name, arguments: p.args }));
          }
        }
      }),
      { numRuns: 300, seed: 20261203 },
    );
  });
});
