/**
 * `stretto replay`: a session recorded by the live proxy, fed again through the same
 * plugins, reports the same refusals and lookups (one code path for live and offline).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, NODE, PROXY, STRETTO, cleanTemp, jsonLines, killAll, run, runProxy, sessionLogs, start, tempDir } from "../helpers/processes.js";
import { FLOW, Host, flowFlags, flowLog, ownRequests, requireFixture } from "./flow-support.js";

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

describe("stretto replay --flow", () => {
  before(function () {
    requireFixture(this);
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  /** Decision and run lines without what timing changes (`ms`). */
  const decisions = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").map((l) => {
    const { ms: _ms, ...rest } = JSON.parse(l) as Record<string, unknown>;
    return rest;
  });

  it("makes the lookups the live proxy made and logs the same decisions", async () => {
    const dir = tempDir();
    const host = new Host(start(NODE, [PROXY, ...flowFlags(dir), "--", NODE, DEMO, "--world", "retail"]));
    await host.start();
    await host.call(3);
    await host.call(4, "get_order_details", { order_id: "#W7b" });
    assert.equal(await host.end(), 0);
    const log = sessionLogs(dir)[0]!;
    const live = ownRequests(dir).map((e) => ({ id: e.message.id, tool: e.message.params!.name, arguments: e.message.params!.arguments }));
    assert.ok(live.length >= 2, "the live flow looked things up");

    const replayed = join(tempDir(), "replayed.flow.jsonl");
    const r = await run(NODE, [STRETTO, "replay", log, "--flow", FLOW, "--flow-decider", "habit", "--flow-threshold", "0.1", "--flow-log", replayed]);
    assert.equal(r.code, 0, r.stderr);
    const actions = r.stdout.toString().trimEnd().split("\n").map((l) => JSON.parse(l) as { action: string; id: unknown; tool?: string; arguments?: unknown });
    assert.deepEqual(
      actions.filter((a) => a.action === "looked_up").map(({ id, tool, arguments: args }) => ({ id, tool, arguments: args })),
      live,
    );
    assert.deepEqual(decisions(replayed), decisions(flowLog(dir).path));
  });

  it("in shadow looks nothing up, and checks the flow options as the proxy does", async () => {
    const dir = tempDir();
    const host = new Host(start(NODE, [PROXY, "--record", dir, "--", NODE, DEMO, "--world", "retail"]));
    await host.start();
    await host.call(3);
    await host.end();
    const log = sessionLogs(dir)[0]!;
    const shadowLog = join(tempDir(), "shadow.flow.jsonl");
    const r = await run(NODE, [STRETTO, "replay", log, "--flow", FLOW, "--flow-decider", "habit", "--flow-threshold", "0.1", "--flow-shadow", "--flow-log", shadowLog]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.toString(), "");
    const first = JSON.parse(readFileSync(shadowLog, "utf8").split("\n")[0]!) as Record<string, unknown>;
    assert.equal(first["shadow"], true);
    assert.equal(first["tool"], "get_user_details");

    const bad = await run(NODE, [STRETTO, "replay", log, "--flow", FLOW, "--flow-threshold", "high"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr.toString(), /^stretto: invalid value 'high' for '--flow-threshold <P>'/);
    const lone = await run(NODE, [STRETTO, "replay", log, "--flow-shadow"]);
    assert.equal(lone.code, 2);
    assert.match(lone.stderr.toString(), /--flow <FILE>/);
  });
});
