/**
 * `stretto replay`: a session recorded by the live proxy, fed again through the same
 * plugins, reports the same refusals and lookups (one code path for live and offline).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, NODE, STRETTO, cleanTemp, jsonLines, killAll, run, runProxy, sessionLogs, tempDir } from "../helpers/processes.js";

const call = (id: number | string, name: string, args: object) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

describe("stretto replay", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  async function record(extra: string[]): Promise<string> {
    const dir = tempDir();
    const context = join(dir, "c.jsonl");
    writeFileSync(context, `${JSON.stringify({ role: "user", content: "I'm c7@example.com; cancel #W7a please" })}\n`);
    const r = await runProxy(["--record", dir, "--domain", "retail", "--context", context, ...extra, "--", NODE, DEMO, "--world", "retail"], {
      input: jsonLines(
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        call(2, "cancel_pending_order", { order_id: "#W7a", reason: "no longer needed" }),
        call(3, "find_user_id_by_email", { email: "c7@example.com" }),
        call("x", "stretto_commit", {
          calls: [
            { name: "get_order_details", arguments: { order_id: "#W7a" } },
            { name: "cancel_pending_order", arguments: { order_id: "#W7a", reason: "found it cheaper" } },
          ],
        }),
      ),
    });
    assert.equal(r.code, 0);
    return sessionLogs(dir)[0]!;
  }

  it("reports the refusals and lookups the live proxy made, with the session's ids", async () => {
    const log = await record(["--guards", "--commit"]);
    const r = await run(NODE, [STRETTO, "replay", log, "--guards", "--commit"]);
    assert.equal(r.code, 0, r.stderr);
    const actions = r.stdout.toString().trimEnd().split("\n").map((l) => JSON.parse(l) as { action: string; id: unknown; tool?: string; text?: string });
    const summary = actions.map((a) => `${a.action}:${JSON.stringify(a.id)}${a.tool ? `:${a.tool}` : ""}`);
    assert.deepEqual(summary, [
      "refused:2:cancel_pending_order",
      "looked_up:\"stretto-1\":get_order_details",
      "rewrote:1",
      "answered:\"x\":stretto_commit",
    ]);
    assert.match(actions[0]!.text!, /^Refused by the policy check, so cancel_pending_order was not run and nothing changed: the user has not been authenticated/);
    assert.match(actions[3]!.text!, /cancel_pending_order \{"order_id":"#W7a","reason":"found it cheaper"\} was refused by the policy check: .*retail\.cancel_reason/);
  });

  it("a session recorded without guards shows what they would have refused", async () => {
    const log = await record([]);
    const plain = await run(NODE, [STRETTO, "replay", log]);
    assert.equal(plain.code, 0);
    assert.equal(plain.stdout.toString(), "", "no plugin, nothing done");
    const guarded = await run(NODE, [STRETTO, "replay", log, "--guards"]);
    const actions = guarded.stdout.toString().trimEnd().split("\n").map((l) => JSON.parse(l) as { action: string; id: unknown });
    assert.deepEqual(actions.map((a) => `${a.action}:${JSON.stringify(a.id)}`), ["refused:2"]);
  });

  it("usage errors exit 2; an unreadable log exits 1", async () => {
    const usage = await run(NODE, [STRETTO, "replay"]);
    assert.equal(usage.code, 2);
    const missing = await run(NODE, [STRETTO, "replay", "/nonexistent/session.jsonl"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /reading \/nonexistent\/session\.jsonl/);
    const noDomain = await run(NODE, [STRETTO, "replay", await record([]), "--guards", "--domain", "telecom"]);
    assert.equal(noDomain.code, 2);
    assert.match(noDomain.stderr, /no guards for telecom/);
  });
});
