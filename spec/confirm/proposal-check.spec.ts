/** `proposal_check`: the call's values whose record the confirmation chose another of, with no model. */
import assert from "node:assert/strict";
import { proposalCheck, recordLists, scalars, stated } from "../../lib/guards/confirm/index.js";
import type { EpisodeEvent } from "../../lib/trace/episode-types.js";

const result = (content: unknown): EpisodeEvent => ({ kind: "tool_result", call_id: "1", name: "get_user_details", error: false, content: JSON.stringify(content) });

describe("proposal check", () => {
  const methods = result({
    user_id: "ann_1",
    payment_methods: {
      credit_card_4196779: { id: "credit_card_4196779", source: "credit_card", brand: "mastercard", last_four: "2732" },
      gift_card_1234567: { id: "gift_card_1234567", source: "gift_card", balance: 40 },
    },
  });

  it("flags a refund to another card than the one the customer named", () => {
    const exchange = { proposal: "Which payment method should the refund go to?", customer: "To my Mastercard ending in 2732, please." };
    assert.deepEqual(proposalCheck([methods], exchange, { order_id: "#W1", payment_method_id: "gift_card_1234567" }), [{ argument: "payment_method_id", value: "gift_card_1234567" }]);
    assert.deepEqual(proposalCheck([methods], exchange, { order_id: "#W1", payment_method_id: "credit_card_4196779" }), []);
    assert.deepEqual(proposalCheck([methods], { proposal: "", customer: "Yes, go ahead." }, { payment_method_id: "gift_card_1234567" }), []);
  });

  it("flags the other order when the agent offered one and the customer said yes", () => {
    const orders = result({ user_id: "ann_1", orders: ["#W1111", "#W2222"] });
    const exchange = { proposal: "Shall I cancel order #W1111, the lamp?", customer: "Yes." };
    assert.deepEqual(proposalCheck([orders], exchange, { order_id: "#W1111", reason: "no longer needed" }), []);
    assert.deepEqual(proposalCheck([orders], exchange, { order_id: "#W2222", reason: "no longer needed" }), [{ argument: "order_id", value: "#w2222" }]);
  });

  it("finds record lists of any shape, and reads scalars as text", () => {
    assert.equal(recordLists([["A1", 20], { x: [{ id: "B1" }, { id: "B2" }] }, true] as never).length, 3);
    assert.deepEqual([...scalars({ a: 5, b: [2.5, " X "], c: true, d: null }, new Set())], ["5", "2.5", "x"]);
    assert.deepEqual(proposalCheck([], { proposal: "", customer: "" }, "#W1"), [], "arguments that are no object: nothing checked");
    assert.deepEqual(proposalCheck([result({ orders: ["abc", "def"] })], { proposal: "", customer: "def" }, { order_id: "abc" }), [], "values without a digit are not checked");
  });

  it("states numbers as numbers, an id by its digits, anything else as a substring", () => {
    assert.equal(stated("credit_card_4196779", "the card 4196779 please"), true);
    assert.equal(stated("2732", "ending in 27320"), false);
    assert.equal(stated("2732", "ending in 2,732."), true);
    assert.equal(stated("20.50", "it was 20.5 dollars"), true);
    assert.equal(stated("#w1111", "order w1111"), true);
    assert.equal(stated("desk lamp", "the desk lamp"), true);
  });
});
