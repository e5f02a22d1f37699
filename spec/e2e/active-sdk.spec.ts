/**
 * Active mode with the official SDK client as the host: `stretto-mcp-demo
 * --world retail` behind `--guards --domain retail --commit --context`. A refused
 * cancellation never reaches the server, a commit stops at its first refused call, the log
 * holds every proxy and context entry, and `stretto replay` of that very log reports the
 * same refusals.
 */
import assert from "node:assert/strict";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DEMO, NODE, PROXY, STRETTO, cleanTemp, killAll, readLogLines, run, sessionLogs, tempDir } from "../helpers/processes.js";

type ToolResult = { content?: Array<{ type: string; text?: string }>; isError?: boolean };
const textOf = (r: ToolResult) => (r.content ?? []).map((c) => c.text ?? "").join("\n");

describe("active mode with the SDK client as the host", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("guards, commits and logs as a host sees it; replay reports the same refusals", async () => {
    const dir = tempDir();
    const context = join(dir, "conversation.jsonl");
    writeFileSync(context, `${JSON.stringify({ role: "user", content: "Hi, I'm c7@example.com." })}\n`);
    const transport = new StdioClientTransport({
      command: NODE,
      args: [PROXY, "--record", dir, "--domain", "retail", "--guards", "--commit", "--context", context, "--", NODE, DEMO, "--world", "retail"],
      env: { ...getDefaultEnvironment(), STRETTO_SESSION: "task-42" },
      stderr: "pipe",
    });
    const client = new Client({ name: "stretto-test-host", version: "0" });
    await client.connect(transport);

    assert.match(client.getInstructions() ?? "", /stretto_commit/);
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((t) => t.name), ["find_user_id_by_email", "get_user_details", "get_order_details", "cancel_pending_order", "stretto_commit"]);

    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
    assert.equal(textOf(await call("find_user_id_by_email", { email: "c7@example.com" })), "user_7");
    await call("get_order_details", { order_id: "#W7a" });
    appendFileSync(context, `${JSON.stringify({ role: "user", content: "Cancel it, I found it cheaper." })}\n`);
    const refused = await call("cancel_pending_order", { order_id: "#W7a", reason: "found it cheaper" });
    assert.equal(refused.isError, true);
    assert.equal(textOf(refused), "Refused by the policy check, so cancel_pending_order was not run and nothing changed: 'found it cheaper' is not an accepted reason (policy check retail.cancel_reason).");

    appendFileSync(context, `${JSON.stringify({ role: "user", content: "Yes: cancel #W7a (no longer needed), and #W7b because I found it cheaper." })}\n`);
    const commit = await call("stretto_commit", {
      calls: [
        { name: "cancel_pending_order", arguments: { order_id: "#W7a", reason: "no longer needed" } },
        { name: "cancel_pending_order", arguments: { order_id: "#W7b", reason: "found it cheaper" } },
        { name: "get_order_details", arguments: { order_id: "#W7b" } },
      ],
    });
    assert.equal(commit.isError, true);
    const parts = textOf(commit).split("\n\n");
    assert.equal(parts[0], 'cancel_pending_order {"order_id":"#W7a","reason":"no longer needed"}:\n{"order_id":"#W7a","status":"cancelled"}');
    assert.match(parts[1]!, /^cancel_pending_order \{"order_id":"#W7b","reason":"found it cheaper"\} was refused by the policy check: .*\(policy check retail\.cancel_reason\)$/);
    assert.equal(parts[2], 'get_order_details {"order_id":"#W7b"} was not run');
    await client.close();

    const logPath = sessionLogs(dir)[0]!;
    const { header, entries } = readLogLines(logPath);
    assert.equal(header["host_session"], "task-42");
    assert.equal(header["era"], "legacy");
    const log = entries.map((e) => JSON.parse(e) as { from: string; message?: { id?: unknown; method?: string; params?: { name?: string; arguments?: { reason?: string } }; result?: ToolResult } });
    const sentCancels = log.filter((e) => e.from !== "client" && e.message?.method === "tools/call" && e.message.params?.name === "cancel_pending_order");
    assert.deepEqual(sentCancels.map((e) => e.message!.params!.arguments!.reason), ["no longer needed"], "only the accepted cancellation went to the server");
    assert.equal(log.filter((e) => e.from === "context").length, 3);
    const refusals = log.filter((e) => e.from === "proxy" && textOf(e.message?.result ?? { content: [] }).startsWith("Refused by the policy check"));
    assert.equal(refusals.length, 1);

    const replay = await run(NODE, [STRETTO, "replay", logPath, "--guards", "--commit"]);
    assert.equal(replay.code, 0, replay.stderr);
    const actions = replay.stdout.toString().trimEnd().split("\n").map((l) => JSON.parse(l) as { action: string; id: unknown; text?: string });
    const replayed = actions.filter((a) => a.action === "refused");
    assert.deepEqual(replayed.map((a) => a.id), refusals.map((r) => r.message!.id));
    assert.deepEqual(replayed.map((a) => a.text), refusals.map((r) => textOf(r.message!.result!)));
    const commitAnswer = actions.find((a) => a.action === "answered");
    assert.equal(commitAnswer?.text, textOf(commit), "the commit replays to the same report");
  });
});
