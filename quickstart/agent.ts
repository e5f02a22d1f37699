/**
 * The scripted agent: a real MCP host (the official SDK client) with no model behind it.
 * It starts `stretto-proxy` in front of the demo shop, as a host starts a server, and
 * serves one customer one call at a time, writing the customer's and its own messages to
 * the conversation file the proxy reads (`--context`).
 *
 * The SDK client rather than hand-written JSON lines: the sessions it records are what a
 * real host's sessions look like (initialize, the listing, numbered calls), which is what
 * `stretto learn` is meant to learn from.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { VERSION } from "../lib/version.js";
import { callKey, lookupsIn } from "./appendix.js";
import { Conversation } from "./conversation.js";
import { REASON, WHICH_ONE, emailOf, opening, type Customer } from "./customers.js";
import { DEMO, NODE, PROXY } from "./paths.js";

/**
 * The pause before each call after the first. More than the 500 ms within which the
 * proxy's episode joins a call to the turn before it, so each call is its own LLM turn.
 */
export const THINK_MS = 600;

export interface Visit {
  /** The tools the agent called itself, in order. */
  calls: string[];
  /** What the proxy said on stderr, for when something went wrong. */
  stderr: string;
}

export interface Where {
  /** `--record`: the folder the session log goes to. */
  record: string;
  /** `--context`: the conversation file. */
  conversation: string;
  /** The host's session name (`STRETTO_SESSION`), one per customer as a host would have. */
  hostSession: string;
  /** The proxy's flow options, when it serves a flow. */
  flow?: readonly string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Serves one customer through a new proxy, and says which calls the agent made. */
export async function serveCustomer(customer: Customer, where: Where): Promise<Visit> {
  // The host's conversation file exists from the start, as a host that opens it would have it.
  const conversation = new Conversation(where.conversation);
  const transport = new StdioClientTransport({
    command: NODE,
    args: [
      PROXY,
      "--record", where.record,
      "--domain", "shop",
      "--context", where.conversation,
      ...(where.flow ?? []),
      "--", NODE, DEMO, "--world", "retail",
    ],
    env: { ...getDefaultEnvironment(), STRETTO_SESSION: where.hostSession },
    stderr: "pipe",
  });
  const visit: Visit = { calls: [], stderr: "" };
  transport.stderr!.on("data", (c: Buffer) => (visit.stderr += c.toString()));
  const client = new Client({ name: "stretto-quickstart-agent", version: VERSION });
  await client.connect(transport);
  try {
    // A host lists the tools before its model may call them.
    await client.listTools();
    await new Script(customer, client, conversation, visit).run();
  } finally {
    await client.close();
  }
  return visit;
}

/** One customer's conversation, call by call. */
class Script {
  /** Results the agent already has: its own, and what a flow appended to them. */
  private readonly known = new Map<string, string>();

  constructor(
    private readonly customer: Customer,
    private readonly client: Client,
    private readonly conversation: Conversation,
    private readonly visit: Visit,
  ) {}

  async run(): Promise<void> {
    const c = this.customer;
    this.conversation.say("user", opening(c));
    const userId = await this.call("find_user_id_by_email", { email: emailOf(c) });
    const details = JSON.parse(await this.call("get_user_details", { user_id: userId })) as { orders: string[] };
    // The shop gives every customer two orders.
    const [first, second] = details.orders as [string, string];
    const statuses: string[] = [];
    for (const order of [first, second]) {
      const o = JSON.parse(await this.call("get_order_details", { order_id: order })) as { status: string };
      statuses.push(o.status);
    }
    // What the agent says is part of the episode (each text is a reply step the habit
    // learns), so it says what the published run of this script says, from what it read.
    const [a, b] = statuses as [string, string];
    if (c.wish === "status") {
      const stand = a === b ? `${first} and ${second} are both ${a}` : `${first} is ${a} and ${second} is ${b}`;
      this.conversation.say("assistant", `Your orders ${stand}.`);
      return;
    }
    const have = a === b ? `two ${a} orders, ${first} and ${second}` : `${first} (${a}) and ${second} (${b})`;
    this.conversation.say("assistant", `You have ${have}. Which one should I cancel?`);
    this.conversation.say("user", WHICH_ONE);
    await this.call("cancel_pending_order", { order_id: first, reason: REASON });
    this.conversation.say("assistant", `Order ${first} is cancelled.`);
  }

  /**
   * A call's result: the one a flow already appended to an earlier answer if there is
   * one (the appendix says there is no need to repeat it), else the server's.
   */
  private async call(tool: string, args: Record<string, unknown>): Promise<string> {
    const key = callKey(tool, args);
    const had = this.known.get(key);
    if (had !== undefined) return had;
    if (this.visit.calls.length > 0) await sleep(THINK_MS);
    this.visit.calls.push(tool);
    const result = await this.client.callTool({ name: tool, arguments: args });
    const texts = ((result.content ?? []) as Array<{ type: string; text?: string }>).map((i) => i.text ?? "");
    if (result.isError === true) throw new Error(`${key} failed: ${texts.join("\n")}`);
    for (const looked of texts.slice(1).flatMap(lookupsIn)) {
      if (!looked.error) this.known.set(callKey(looked.tool, looked.arguments), looked.text);
    }
    const text = texts[0] ?? "";
    this.known.set(key, text);
    return text;
  }
}
