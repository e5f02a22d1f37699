/**
 * Replay waits on what the session reports (a line handled, a frame logged, an answer to the
 * host), never on the clock: the same log and plugins give the same actions with the machine
 * idle and with every core busy; a plugin that keeps a line without answering does not stall
 * it; one that swallows an answer the host needs stops it with a reason, not silently.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { PluginFactory } from "../../lib/plugins/index.js";
import { decide, messagesOf, responseOf } from "../../lib/plugins/index.js";
import { replay } from "../../lib/replay/replay.js";
import type { ReplayAction } from "../../lib/replay/actions.js";
import { ReplayStuck } from "../../lib/replay/progress.js";
import { readLog } from "../../lib/trace/index.js";
import { DEMO, NODE, STRETTO, cleanTemp, jsonLines, killAll, run, runProxy, sessionLogs, tempDir } from "../helpers/processes.js";

const call = (id: number | string, name: string, args: object) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

/** A guarded, committed session of the demo shop: refusals, a commit's own calls, a rewritten listing. */
async function recordShopSession(): Promise<string> {
  const dir = tempDir();
  const context = join(dir, "c.jsonl");
  writeFileSync(context, `${JSON.stringify({ role: "user", content: "I'm c7@example.com; cancel #W7a please" })}\n`);
  const lines = [
    { jsonrpc: "2.0", id: 1, method: "tools/list" },
    call(2, "cancel_pending_order", { order_id: "#W7a", reason: "no longer needed" }),
    call(3, "find_user_id_by_email", { email: "c7@example.com" }),
    call(4, "get_order_details", { order_id: "#W7a" }),
    call("x", "stretto_commit", {
      calls: [
        { name: "get_order_details", arguments: { order_id: "#W7b" } },
        { name: "cancel_pending_order", arguments: { order_id: "#W7a", reason: "no longer needed" } },
        { name: "cancel_pending_order", arguments: { order_id: "#W7b", reason: "found it cheaper" } },
      ],
    }),
    [call(6, "get_order_details", { order_id: "#W7a" }), call(7, "cancel_pending_order", { order_id: "#W7b", reason: "x" })],
    call(8, "get_user_details", { user_id: "user_7" }),
  ];
  const r = await runProxy(["--record", dir, "--domain", "retail", "--guards", "--commit", "--context", context, "--", NODE, DEMO, "--world", "retail"], {
    input: jsonLines(...lines),
  });
  assert.equal(r.code, 0, r.stderr);
  return sessionLogs(dir)[0]!;
}

function busyCores(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(NODE, ["-e", "for (;;) {}"], { stdio: "ignore" }));
}

describe("replay is deterministic: it waits on the session, not the clock", () => {
  let log: string;
  before(async function () {
    this.timeout(60_000);
    log = await recordShopSession();
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  it("gives the same actions idle and with every core busy", async function () {
    this.timeout(120_000);
    const args = [STRETTO, "replay", log, "--guards", "--commit"];
    const idle = await run(NODE, args);
    assert.equal(idle.code, 0, idle.stderr);
    const actions = idle.stdout.toString().trimEnd().split("\n").map((l) => JSON.parse(l) as { action: string; id: unknown });
    // The refusal, the commit's own calls and answer, the batch's part that went on.
    assert.ok(actions.some((a) => a.action === "refused" && a.id === 2), idle.stdout.toString());
    assert.ok(actions.some((a) => a.action === "answered" && a.id === "x"));
    assert.ok(actions.filter((a) => a.action === "looked_up").length >= 2);
    const busy = busyCores(availableParallelism() * 2);
    try {
      for (let i = 0; i < 3; i++) {
        const loaded = await run(NODE, args);
        assert.equal(loaded.code, 0, loaded.stderr);
        assert.equal(loaded.stdout.toString(), idle.stdout.toString(), `run ${i + 1} under load`);
      }
    } finally {
      for (const p of busy) p.kill("SIGKILL");
    }
  });

  it("a plugin that keeps a host line without answering it does not stall the replay", async () => {
    // Keeps every get_user_details call, says nothing: the host would wait, the replay goes on.
    const swallowCalls: PluginFactory = () => ({
      name: "swallow-calls",
      client: decide((f) => (messagesOf(f)?.some((m) => m.method === "tools/call" && JSON.stringify(m.value).includes("get_user_details")) ? [] : [f])),
    });
    const actions: ReplayAction[] = [];
    await replay(await readLog(log), { plugins: [swallowCalls], useLoggedContext: true, onAction: (a) => actions.push(a) });
    assert.deepEqual(actions, []);
  });

  it("a plugin that swallows an answer the host had stops the replay with the reason", async () => {
    const swallowAnswer: PluginFactory = () => ({
      name: "swallow-answer",
      server: decide((f) => (responseOf(f)?.id === 3 ? [] : [f])),
    });
    await assert.rejects(
      replay(await readLog(log), { plugins: [swallowAnswer], useLoggedContext: true, onAction: () => {}, quietLimitMs: 300 }),
      (e: unknown) => e instanceof ReplayStuck && /waiting for the last answers the log shows; a plugin may have kept a line/.test(e.message),
    );
  });
});
