/**
 * Flows with the official MCP SDK client as the host: the published flow in front
 * of `stretto-mcp-demo --world retail`, habit decider, threshold 0.1. What a host notices
 * through `callTool`: its own result with the appendix of what the flow looked up, or
 * unchanged where the flow may not or did not look anything up (shadow, a changed contract,
 * `--flow-tools`, the caps); and what the session log and the flow log beside it say.
 * spec/e2e/flow.spec.ts is the line-by-line counterpart.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { DEMO, NODE, PROXY, cleanTemp, sessionLogs, tempDir } from "../helpers/processes.js";
import { APPENDIX, FLOW, flowFlags, requireFixture, flowLog, logEntries, ownRequests, type Line, type LoggedResult } from "./flow-support.js";

type Args = Record<string, unknown>;
/** One lookup as the appendix lists it. */
interface Looked {
  tool: string;
  arguments: Args;
  error: boolean;
  text: string;
}

const C7 = { email: "c7@example.com" };
/** A decision line's keys (docs/flows.md, "Serve a flow"), sorted as the proxy writes them. */
const LOOKUP_KEYS = ["action", "address", "after", "arguments", "binding", "key", "ms", "oracle", "predicates", "prob", "probs", "site", "tool"];
const HAND_BACK_KEYS = ["action", "address", "after", "binding", "key", "ms", "oracle", "predicates", "prob", "probs", "reason", "site"];

const textOf = (r: LoggedResult) => (r.content ?? []).map((c) => c.text ?? "").join("\n");

/** The lookups an appendix lists: after its header, `tool {args}[ (error)]:\ntext` per blank-line-separated part. */
function appendix(text: string | undefined): Looked[] {
  assert.ok(text !== undefined && text.startsWith(`${APPENDIX}\n\n`), `an appendix: ${text}`);
  return text
    .slice(APPENDIX.length + 2)
    .split("\n\n")
    .map((part) => {
      const nl = part.indexOf("\n");
      const m = /^(\S+) (\{.*\})( \(error\))?:$/.exec(part.slice(0, nl));
      assert.ok(m, `a lookup's heading: ${part}`);
      return { tool: m[1]!, arguments: JSON.parse(m[2]!) as Args, error: m[3] !== undefined, text: part.slice(nl + 1) };
    });
}

/** The agent's own `tools/call` ids, as the session log in `dir` has them (the SDK numbers its requests). */
const agentCalls = (dir: string): unknown[] =>
  logEntries(dir)
    .filter((e) => e.from === "client" && e.message?.method === "tools/call")
    .map((e) => e.message!.id);

const decisionsOf = (lines: Line[]) => lines.filter((l) => "action" in l);
const runsOf = (lines: Line[]) => lines.filter((l) => "run" in l);
type Run = { call: string; failed: boolean; max_lookups: number; sites: Array<[string, number | boolean, number]>; surprise: number };

/** The hosts still open, closed in `after`. */
const hosts = new Set<SdkHost>();

/** A host: the SDK client with the proxy (and the demo behind it) as its stdio server. */
class SdkHost {
  readonly client = new Client({ name: "stretto-flow-host", version: "0" });
  readonly transport: StdioClientTransport;
  /** Every message the client got once connected. */
  readonly received: JSONRPCMessage[] = [];
  /** What the client reported as wrong (an unknown response id would land here). */
  readonly errors: Error[] = [];
  stderr = "";
  private readonly stderrEnded: Promise<void>;

  private constructor(proxyFlags: readonly string[], demoFlags: readonly string[]) {
    this.transport = new StdioClientTransport({
      command: NODE,
      args: [PROXY, ...proxyFlags, "--", NODE, DEMO, "--world", "retail", ...demoFlags],
      stderr: "pipe",
    });
    // With "pipe" the stream exists before the process starts, so nothing is missed.
    const stderr = this.transport.stderr!;
    stderr.on("data", (c: Buffer) => (this.stderr += c.toString()));
    this.stderrEnded = new Promise((r) => stderr.once("end", () => r()));
    this.client.onerror = (e) => this.errors.push(e);
  }

  static async open(proxyFlags: readonly string[], demoFlags: readonly string[] = []): Promise<SdkHost> {
    const host = new SdkHost(proxyFlags, demoFlags);
    hosts.add(host);
    await host.client.connect(host.transport);
    const deliver = host.transport.onmessage!;
    host.transport.onmessage = (message) => {
      host.received.push(message);
      deliver(message);
    };
    return host;
  }

  async call(name: string, args: Args): Promise<LoggedResult> {
    return (await this.client.callTool({ name, arguments: args })) as LoggedResult;
  }

