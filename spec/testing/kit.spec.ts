/**
 * The plugin test kit itself: a scripted host and server around the proxy's own active
 * session, and marble diagrams over frames.
 */
import assert from "node:assert/strict";
import { decide, serviceKey, type Frame, type PluginFactory } from "../../lib/plugins/index.js";
import {
  conversationSays, KitTimeout, notification, request, resultFor, runPlugins, testOperator, toolCall, toolResultFor,
  type ServerMessage,
} from "../../lib/testing/index.js";
import { map } from "../../lib/plugins/rx.js";
import { commitPlugin } from "../../lib/plugins/commit/commit-plugin.js";
import { COMMIT_TOOL } from "../../lib/plugins/commit/listing.js";
import { stubContext } from "../../lib/testing/index.js";

const echo = (m: ServerMessage) => (m.id === undefined ? undefined : resultFor(m, { echo: m.method }));

/** Answers request 1 itself after `ms`, instead of forwarding it (the lines behind it wait). */
const slowAnswerToOne = (ms: number): PluginFactory => (session) => ({
  name: "slow",
  client: decide(async (f: Frame) => {
    const m = JSON.parse(f.bytes.toString()) as { id?: unknown };
    if (m.id !== 1) return [f];
    await new Promise((r) => setTimeout(r, ms));
    session.toClient(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"slow":true}}\n'));
    return [];
  }),
});

