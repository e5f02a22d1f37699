/**
 * A flow committed while `stretto-proxy --listen` runs takes effect at the next host
 * session, without a restart: each session reads `--flow` when it starts (and `flow-commit`
 * replaces the file whole, so a session reads the old flow or the new one). The host is the
 * official SDK client over Streamable HTTP; the server `stretto-mcp-demo --world retail`.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DEMO, NODE, cleanTemp, killAll, tempDir } from "../helpers/processes.js";
import { Listening } from "../listen/support.js";
import { committedHabitFlow } from "./committed-flow.js";
import { stretto } from "../drift/in-process.js";

const APPENDIX = "--- Also looked up automatically";

/** One host session: the customer's email looked up; the texts of the answer. */
async function session(url: string): Promise<string[]> {
  const client = new Client({ name: "stretto-listen-host", version: "0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  const r = await client.callTool({ name: "find_user_id_by_email", arguments: { email: "c7@example.com" } });
  await transport.terminateSession();
  await client.close();
  return (r.content as { text?: string }[]).map((c) => c.text ?? "");
}

describe("--listen reads the flow at each session's start", function () {
  this.timeout(60_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it("a flow committed between two host sessions is the one the second serves", async () => {
    const work = tempDir();
    const { flow, sessions } = await committedHabitFlow(work);

    const logs = join(work, "logs");
    const proxy = await Listening.start(["--record", logs, "--flow", flow, "--", NODE, DEMO, "--world", "retail"]);
    const first = await session(proxy.url);
    assert.equal(first[0], "user_7");
    assert.ok(first[1]?.startsWith(APPENDIX), first.join("\n"));

    // The next version: the same flow promoted nowhere (no site meets a bar of 1,000 tasks), so it hands back after every call.
    const promoted = await stretto("promote", "--flow", flow, "--sessions", sessions, "--min-tasks", "1000", "--out", join(work, "shop.staged.flow.json"), "--quiet");
    assert.equal(promoted.code, 0, promoted.stderr);
    const committed = await stretto("flow-commit", "--flow", flow, "--note", "promoted nowhere");
    assert.equal(committed.code, 0, committed.stderr);

    const second = await session(proxy.url);
    assert.deepEqual(second, ["user_7"], "the new flow looked nothing up");

    // A flow that no longer loads fails the session that starts after it, not the listener.
    writeFileSync(flow, "garbage\n");
    await assert.rejects(session(proxy.url), /loading .*shop\.flow\.json: not a stretto flow/);
    assert.equal(await proxy.stop(), 0);

    assert.equal(proxy.stderr.split(`serving the retail flow from ${flow}`).length - 1, 2, "each session loaded the flow");
    const flowLogs = readdirSync(logs).filter((f) => f.endsWith(".flow.jsonl")).sort();
    assert.equal(flowLogs.length, 2);
    const decisions = readFileSync(join(logs, flowLogs[1]!), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { action?: string; reason?: string });
    assert.deepEqual(decisions.filter((d) => d.action !== undefined).map((d) => [d.action, d.reason]), [["hand_back", "the site is not promoted"]]);
  });
});
