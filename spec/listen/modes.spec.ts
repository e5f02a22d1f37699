/**
 * Every mode behind `--listen` runs per session through the same proxy core as on stdio:
 * here `--guards` (a refused call never reaches the server, in each session) and
 * `--upstream` (an HTTP host in front of an HTTP server, each host session with its own
 * upstream session, the server's own messages on the host's GET stream), and `--flow` (the
 * same lookups appended as on stdio, the flow log beside the session's log). `--record` and
 * `--commit` are covered in listen.spec.ts.
 */
import assert from "node:assert/strict";
import { DEMO, NODE, cleanTemp, killAll, readLogLines, sessionLogs, start, tempDir } from "../helpers/processes.js";
import { existsSync } from "node:fs";
import { APPENDIX, flowFlags, requireFixture } from "../e2e/flow-support.js";
import { events, JSON_ONLY, Listening, openStream, SSE } from "./support.js";

const cancel = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "cancel_pending_order", arguments: { order_id: "#W1a", reason: "found it cheaper" } } });

describe("listen: every mode behind it", function () {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("--guards refuses in each session, and the refused call never reaches its server", async function () {
    const logs = tempDir();
    const proxy = await Listening.start(["--record", logs, "--domain", "retail", "--guards", "--", NODE, DEMO, "--world", "retail"]);
    for (const name of ["a", "b"]) {
      const sid = await proxy.open({ "Stretto-Session": name });
      const r = await proxy.post(cancel(2), { ...JSON_ONLY, "Mcp-Session-Id": sid });
      const answer = JSON.parse(r.body) as { id: number; result?: { isError?: boolean } };
      assert.equal(answer.id, 2);
      assert.equal(answer.result?.isError, true, r.body);
    }
    assert.equal(await proxy.stop(), 0);
    const files = sessionLogs(logs);
    assert.equal(files.length, 2);
    for (const file of files) {
      const entries = readLogLines(file).entries.map((e) => JSON.parse(e) as { from: string; message?: { id?: unknown } });
      assert.ok(entries.some((e) => e.from === "proxy" && e.message?.id === 2), "the proxy answered the call");
      assert.ok(!entries.some((e) => e.from === "server" && e.message?.id === 2), "the server never saw it");
    }
  });

  it("--flow serves each session the same lookups as over stdio, its flow log beside the session's log", async function () {
    requireFixture(this);
    const dir = tempDir();
    const proxy = await Listening.start([...flowFlags(dir), "--", NODE, DEMO, "--world", "retail"]);
    const sid = await proxy.open();
    const r = await proxy.post(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "find_user_id_by_email", arguments: { email: "c7@example.com" } } },
      { ...JSON_ONLY, "Mcp-Session-Id": sid },
    );
    const items = (JSON.parse(r.body) as { result: { content: Array<{ text: string }> } }).result.content.map((c) => c.text);
    assert.equal(items[0], "user_7");
    assert.ok(items[1]!.startsWith(`${APPENDIX}\n\nget_user_details {"user_id":"user_7"}:\n`), items[1]);
    assert.equal(await proxy.stop(), 0);
    const [log] = sessionLogs(dir);
    assert.match(log!, /-1\.jsonl$/);
    assert.ok(existsSync(log!.replace(/\.jsonl$/, ".flow.jsonl")));
  });

  it("--upstream: each host session has its own upstream session, and the server's own messages reach the GET stream", async function () {
    const demo = start(NODE, [DEMO, "--http", "127.0.0.1:0"]);
    const upstream = await new Promise<string>((resolve) => {
      let out = "";
      demo.stdout!.setEncoding("utf8");
      demo.stdout!.on("data", (t: string) => {
        out += t;
        if (out.includes("\n")) resolve(out.trim());
      });
    });
    const proxy = await Listening.start(["--upstream", upstream]);
    const a = await proxy.open();
    const b = await proxy.open();
    const stream = await openStream(proxy, { "Mcp-Session-Id": a, Accept: "text/event-stream" });
    assert.equal(stream.status, 200);
    await stream.has("hello from the server's own stream");
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "lookup", arguments: { text: "hi" } } };
    const called = await proxy.post(call, { ...SSE, "Mcp-Session-Id": a });
    // The call's stream carries its answer only: the server's log message went to the GET stream.
    assert.deepEqual(events(called.body).map((e) => e["id"]), [2]);
    await stream.has("calling lookup");
    // The other session is its own upstream session: it answers the same id on its own.
    const other = await proxy.post({ ...call, id: 2 }, { ...JSON_ONLY, "Mcp-Session-Id": b });
    assert.equal((JSON.parse(other.body) as { id: number }).id, 2);
    stream.close();
    assert.equal(await proxy.stop(), 0);
    demo.kill();
  });
});
