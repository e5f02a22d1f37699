/**
 * stretto_commit on a fake session (facts-guards §7.2 items 12–16, 27, 28): the plugin is a
 * function of its session, so a test hands it one whose server answers as the test says.
 */
import assert from "node:assert/strict";
import { EMPTY, Subject, firstValueFrom, toArray } from "rxjs";
import { frame, type Frame } from "../../lib/bus/frame.js";
import type { OwnAnswer, PluginContext } from "../../lib/bus/runtime/api.js";
import { answerText } from "../../lib/plugins/commit/commit-call.js";
import { commitPlugin } from "../../lib/plugins/commit/commit-plugin.js";
import { CALL_CHECK, type CallCheck } from "../../lib/plugins/index.js";

type Answer = (name: string, args: unknown) => OwnAnswer;

function fakeSession(answer: Answer, check?: CallCheck) {
  const toClient: unknown[] = [];
  const asked: Array<{ name: string; arguments: unknown }> = [];
  const said: string[] = [];
  const session = {
    clock: { now: () => 0, startedUnixMs: 0 }, domain: "retail", session: "s", hostSession: undefined, frames$: EMPTY,
    toClient: (b: Buffer) => toClient.push(JSON.parse(b.toString())),
    request: async (_m: string, p: { name: string; arguments: unknown }) => {
      asked.push(p);
      return answer(p.name, p.arguments);
    },
    nextOwnId: () => "stretto-1", log() {}, episode: () => { throw new Error("unused"); },
    provide() {}, service: (key: { name: string }) => (key.name === CALL_CHECK.name ? check : undefined),
    say: (m: string) => said.push(m), serverOpen: () => true,
  } as unknown as PluginContext;
  return { session, toClient, asked, said };
}

const ok = (text: string): OwnAnswer => ({ kind: "answer", frame: frame("server", 0, Buffer.from("{}\n")), response: { id: "stretto-1", result: { content: [{ type: "text", text }] } } });
const toolError = (text: string): OwnAnswer => ({ kind: "answer", frame: frame("server", 0, Buffer.from("{}\n")), response: { id: "stretto-1", result: { content: [{ type: "text", text }], isError: true } } });
const line = (m: unknown) => frame("client", 0, Buffer.from(`${JSON.stringify(m)}\n`));
const commitCall = (id: unknown, args: unknown) => line({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "stretto_commit", arguments: args } });

async function runCommit(answer: Answer, args: unknown, check?: CallCheck) {
  const fake = fakeSession(answer, check);
  const plugin = await commitPlugin()(fake.session);
  const input = new Subject<Frame>();
  const out = firstValueFrom(input.pipe(plugin.client!, toArray()));
  input.next(commitCall(9, args));
  input.complete();
  const passed = await out;
  for (let i = 0; i < 20 && fake.toClient.length === 0; i++) await new Promise((r) => setImmediate(r));
  return { ...fake, passed, result: fake.toClient[0] as { id: unknown; result: { content: Array<{ text: string }>; isError: boolean } } };
}

