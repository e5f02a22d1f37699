import assert from "node:assert/strict";
import type { EpisodeEvent } from "../../lib/trace/episode-types.js";
import { Facts, RETAIL_RULES, isWriteTool, parseContent, verdicts, type FactView } from "../../lib/guards/index.js";
import { call, result, user } from "./helpers.js";

function factsOf(events: EpisodeEvent[]): Facts {
  const f = new Facts();
  for (const e of events) f.apply(e);
  return f;
}

describe("guards: the facts, kept one event at a time", () => {
  it("keeps what the customer said, lowercased; the last message counts", () => {
    const f = new Facts();
    assert.equal(f.lastSaid(), undefined);
    f.addUser("Yes, Cancel #W1");
    f.addUser("Wait. İS it DONE?");
    assert.equal(f.lastSaid(), "wait. i̇s it done?");
    assert.equal(f.saidCount, 2);
  });

  it("ignores the agent's own text", () => {
    const f = factsOf([user("yes"), { kind: "assistant", text: "Shall I?", calls: [], usage: null }]);
    assert.equal(f.lastSaid(), "yes");
  });

  describe("who is authenticated", () => {
    it("takes find_user_id_* results as text, or as a JSON string with quotes trimmed", () => {
      const f = factsOf([
        call("1", "find_user_id_by_email", { email: "a" }),
        result("1", "find_user_id_by_email", "  user_7\n"),
        call("2", "find_user_id_by_name_zip", {}),
        result("2", "find_user_id_by_name_zip", '"\\"user_8\\""'),
        call("3", "find_user_id_by_email", {}),
        result("3", "find_user_id_by_email", '""user_9""'),
      ]);
      assert.deepEqual(f.authenticatedUsers().sort(), ["user_7", "user_8", "user_9"]);
    });

    it("does not take an error, a number, an object, or another tool's string", () => {
      const f = factsOf([
        call("1", "find_user_id_by_email", {}),
        result("1", "find_user_id_by_email", "Error: User not found", true),
        result("2", "find_user_id_by_email", "42"),
        result("3", "find_user_id_by_email", { user_id: "u" }),
        result("4", "get_user_details", "user_4"),
      ]);
      assert.equal(f.anyAuthenticated(), false);
    });

    it("trims as Rust does: U+0085 goes, U+FEFF stays", () => {
      assert.equal(parseContent("\u0085user_1\u3000"), "user_1");
      assert.equal(parseContent("\uFEFFuser_1"), "\uFEFFuser_1");
      assert.deepEqual(parseContent(' {"a": 1} '), { a: 1 });
      assert.equal(parseContent("14.0"), 14);
    });
  });

  describe("records", () => {
    it("keeps users by user_id and products by product_id, from their own tools only", () => {
      const f = factsOf([
        result("1", "get_user_details", { user_id: "u1", payment_methods: { gift_card_1: {} } }),
        result("2", "get_product_details", { product_id: "p1", variants: {} }),
        result("3", "get_item_details", { user_id: "u2", product_id: "p2" }),
        result("4", "get_user_details", { user_id: 5 }),
      ]);
      assert.deepEqual(f.user("u1"), { user_id: "u1", payment_methods: { gift_card_1: {} } });
      assert.ok(f.anyUserHasMethod("gift_card_1"));
      assert.equal(f.user("u2"), undefined);
      assert.deepEqual(f.product("p1"), { product_id: "p1", variants: {} });
      assert.equal(f.product("p2"), undefined);
      assert.deepEqual(f.sizes(), { calls: 0, users: 1, orders: 0, products: 1, reservations: 0, flights: 0 });
    });

    it("keeps orders and reservations from any tool's result, latest wins", () => {
      const f = factsOf([
        call("1", "get_order_details", { order_id: "#W1" }),
        result("1", "get_order_details", { order_id: "#W1", status: "pending" }),
        call("2", "cancel_pending_order", { order_id: "#W1", reason: "no longer needed" }),
        result("2", "cancel_pending_order", { order_id: "#W1", status: "cancelled" }),
        result("3", "get_reservation_details", { reservation_id: "R1", cabin: "economy" }),
        result("4", "anything", { reservation_id: "R1", cabin: "business" }),
      ]);
      assert.deepEqual(f.order("#W1"), { order_id: "#W1", status: "cancelled" });
      assert.deepEqual(f.reservation("R1"), { reservation_id: "R1", cabin: "business" });
    });

    it("takes only top-level records from successful results", () => {
      const f = factsOf([
        result("1", "get_orders", [{ order_id: "#W1" }]),
        result("2", "get_order_details", { order: { order_id: "#W2" } }),
        result("3", "get_order_details", { order_id: "#W3" }, true),
        result("4", "get_order_details", { order_id: 4 }),
      ]);
      assert.deepEqual(f.sizes().orders, 0);
    });

    it("keeps a flight's status under the number and date its call asked for", () => {
      const f = factsOf([
        call("1", "get_flight_status", { flight_number: "HAT1", date: "2024-05-20" }),
        result("1", "get_flight_status", "cancelled"),
        call("2", "get_flight_status", { flight_number: "HAT2" }),
        result("2", "get_flight_status", "delayed"),
        result("3", "get_flight_status", "landed"),
        call("4", "get_flight_status", { flight_number: "HAT4", date: "2024-05-20" }),
        result("4", "get_flight_status", { status: "on time" }),
      ]);
      assert.equal(f.flightStatus("HAT1", "2024-05-20"), "cancelled");
      assert.equal(f.flightStatus("HAT1", "2024-05-21"), undefined);
      assert.equal(f.sizes().flights, 1, "no date, no call, or no string: nothing kept");
    });

    it("ties a result to the latest call with its id", () => {
      const f = factsOf([
        call("1", "get_flight_status", { flight_number: "HAT1", date: "2024-05-20" }),
        call("1", "get_flight_status", { flight_number: "HAT9", date: "2024-05-20" }),
        result("1", "get_flight_status", "cancelled"),
      ]);
      assert.equal(f.flightStatus("HAT9", "2024-05-20"), "cancelled");
      assert.equal(f.flightStatus("HAT1", "2024-05-20"), undefined);
    });
  });

  describe("writes", () => {
    it("are successful results of known calls whose tool is no lookup", () => {
      for (const tool of ["get_order_details", "find_user_id_by_email", "list_all_airports", "search_direct_flight", "calculate"]) {
        assert.equal(isWriteTool(tool), false, tool);
      }
      for (const tool of ["cancel_pending_order", "send_certificate", "transfer_to_human_agents", "stretto_commit", "calculates", "getter", "think"]) {
        assert.equal(isWriteTool(tool), true, tool);
      }
      const f = factsOf([
        call("1", "modify_user_address", { user_id: "u1" }),
        result("1", "modify_user_address", { user_id: "u1" }),
        call("2", "calculate", { expression: "1+1" }),
        result("2", "calculate", "2.0"),
        call("3", "cancel_pending_order", {}),
        result("3", "cancel_pending_order", "Error: Invalid reason", true),
      ]);
      assert.equal(f.writeCount, 1);
    });

    it("are named by the call, not by the result (a result of no known call is no write)", () => {
      const f = factsOf([result("9", "cancel_pending_order", { order_id: "#W1" })]);
      assert.equal(f.writeCount, 0);
      assert.deepEqual(f.order("#W1"), { order_id: "#W1" }, "but it still updates the order");
      const g = factsOf([call("9", "modify_pending_order_items", { order_id: "#W1" }), result("9", "get_order_details", "ok")]);
      assert.equal(g.writeCount, 1);
      assert.equal(g.itemsChanged("#W1"), true);
      assert.equal(g.itemsChanged("#W2"), false);
    });
  });

  describe("incrementally", () => {
    /** A long session: lookups, customer lines and writes, round and round. */
    function* session(n: number, pulled: { count: number }): Generator<EpisodeEvent> {
      let k = 0;
      const cycle = (i: number): EpisodeEvent[] => [
        user(i % 2 === 0 ? "Yes, please." : "And my address?"),
        call(`a${i}`, "find_user_id_by_email", { email: "ann@x.com" }),
        result(`a${i}`, "find_user_id_by_email", "ann_1"),
        call(`o${i}`, "get_order_details", { order_id: "#W1" }),
        result(`o${i}`, "get_order_details", { order_id: "#W1", user_id: "ann_1", status: "pending", items: [], payment_history: [] }),
        call(`u${i}`, "get_user_details", { user_id: "ann_1" }),
        result(`u${i}`, "get_user_details", { user_id: "ann_1", payment_methods: { credit_card_1: {} } }),
        call(`m${i}`, "modify_user_address", { user_id: "ann_1" }),
        result(`m${i}`, "modify_user_address", { user_id: "ann_1", payment_methods: { credit_card_1: {} } }),
        user("yes"),
      ];
      for (let i = 0; k < n; i++) {
        for (const e of cycle(i)) {
          if (k++ >= n) return;
          pulled.count++;
          yield e;
        }
      }
    }

    /** `facts`, with every question a rule asks it counted (and its answer checked for size). */
    function counted(facts: FactView): { view: FactView; questions: () => number } {
      let questions = 0;
      const view = new Proxy(facts, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            questions++;
            const answer = (value as (...a: unknown[]) => unknown).apply(target, args);
            assert.ok(!Array.isArray(answer), `${String(key)} answered with a list`);
            return answer;
          };
        },
      });
      return { view, questions: () => questions };
    }

    const payment = { name: "modify_pending_order_payment", arguments: { order_id: "#W1", payment_method_id: "credit_card_1" } };

    it("asks the facts the same questions at the 10th event as at the 10,000th, and reads no history", () => {
      const small = { count: 0 };
      const big = { count: 0 };
      const early = new Facts();
      for (const e of session(10, small)) early.apply(e);
      const late = new Facts();
      for (const e of session(10_000, big)) late.apply(e);
      assert.equal(late.applied, 10_000);

      const a = counted(early);
      const b = counted(late);
      const va = verdicts(RETAIL_RULES, a.view, payment);
      const vb = verdicts(RETAIL_RULES, b.view, payment);
      assert.deepEqual(vb, va, "the same decision");
      assert.ok(vb.every((v) => v.verdict.verdict === "pass"), JSON.stringify(vb));
      assert.ok(a.questions() > 0);
      assert.equal(b.questions(), a.questions(), "as many questions after 10,000 events as after 10");
      assert.equal(big.count, 10_000, "each event was read once, when it was applied; the check pulled none");
    });

    it("holds one record per id however often it was returned", () => {
      const f = new Facts();
      for (const e of session(10_000, { count: 0 })) f.apply(e);
      const s = f.sizes();
      assert.equal(s.orders, 1);
      assert.equal(s.users, 1);
      assert.equal(f.authenticatedUsers().length, 1);
      assert.equal(f.writeCount, 1_000);
    });

    it("gives the same facts whether fed events or their calls and results one by one", () => {
      const events = [...session(40, { count: 0 })];
      const a = factsOf(events);
      const b = new Facts();
      for (const e of events) {
        if (e.kind === "user") b.addUser(e.text);
        else if (e.kind === "assistant") for (const c of e.calls) b.addCall(c);
        else b.addResult(e);
      }
      assert.deepEqual(verdicts(RETAIL_RULES, a, payment), verdicts(RETAIL_RULES, b, payment));
      assert.deepEqual(a.sizes(), b.sizes());
      assert.equal(a.lastSaid(), b.lastSaid());
    });
  });
});
