/**
 * τ²-bench retail's policy as guards (docs/guards.md, "Retail"), in a fixed order: a refusal
 * cites the rules it broke in this order, so the order is part of the text agents and logs see. Every
 * rule is enforced except `retail.confirmed`, whose word list cannot tell a confirmation
 * from a request: it is only logged.
 */
import { field, type JsonObject } from "../../trace/json.js";
import type { FactView } from "../facts.js";
import { arg, list, object, strings, text, type GuardedCall, type Rule } from "../rule.js";
import { fail, pass, unknown, type Verdict } from "../verdict.js";
import { confirmation } from "../word-list.js";

export const RETAIL_WRITES: readonly string[] = [
  "cancel_pending_order",
  "modify_pending_order_address",
  "modify_pending_order_items",
  "modify_pending_order_payment",
  "modify_user_address",
  "return_delivered_order_items",
  "exchange_delivered_order_items",
];

/** The writes that name an order. */
export const ORDER_WRITES: readonly string[] = RETAIL_WRITES.filter((t) => t !== "modify_user_address");

const NOT_LOOKED_UP = "the order was not looked up";

/** The order the call names, as last returned. */
function orderOf(f: FactView, c: GuardedCall): JsonObject | undefined {
  const id = arg(c, "order_id");
  return id === undefined ? undefined : f.order(id);
}

const authenticated: Rule = {
  id: "retail.authenticated",
  policy: "Authenticate the user by email, or by name and zip code, before changing anything.",
  tools: RETAIL_WRITES,
  enforced: true,
  check: (f) =>
    f.anyAuthenticated() ? pass() : fail("the user has not been authenticated by email or by name and zip code"),
};

const ownOrder: Rule = {
  id: "retail.own_order",
  policy: "Help only the authenticated user, with their own orders.",
  tools: ORDER_WRITES,
  enforced: true,
  check: (f, c) => {
    const order = orderOf(f, c);
    if (order === undefined) return unknown(NOT_LOOKED_UP);
    const owner = text(order, "user_id");
    if (owner === undefined) return unknown("the order has no user");
    if (f.isAuthenticated(owner)) return pass();
    if (!f.anyAuthenticated()) return unknown(`order of ${owner}; nobody authenticated`);
    return fail(`the order belongs to ${owner}, not the authenticated user`);
  },
};

const statusChecked: Rule = {
  id: "retail.status_checked",
  policy: "Look up the order's status before cancelling, modifying, returning or exchanging it.",
  tools: ORDER_WRITES,
  enforced: true,
  check: (f, c) => {
    const id = arg(c, "order_id");
    if (id === undefined) return unknown("no order id");
    return f.order(id) !== undefined ? pass() : fail("the order's status was not checked first");
  },
};

/** The order's status must be exactly `wanted`. */
function statusIs(f: FactView, c: GuardedCall, wanted: string): Verdict {
  const order = orderOf(f, c);
  if (order === undefined) return unknown(NOT_LOOKED_UP);
  const status = text(order, "status");
  if (status === undefined) return unknown("the order has no status");
  return status === wanted ? pass() : fail(`the order is ${status}, not ${wanted}`);
}

const pending: Rule = {
  id: "retail.pending",
  policy: "Only pending orders can be cancelled or modified; after an item change, only their address and payment.",
  tools: ["cancel_pending_order", "modify_pending_order_address", "modify_pending_order_items", "modify_pending_order_payment"],
  enforced: true,
  check: (f, c) => {
    // The tools take address and payment changes of a `pending (item modified)` order,
    // and τ²-bench's tasks expect them.
    if (c.name !== "modify_pending_order_address" && c.name !== "modify_pending_order_payment") {
      return statusIs(f, c, "pending");
    }
    const order = orderOf(f, c);
    if (order === undefined) return unknown(NOT_LOOKED_UP);
    const status = text(order, "status");
    if (status === undefined) return unknown("the order has no status");
    return status.includes("pending") ? pass() : fail(`the order is ${status}, not pending`);
  },
};

const delivered: Rule = {
  id: "retail.delivered",
  policy: "Only delivered orders can be returned or exchanged.",
  tools: ["return_delivered_order_items", "exchange_delivered_order_items"],
  enforced: true,
  check: (f, c) => statusIs(f, c, "delivered"),
};

const ACCEPTED_REASONS = ["no longer needed", "ordered by mistake"];

const cancelReason: Rule = {
  id: "retail.cancel_reason",
  policy: "The reason for cancelling is 'no longer needed' or 'ordered by mistake'.",
  tools: ["cancel_pending_order"],
  enforced: true,
  check: (_f, c) => {
    const reason = arg(c, "reason");
    if (reason === undefined) return fail("no reason given");
    return ACCEPTED_REASONS.includes(reason) ? pass() : fail(`'${reason}' is not an accepted reason`);
  },
};

