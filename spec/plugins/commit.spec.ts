/**
 * stretto_commit through the proxy's own active session (the plugin test kit): a scripted
 * host sends the commit, and a scripted server answers the plugin's own requests.
 */
import assert from "node:assert/strict";
import { answerText } from "../../lib/plugins/commit/commit-call.js";
import { commitPlugin, type CommitOptions } from "../../lib/plugins/commit/commit-plugin.js";
import { CALL_CHECK, type CallCheck, type PluginFactory } from "../../lib/plugins/index.js";
import { request, resultFor, runPlugins, SERVER_EXITS, toolCall, toolResultFor, type ServerMessage, type ServerReply } from "../../lib/testing/index.js";

type Call = { name: string; arguments: unknown };
type Answer = { id: unknown; result: { content: Array<{ text: string }>; isError: boolean } };

/** Provides the guards' check of a call, as `--guards` does. */
const checking = (check: CallCheck): PluginFactory => (session) => {
  session.provide(CALL_CHECK, check);
  return { name: "check" };
};

async function runCommit(
  answer: (name: string, m: ServerMessage) => ServerReply | undefined,
  args: unknown,
  options: { check?: CallCheck; commit?: CommitOptions } = {},
) {
  const r = await runPlugins({
    plugins: [commitPlugin(options.commit), ...(options.check ? [checking(options.check)] : [])],
    host: [toolCall(9, "stretto_commit", args as Record<string, unknown>)],
    server: (m) => answer((m.params as Call).name, m),
    domain: "retail",
  });
  const asked = (r.toServer as Array<{ id: string; params: Call }>).map((m) => m.params);
  return { ...r, asked, result: r.toHost[0] as Answer };
}

describe("stretto_commit (plugin test kit)", () => {
  it("makes its calls in order and reports each", async () => {
    const r = await runCommit((name, m) => toolResultFor(m, name === "find_user_id_by_email" ? "user_7" : '{"status":"pending"}'), {
      calls: [{ name: "get_order_details", arguments: { order_id: "#W7a" } }, { name: "find_user_id_by_email" }],
    });
    assert.deepEqual((r.toServer as Array<{ id: string }>).map((m) => m.id), ["stretto-1", "stretto-2"], "the commit call itself never goes to the server; its calls are the proxy's own requests");
    assert.deepEqual(r.asked.map((a) => a.name), ["get_order_details", "find_user_id_by_email"]);
    assert.equal(r.toHost.length, 1, "the answers to the proxy's own requests never reach the host");
    assert.equal(r.result.id, 9);
    assert.equal(r.result.result.isError, false);
    assert.equal(r.result.result.content[0]!.text, 'get_order_details {"order_id":"#W7a"}:\n{"status":"pending"}\n\nfind_user_id_by_email {}:\nuser_7');
  });

  it("stops at a call that fails, and lists what it did not run", async () => {
    const r = await runCommit((_name, m) => toolResultFor(m, "Order not found", true), {
      calls: [{ name: "get_order_details", arguments: { order_id: "#W7c" } }, { name: "find_user_id_by_email", arguments: {} }],
    });
    assert.equal(r.asked.length, 1);
    assert.equal(r.result.result.isError, true);
    assert.equal(r.result.result.content[0]!.text, 'get_order_details {"order_id":"#W7c"} (error):\nOrder not found\n\nfind_user_id_by_email {} was not run');
  });

  for (const [what, calls] of [
    ["an empty list", []],
    ["a string", "get_order_details"],
    ["an item without a name", [{ arguments: {} }]],
    ["an item named stretto_commit", [{ name: "stretto_commit", arguments: {} }]],
    ["arguments that are not an object", [{ name: "get_order_details", arguments: "#W7a" }]],
  ] as const) {
    it(`runs nothing when its calls are ${what}`, async () => {
      const r = await runCommit((_name, m) => toolResultFor(m, ""), { calls });
      assert.equal(r.asked.length, 0);
      assert.equal(r.result.result.isError, true);
      assert.equal(r.result.result.content[0]!.text, 'stretto_commit takes {"calls": [{"name": tool, "arguments": {...}}, ...]}, one or more calls of the server\'s tools; nothing was run.');
    });
  }

  it("stops where the guards refuse, and sends nothing more", async () => {
    const check: CallCheck = (c) => (c.name === "cancel_pending_order" ? { refused: true, reason: "'x' is not an accepted reason (policy check retail.cancel_reason)" } : { refused: false });
    const r = await runCommit((_name, m) => toolResultFor(m, "fine"), {
      calls: [{ name: "cancel_pending_order", arguments: { order_id: "#W7a", reason: "x" } }, { name: "get_order_details", arguments: { order_id: "#W7a" } }],
    }, { check });
    assert.equal(r.asked.length, 0);
    assert.equal(r.result.result.content[0]!.text, `cancel_pending_order {"order_id":"#W7a","reason":"x"} was refused by the policy check: 'x' is not an accepted reason (policy check retail.cancel_reason)\n\nget_order_details {"order_id":"#W7a"} was not run`);
  });

  it("reports a call the server never answers, and says so on stderr past its patience", async () => {
    const late = await runCommit(() => undefined, { calls: [{ name: "cancel_pending_order", arguments: { order_id: "#W7b" } }] }, { commit: { patienceMs: 500 } });
    assert.equal(late.result.result.content[0]!.text, 'cancel_pending_order {"order_id":"#W7b"} got no answer from the server');
    assert.equal(late.result.result.isError, true);
    assert.deepEqual(late.said, ["no answer to cancel_pending_order within 1 s; going on without it"]);
    const gone = await runCommit(() => SERVER_EXITS, { calls: [{ name: "get_order_details", arguments: {} }] });
    assert.deepEqual(gone.said, [], "a server that is gone is not a patience problem");
  });

  it("tells a request's answer apart: errors, text items, isError", () => {
    assert.deepEqual(answerText({ error: { code: -32000, message: "gone" } }), { text: "gone", failed: true });
    assert.deepEqual(answerText({ error: { code: -32000 } }), { text: "error", failed: true });
    assert.deepEqual(answerText({ result: { content: [{ type: "text", text: "a" }, { type: "image", data: "x" }, { type: "resource", text: "b" }], isError: false } }), { text: "a\nb", failed: false });
    assert.deepEqual(answerText({ result: { content: [{ type: "text", text: "no" }], isError: true } }), { text: "no", failed: true });
    assert.deepEqual(answerText({ result: {} }), { text: "", failed: false });
  });

  it("lists itself after the server's tools, on the last page only; leaves other answers alone", async () => {
    const pages: Record<number, unknown> = { 1: { tools: [{ name: "lookup" }], nextCursor: "p2" }, 2: { tools: [{ name: "lookup" }] }, 3: { tools: "none" } };
    const r = await runPlugins({
      plugins: [commitPlugin()],
      host: [request(1, "tools/list"), request(2, "tools/list"), request(3, "tools/list")],
      server: (m) => resultFor(m, pages[m.id as number]),
    });
    const answers = r.log.filter((e) => e.from !== "client");
    assert.deepEqual(answers.map((e) => e.from), ["server", "server", "proxy", "server"], "the last page is logged as the server sent it, then as the proxy rewrote it");
    const tools = r.toHost.map((l) => (l as { result: { tools: unknown } }).result.tools);
    assert.deepEqual((tools[0] as Array<{ name: string }>).map((t) => t.name), ["lookup"]);
    assert.deepEqual((tools[1] as Array<{ name: string }>).map((t) => t.name), ["lookup", "stretto_commit"]);
    assert.equal(tools[2], "none");
  });
});
