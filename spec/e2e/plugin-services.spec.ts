/**
 * Services on the plugin context, end to end: the example plugin `confirm-writes` reads the
 * conversation the context plugin provides and runs the guards' check the guards plugin
 * provides, behind the real proxy and the demo shop.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, DIST, NODE, cleanTemp, jsonLines, killAll, runProxy, tempDir } from "../helpers/processes.js";

const CONFIRM = join(DIST, "fixtures/plugins/confirm-writes.js");
const cancel = (id: number, reason: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "cancel_pending_order", arguments: { order_id: "#W7a", reason } } });
const env = { ...process.env, STRETTO_CONFIRM_TOOLS: "cancel_pending_order" };

function conversation(dir: string, ...said: string[]): string {
  const file = join(dir, "talk.jsonl");
  writeFileSync(file, said.map((content) => `${JSON.stringify({ role: "user", content })}\n`).join(""));
  return file;
}

async function cancelWith(args: string[], reason = "no longer needed") {
  const r = await runProxy([...args, "--plugin", CONFIRM, "--", NODE, DEMO, "--world", "retail"], { input: jsonLines(cancel(1, reason)), env });
  assert.equal(r.code, 0, r.stderr);
  const answer = JSON.parse(r.stdout.toString().trim()) as { result: { content: Array<{ text: string }>; isError?: boolean } };
  return { text: answer.result.content[0]!.text, isError: answer.result.isError === true, stderr: r.stderr };
}

describe("plugin services: a user plugin reads the conversation and the guards' check", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("holds back a write until the customer's last message says yes", async () => {
    const dir = tempDir();
    const held = await cancelWith(["--context", conversation(dir, "Cancel #W7a please.")]);
    assert.equal(held.isError, true);
    assert.equal(held.text, 'cancel_pending_order needs the customer\'s yes first; their last message was "Cancel #W7a please.". Nothing was run.');
    assert.match(held.stderr, /stretto-proxy: held back cancel_pending_order: the customer has not said yes/);

    const passed = await cancelWith(["--context", conversation(dir, "Cancel #W7a please.", "Yes, cancel it.")]);
    assert.equal(passed.isError, false);
    assert.match(passed.text, /"status":"cancelled"/);
  });

  it("without --context there is no conversation service, so nothing counts as a yes", async () => {
    const held = await cancelWith([]);
    assert.equal(held.text, "cancel_pending_order needs the customer's yes first; their last message was nothing yet. Nothing was run.");
  });

  it("with --guards, a call the policy refuses gets the policy's reason, not the plugin's question", async () => {
    const dir = tempDir();
    const r = await cancelWith(["--guards", "--domain", "retail", "--context", conversation(dir, "Cancel it, I found it cheaper.")], "found it cheaper");
    assert.equal(r.isError, true);
    assert.match(r.text, /^Refused by the policy check, so cancel_pending_order was not run/);
    assert.doesNotMatch(r.stderr, /held back/);
  });
});
