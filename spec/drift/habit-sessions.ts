/**
 * Session logs of a small shop, written as `stretto-proxy --record --context` writes them in
 * front of `stretto-mcp-demo --world retail` (each entry by the recorder's own `formatEntry`,
 * the header by its `logHeader`, the file named by its `sessionId`), for an agent with one of
 * two habits:
 *
 * - `usual`: finds the customer (now and then after a mistyped email), reads the user, reads
 *   one to three orders, sometimes cancels a pending one and reads it again, then replies;
 * - `changed`: finds the customer, reads an order straight away, then looks up its product
 *   with `get_product_details` (a tool the usual agent never calls), then replies.
 *
 * Everything follows from the customer's number.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Sender } from "../../lib/bus/frame.js";
import { formatEntry } from "../../lib/record/log-entry.js";
import { logHeader } from "../../lib/record/log-header.js";
import { sessionId } from "../../lib/record/session-id.js";

export type Habit = "usual" | "changed";

const TOOLS: [string, boolean, string[]][] = [
  ["find_user_id_by_email", true, ["email"]],
  ["get_user_details", true, ["user_id"]],
  ["get_order_details", true, ["order_id"]],
  ["get_product_details", true, ["product_id"]],
  ["cancel_pending_order", false, ["order_id", "reason"]],
];

/** The tools as the demo lists them. */
function listing(): unknown {
  return TOOLS.map(([name, read, args]) => ({
    annotations: { readOnlyHint: read },
    description: name.replaceAll("_", " "),
    inputSchema: { properties: Object.fromEntries(args.map((a) => [a, { type: "string" }])), required: args, type: "object" },
    name,
  }));
}

/** A small generator of numbers below `n`, the same everywhere (mulberry32). */
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

/** Customer `n`'s session (`n` from 1), started `n` minutes after a fixed time; its file name and text. */
export function habitSessionLog(n: number, habit: Habit, startMs = 1_790_198_400_000): { session: string; file: string; text: string } {
  const rand = rng(n * 7919);
  const started = startMs + n * 60_000;
  const session = sessionId(started, 1000 + n);
  const header = logHeader({ session, startedUnixMs: started, serverCommand: ["node", "stretto-mcp-demo.js", "--world", "retail"], domain: "retail", hostSession: `c${n}` });
  const lines: Buffer[] = [Buffer.from(`${JSON.stringify(header)}\n`)];
  let t = 100;
  let id = 0;
  const add = (from: Sender, message: unknown): void => {
    lines.push(formatEntry(t, from, Buffer.from(JSON.stringify(message))));
  };
  const say = (role: "user" | "assistant", content: string): void => add("context", { role, content });
  const orders = Array.from({ length: 1 + rand(3) }, (_, i) => ({ id: `#W${n}${"abc"[i]}`, pending: rand(2) === 0 }));
  const call = (name: string, args: Record<string, string>): string => {
    t += 500 + rand(300);
    const callId = ++id;
    add("client", { jsonrpc: "2.0", id: callId, method: "tools/call", params: { name, arguments: args } });
    t += 2 + rand(5);
    const { text, isError } = answer(name, args);
    add("server", { jsonrpc: "2.0", id: callId, result: { content: [{ type: "text", text }], isError } });
    return text;
  };
  const answer = (name: string, args: Record<string, string>): { text: string; isError: boolean } => {
    const order = orders.find((o) => o.id === args["order_id"]);
    switch (name) {
      case "find_user_id_by_email":
        return args["email"] === `c${n}@example.com` ? { text: `user_${n}`, isError: false } : { text: "Error: User not found", isError: true };
      case "get_user_details":
        return { text: JSON.stringify({ orders: orders.map((o) => o.id), user_id: `user_${n}` }), isError: false };
      case "get_order_details":
        if (order === undefined) return { text: "Error: Order not found", isError: true };
        return { text: JSON.stringify({ items: [{ item_id: `${n}1`, product_id: `p${n % 4}` }], order_id: order.id, status: order.pending ? "pending" : "delivered" }), isError: false };
      case "get_product_details":
        return { text: JSON.stringify({ name: "Desk lamp", product_id: args["product_id"] }), isError: false };
      default:
        return { text: JSON.stringify({ order_id: args["order_id"], status: "cancelled" }), isError: false };
    }
  };

  add("client", { jsonrpc: "2.0", id: ++id, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "spec-host", version: "0" } } });
  t += 50;
  add("server", { jsonrpc: "2.0", id, result: { capabilities: { tools: {} }, protocolVersion: "2025-06-18", serverInfo: { name: "stretto-mcp-demo", version: "0.1.0" } } });
  add("client", { jsonrpc: "2.0", method: "notifications/initialized" });
  add("client", { jsonrpc: "2.0", id: ++id, method: "tools/list" });
  t += 2;
  add("server", { jsonrpc: "2.0", id, result: { tools: listing() } });

  say("user", `Hi, I'm c${n}@example.com. How are my orders?`);
  if (rand(6) === 0) call("find_user_id_by_email", { email: `c${n}@exmaple.com` });
  const user = call("find_user_id_by_email", { email: `c${n}@example.com` });
  if (habit === "usual") {
    call("get_user_details", { user_id: user });
    for (const o of orders) call("get_order_details", { order_id: o.id });
    const pending = orders.find((o) => o.pending);
    if (pending !== undefined && rand(2) === 0) {
      say("assistant", `Shall I cancel ${pending.id}?`);
      say("user", "Yes, please.");
      call("cancel_pending_order", { order_id: pending.id, reason: "no longer needed" });
      call("get_order_details", { order_id: pending.id });
    }
  } else {
    call("get_order_details", { order_id: orders[0]!.id });
    call("get_product_details", { product_id: `p${n % 4}` });
    if (rand(2) === 0) call("get_product_details", { product_id: `p${(n + 1) % 4}` });
  }
  say("assistant", "Here is how your orders stand.");
  return { session, file: `${session}.jsonl`, text: Buffer.concat(lines).toString("utf8") };
}

/** Writes customers `from`..`from + count - 1` with `habit` into `dir`; their session ids, in order. */
export function writeHabitSessions(dir: string, from: number, count: number, habit: Habit): string[] {
  mkdirSync(dir, { recursive: true });
  const ids: string[] = [];
  for (let n = from; n < from + count; n++) {
    const { session, file, text } = habitSessionLog(n, habit);
    writeFileSync(join(dir, file), text);
    ids.push(session);
  }
  return ids;
}