  /** Ends the session (the proxy exits on end of input, its logs complete) and checks the client saw nothing of the proxy's own. */
  async close(): Promise<void> {
    hosts.delete(this);
    await this.client.close();
    await this.stderrEnded;
    assert.deepEqual(this.errors, []);
    const ids = this.received.filter((m) => "id" in m).map((m) => (m as { id: unknown }).id);
    assert.ok(ids.length > 0 && ids.every((id) => typeof id === "number"), `only the SDK's own ids reach it: ${JSON.stringify(ids)}`);
  }
}

/** The stderr of a flow session: the serving line and the recording line, then what `more` says. */
const servedStderr = (dir: string, more = "", flow = FLOW) =>
  `stretto-proxy: serving the retail flow from ${flow}, deciding with habit\nstretto-proxy: recording to ${sessionLogs(dir)[0]}\n${more}`;

describe("flows with the SDK client as the host (--flow)", function () {
  /** The same demo behind a proxy without a flow: what the agent gets by calling a tool itself. */
  let plain: SdkHost;

  before(async function () {
    requireFixture(this);
    plain = await SdkHost.open([]);
  });
  after(async () => {
    // The plain host, and any a failed test left open.
    for (const host of hosts) await host.client.close();
    cleanTemp();
  });

  it("appends the lookups, each the server's current answer, and logs decisions and run", async () => {
    const dir = tempDir();
    const host = await SdkHost.open(flowFlags(dir));
    const result = await host.call("find_user_id_by_email", C7);
    await host.close();

    // The agent's own result comes first, untouched; then one more text item.
    const own = await plain.call("find_user_id_by_email", C7);
    assert.deepEqual(own.content, [{ type: "text", text: "user_7" }]);
    assert.equal(result.isError, false);
    assert.equal(result.content!.length, 2);
    assert.deepEqual(result.content![0], own.content[0]);
    assert.equal(result.content![1]!.type, "text");
    const looked = appendix(result.content![1]!.text);
    assert.deepEqual(
      looked.map((l) => [l.tool, l.arguments, l.error]),
      [
        ["get_user_details", { user_id: "user_7" }, false],
        ["get_order_details", { order_id: "#W7a" }, false],
        ["get_order_details", { order_id: "#W7b" }, false],
      ],
    );
    // "no need to repeat these calls": each text is what the call itself answers.
    for (const l of looked) assert.equal(l.text, textOf(await plain.call(l.tool, l.arguments)), l.tool);
    assert.equal(host.stderr, servedStderr(dir));

    // The session log: the proxy's own requests, answered with those texts.
    const requests = ownRequests(dir);
    assert.deepEqual(requests.map((e) => e.message.id), ["stretto-1", "stretto-2", "stretto-3"]);
    assert.deepEqual(requests.map((e) => [e.message.params!.name, e.message.params!.arguments]), looked.map((l) => [l.tool, l.arguments]));
    const answers = new Map(logEntries(dir).filter((e) => e.from === "server").map((e) => [e.message?.id, e.message?.result]));
    assert.deepEqual(requests.map((e) => textOf(answers.get(e.message.id)!)), looked.map((l) => l.text));

    // The flow log: one decision per site, then the run.
    const { path, lines } = flowLog(dir);
    assert.equal(path, sessionLogs(dir)[0]!.replace(/\.jsonl$/, ".flow.jsonl"));
    const [after] = agentCalls(dir);
    const decisions = decisionsOf(lines);
    assert.equal(decisions.length, 4);
    assert.deepEqual(lines.slice(0, 4), decisions);
    decisions.forEach((d, i) => {
      assert.deepEqual(Object.keys(d), i < 3 ? LOOKUP_KEYS : HAND_BACK_KEYS, `decide#${i} has a decision line's fields, sorted`);
      assert.equal(d["address"], `decide#${i}`);
      assert.equal(d["after"], after);
      assert.deepEqual([d["oracle"], d["predicates"], d["key"]], [{}, {}, null], "the habit asks no one");
      assert.ok(Number.isInteger(d["ms"]) && (d["ms"] as number) >= 0);
      // The habit's probabilities over the options, respond included, add up to 1; the rule weighs the likeliest lookup.
      const probs = d["probs"] as Record<string, number>;
      assert.ok("respond" in probs);
      assert.ok(Math.abs(Object.values(probs).reduce((a, b) => a + b, 0) - 1) < 1e-9);
      assert.equal(d["prob"], Math.max(...Object.entries(probs).filter(([o]) => o !== "respond").map(([, p]) => p)));
    });
    // Each lookup decision is what was looked up, at a chance (prob × binding) above the threshold.
    decisions.slice(0, 3).forEach((d, i) => {
      assert.equal(d["action"], "lookup");
      assert.deepEqual([d["tool"], d["arguments"]], [looked[i]!.tool, looked[i]!.arguments]);
      assert.ok((d["prob"] as number) * (d["binding"] as number) >= 0.1);
    });
    assert.deepEqual(
      decisions.map((d) => [d["site"], Object.keys(d["probs"] as object), d["binding"]]),
      [
        ["find_user_id_by_email", ["get_user_details", "respond"], 0.75],
        ["get_user_details", ["get_order_details", "respond"], 0.9],
        ["get_order_details", ["get_order_details", "get_product_details", "respond"], 0.9],
        ["get_order_details", ["get_order_details", "get_product_details", "respond"], null],
      ],
    );
    assert.equal(decisions[3]!["action"], "hand_back");
    assert.equal(decisions[3]!["reason"], "get_order_details: nothing left to pass as `order_id`");

    // The run line: a site per decision and per lookup's outcome; surprise is minus the outcomes' log-probabilities.
    const runLine = lines[4]!;
    assert.equal(lines.length, 5);
    assert.deepEqual(Object.keys(runLine), ["after", "run"]);
    assert.equal(runLine["after"], after);
    const run = runLine["run"] as Run;
    assert.deepEqual([run.call, run.failed, run.max_lookups], ["find_user_id_by_email", false, 8]);
    assert.deepEqual(run.sites.map(([a]) => a), ["decide#0", "outcome#0", "decide#1", "outcome#1", "decide#2", "outcome#2", "decide#3"]);
    const outcomes = run.sites.filter(([a]) => a.startsWith("outcome#"));
    assert.ok(outcomes.every(([, ok, logp]) => ok === true && logp < 0));
    assert.deepEqual(run.sites.at(-1), ["decide#3", 0, 0], "handing back is option 0");
    assert.ok(Math.abs(run.surprise + outcomes.reduce((s, [, , logp]) => s + logp, 0)) < 1e-12);
  });

  it("in shadow leaves every result as the server sent it and logs each decision as shadow", async () => {
    const dir = tempDir();
    const host = await SdkHost.open(flowFlags(dir, ["--flow-shadow"]));
    const first = await host.call("find_user_id_by_email", C7);
    const second = await host.call("get_user_details", { user_id: "user_7" });
    await host.close();

    assert.deepEqual(first, await plain.call("find_user_id_by_email", C7));
    assert.deepEqual(second, await plain.call("get_user_details", { user_id: "user_7" }));
    assert.equal(host.stderr, servedStderr(dir).replace("deciding with habit\n", "deciding with habit, in shadow\n"));
    // Nothing of the proxy's own in the log: no lookup, and the agent got the server's own lines.
    assert.deepEqual(logEntries(dir).filter((e) => e.from === "proxy"), []);

    // What it would have looked up, once per call (every run ends at its first decision).
    const { lines } = flowLog(dir);
    const calls = agentCalls(dir);
    assert.equal(lines.length, 4);
    const decisions = decisionsOf(lines);
    assert.deepEqual(
      decisions.map((d) => [d["shadow"], d["address"], d["after"], d["action"], d["tool"], d["arguments"]]),
      [
        [true, "decide#0", calls[0], "lookup", "get_user_details", { user_id: "user_7" }],
        [true, "decide#0", calls[1], "lookup", "get_order_details", { order_id: "#W7a" }],
      ],
    );
    assert.ok(decisions.every((d) => !("withheld" in d)), "shadow skips the filters");
    assert.deepEqual(runsOf(lines).map((l) => (l["run"] as Run).sites), [[["decide#0", 0, 0]], [["decide#0", 0, 0]]]);
  });

  it("leaves a tool whose listed input contract changed to the agent", async () => {
    // The published flow as if learned when get_order_details took an integer order id;
    // get_user_details is pinned as the demo lists it.
    const dir = tempDir();
    const changed = join(tempDir(), "changed.flow.json");
    const json = JSON.parse(readFileSync(FLOW, "utf8")) as Args;
    writeFileSync(changed, JSON.stringify({ ...json, contracts: { get_order_details: "order_id:integer!", get_user_details: "user_id:string!" } }));
    const host = await SdkHost.open(flowFlags(dir, [], changed));
    // The proxy learns the contracts from the host's own listing (before one, the flow trusts its manifest).
    await host.client.listTools();
    const first = await host.call("find_user_id_by_email", C7);
    const second = await host.call("get_order_details", { order_id: "#W7a" });
    await host.close();

    // The unchanged contract is looked up; the changed one is not, neither after the first call nor after the agent's own.
    assert.deepEqual(appendix(first.content![1]!.text).map((l) => [l.tool, l.arguments]), [["get_user_details", { user_id: "user_7" }]]);
    assert.deepEqual(second, await plain.call("get_order_details", { order_id: "#W7a" }));
    assert.deepEqual(ownRequests(dir).map((e) => e.message.params!.name), ["get_user_details"]);

    const why = "its input changed since the flow was learned (order_id:integer! → order_id:string!)";
    assert.equal(host.stderr, servedStderr(dir, `stretto-proxy: the flow leaves get_order_details to the agent: ${why}\n`, changed), "said once");
    const calls = agentCalls(dir);
    const withheld = decisionsOf(flowLog(dir).lines).filter((d) => "withheld" in d);
    assert.deepEqual(
      withheld.map((d) => [d["after"], d["address"], d["tool"], d["arguments"], d["withheld"]]),
      [
        [calls[0], "decide#1", "get_order_details", { order_id: "#W7a" }, why],
        [calls[1], "decide#0", "get_order_details", { order_id: "#W7b" }, why],
      ],
    );
  });

  it("looks up only the tools --flow-tools grants", async () => {
    const dir = tempDir();
    const host = await SdkHost.open(flowFlags(dir, ["--flow-tools", "get_order_details"]));
    const first = await host.call("find_user_id_by_email", C7);
    const second = await host.call("get_user_details", { user_id: "user_7" });
    await host.close();

    // get_user_details is not granted: the agent calls it itself, and the flow then looks up the orders.
    assert.deepEqual(first, await plain.call("find_user_id_by_email", C7));
    const own = await plain.call("get_user_details", { user_id: "user_7" });
    assert.deepEqual(second.content![0], own.content![0]);
    assert.deepEqual(
      appendix(second.content![1]!.text).map((l) => [l.tool, l.arguments]),
      [
        ["get_order_details", { order_id: "#W7a" }],
        ["get_order_details", { order_id: "#W7b" }],
      ],
    );
    assert.deepEqual(ownRequests(dir).map((e) => e.message.params!.name), ["get_order_details", "get_order_details"]);
    assert.equal(host.stderr, servedStderr(dir, "stretto-proxy: the flow leaves get_user_details to the agent: --flow-tools does not grant it\n"));
    const [d] = decisionsOf(flowLog(dir).lines);
    assert.deepEqual([d!["after"], d!["tool"], d!["withheld"]], [agentCalls(dir)[0], "get_user_details", "--flow-tools does not grant it"]);
  });

  it("appends at most --flow-per-call lookups to a result and makes at most --flow-per-session in all", async () => {
    const dir = tempDir();
    const host = await SdkHost.open(flowFlags(dir, ["--flow-per-call", "1", "--flow-per-session", "2"]));
    const first = await host.call("find_user_id_by_email", C7);
    const second = await host.call("get_order_details", { order_id: "#W7a" });
    const third = await host.call("get_order_details", { order_id: "#W7b" });
    await host.close();

    // One lookup each (without the cap the first call gets three), then the session's two are spent.
    assert.deepEqual(appendix(first.content![1]!.text).map((l) => [l.tool, l.arguments]), [["get_user_details", { user_id: "user_7" }]]);
    assert.deepEqual(appendix(second.content![1]!.text).map((l) => [l.tool, l.arguments]), [["get_order_details", { order_id: "#W7b" }]]);
    assert.deepEqual(third, await plain.call("get_order_details", { order_id: "#W7b" }));
    assert.equal(ownRequests(dir).length, 2);

    // A capped decision is not logged, and after the third call no flow runs at all.
    const { lines } = flowLog(dir);
    const calls = agentCalls(dir);
    assert.deepEqual(lines.map((l) => [l["after"], "run" in l ? "run" : l["address"]]), [
      [calls[0], "decide#0"],
      [calls[0], "run"],
      [calls[1], "decide#0"],
      [calls[1], "run"],
    ]);
    assert.ok(runsOf(lines).every((l) => (l["run"] as Run).max_lookups === 1));
  });

  it("lists the server's tools to the SDK client unchanged, before and after the flow looks things up", async () => {
    const dir = tempDir();
    const host = await SdkHost.open(flowFlags(dir));
    const expected = await plain.client.listTools();
    assert.deepEqual(
      expected.tools.map((t) => t.name),
      ["find_user_id_by_email", "get_user_details", "get_order_details", "cancel_pending_order"],
    );
    assert.deepEqual(await host.client.listTools(), expected);
    assert.deepEqual(host.client.getServerVersion(), plain.client.getServerVersion());
    assert.equal(host.client.getInstructions(), plain.client.getInstructions());
    await host.call("find_user_id_by_email", C7);
    assert.deepEqual(await host.client.listTools(), expected);
    // close() checks that no stretto-<n> id reached the client, though the proxy sent some.
    await host.close();
    assert.equal(ownRequests(dir).length, 3);
  });
});
