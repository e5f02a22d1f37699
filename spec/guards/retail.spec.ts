import assert from "node:assert/strict";
import type { Json, JsonObject } from "../../lib/trace/json.js";
import type { EpisodeEvent } from "../../lib/trace/episode-types.js";
import { PASS, call, decide, fails, lookedUp, refusal, result, unknown, user, verdictOf } from "./helpers.js";

function order(status: string): JsonObject {
  return {
    order_id: "#W1",
    user_id: "ann_1",
    status,
    items: [{ item_id: "i1", product_id: "p1" }],
    payment_history: [{ payment_method_id: "credit_card_1" }],
  };
}

const cancel = (reason: string): Json => ({ order_id: "#W1", reason });

/** Authenticated as ann_1, #W1 looked up with `status`, then the customer's `said`. */
function looked(status: string, said = "Yes, please cancel it."): EpisodeEvent[] {
  return [
    user("Cancel #W1, I'm ann@x.com"),
    call("1", "find_user_id_by_email", { email: "ann@x.com" }),
    result("1", "find_user_id_by_email", "ann_1"),
    call("2", "get_order_details", { order_id: "#W1" }),
    result("2", "get_order_details", order(status)),
    user(said),
  ];
}

describe("guards: retail", () => {
  describe("a cancellation", () => {
    it("passes when proper: authenticated, looked up pending, accepted reason, confirmed", () => {
      const d = decide("retail", looked("pending"), "cancel_pending_order", cancel("no longer needed"));
      assert.equal(d.refused, false);
      assert.equal(d.reason, undefined);
      assert.deepEqual(
        d.verdicts.map((v) => [v.rule, v.verdict.verdict]),
        [
          ["retail.authenticated", "pass"],
          ["retail.own_order", "pass"],
          ["retail.status_checked", "pass"],
          ["retail.pending", "pass"],
          ["retail.cancel_reason", "pass"],
          ["retail.confirmed", "pass"],
        ],
      );
    });

    it("is refused for an unaccepted reason, with the exact refusal text", () => {
      const d = decide("retail", looked("pending"), "cancel_pending_order", cancel("found it cheaper"));
      assert.equal(d.refused, true);
      assert.equal(d.reason, "'found it cheaper' is not an accepted reason (policy check retail.cancel_reason)");
      assert.equal(
        d.text,
        "Refused by the policy check, so cancel_pending_order was not run and nothing changed: " +
          "'found it cheaper' is not an accepted reason (policy check retail.cancel_reason).",
      );
    });

    it("is refused for a delivered order", () => {
      assert.equal(
        refusal("retail", looked("delivered"), "cancel_pending_order", cancel("no longer needed")),
        "the order is delivered, not pending (policy check retail.pending)",
      );
    });

    it("on a bare episode cites authenticated and status_checked, not the logged confirmed rule", () => {
      const bare = [user("cancel #W1")];
      const d = decide("retail", bare, "cancel_pending_order", cancel("no longer needed"));
      assert.equal(
        d.reason,
        "the user has not been authenticated by email or by name and zip code (policy check retail.authenticated); " +
          "the order's status was not checked first (policy check retail.status_checked)",
      );
      assert.ok(!d.reason.includes("retail.confirmed"));
      const confirmed = d.verdicts.find((v) => v.rule === "retail.confirmed")!;
      assert.equal(confirmed.enforced, false);
      assert.deepEqual(confirmed.verdict, fails("the customer's last message is not an explicit confirmation"));
    });

    it("joins several failures in rule order", () => {
      const d = decide("retail", looked("cancelled"), "cancel_pending_order", cancel("meh"));
      assert.equal(
        d.reason,
        "the order is cancelled, not pending (policy check retail.pending); 'meh' is not an accepted reason (policy check retail.cancel_reason)",
      );
    });
  });

  describe("after an item change", () => {
    const modified = looked("pending (item modified)", "yes");
    it("lets the address change (the tool takes it)", () => {
      const d = decide("retail", modified, "modify_pending_order_address", { order_id: "#W1", address1: "1 Main St" });
      assert.equal(d.refused, false, d.reason);
    });
    it("refuses a cancellation", () => {
      assert.equal(
        refusal("retail", modified, "cancel_pending_order", cancel("no longer needed")),
        "the order is pending (item modified), not pending (policy check retail.pending)",
      );
    });
    it("lets the payment change but not the items", () => {
      assert.deepEqual(
        verdictOf("retail", modified, "modify_pending_order_payment", { order_id: "#W1", payment_method_id: "x" }, "retail.pending"),
        PASS,
      );
      assert.deepEqual(
        verdictOf("retail", modified, "modify_pending_order_items", { order_id: "#W1" }, "retail.pending"),
        fails("the order is pending (item modified), not pending"),
      );
    });
  });

  describe("an exchange", () => {
    const base = (): EpisodeEvent[] => [
      call("1", "find_user_id_by_email", { email: "a" }),
      result("1", "find_user_id_by_email", "ann_1"),
      call("2", "get_order_details", { order_id: "#W1" }),
      result("2", "get_order_details", order("delivered")),
      call("3", "get_product_details", { product_id: "p1" }),
      result("3", "get_product_details", {
        product_id: "p1",
        variants: { i1: { available: true }, i2: { available: true }, i3: { available: false } },
      }),
      call("4", "get_user_details", { user_id: "ann_1" }),
      result("4", "get_user_details", { user_id: "ann_1", payment_methods: { credit_card_1: {} } }),
      user("yes"),
    ];
    const exchange = (next: string): Json => ({
      order_id: "#W1",
      item_ids: ["i1"],
      new_item_ids: [next],
      payment_method_id: "credit_card_1",
    });

    it("passes for an available variant of the same product", () => {
      const d = decide("retail", base(), "exchange_delivered_order_items", exchange("i2"));
      assert.equal(d.refused, false, d.reason);
      assert.ok(d.verdicts.every((v) => v.verdict.verdict === "pass"), JSON.stringify(d.verdicts));
    });
    it("refuses an unavailable variant", () => {
      assert.equal(
        refusal("retail", base(), "exchange_delivered_order_items", exchange("i3")),
        "item i3 is not available (policy check retail.same_product)",
      );
    });
    it("refuses an item of another product", () => {
      assert.equal(
        refusal("retail", base(), "exchange_delivered_order_items", exchange("i9")),
        "item i9 is not a variant of product p1 (policy check retail.same_product)",
      );
    });
    it("refuses a second exchange of the order after a successful one", () => {
      const events = [...base(), call("5", "exchange_delivered_order_items", exchange("i2")), result("5", "exchange_delivered_order_items", "ok"), user("yes")];
      assert.equal(
        refusal("retail", events, "exchange_delivered_order_items", exchange("i2")),
        "the order's items were already changed once (policy check retail.once)",
      );
    });
    it("does not count a failed exchange, nor one of another order", () => {
      const failed = [...base(), call("5", "exchange_delivered_order_items", exchange("i2")), result("5", "exchange_delivered_order_items", "Error: x", true)];
      assert.deepEqual(verdictOf("retail", failed, "exchange_delivered_order_items", exchange("i2"), "retail.once"), PASS);
      const other = [...base(), call("5", "modify_pending_order_items", { order_id: "#W2" }), result("5", "modify_pending_order_items", "ok")];
      assert.deepEqual(verdictOf("retail", other, "exchange_delivered_order_items", exchange("i2"), "retail.once"), PASS);
    });
    it("counts a modification of the items as the one change too", () => {
      const events = [...base(), call("5", "modify_pending_order_items", { order_id: "#W1" }), result("5", "modify_pending_order_items", "ok")];
      assert.deepEqual(
        verdictOf("retail", events, "exchange_delivered_order_items", exchange("i2"), "retail.once"),
        fails("the order's items were already changed once"),
      );
    });
    it("matches calls without an order id to earlier writes without one (both count as one unknown order)", () => {
      const events = [call("5", "modify_pending_order_items", {}), result("5", "modify_pending_order_items", "ok")];
      assert.deepEqual(verdictOf("retail", events, "modify_pending_order_items", {}, "retail.once"), fails("the order's items were already changed once"));
      assert.deepEqual(verdictOf("retail", events, "modify_pending_order_items", { order_id: "#W1" }, "retail.once"), PASS);
    });
  });

  describe("what each rule cannot tell, and what fails", () => {
    const ann = () => lookedUp("a", "find_user_id_by_email", "ann_1");
    const orderOf = (owner?: string, status?: string): EpisodeEvent[] => {
      const o: JsonObject = {
        order_id: "#W1",
        items: [{ item_id: "i1", product_id: "p1" }],
        payment_history: [{ payment_method_id: "credit_card_1" }],
      };
      if (owner !== undefined) o["user_id"] = owner;
      if (status !== undefined) o["status"] = status;
      return lookedUp("o", "get_order_details", o);
    };
    const cancelArgs = cancel("no longer needed");
    const delivered = () => [...ann(), ...orderOf("ann_1", "delivered")];
    const exchange = (old: string[], next: string[]): Json => ({ order_id: "#W1", item_ids: old, new_item_ids: next, payment_method_id: "credit_card_1" });
    const v = (events: EpisodeEvent[], tool: string, args: Json, rule: string) => verdictOf("retail", events, tool, args, rule);

    it("retail.authenticated: fails with nobody, passes with anyone", () => {
      assert.deepEqual(v([], "modify_user_address", {}, "retail.authenticated"), fails("the user has not been authenticated by email or by name and zip code"));
      assert.deepEqual(v(ann(), "modify_user_address", {}, "retail.authenticated"), PASS);
    });

    it("retail.own_order", () => {
      assert.deepEqual(v([], "cancel_pending_order", cancelArgs, "retail.own_order"), unknown("the order was not looked up"));
      assert.deepEqual(v(orderOf("bob_2", "pending"), "cancel_pending_order", cancelArgs, "retail.own_order"), unknown("order of bob_2; nobody authenticated"));
      assert.deepEqual(
        v([...ann(), ...orderOf("bob_2", "pending")], "cancel_pending_order", cancelArgs, "retail.own_order"),
        fails("the order belongs to bob_2, not the authenticated user"),
      );
      assert.deepEqual(v([...ann(), ...orderOf(undefined, "pending")], "cancel_pending_order", cancelArgs, "retail.own_order"), unknown("the order has no user"));
      assert.deepEqual(v([...ann(), ...orderOf("ann_1", "pending")], "cancel_pending_order", cancelArgs, "retail.own_order"), PASS);
    });

    it("retail.own_order: any of several authenticated users owns it", () => {
      const two = [...lookedUp("b", "find_user_id_by_name_zip", '"bob_2"'), ...ann(), ...orderOf("bob_2", "pending")];
      assert.deepEqual(v(two, "cancel_pending_order", cancelArgs, "retail.own_order"), PASS);
    });

    it("retail.status_checked", () => {
      assert.deepEqual(v(ann(), "cancel_pending_order", { reason: "no longer needed" }, "retail.status_checked"), unknown("no order id"));
      assert.deepEqual(v(ann(), "cancel_pending_order", cancelArgs, "retail.status_checked"), fails("the order's status was not checked first"));
      assert.deepEqual(v(ann(), "cancel_pending_order", { order_id: 7 }, "retail.status_checked"), unknown("no order id"), "a number is no id");
    });

    it("retail.pending", () => {
      assert.deepEqual(v([...ann(), ...orderOf("ann_1")], "cancel_pending_order", cancelArgs, "retail.pending"), unknown("the order has no status"));
      const address: Json = { order_id: "#W1", address1: "1 Main St" };
      assert.deepEqual(v(ann(), "modify_pending_order_address", address, "retail.pending"), unknown("the order was not looked up"));
      assert.deepEqual(v(delivered(), "modify_pending_order_address", address, "retail.pending"), fails("the order is delivered, not pending"));
      assert.deepEqual(v([...ann(), ...orderOf("ann_1")], "modify_pending_order_address", address, "retail.pending"), unknown("the order has no status"));
      assert.deepEqual(v(ann(), "cancel_pending_order", cancelArgs, "retail.pending"), unknown("the order was not looked up"));
    });

    it("retail.delivered", () => {
      const ret: Json = { order_id: "#W1", item_ids: ["i1"], payment_method_id: "credit_card_1" };
      assert.deepEqual(v(delivered(), "return_delivered_order_items", ret, "retail.delivered"), PASS);
      assert.deepEqual(v([...ann(), ...orderOf("ann_1", "pending")], "return_delivered_order_items", ret, "retail.delivered"), fails("the order is pending, not delivered"));
      assert.deepEqual(v(ann(), "return_delivered_order_items", ret, "retail.delivered"), unknown("the order was not looked up"));
      assert.deepEqual(v([...ann(), ...orderOf("ann_1")], "return_delivered_order_items", ret, "retail.delivered"), unknown("the order has no status"));
    });

    it("retail.cancel_reason", () => {
      assert.deepEqual(v(ann(), "cancel_pending_order", { order_id: "#W1" }, "retail.cancel_reason"), fails("no reason given"));
      assert.deepEqual(v(ann(), "cancel_pending_order", { order_id: "#W1", reason: 3 }, "retail.cancel_reason"), fails("no reason given"));
      assert.deepEqual(v([], "cancel_pending_order", cancel("ordered by mistake"), "retail.cancel_reason"), PASS);
      assert.deepEqual(v([], "cancel_pending_order", cancel("No longer needed"), "retail.cancel_reason"), fails("'No longer needed' is not an accepted reason"));
    });

    it("retail.items_in_order, counting each item once", () => {
      assert.deepEqual(v(ann(), "exchange_delivered_order_items", exchange(["i1"], ["i2"]), "retail.items_in_order"), unknown("the order was not looked up"));
      assert.deepEqual(v(delivered(), "exchange_delivered_order_items", exchange(["i9"], ["i2"]), "retail.items_in_order"), fails("item i9 is not in the order"));
      assert.deepEqual(v(delivered(), "exchange_delivered_order_items", exchange(["i1", "i1"], ["i2", "i2"]), "retail.items_in_order"), fails("item i1 is not in the order"));
      assert.deepEqual(v(delivered(), "return_delivered_order_items", { order_id: "#W1", item_ids: [] }, "retail.items_in_order"), PASS);
      assert.deepEqual(v(delivered(), "return_delivered_order_items", { order_id: "#W1", item_ids: ["i1", 5] }, "retail.items_in_order"), PASS, "non-strings ignored");
      const twice = lookedUp("o", "get_order_details", { order_id: "#W1", items: [{ item_id: "i1" }, { item_id: "i1" }] });
      assert.deepEqual(v(twice, "return_delivered_order_items", { order_id: "#W1", item_ids: ["i1", "i1"] }, "retail.items_in_order"), PASS);
    });

    it("retail.same_product", () => {
      assert.deepEqual(v(ann(), "exchange_delivered_order_items", exchange(["i1"], ["i2"]), "retail.same_product"), unknown("the order was not looked up"));
      assert.deepEqual(v(delivered(), "exchange_delivered_order_items", exchange(["i1"], []), "retail.same_product"), fails("item_ids and new_item_ids differ in length"));
      assert.deepEqual(v(delivered(), "exchange_delivered_order_items", exchange(["i9"], ["i2"]), "retail.same_product"), unknown("item i9 is not in the order"));
      assert.deepEqual(v(delivered(), "exchange_delivered_order_items", exchange(["i1"], ["i2"]), "retail.same_product"), unknown("product p1 was not looked up"));
      const product = lookedUp("p", "get_product_details", { product_id: "p1", variants: { i1: { available: true }, i2: { available: true } } });
      assert.deepEqual(v([...delivered(), ...product], "exchange_delivered_order_items", exchange(["i1"], ["i1"]), "retail.same_product"), fails("item i1 is the item it replaces"));
      assert.deepEqual(v([...delivered(), ...product], "exchange_delivered_order_items", exchange([], []), "retail.same_product"), PASS);
      const gone = lookedUp("p", "get_product_details", { product_id: "p1", variants: { i1: { available: false } } });
      assert.deepEqual(
        v([...delivered(), ...gone], "exchange_delivered_order_items", exchange(["i1"], ["i1"]), "retail.same_product"),
        fails("item i1 is not available"),
        "availability is checked before sameness",
      );
    });

    it("retail.own_payment", () => {
      assert.deepEqual(v(delivered(), "exchange_delivered_order_items", { order_id: "#W1" }, "retail.own_payment"), unknown("no payment method"));
      assert.deepEqual(v(delivered(), "exchange_delivered_order_items", exchange(["i1"], ["i2"]), "retail.own_payment"), unknown("the user's details were not looked up"));
      const details = lookedUp("u", "get_user_details", { user_id: "ann_1", payment_methods: { credit_card_1: {} } });
      assert.deepEqual(
        v([...delivered(), ...details], "exchange_delivered_order_items", { order_id: "#W1", payment_method_id: "paypal_9" }, "retail.own_payment"),
        fails("paypal_9 is not one of the user's payment methods"),
      );
      assert.deepEqual(v([...delivered(), ...details], "exchange_delivered_order_items", exchange(["i1"], ["i2"]), "retail.own_payment"), PASS);
    });

    it("retail.own_payment reads only authenticated users' details", () => {
      const bob = lookedUp("u", "get_user_details", { user_id: "bob_2", payment_methods: { paypal_9: {} } });
      const args: Json = { order_id: "#W1", payment_method_id: "paypal_9" };
      assert.deepEqual(v([...delivered(), ...bob], "modify_pending_order_payment", args, "retail.own_payment"), unknown("the user's details were not looked up"));
      // Bob authenticated after his details were read: they count from then on.
      const later = [...delivered(), ...bob, ...lookedUp("b", "find_user_id_by_email", "bob_2")];
      assert.deepEqual(v(later, "modify_pending_order_payment", args, "retail.own_payment"), PASS);
      // Ann's details read again without the method: Bob still has it.
      const annAgain = lookedUp("u2", "get_user_details", { user_id: "ann_1", payment_methods: {} });
      assert.deepEqual(v([...later, ...annAgain], "modify_pending_order_payment", args, "retail.own_payment"), PASS);
      // Bob's details read again without it: nobody has it now (latest wins).
      const bobAgain = lookedUp("u3", "get_user_details", { user_id: "bob_2", payment_methods: { gift_card_1: {} } });
      assert.deepEqual(
        v([...later, ...annAgain, ...bobAgain], "modify_pending_order_payment", args, "retail.own_payment"),
        fails("paypal_9 is not one of the user's payment methods"),
      );
    });

    it("retail.own_payment looks a method up by key, not as a path", () => {
      const details = lookedUp("u", "get_user_details", { user_id: "ann_1", payment_methods: { credit_card_1: { source: "credit_card" } } });
      assert.deepEqual(
        v([...delivered(), ...details], "modify_pending_order_payment", { order_id: "#W1", payment_method_id: "credit_card_1/source" }, "retail.own_payment"),
        fails("credit_card_1/source is not one of the user's payment methods"),
      );
    });

    it("retail.refund_method", () => {
      const refund = (method: string): Json => ({ order_id: "#W1", item_ids: ["i1"], payment_method_id: method });
      assert.deepEqual(v(ann(), "return_delivered_order_items", refund("credit_card_1"), "retail.refund_method"), unknown("the order or the method is unknown"));
      assert.deepEqual(v(delivered(), "return_delivered_order_items", { order_id: "#W1" }, "retail.refund_method"), unknown("the order or the method is unknown"));
      for (const method of ["credit_card_1", "gift_card_7"]) {
        assert.deepEqual(v(delivered(), "return_delivered_order_items", refund(method), "retail.refund_method"), PASS, method);
      }
      assert.deepEqual(
        v(delivered(), "return_delivered_order_items", refund("paypal_9"), "retail.refund_method"),
        fails("paypal_9 is neither the original payment method nor a gift card"),
      );
    });

    it("retail.confirmed: nothing said yet, nothing confirmed", () => {
      assert.deepEqual(v(ann(), "cancel_pending_order", cancelArgs, "retail.confirmed"), fails("the customer has not confirmed anything yet"));
      assert.deepEqual(v([...ann(), user("YES!")], "cancel_pending_order", cancelArgs, "retail.confirmed"), PASS, "lowercased first");
      assert.deepEqual(v([user("yes"), user("Hmm, what is the refund method?")], "cancel_pending_order", cancelArgs, "retail.confirmed"), fails("the customer's last message is not an explicit confirmation"), "only the last message counts");
    });
  });

  it("applies each rule only to its tools; reads and unknown tools pass with no verdicts", () => {
    assert.deepEqual(decide("retail", [], "get_order_details", { order_id: "#W1" }).verdicts, []);
    assert.deepEqual(decide("retail", [], "telecom_thing", {}), { refused: false, verdicts: [] });
    const rules = (tool: string) => decide("retail", [], tool, {}).verdicts.map((v) => v.rule);
    assert.deepEqual(rules("modify_user_address"), ["retail.authenticated", "retail.confirmed"]);
    assert.deepEqual(rules("modify_pending_order_address"), ["retail.authenticated", "retail.own_order", "retail.status_checked", "retail.pending", "retail.confirmed"]);
    assert.deepEqual(rules("modify_pending_order_payment"), ["retail.authenticated", "retail.own_order", "retail.status_checked", "retail.pending", "retail.own_payment", "retail.confirmed"]);
    assert.deepEqual(rules("modify_pending_order_items"), [
      "retail.authenticated", "retail.own_order", "retail.status_checked", "retail.pending", "retail.items_in_order",
      "retail.same_product", "retail.once", "retail.own_payment", "retail.confirmed",
    ]);
    assert.deepEqual(rules("return_delivered_order_items"), [
      "retail.authenticated", "retail.own_order", "retail.status_checked", "retail.delivered", "retail.items_in_order",
      "retail.own_payment", "retail.refund_method", "retail.confirmed",
    ]);
    assert.deepEqual(rules("exchange_delivered_order_items"), [
      "retail.authenticated", "retail.own_order", "retail.status_checked", "retail.delivered", "retail.items_in_order",
      "retail.same_product", "retail.once", "retail.own_payment", "retail.confirmed",
    ]);
  });

  it("never refuses on an unknown", () => {
    // Authenticated, no order id: the order rules cannot tell, and confirmed is only logged.
    const d = decide("retail", [...lookedUp("a", "find_user_id_by_email", "ann_1")], "modify_pending_order_address", { address1: "x" });
    assert.equal(d.refused, false, d.reason);
    assert.ok(d.verdicts.some((v) => v.verdict.verdict === "unknown"));
  });
});