describe("the plugin test kit (stretto-proxy/testing)", () => {
  describe("runPlugins", () => {
    it("passes lines both ways in order, and logs them as the recorder writes them", async () => {
      const r = await runPlugins({ plugins: [], host: [request(1, "a"), request(2, "b"), request(3, "c")], server: echo });
      assert.deepEqual(r.toServer, [request(1, "a"), request(2, "b"), request(3, "c")]);
      assert.deepEqual(r.toHost.map((l) => (l as { result: unknown }).result), [{ echo: "a" }, { echo: "b" }, { echo: "c" }]);
      assert.deepEqual(r.log.map((e) => `${e.from}:${(e.message as { id: number }).id}`), ["client:1", "server:1", "client:2", "server:2", "client:3", "server:3"]);
      assert.deepEqual(r.log.map((e) => e.t_ms), [1, 1, 2, 2, 3, 3], "the fake clock moves 1 ms before each host line");
      assert.deepEqual(r.said, []);
    });

    it("a sequential host sends its next request only after the answer; sequential: false sends at once", async () => {
      const plugins = [slowAnswerToOne(30)];
      const host = [request(1, "slow"), request(2, "next")];
      const seq = await runPlugins({ plugins, host, server: echo });
      assert.deepEqual(seq.log.map((e) => `${e.from}:${(e.message as { id: number }).id}`), ["client:1", "proxy:1", "client:2", "server:2"]);
      const all = await runPlugins({ plugins, host, server: echo, sequential: false });
      assert.deepEqual(all.log.map((e) => `${e.from}:${(e.message as { id: number }).id}`), ["client:1", "client:2", "proxy:1", "server:2"]);
    });

    it("sends notifications at once, without waiting for an answer", async () => {
      const r = await runPlugins({ plugins: [], host: [notification("notifications/initialized"), request(1, "ping")], server: echo, timeoutMs: 300 });
      assert.deepEqual(r.toServer, [notification("notifications/initialized"), request(1, "ping")]);
      assert.equal(r.toHost.length, 1);
    });

    it("sends raw lines as they are and reads lines that are not JSON as text", async () => {
      const r = await runPlugins({
        plugins: [],
        host: ["not json", Buffer.from([0x7b, 0xff, 0x7d, 0x0a]), '{"jsonrpc":"2.0", "id":1, "method":"spaced"}'],
        server: (m) => (m.id === 1 ? ["hello there", resultFor(m, {})] : undefined),
      });
      assert.deepEqual(r.toServer, ["not json", "{\ufffd}", { jsonrpc: "2.0", id: 1, method: "spaced" }]);
      assert.deepEqual(r.toHost, ["hello there", { jsonrpc: "2.0", id: 1, result: {} }]);
      assert.deepEqual(r.log.map((e) => e.raw ?? e.message), ["not json", "{\ufffd}", { jsonrpc: "2.0", id: 1, method: "spaced" }, "hello there", { jsonrpc: "2.0", id: 1, result: {} }]);
    });

    it("hands the server a batch message by message and answers it as one batch", async () => {
      const r = await runPlugins({ plugins: [], host: [[request(1, "a"), notification("n"), request(2, "b")]], server: echo });
      assert.deepEqual(r.toHost, [[resultFor({ id: 1 }, { echo: "a" }), resultFor({ id: 2 }, { echo: "b" })]]);
    });

    it("fails with a KitTimeout naming the request when the server never answers", async () => {
      const started = Date.now();
      await assert.rejects(
        runPlugins({ plugins: [], host: [toolCall(1, "get_order_details", { order_id: "#W1" }), request(2, "never sent")], timeoutMs: 100 }),
        (e: unknown) => {
          assert.ok(e instanceof KitTimeout);
          assert.match(e.message, /^runPlugins: no answer to the host's request 1 \(tools\/call get_order_details\) came .*; waited 100 ms \(timeoutMs\)$/);
          assert.deepEqual(e.run.toServer, [toolCall(1, "get_order_details", { order_id: "#W1" })]);
          return true;
        },
      );
      assert.ok(Date.now() - started < 1000);
    });

    it("goes on past an unanswered request with onNoAnswer: \"go-on\"; sends everything with sequential: false", async () => {
      const host = [request(1, "a"), request(2, "b")];
      const goOn = await runPlugins({ plugins: [], host, timeoutMs: 50, onNoAnswer: "go-on" });
      assert.deepEqual(goOn.toServer, host);
      const all = await runPlugins({ plugins: [], host, sequential: false });
      assert.deepEqual(all.toServer, host);
      assert.deepEqual(all.toHost, []);
    });

    it("fails when a plugin holds a line for ever, instead of hanging", async () => {
      const holds: PluginFactory = () => ({ name: "holds", client: decide(() => new Promise<Frame[]>(() => {})) });
      await assert.rejects(runPlugins({ plugins: [holds], host: [notification("n")], timeoutMs: 100 }), /the session did not end after the host's last line/);
    });

    it("reports a server script that throws, and a plugin setup error", async () => {
      await assert.rejects(
        runPlugins({ plugins: [], host: [request(1, "boom")], server: () => { throw new Error("no such thing"); } }),
        /^Error: runPlugins: the server script threw on \{"jsonrpc":"2.0","id":1,"method":"boom"\}: no such thing$/,
      );
      const KEY = serviceKey<number>("twice");
      const provides: PluginFactory = (s) => (s.provide(KEY, 1), { name: "p" });
      await assert.rejects(runPlugins({ plugins: [provides, provides], host: [] }), /two plugins provide the service "twice"/);
    });

    it("gives the session's Episode, and the context plugin reads the conversation steps", async () => {
      const r = await runPlugins({
        plugins: [],
        domain: "retail",
        conversation: [{ role: "user", content: "where is my order?" }],
        host: [toolCall(1, "get_order_details", { order_id: "#W1" }), conversationSays({ role: "user", content: "thanks" }), toolCall(2, "noop")],
        server: (m) => toolResultFor(m, "shipped"),
      });
      assert.deepEqual(r.log.map((e) => e.from), ["context", "client", "server", "context", "client", "server"]);
      assert.deepEqual(r.episode.events.map((e) => e.kind), ["user", "assistant", "tool_result", "user", "assistant", "tool_result"]);
      assert.equal(r.episode.domain, "retail");
    });
  });

  describe("marble diagrams (testOperator)", () => {
    it("tests an operator over frames in virtual time", () => {
      testOperator(({ host, expectLines, expectFrames }) => {
        const source = host("a-b-c|", { a: request(1, "a"), b: notification("drop me"), c: "raw" });
        const out = source.pipe(decide((f: Frame) => (f.bytes.includes("drop me") ? [] : [f])));
        expectLines(out).toBe("a---c|", { a: request(1, "a"), c: "raw" });
        expectFrames(source.pipe(map((f) => f))).toBe("a-b-c|", { a: { from: "client", line: request(1, "a") }, b: { from: "client", line: notification("drop me") }, c: { from: "client", line: "raw" } });
      });
    });

    it("tests a plugin's operators on a stub session: a line it rewrites comes out from the proxy", async () => {
      const { context, toHost, said } = stubContext({ domain: "retail" });
      const plugin = await commitPlugin()(context);
      testOperator(({ host, server, expectLines, expectFrames }) => {
        expectLines(host("a|", { a: request(1, "tools/list") }).pipe(plugin.client!)).toBe("a|", { a: request(1, "tools/list") });
        const answers = server("-b-c|", { b: resultFor({ id: 1 }, { tools: [] }), c: resultFor({ id: 2 }, { tools: [] }) });
        expectFrames(answers.pipe(plugin.server!)).toBe("-b-c|", {
          b: { from: "proxy", line: resultFor({ id: 1 }, { tools: [COMMIT_TOOL] }) },
          c: { from: "server", line: resultFor({ id: 2 }, { tools: [] }) },
        });
      });
      assert.deepEqual([toHost, said], [[], []]);
    });

    it("fails with the marble diff when the operator does something else", () => {
      assert.throws(() =>
        testOperator(({ server, expectLines }) => {
          expectLines(server("a|", { a: request(1, "a") })).toBe("-a|", { a: request(1, "a") });
        }),
      );
    });
  });
});