describe("stretto_commit (on a fake session)", () => {
  it("makes its calls in order and reports each (item 12)", async () => {
    const r = await runCommit((name) => ok(name === "find_user_id_by_email" ? "user_7" : '{"status":"pending"}'), {
      calls: [{ name: "get_order_details", arguments: { order_id: "#W7a" } }, { name: "find_user_id_by_email" }],
    });
    assert.deepEqual(r.passed, [], "the commit call itself never goes to the server");
    assert.deepEqual(r.asked.map((a) => a.name), ["get_order_details", "find_user_id_by_email"]);
    assert.equal(r.result.id, 9);
    assert.equal(r.result.result.isError, false);
    assert.equal(r.result.result.content[0]!.text, 'get_order_details {"order_id":"#W7a"}:\n{"status":"pending"}\n\nfind_user_id_by_email {}:\nuser_7');
  });

  it("stops at a call that fails, and lists what it did not run (item 13)", async () => {
    const r = await runCommit(() => toolError("Order not found"), {
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
    it(`runs nothing when its calls are ${what} (item 14)`, async () => {
      const r = await runCommit(() => ok(""), { calls });
      assert.equal(r.asked.length, 0);
      assert.equal(r.result.result.isError, true);
      assert.equal(r.result.result.content[0]!.text, 'stretto_commit takes {"calls": [{"name": tool, "arguments": {...}}, ...]}, one or more calls of the server\'s tools; nothing was run.');
    });
  }

  it("stops where the guards refuse, and sends nothing more (item 15)", async () => {
    const check: CallCheck = (c) => (c.name === "cancel_pending_order" ? { refused: true, reason: "'x' is not an accepted reason (policy check retail.cancel_reason)" } : { refused: false });
    const r = await runCommit(() => ok("fine"), {
      calls: [{ name: "cancel_pending_order", arguments: { order_id: "#W7a", reason: "x" } }, { name: "get_order_details", arguments: { order_id: "#W7a" } }],
    }, check);
    assert.equal(r.asked.length, 0);
    assert.equal(r.result.result.content[0]!.text, `cancel_pending_order {"order_id":"#W7a","reason":"x"} was refused by the policy check: 'x' is not an accepted reason (policy check retail.cancel_reason)\n\nget_order_details {"order_id":"#W7a"} was not run`);
  });

  it("reports a call the server never answers, and says so on stderr past its patience (item 16)", async () => {
    const late = await runCommit(() => ({ kind: "no-answer", why: "patience" }), { calls: [{ name: "cancel_pending_order", arguments: { order_id: "#W7b" } }] });
    assert.equal(late.result.result.content[0]!.text, 'cancel_pending_order {"order_id":"#W7b"} got no answer from the server');
    assert.equal(late.result.result.isError, true);
    assert.deepEqual(late.said, ["no answer to cancel_pending_order within 60 s; going on without it"]);
    const gone = await runCommit(() => ({ kind: "no-answer", why: "server-gone" }), { calls: [{ name: "get_order_details", arguments: {} }] });
    assert.deepEqual(gone.said, [], "a server that is gone is not a patience problem");
  });

  it("tells a request's answer apart: errors, text items, isError (item 27)", () => {
    assert.deepEqual(answerText({ error: { code: -32000, message: "gone" } }), { text: "gone", failed: true });
    assert.deepEqual(answerText({ error: { code: -32000 } }), { text: "error", failed: true });
    assert.deepEqual(answerText({ result: { content: [{ type: "text", text: "a" }, { type: "image", data: "x" }, { type: "resource", text: "b" }], isError: false } }), { text: "a\nb", failed: false });
    assert.deepEqual(answerText({ result: { content: [{ type: "text", text: "no" }], isError: true } }), { text: "no", failed: true });
    assert.deepEqual(answerText({ result: {} }), { text: "", failed: false });
  });

  it("lists itself after the server's tools, on the last page only; leaves other answers alone (item 28)", async () => {
    const fake = fakeSession(() => ok(""));
    const plugin = await commitPlugin()(fake.session);
    const client = new Subject<Frame>();
    const server = new Subject<Frame>();
    const seen = firstValueFrom(server.pipe(plugin.server!, toArray()));
    client.pipe(plugin.client!).subscribe();
    for (const id of [1, 2, 3]) client.next(line({ jsonrpc: "2.0", id, method: "tools/list" }));
    server.next(frame("server", 0, Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"lookup"}],"nextCursor":"p2"}}\n')));
    server.next(frame("server", 0, Buffer.from('{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"lookup"}]}}\n')));
    server.next(frame("server", 0, Buffer.from('{"jsonrpc":"2.0","id":3,"result":{"tools":"none"}}\n')));
    server.complete();
    const out = (await seen).map((f) => ({ from: f.from, msg: JSON.parse(f.bytes.toString()) as { result: { tools: unknown } } }));
    assert.deepEqual(out.map((o) => o.from), ["server", "proxy", "server"]);
    assert.deepEqual((out[1]!.msg.result.tools as Array<{ name: string }>).map((t) => t.name), ["lookup", "stretto_commit"]);
    assert.equal(out[2]!.msg.result.tools, "none");
  });
});
