/**
 * Session logs of a retail shop for the learning benchmark, written as `stretto-proxy
 * --record --context` writes them in front of `stretto-mcp-demo --world retail` (the
 * quickstart's shape: initialize, the listing, one call per turn 0.6 s apart, the
 * conversation as `context` lines), with the demo shop's tools and a few more of τ²-bench
 * retail's. Each entry is formatted by the recorder's own `formatEntry`, the header by its
 * `logHeader`, the file named by its `sessionId`.
 *
 * Customer N (`cN@example.com`, `user_N`) has two to six orders in mixed states; the agent
 * finds the user (now and then after a mistyped email), reads the user, reads the orders
 * (sometimes two in one turn), looks up some of their products, then cancels a pending
 * order, returns a delivered one, or says how they stand, and now and then re-reads the
 * order it changed. About ten calls a session. Everything follows from the seed.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { formatEntry } from "../../lib/record/log-entry.js";
import { logHeader } from "../../lib/record/log-header.js";
import { sessionId } from "../../lib/record/session-id.js";
import type { Sender } from "../../lib/bus/frame.js";

/** Bump when the generated logs change, so a cached folder is not reused. */
export const GENERATOR_VERSION = 2;

const STATUSES = ["pending", "pending", "processed", "delivered", "delivered", "cancelled"] as const;
type Status = (typeof STATUSES)[number];

const PRODUCTS = [
  ["Desk lamp", "lamp"],
  ["E-Reader", "reader"],
  ["Bookshelf", "shelf"],
  ["Bluetooth speaker", "speaker"],
  ["Office chair", "chair"],
  ["Water bottle", "bottle"],
  ["Backpack", "bag"],
  ["Wall clock", "clock"],
] as const;

const TOOLS = [
  { name: "find_user_id_by_email", description: "Find a user id by email.", readOnly: true, args: ["email"] },
  { name: "get_user_details", description: "Get a user's details, including their orders.", readOnly: true, args: ["user_id"] },
  { name: "get_order_details", description: "Get the status and details of an order.", readOnly: true, args: ["order_id"] },
  { name: "get_product_details", description: "Get a product's details and its items in stock.", readOnly: true, args: ["product_id"] },
  {
    name: "cancel_pending_order",
    description: "Cancel a pending order. The reason is 'no longer needed' or 'ordered by mistake'.",
    readOnly: false,
    args: ["order_id", "reason"],
  },
  {
    name: "return_delivered_order_items",
    description: "Return some items of a delivered order to a payment method.",
    readOnly: false,
    args: ["order_id", "item_ids", "payment_method_id"],
  },
] as const;

function listing(): unknown {
  return TOOLS.map((t) => ({
    annotations: { readOnlyHint: t.readOnly },
    description: t.description,
    inputSchema: {
      properties: Object.fromEntries(t.args.map((a) => [a, a === "item_ids" ? { items: { type: "string" }, type: "array" } : { type: "string" }])),
      required: [...t.args],
      type: "object",
    },
    name: t.name,
  }));
}

/** mulberry32: small, fast and the same everywhere. */
function rng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

interface Order {
  id: string;
  status: Status;
  items: { item_id: string; product_id: string; name: string; price: number }[];
}

