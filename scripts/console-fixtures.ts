#!/usr/bin/env node
/**
 * `make console-fixtures`: the console's fixture data directory, made by our own tools, in
 * fixtures/console/ (or `--dir DIR`). The quickstart's scripted agent serves its six customers
 * of the demo shop through `stretto-proxy --record`; `stretto learn` learns the shop's flow;
 * two new customers are served with it, `stretto promote` keeps its promoted sites, and three
 * more customers are served in shadow with the promoted flow; one retail customer goes
 * through the policy guards and the confirmation judge (`--confirm-judge log`, replay oracle);
 * and servers.json registers two servers. The conversations (the hosts' `--context` files) are
 * kept apart, in a temporary folder, so the directory holds only what the console reads.
 *
 * usage: node dist/scripts/console-fixtures.js [--dir DIR]
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serveCustomer } from "../quickstart/agent.js";
import { RECORDED, SERVED, type Customer } from "../quickstart/customers.js";
import { DEMO, NODE, PROXY } from "../quickstart/paths.js";
import { stretto } from "../quickstart/stretto-cli.js";
import { VERSION } from "../lib/version.js";

const REPO = resolve(import.meta.dirname, "../..");
const SHADOWED: readonly Customer[] = [
  { n: 51, wish: "cancel" },
  { n: 52, wish: "status" },
  { n: 53, wish: "cancel" },
];

function dirArg(argv: readonly string[]): string {
  if (argv.length === 0) return join(REPO, "fixtures", "console");
  if (argv.length === 2 && argv[0] === "--dir" && argv[1] !== "") return resolve(argv[1]!);
  process.stderr.write("usage: node dist/scripts/console-fixtures.js [--dir DIR]\n");
  process.exit(2);
}

const say = (text: string) => process.stdout.write(`${text}\n`);

async function run(args: string[]): Promise<void> {
  const ran = await stretto(args);
  if (ran.code !== 0) throw new Error(`stretto ${args.join(" ")} exited with ${ran.code}: ${ran.stderr}`);
}

/** One retail customer through the guards and the confirmation judge (log mode: it refuses nothing the guards allow). */
async function judgedRetail(data: string, talk: string): Promise<void> {
  const conversation = join(talk, "retail.jsonl");
  appendFileSync(conversation, "");
  const say = (role: string, content: string) => appendFileSync(conversation, `${JSON.stringify({ role, content })}\n`);
  const transport = new StdioClientTransport({
    command: NODE,
    args: [
      PROXY,
      "--record", join(data, "logs", "retail"),
      "--domain", "retail",
      "--context", conversation,
      "--guards",
      "--confirm-judge", "log",
      "--oracle", "replay",
      "--oracle-cache", join(talk, "oracle-cache"),
      "--", NODE, DEMO, "--world", "retail",
    ],
    env: { ...getDefaultEnvironment(), STRETTO_SESSION: "console-fixture-retail" },
    stderr: "pipe",
  });
  const client = new Client({ name: "stretto-console-fixture", version: VERSION });
  await client.connect(transport);
  try {
    await client.listTools();
    say("user", "Hi, I'm c7@example.com. Please cancel my order #W7a, I no longer need it.");
    await client.callTool({ name: "find_user_id_by_email", arguments: { email: "c7@example.com" } });
    await client.callTool({ name: "get_order_details", arguments: { order_id: "#W7a" } });
    say("assistant", "Order #W7a is pending. Shall I cancel it, for the reason 'no longer needed'?");
    say("user", "Yes, please.");
    await client.callTool({ name: "cancel_pending_order", arguments: { order_id: "#W7a", reason: "no longer needed" } });
    // A write the guards refuse: the order is cancelled already.
    await client.callTool({ name: "cancel_pending_order", arguments: { order_id: "#W7a", reason: "no longer needed" } });
    say("assistant", "Order #W7a is cancelled.");
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const data = dirArg(process.argv.slice(2));
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const talk = mkdtempSync(join(tmpdir(), "stretto-console-fixtures-"));
  try {
    const visit = (c: Customer, folder: string, name: string, flow?: string[]) =>
      serveCustomer(c, { record: join(data, folder), conversation: join(talk, `${name}.jsonl`), hostSession: `quickstart-${name}`, ...(flow ? { flow } : {}) });
    mkdirSync(join(data, "logs", "shop"), { recursive: true });
    for (const c of RECORDED) await visit(c, "logs/shop", `c${c.n}`);
    say("recorded 6 customers in logs/shop");
    const flow = join(data, "shop.flow.json");
    await run(["learn", "--sessions", join(data, "logs", "shop"), "--domain", "shop", "--out", flow, "--habit-only"]);
    say("learned shop.flow.json");
    mkdirSync(join(data, "served", "shop"), { recursive: true });
    for (const c of SERVED) await visit(c, "served/shop", `c${c.n}-served`, ["--flow", flow]);
    say("served 2 customers with it in served/shop");
    const promoted = join(data, "shop.promoted.flow.json");
    await run(["promote", "--flow", flow, "--sessions", join(data, "logs", "shop"), "--oracle-cache", join(talk, "oracle-cache"), "--min-tasks", "2", "--out", promoted, "--quiet"]);
    say("promoted it: shop.promoted.flow.json");
    mkdirSync(join(data, "shadow", "shop"), { recursive: true });
    for (const c of SHADOWED) await visit(c, "shadow/shop", `c${c.n}-shadow`, ["--flow", promoted, "--flow-shadow"]);
    say("served 3 customers in shadow with the promoted flow in shadow/shop");
    mkdirSync(join(data, "logs", "retail"), { recursive: true });
    await judgedRetail(data, talk);
    say("judged one retail customer in logs/retail");
    const now = Date.now();
    const servers = {
      stretto_servers: 1,
      servers: [
        {
          name: "shop", description: "The demo shop, served with its learned flow",
          upstream: { kind: "stdio", command: ["stretto-mcp-demo", "--world", "retail"], env: [] },
          mode: "serve", flow: "shop.flow.json", record_dir: "served/shop", decider: "reach", threshold: null, surprise: null,
          flow_tools: [], guards: false, judge: null, commit: false, retain_days: null, listen: null, created_unix_ms: now, updated_unix_ms: now,
        },
        {
          name: "orders", description: "An orders service over HTTP, recorded",
          upstream: { kind: "http", url: "https://orders.example.com/mcp", headers: [{ name: "Authorization", env: "ORDERS_AUTH" }] },
          mode: "record", flow: null, record_dir: null, decider: null, threshold: null, surprise: null,
          flow_tools: [], guards: false, judge: null, commit: false, retain_days: null, listen: null, created_unix_ms: now, updated_unix_ms: now,
        },
      ],
    };
    writeFileSync(join(data, "servers.json"), `${JSON.stringify(servers, null, 2)}\n`);
    say(`registered 2 servers; everything is in ${data}`);
  } finally {
    rmSync(talk, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`console-fixtures: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
