/**
 * The retail guards on τ²-bench's own data (the three-user slice in ../shared/fixtures/tau2,
 * MIT): tool results as τ² serializes them (`json.dumps`, every optional field present as
 * null; plain strings unquoted).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Json, JsonObject } from "../../lib/trace/json.js";
import type { EpisodeEvent } from "../../lib/trace/episode-types.js";
import { guardsFor, type Decision } from "../../lib/guards/index.js";
import { call, user } from "./helpers.js";

const SLICE =
  process.env["STRETTO_TAU2_FIXTURES"] !== undefined
    ? `${process.env["STRETTO_TAU2_FIXTURES"]}/retail-slice.json`
    : fileURLToPath(new URL("../../../../shared/fixtures/tau2/retail-slice.json", import.meta.url));

interface Slice {
  users: Record<string, JsonObject>;
  orders: Record<string, JsonObject>;
  products: Record<string, JsonObject>;
}

const ORDER_OPTIONALS = [
  "cancel_reason",
  "exchange_items",
  "exchange_new_items",
  "exchange_payment_method_id",
  "exchange_price_difference",
  "return_items",
  "return_payment_method_id",
];

/** Python's `json.dumps` with its default separators. */
function dumps(v: Json): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(dumps).join(", ")}]`;
  return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${dumps(x)}`).join(", ")}}`;
}

describe("guards: retail on τ²-bench's data slice", function () {
  let data: Slice;
  before(function () {
    if (!existsSync(SLICE)) this.skip();
    data = JSON.parse(readFileSync(SLICE, "utf8")) as Slice;
  });

  /** A session: events so far, a counter for call ids, and the guards on it. */
  function session() {
    const g = guardsFor("retail");
    let n = 0;
    const feed = (events: EpisodeEvent[]) => events.forEach((e) => g.facts.apply(e));
    const tool = (name: string, args: Json, content: string, error = false): void => {
      const id = String(++n);
      feed([call(id, name, args), { kind: "tool_result", call_id: id, name, error, content }]);
    };
    return {
      g,
      say: (text: string) => feed([user(text)]),
      findByEmail: (email: string, userId: string) => tool("find_user_id_by_email", { email }, userId),
      findByNameZip: (first: string, last: string, zip: string, userId: string) =>
        tool("find_user_id_by_name_zip", { first_name: first, last_name: last, zip }, userId),
      userDetails: (id: string) => tool("get_user_details", { user_id: id }, dumps(data.users[id]!)),
      orderDetails: (id: string, changes: JsonObject = {}) => {
        const order: JsonObject = { ...data.orders[id]! };
        for (const k of ORDER_OPTIONALS) order[k] = null;
        tool("get_order_details", { order_id: id }, dumps({ ...order, ...changes }));
      },
      productDetails: (id: string) => tool("get_product_details", { product_id: id }, dumps(data.products[id]!)),
      write: (name: string, args: Json, content: string, error = false) => tool(name, args, content, error),
      check: (name: string, args: Json): Decision => g.check({ name, arguments: args }),
    };
  }

  describe("Anya cancels her pending order", () => {
    function anya() {
      const s = session();
      s.say("Hi, I want to cancel an order. My email is anya.garcia2061@example.com");
      s.findByEmail("anya.garcia2061@example.com", "anya_garcia_3271");
      s.orderDetails("#W6436609");
      s.orderDetails("#W6310710");
      s.say("Yes, please cancel #W6436609, I ordered it by mistake.");
      return s;
    }

    it("passes for her pending order and an accepted reason", () => {
      const d = anya().check("cancel_pending_order", { order_id: "#W6436609", reason: "ordered by mistake" });
      assert.equal(d.refused, false, d.reason);
      assert.ok(d.verdicts.every((v) => v.verdict.verdict === "pass"), JSON.stringify(d.verdicts));
    });

    it("refuses her processed order", () => {
      assert.equal(
        anya().check("cancel_pending_order", { order_id: "#W6310710", reason: "no longer needed" }).reason,
        "the order is processed, not pending (policy check retail.pending)",
      );
    });

    it("refuses Mia's order, once it was looked up", () => {
      const s = anya();
      s.orderDetails("#W3130288");
      assert.equal(
        s.check("cancel_pending_order", { order_id: "#W3130288", reason: "no longer needed" }).reason,
        "the order belongs to mia_moore_8366, not the authenticated user (policy check retail.own_order)",
      );
    });

    it("refuses a second cancellation once the first came back cancelled", () => {
      const s = anya();
      const cancelled: JsonObject = { ...data.orders["#W6436609"]!, status: "cancelled" };
      for (const k of ORDER_OPTIONALS) cancelled[k] = null;
      cancelled["cancel_reason"] = "ordered by mistake";
      s.write("cancel_pending_order", { order_id: "#W6436609", reason: "ordered by mistake" }, dumps(cancelled));
      s.say("yes");
      assert.equal(
        s.check("cancel_pending_order", { order_id: "#W6436609", reason: "ordered by mistake" }).reason,
        "the order is cancelled, not pending (policy check retail.pending)",
      );
    });

    it("lets her change her pending order's address, and her own", () => {
      const s = anya();
      const address = { order_id: "#W6436609", address1: "1 Main St", address2: "", city: "Philadelphia", state: "PA", country: "USA", zip: "19036" };
      assert.equal(s.check("modify_pending_order_address", address).refused, false);
      assert.equal(s.check("modify_user_address", { user_id: "anya_garcia_3271", ...address }).refused, false);
    });
  });

  describe("Mia exchanges a delivered bookshelf", () => {
    function mia() {
      const s = session();
      s.say("Hi, I'm Mia Moore, zip 94180. I'd like to exchange my bookshelf.");
      s.findByNameZip("Mia", "Moore", "94180", "mia_moore_8366");
      s.userDetails("mia_moore_8366");
      s.orderDetails("#W5544629");
      s.productDetails("8600330539");
      s.say("Yes, those are all the items. Go ahead.");
      return s;
    }
    const exchange = (next: string, method = "paypal_5181300"): Json => ({
      order_id: "#W5544629",
      item_ids: ["6735339143"],
      new_item_ids: [next],
      payment_method_id: method,
    });

    it("passes for an available variant, paid with her own PayPal", () => {
      const d = mia().check("exchange_delivered_order_items", exchange("8479046075"));
      assert.equal(d.refused, false, d.reason);
      assert.ok(d.verdicts.every((v) => v.verdict.verdict === "pass"), JSON.stringify(d.verdicts));
    });

    it("refuses a variant out of stock", () => {
      assert.equal(
        mia().check("exchange_delivered_order_items", exchange("7373893106")).reason,
        "item 7373893106 is not available (policy check retail.same_product)",
      );
    });

    it("refuses a toothbrush for a bookshelf", () => {
      assert.equal(
        mia().check("exchange_delivered_order_items", exchange("2645006275")).reason,
        "item 2645006275 is not a variant of product 8600330539 (policy check retail.same_product)",
      );
    });

    it("does not know the toothbrush's product until it is looked up", () => {
      const d = mia().check("exchange_delivered_order_items", {
        order_id: "#W5544629",
        item_ids: ["1583904702"],
        new_item_ids: ["2645006275"],
        payment_method_id: "paypal_5181300",
      });
      assert.equal(d.refused, false);
      assert.deepEqual(d.verdicts.find((v) => v.rule === "retail.same_product")!.verdict, {
        verdict: "unknown",
        reason: "product 7352963235 was not looked up",
      });
    });

    it("refuses Anya's gift card", () => {
      assert.equal(
        mia().check("exchange_delivered_order_items", exchange("8479046075", "gift_card_4374071")).reason,
        "gift_card_4374071 is not one of the user's payment methods (policy check retail.own_payment)",
      );
    });

    it("refunds a return to PayPal (the order's original payment method) or her gift card, not her credit card", () => {
      const ret = (method: string): Json => ({ order_id: "#W5544629", item_ids: ["6735339143", "1583904702"], payment_method_id: method });
      const s = mia();
      assert.equal(s.check("return_delivered_order_items", ret("paypal_5181300")).refused, false);
      assert.equal(s.check("return_delivered_order_items", ret("gift_card_7471275")).refused, false);
      assert.equal(
        s.check("return_delivered_order_items", ret("credit_card_2641784")).reason,
        "credit_card_2641784 is neither the original payment method nor a gift card (policy check retail.refund_method)",
      );
    });

    it("refuses a second exchange after the first, and a pending-order tool on a delivered order", () => {
      const s = mia();
      const after: JsonObject = { ...data.orders["#W5544629"]!, status: "exchange requested" };
      s.write("exchange_delivered_order_items", exchange("8479046075"), dumps(after));
      s.say("yes");
      assert.equal(
        s.check("exchange_delivered_order_items", exchange("8479046075")).reason,
        "the order is exchange requested, not delivered (policy check retail.delivered); " +
          "the order's items were already changed once (policy check retail.once)",
      );
      assert.equal(
        s.check("modify_pending_order_payment", { order_id: "#W5544629", payment_method_id: "gift_card_7471275" }).reason,
        "the order is exchange requested, not pending (policy check retail.pending)",
      );
    });
  });

  it("counts an order's two bookshelves as two items (Mia's pending order)", () => {
    const s = session();
    s.findByEmail("mia.moore8091@example.com", "mia_moore_8366");
    s.userDetails("mia_moore_8366");
    s.orderDetails("#W3130288");
    s.productDetails("8600330539");
    const modify = (old: string[], next: string[]): Json => ({ order_id: "#W3130288", item_ids: old, new_item_ids: next, payment_method_id: "gift_card_7471275" });
    assert.equal(s.check("modify_pending_order_items", modify(["2989722512", "7373893106"], ["8479046075", "1111254697"])).refused, false);
    assert.equal(
      s.check("modify_pending_order_items", modify(["2989722512", "2989722512"], ["8479046075", "1111254697"])).reason,
      "item 2989722512 is not in the order (policy check retail.items_in_order)",
    );
  });
});
