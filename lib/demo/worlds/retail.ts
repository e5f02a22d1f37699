import { sortedJson } from "../../util/sorted-json.js";
import { stringField, type Json, type JsonObject } from "../json.js";
import type { Listing } from "./listing.js";
import type { ToolReply, World } from "./world.js";

interface ShopTool {
  name: string;
  description: string;
  readOnly: boolean;
  args: string[];
}

const SHOP: ShopTool[] = [
  {
    name: "find_user_id_by_email",
    description: "Find a user id by email.",
    readOnly: true,
    args: ["email"],
  },
  {
    name: "get_user_details",
    description: "Get a user's details, including their orders.",
    readOnly: true,
    args: ["user_id"],
  },
  {
    name: "get_order_details",
    description: "Get the status and details of an order.",
    readOnly: true,
    args: ["order_id"],
  },
  {
    name: "cancel_pending_order",
    description:
      "Cancel a pending order. The reason is 'no longer needed' or 'ordered by mistake'.",
    readOnly: false,
    args: ["order_id", "reason"],
  },
];

const REASONS = ["no longer needed", "ordered by mistake"];

/**
 * A tiny shop with four of τ²-bench retail's tool names and canned data: `cN@example.com`
 * is `user_N`, whose orders `#WNa` and `#WNb` are pending. Nothing is stored.
 */
export function retailWorld(listing: Listing): World {
  const tools = (): JsonObject[] => {
    const listed = SHOP.filter((t) => !listing.hidden.includes(t.name)).map(definition);
    for (const [name, hint] of listing.hints) {
      for (const t of listed.filter((t) => t.name === name)) {
        t.annotations = hint === null ? {} : { readOnlyHint: hint };
      }
    }
    return listed;
  };
  return {
    tools,
    call(name: string, args: Json): ToolReply | undefined {
      if (!tools().some((t) => t.name === name)) return undefined;
      const outcome = shopAnswer(name, args);
      if ("error" in outcome) return { text: `Error: ${outcome.error}`, isError: true };
      const text = typeof outcome.ok === "string" ? outcome.ok : sortedJson(outcome.ok);
      return { text, isError: false };
    },
  };
}

function definition(t: ShopTool): JsonObject {
  const properties: JsonObject = {};
  for (const a of t.args) properties[a] = { type: "string" };
  return {
    name: t.name,
    description: t.description,
    inputSchema: { type: "object", properties, required: [...t.args] },
    annotations: { readOnlyHint: t.readOnly },
  };
}

type Outcome = { ok: Json } | { error: string };

/** The shop's answer from its canned data; exported for unit tests. */
export function shopAnswer(name: string, args: Json): Outcome {
  // A missing or non-string argument reads as "".
  const arg = (key: string): string => stringField(args, key) ?? "";
  switch (name) {
    case "find_user_id_by_email": {
      const n = number(arg("email"), "c", "@example.com");
      return n === undefined ? { error: "User not found" } : { ok: `user_${n}` };
    }
    case "get_user_details": {
      const n = number(arg("user_id"), "user_", "");
      if (n === undefined) return { error: "User not found" };
      return {
        ok: {
          user_id: `user_${n}`,
          email: `c${n}@example.com`,
          orders: [`#W${n}a`, `#W${n}b`],
          payment_methods: { [`credit_card_${n}`]: { source: "credit_card" } },
        },
      };
    }
    case "get_order_details": {
      const order = arg("order_id");
      const n = orderUser(order);
      if (n === undefined) return { error: "Order not found" };
      return {
        ok: {
          order_id: order,
          user_id: `user_${n}`,
          status: "pending",
          items: [{ item_id: "1", product_id: "p1", name: "Desk lamp" }],
          payment_history: [{ payment_method_id: `credit_card_${n}` }],
        },
      };
    }
    case "cancel_pending_order": {
      const order = arg("order_id");
      if (orderUser(order) === undefined) return { error: "Order not found" };
      if (!REASONS.includes(arg("reason"))) return { error: "Invalid reason" };
      return { ok: { order_id: order, status: "cancelled" } };
    }
    default:
      return { error: `Unknown tool: ${name}` };
  }
}

/** The N in `prefix` + N + `suffix`, where N is a non-empty run of ASCII digits. */
function number(text: string, prefix: string, suffix: string): string | undefined {
  if (!text.startsWith(prefix) || !text.endsWith(suffix)) return undefined;
  if (text.length < prefix.length + suffix.length) return undefined;
  const n = text.slice(prefix.length, text.length - suffix.length);
  return /^[0-9]+$/.test(n) ? n : undefined;
}

/** The user number of order `#WNa` or `#WNb`. */
function orderUser(order: string): string | undefined {
  return number(order, "#W", "a") ?? number(order, "#W", "b");
}