/** The item ids of an order's items, in order (items without one left out). */
function itemIds(order: JsonObject): string[] {
  const ids: string[] = [];
  for (const item of list(field(order, "items"))) {
    const id = text(item, "item_id");
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

const itemsInOrder: Rule = {
  id: "retail.items_in_order",
  policy: "Only items of the order can be changed or returned.",
  tools: ["modify_pending_order_items", "return_delivered_order_items", "exchange_delivered_order_items"],
  enforced: true,
  check: (f, c) => {
    const order = orderOf(f, c);
    if (order === undefined) return unknown(NOT_LOOKED_UP);
    // Each id takes one of the order's items: an item twice needs it twice in the order.
    const left = itemIds(order);
    for (const id of strings(field(c.arguments, "item_ids"))) {
      const k = left.indexOf(id);
      if (k === -1) return fail(`item ${id} is not in the order`);
      left.splice(k, 1);
    }
    return pass();
  },
};

/** The product of the order's first item with id `itemId`. */
function productOfItem(order: JsonObject, itemId: string): string | undefined {
  const item = list(field(order, "items")).find((i) => text(i, "item_id") === itemId);
  return item === undefined ? undefined : text(item, "product_id");
}

const sameProduct: Rule = {
  id: "retail.same_product",
  policy: "Each item can only change to another available variant of the same product.",
  tools: ["modify_pending_order_items", "exchange_delivered_order_items"],
  enforced: true,
  check: (f, c) => {
    const order = orderOf(f, c);
    if (order === undefined) return unknown(NOT_LOOKED_UP);
    const old = strings(field(c.arguments, "item_ids"));
    const next = strings(field(c.arguments, "new_item_ids"));
    if (old.length !== next.length) return fail("item_ids and new_item_ids differ in length");
    for (let i = 0; i < old.length; i++) {
      const o = old[i]!;
      const n = next[i]!;
      const productId = productOfItem(order, o);
      if (productId === undefined) return unknown(`item ${o} is not in the order`);
      const product = f.product(productId);
      if (product === undefined) return unknown(`product ${productId} was not looked up`);
      const variant = field(object(product, "variants"), n);
      if (variant === undefined) return fail(`item ${n} is not a variant of product ${productId}`);
      if (field(variant, "available") === false) return fail(`item ${n} is not available`);
      if (o === n) return fail(`item ${n} is the item it replaces`);
    }
    return pass();
  },
};

const once: Rule = {
  id: "retail.once",
  policy: "An order's items can be modified or exchanged only once.",
  tools: ["modify_pending_order_items", "exchange_delivered_order_items"],
  enforced: true,
  check: (f, c) =>
    f.itemsChanged(arg(c, "order_id")) ? fail("the order's items were already changed once") : pass(),
};

const ownPayment: Rule = {
  id: "retail.own_payment",
  policy: "Payment methods must be the authenticated user's own.",
  tools: [
    "modify_pending_order_items",
    "modify_pending_order_payment",
    "return_delivered_order_items",
    "exchange_delivered_order_items",
  ],
  enforced: true,
  check: (f, c) => {
    const method = arg(c, "payment_method_id");
    if (method === undefined) return unknown("no payment method");
    if (!f.authenticatedDetailsKnown()) return unknown("the user's details were not looked up");
    return f.authenticatedHasMethod(method) ? pass() : fail(`${method} is not one of the user's payment methods`);
  },
};

const refundMethod: Rule = {
  id: "retail.refund_method",
  policy: "A return is refunded to the original payment method or to a gift card.",
  tools: ["return_delivered_order_items"],
  enforced: true,
  check: (f, c) => {
    const order = orderOf(f, c);
    const method = arg(c, "payment_method_id");
    if (order === undefined || method === undefined) return unknown("the order or the method is unknown");
    if (method === originalMethod(order) || method.startsWith("gift_card")) return pass();
    return fail(`${method} is neither the original payment method nor a gift card`);
  },
};

/** `payment_history[0].payment_method_id` (serde's pointer reads `"0"` of an object too). */
function originalMethod(order: JsonObject): string | undefined {
  const history = field(order, "payment_history");
  const first = Array.isArray(history) ? history[0] : field(history, "0");
  return text(first, "payment_method_id");
}

const confirmed: Rule = {
  id: "retail.confirmed",
  policy: "Obtain the customer's explicit confirmation (yes) before any change.",
  tools: RETAIL_WRITES,
  // The audit finds the word list misses as often in successful episodes as in failed
  // ones: it is logged, not enforced.
  enforced: false,
  check: (f) => confirmation(f.lastSaid()),
};

export const RETAIL_RULES: readonly Rule[] = [
  authenticated,
  ownOrder,
  statusChecked,
  pending,
  delivered,
  cancelReason,
  itemsInOrder,
  sameProduct,
  once,
  ownPayment,
  refundMethod,
  confirmed,
];
