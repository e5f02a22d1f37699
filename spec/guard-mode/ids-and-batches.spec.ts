/**
 * Ids kept exactly and batches answered as batches: the findings about answers lost or
 * changed. Hosts are plain processes writing lines, so every id shape can be sent.
 */
import assert from "node:assert/strict";
import { LineHost } from "./line-host.js";
import { DEMO, NODE, PROXY, STRETTO, cleanTemp, fixtureServer, killAll, run, sessionLogs, start, tempDir } from "../helpers/processes.js";

const call = (idText: string, name: string, args: object) =>
  `{"jsonrpc":"2.0","id":${idText},"method":"tools/call","params":${JSON.stringify({ name, arguments: args })}}`;
const cancel = (idText: string) => call(idText, "cancel_pending_order", { order_id: "#W7a", reason: "no longer needed" });

describe("ids as the host wrote them, and one answer per batch", function () {
  this.timeout(30_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it("refusals and commit reports carry the id exactly as written (9007199254740993, 1e2, 1e400, escapes)", async () => {
    const host = new LineHost(start(NODE, [PROXY, "--guards", "--commit", "--domain", "retail", "--", NODE, DEMO, "--world", "retail"]));
    host.send(cancel("9007199254740993"));
    host.send(cancel("1e2"));
    host.send(cancel("1e400"));
    host.send(cancel('"\\u0061b"'));
    host.send(call("-0", "stretto_commit", { calls: [{ name: "get_order_details", arguments: { order_id: "#W7a" } }] }));
    const big = await host.waitFor((l) => l.includes('"id":9007199254740993,'));
    assert.match(big, /^\{"jsonrpc":"2\.0","id":9007199254740993,"result":\{"content":\[\{"type":"text","text":"Refused by the policy check/);
    assert.match(await host.waitFor((l) => l.includes('"id":1e2,')), /Refused by the policy check/);
    const huge = await host.waitFor((l) => l.includes('"id":1e400,'));
    assert.match(huge, /"error":\{"code":-32600,"message":"stretto-proxy did not forward this line: a number too large for a double"\}/);
    assert.match(await host.waitFor((l) => l.includes('"id":"\\u0061b",')), /Refused by the policy check/);
    assert.match(await host.waitFor((l) => l.includes('"id":-0,')), /get_order_details \{\\"order_id\\":\\"#W7a\\"\}:/);
    await host.end();
  });

  it('a host id "stretto-1" gets its own answer, and a commit beside it gets its own (nothing swallowed or misrouted)', async () => {
    const host = new LineHost(start(NODE, [PROXY, "--commit", "--", NODE, DEMO, "--world", "retail"]));
    host.send(call('"stretto-1"', "get_user_details", { user_id: "user_2" }));
    host.send(call('"c"', "stretto_commit", { calls: [{ name: "get_order_details", arguments: { order_id: "#W7a" } }] }));
    host.send(call('"stretto-2"', "get_user_details", { user_id: "user_3" }));
    const user2 = await host.waitFor((l) => l.includes('"id":"stretto-1"'));
    assert.match(user2, /user_2/);
    assert.doesNotMatch(user2, /#W7a/);
    const report = await host.waitFor((l) => l.includes('"id":"c"'));
    assert.match(report, /get_order_details \{\\"order_id\\":\\"#W7a\\"\}:\\n/);
    assert.doesNotMatch(report, /user_2|user_3/);
    assert.match(await host.waitFor((l) => l.includes('"id":"stretto-2"')), /user_3/);
    // Later requests with the same ids are answered too: own ids are released once answered.
    host.send(call('"stretto-3"', "get_user_details", { user_id: "user_4" }));
    assert.match(await host.waitFor((l) => l.includes('"id":"stretto-3"')), /user_4/);
    await host.end();
    assert.equal(host.lines.length, 4, host.lines.join("\n"));
  });

  it("a batch with a refused call gets one batch response holding the refusal and the server's answers", async () => {
    const dir = tempDir();
    const host = new LineHost(start(NODE, [PROXY, "--record", dir, "--guards", "--domain", "retail", "--", NODE, fixtureServer("answers-batches")]));
    host.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},${cancel("2")},${call("3", "get_order_details", { order_id: "#W7a" })}]`);
    const answer = await host.waitFor((l) => l.startsWith("["));
    const items = JSON.parse(answer) as Array<{ id: number; result: { content?: Array<{ text: string }>; isError?: boolean } }>;
    assert.deepEqual(items.map((i) => i.id), [1, 2, 3], "one array, in the batch's order");
    assert.match(items[1]!.result.content![0]!.text, /^Refused by the policy check, so cancel_pending_order was not run/);
    assert.equal(items[2]!.result.content![0]!.text, 'ran get_order_details {"order_id":"#W7a"}');
    await host.end();
    assert.equal(host.lines.length, 1, "nothing else was sent");
    // The episode holds each call once, with its one result (the forwarded rest is no second call).
    const r = await run(NODE, [STRETTO, "episode", sessionLogs(dir)[0]!]);
    const events = (JSON.parse(r.stdout.toString()) as { events: Array<{ kind: string; calls?: Array<{ id: string }>; call_id?: string; error?: boolean }> }).events;
    assert.deepEqual(events.flatMap((e) => (e.calls ?? []).map((c) => c.id)), ["2", "3"]);
    assert.deepEqual(events.filter((e) => e.kind === "tool_result").map((e) => [e.call_id, e.error]), [["2", true], ["3", false]]);
  });

  it("a batch the proxy answers none of gets the server's own line, byte for byte", async () => {
    const host = new LineHost(start(NODE, [PROXY, "--guards", "--domain", "retail", "--", NODE, fixtureServer("answers-batches")]));
    host.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},  {"jsonrpc":"2.0","id":2,"method":"ping"}]`);
    assert.equal(await host.waitFor((l) => l.startsWith("[")), '[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]');
    await host.end();
  });

  it("stretto_commit inside a batch runs, and its report joins the batch's answer", async () => {
    const host = new LineHost(start(NODE, [PROXY, "--commit", "--", NODE, fixtureServer("answers-batches")]));
    host.send(`[${call("1", "stretto_commit", { calls: [{ name: "get_order_details", arguments: { order_id: "#W7a" } }] })},{"jsonrpc":"2.0","id":2,"method":"ping"}]`);
    const answer = await host.waitFor((l) => l.startsWith("["));
    const items = JSON.parse(answer) as Array<{ id: number; result: { content?: Array<{ text: string }> } }>;
    assert.deepEqual(items.map((i) => i.id), [1, 2]);
    assert.equal(items[0]!.result.content![0]!.text, 'get_order_details {"order_id":"#W7a"}:\nran get_order_details {"order_id":"#W7a"}');
    await host.end();
    assert.equal(host.lines.length, 1);
  });

  it("a batch refused whole (a key given twice in one of its calls) is answered with one array of errors", async () => {
    const host = new LineHost(start(NODE, [PROXY, "--guards", "--domain", "retail", "--", NODE, fixtureServer("answers-batches")]));
    host.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},${cancel("2").replace('"name":"cancel_pending_order"', '"name":"cancel_pending_order","name":"get_order_details"')}]`);
    const answer = JSON.parse(await host.waitFor((l) => l.startsWith("["))) as Array<{ id: number; error: { code: number } }>;
    assert.deepEqual(answer.map((a) => [a.id, a.error.code]), [[1, -32600], [2, -32600]]);
    await host.end();
  });
});