/** One session's log text. */
export function shopSessionLog(k: number, seed: number): { file: string; text: string } {
  const rand = rng(seed * 1_000_003 + k);
  const n = k + 1;
  const started = 1_790_198_400_000 + k * 90_000;
  const session = sessionId(started, 1000 + (k % 30_000));
  const header = { ...logHeader({
    session,
    startedUnixMs: started,
    serverCommand: ["/usr/bin/node", "stretto-mcp-demo.js", "--world", "retail"],
    domain: "shop",
    hostSession: `bench-c${n}`,
  }), era: "legacy" };
  const lines: Buffer[] = [Buffer.from(JSON.stringify(header) + "\n")];
  let t = 120 + rand(60);
  let id = 0;
  const add = (from: Sender, message: unknown): void => {
    lines.push(formatEntry(t, from, Buffer.from(JSON.stringify(message))));
  };
  const say = (role: "user" | "assistant", content: string): void => add("context", { role, content });

  const orders: Order[] = Array.from({ length: 2 + rand(5) }, (_, i) => ({
    id: `#W${n}${"abcdef"[i]}`,
    status: STATUSES[rand(STATUSES.length)]!,
    items: Array.from({ length: 1 + rand(3) }, () => {
      const [name, kind] = PRODUCTS[rand(PRODUCTS.length)]!;
      const product = 1000 + PRODUCTS.findIndex((p) => p[0] === name);
      return { item_id: String(100000 + rand(900000)), product_id: `${kind}-${product}`, name, price: (1000 + rand(40000)) / 100 };
    }),
  }));
  const card = `credit_card_${n}`;
  const gift = `gift_card_${n}`;

  add("client", { method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-agent", version: "0.1.0" } }, jsonrpc: "2.0", id });
  t += 100 + rand(50);
  add("server", {
    id: id++,
    jsonrpc: "2.0",
    result: {
      capabilities: { tools: { listChanged: false } },
      protocolVersion: "2025-11-25",
      serverInfo: { name: "stretto-mcp-demo", version: "0.1.0" },
    },
  });
  t += 10;
  add("client", { method: "notifications/initialized", jsonrpc: "2.0" });
  add("client", { method: "tools/list", jsonrpc: "2.0", id });
  t += 2;
  add("server", { id: id++, jsonrpc: "2.0", result: { tools: listing() } });

  /** Calls made in one turn: sent together, answered after. */
  const turn = (calls: [string, Record<string, unknown>][]): string[] => {
    if (id > 2) t += 600 + rand(400);
    const ids = calls.map(([name, args]) => {
      add("client", { method: "tools/call", params: { name, arguments: args }, jsonrpc: "2.0", id });
      return id++;
    });
    return calls.map(([name, args], i) => {
      t += 1 + rand(4);
      const { text, isError } = answer(name, args);
      add("server", { id: ids[i], jsonrpc: "2.0", result: { content: [{ text, type: "text" }], isError } });
      return text;
    });
  };
  const call = (name: string, args: Record<string, unknown>): string => turn([[name, args]])[0]!;

  const answer = (name: string, args: Record<string, unknown>): { text: string; isError: boolean } => {
    const ok = (v: unknown) => ({ text: typeof v === "string" ? v : JSON.stringify(v), isError: false });
    const order = orders.find((o) => o.id === args["order_id"]);
    switch (name) {
      case "find_user_id_by_email":
        return args["email"] === `c${n}@example.com` ? ok(`user_${n}`) : { text: "Error: User not found", isError: true };
      case "get_user_details":
        return ok({
          address: { address1: `${100 + (n % 900)} Laurel Lane`, city: "Philadelphia", country: "USA", state: "PA", zip: "19036" },
          email: `c${n}@example.com`,
          name: { first_name: "Anya", last_name: `Garcia${n}` },
          orders: orders.map((o) => o.id),
          payment_methods: { [card]: { source: "credit_card", brand: "visa" }, [gift]: { source: "gift_card", balance: 10 + (n % 90) } },
          user_id: `user_${n}`,
        });
      case "get_order_details":
        if (order === undefined) return { text: "Error: Order not found", isError: true };
        return ok({
          address: { address1: `${100 + (n % 900)} Laurel Lane`, city: "Philadelphia", country: "USA", state: "PA", zip: "19036" },
          fulfillments: order.status === "delivered" ? [{ item_ids: order.items.map((i) => i.item_id), tracking_id: [String(100000000 + n)] }] : [],
          items: order.items.map((i) => ({ item_id: i.item_id, name: i.name, price: i.price, product_id: i.product_id })),
          order_id: order.id,
          payment_history: [{ amount: order.items.reduce((s, i) => s + i.price, 0), payment_method_id: card, transaction_type: "payment" }],
          status: order.status,
          user_id: `user_${n}`,
        });
      case "get_product_details": {
        const p = PRODUCTS.find((x) => `${x[1]}-${1000 + PRODUCTS.indexOf(x)}` === args["product_id"]);
        if (p === undefined) return { text: "Error: Product not found", isError: true };
        return ok({ name: p[0], product_id: args["product_id"], variants: { [`${p[1]}-v1`]: { available: true, price: 49.5 }, [`${p[1]}-v2`]: { available: rand(2) === 0, price: 54 } } });
      }
      case "cancel_pending_order":
        if (order === undefined) return { text: "Error: Order not found", isError: true };
        if (order.status !== "pending") return { text: "Error: Non-pending order cannot be cancelled", isError: true };
        order.status = "cancelled";
        return ok({ order_id: order.id, status: "cancelled" });
      case "return_delivered_order_items":
        if (order === undefined) return { text: "Error: Order not found", isError: true };
        order.status = "processed";
        return ok({ order_id: order.id, return_items: args["item_ids"], status: "return requested" });
      default:
        return { text: `Error: Unknown tool: ${name}`, isError: true };
    }
  };

  const wish = ["cancel", "cancel", "return", "status"][rand(4)]!;
  say("user", wish === "status" ? `Hello, c${n}@example.com here. Where are my orders?` : `Hi, I'm c${n}@example.com. I want to ${wish} an order.`);
  if (rand(25) === 0) call("find_user_id_by_email", { email: `c${n}@exmaple.com` });
  const user = call("find_user_id_by_email", { email: `c${n}@example.com` });
  call("get_user_details", { user_id: user });
  const read: Order[] = [];
  for (let i = 0; i < orders.length; ) {
    // Now and then two orders in one turn.
    const two = i + 1 < orders.length && rand(4) === 0;
    const batch = orders.slice(i, i + (two ? 2 : 1));
    turn(batch.map((o) => ["get_order_details", { order_id: o.id }]));
    read.push(...batch);
    i += batch.length;
    // What the agent looks up next depends on the order's state: a delivered order's
    // products (what could be returned), seldom a pending one's, never a cancelled one's.
    const o = batch.at(-1)!;
    const looks = { pending: 4, processed: 2, delivered: 1, cancelled: 0 }[o.status];
    if (looks > 0 && rand(looks) === 0) call("get_product_details", { product_id: o.items[rand(o.items.length)]!.product_id });
    if (o.status === "delivered" && rand(2) === 0) call("get_product_details", { product_id: o.items[rand(o.items.length)]!.product_id });
  }
  const target = wish === "cancel" ? read.find((o) => o.status === "pending") : wish === "return" ? read.find((o) => o.status === "delivered") : undefined;
  if (target === undefined) {
    say("assistant", `Your orders: ${read.map((o) => `${o.id} is ${o.status}`).join(", ")}.`);
  } else {
    say("assistant", `Your order ${target.id} is ${target.status}. Shall I ${wish} it?`);
    say("user", "Yes, please.");
    if (wish === "cancel") call("cancel_pending_order", { order_id: target.id, reason: rand(2) === 0 ? "no longer needed" : "ordered by mistake" });
    else call("return_delivered_order_items", { order_id: target.id, item_ids: target.items.map((i) => i.item_id), payment_method_id: rand(3) === 0 ? gift : card });
    if (rand(5) !== 0) call("get_order_details", { order_id: target.id });
    say("assistant", `Done: ${target.id} is ${target.status === "cancelled" ? "cancelled" : "being returned"}.`);
  }
  return { file: `${session}.jsonl`, text: Buffer.concat(lines).toString("utf8") };
}

/**
 * A folder of `count` sessions generated from `seed`, made once and kept under `root`
 * (named by the generator's version, the count and the seed) so later runs reuse it. A
 * folder is complete once its `.complete` marker is written.
 */
export async function shopSessions(root: string, count: number, seed: number): Promise<{ dir: string; made: boolean }> {
  const dir = join(root, `stretto-learn-bench-v${GENERATOR_VERSION}-s${seed}-${count}`);
  const marker = join(dir, ".complete");
  if (existsSync(marker)) return { dir, made: false };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (let k = 0; k < count; k++) {
    const { file, text } = shopSessionLog(k, seed);
    await writeFile(join(dir, file), text);
  }
  if (readdirSync(dir).filter((f) => f.endsWith(".jsonl")).length !== count) throw new Error(`generating ${dir}: expected ${count} logs`);
  writeFileSync(marker, `${count}\n`);
  return { dir, made: true };
}
