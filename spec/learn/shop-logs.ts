/**
 * Session logs of a small shop (the learning tests' domain): `find_account` → `get_account`
 * → `get_order` ×2 → `close_order`, written as stretto-proxy records them, so the learner
 * is driven through the real log reader. A session is a script of steps; each call is
 * answered from the shop's data, and each step is a second after the one before (its own
 * LLM turn).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { entryJson, type Json, type Peer } from "../../lib/trace/index.js";

export const SHOP_TOOLS = [
  { name: "find_account", readOnly: true, args: ["email"] },
  { name: "get_account", readOnly: true, args: ["account_id"] },
  { name: "get_order", readOnly: true, args: ["order_id"] },
  { name: "close_order", readOnly: false, args: ["order_id", "reason"] },
] as const;

export type ShopTool = (typeof SHOP_TOOLS)[number]["name"];

/** One step of a session: a call (failing when `fails`), or something said. */
export type ShopStep =
  | { kind: "call"; tool: ShopTool; args: Record<string, Json>; fails?: boolean }
  | { kind: "user"; text: string }
  | { kind: "reply"; text: string };

/** What the shop answers: customer N is `cN@example.com`, account `acct_N`, orders `ord_Na`, `ord_Nb`. */
export function shopAnswer(tool: ShopTool, args: Record<string, Json>): string {
  const arg = (k: string) => (typeof args[k] === "string" ? args[k] : "");
  switch (tool) {
    case "find_account":
      return `acct_${arg("email").replace(/^c/, "").replace(/@example\.com$/, "")}`;
    case "get_account": {
      const n = arg("account_id").replace(/^acct_/, "");
      return JSON.stringify({ account_id: `acct_${n}`, orders: [`ord_${n}a`, `ord_${n}b`] });
    }
    case "get_order":
      return JSON.stringify({ order_id: arg("order_id"), status: "open", total: 12 });
    case "close_order":
      return JSON.stringify({ order_id: arg("order_id"), status: "closed" });
  }
}

/** The usual session of customer `n`: find, read the account, read both orders, close the first. */
export function usualSession(n: number): ShopStep[] {
  return [
    { kind: "user", text: `Hi, I am c${n}@example.com. Please close an order.` },
    { kind: "call", tool: "find_account", args: { email: `c${n}@example.com` } },
    { kind: "call", tool: "get_account", args: { account_id: `acct_${n}` } },
    { kind: "call", tool: "get_order", args: { order_id: `ord_${n}a` } },
    { kind: "call", tool: "get_order", args: { order_id: `ord_${n}b` } },
    { kind: "reply", text: "Which one?" },
    { kind: "user", text: "The first." },
    { kind: "call", tool: "close_order", args: { order_id: `ord_${n}a`, reason: "done" } },
    { kind: "reply", text: "Closed." },
  ];
}

function listing(): Json {
  return SHOP_TOOLS.map((t) => ({
    name: t.name,
    description: `The shop's ${t.name}.`,
    inputSchema: { type: "object", properties: Object.fromEntries(t.args.map((a) => [a, { type: "string", description: `the ${a}` }])), required: [...t.args] },
    annotations: { readOnlyHint: t.readOnly },
  }));
}

/** A session's log text. */
export function shopLog(session: string, steps: readonly ShopStep[], startMs = 1_790_000_000_000, agent = "shop-agent"): string {
  const header = { stretto_mcp_log: 2, session, started_unix_ms: startMs, server_command: ["shop"], domain: null, agent_model: agent };
  const lines: string[] = [JSON.stringify(header)];
  let t = 0;
  const add = (from: Peer, message: Json) => lines.push(entryJson({ t_ms: (t += 1000), from, message }));
  add("client", { jsonrpc: "2.0", id: 0, method: "tools/list" });
  add("server", { jsonrpc: "2.0", id: 0, result: { tools: listing() } });
  let id = 1;
  for (const s of steps) {
    if (s.kind === "user") add("context", { role: "user", content: s.text });
    else if (s.kind === "reply") add("context", { role: "assistant", content: s.text });
    else {
      const n = id++;
      add("client", { jsonrpc: "2.0", id: n, method: "tools/call", params: { name: s.tool, arguments: s.args } });
      const text = s.fails ? "Error: not found" : shopAnswer(s.tool, s.args);
      add("server", { jsonrpc: "2.0", id: n, result: { content: [{ type: "text", text }], ...(s.fails ? { isError: true } : {}) } });
    }
  }
  return lines.join("\n") + "\n";
}

/** Writes sessions into `dir` as `<file>.jsonl`; returns the paths. */
export function writeSessions(dir: string, sessions: readonly { file: string; session: string; steps: readonly ShopStep[] }[]): string[] {
  return sessions.map((s, i) => {
    const path = join(dir, `${s.file}.jsonl`);
    writeFileSync(path, shopLog(s.session, s.steps, 1_790_000_000_000 + i * 60_000));
    return path;
  });
}
