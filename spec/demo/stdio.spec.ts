import assert from "node:assert/strict";
import { call, finished, lines, rpc, runDemo, spawnDemo, stopAll } from "./demo-process.js";

const INSTRUCTIONS = "A demo server for stretto-proxy: two tools that echo their arguments.";
const initialized = (id: number, version: string) =>
  `{"id":${id},"jsonrpc":"2.0","result":{"capabilities":{"tools":{"listChanged":false}},` +
  `"instructions":"${INSTRUCTIONS}","protocolVersion":"${version}",` +
  `"serverInfo":{"name":"stretto-mcp-demo","version":"0.1.0"}}}`;
const ECHO_SCHEMA =
  '{"properties":{"delay_ms":{"description":"Wait this long before answering (at most 10 000).",' +
  '"minimum":0,"type":"integer"},"fail":{"description":"Return an error result instead.",' +
  '"type":"boolean"},"text":{"description":"Anything; echoed back.","type":"string"}},' +
  '"type":"object"}';
const ECHO_TOOLS =
  `{"tools":[{"annotations":{"readOnlyHint":true},` +
  `"description":"Look something up. Read-only; answers with its arguments.",` +
  `"inputSchema":${ECHO_SCHEMA},"name":"lookup"},` +
  `{"annotations":{"readOnlyHint":false},` +
  `"description":"Pretend to change something; answers with its arguments.",` +
  `"inputSchema":${ECHO_SCHEMA},"name":"update"}]}`;
const toolText = (id: number, text: string, isError: boolean) =>
  `{"id":${id},"jsonrpc":"2.0","result":{"content":[{"text":${JSON.stringify(text)},"type":"text"}],` +
  `"isError":${isError}}}`;

describe("stretto-mcp-demo over stdio", () => {
  afterEach(stopAll);

  it("answers each kind of line, one sorted-key line per answer, and exits 0 when stdin ends", async () => {
    const input = [
      rpc({ id: 1, method: "initialize", params: {} }),
      rpc({ id: 2, method: "initialize", params: { protocolVersion: "2025-03-26" } }),
      "   ",
      rpc({ method: "notifications/initialized" }),
      rpc({ id: 3, result: {} }),
      rpc({ id: 4, method: "ping" }),
      rpc({ id: 5, method: "tools/list" }),
      call(6, "lookup", { text: "hi", delay_ms: 1 }),
      call(7, "update", { fail: true }),
      call(8, "lookup"),
      call(9, "delete", {}),
      rpc({ id: 10, method: "resources/list" }),
      "[1, 2]",
      "not json",
    ];
    const run = await runDemo(["--world", "echo"], input.join("\n") + "\n");
    assert.equal(run.code, 0);
    assert.equal(run.stderr, "");
    // The blank line, the notification and the response get no answer.
    assert.deepEqual(lines(run.stdout), [
      initialized(1, "2025-06-18"),
      initialized(2, "2025-03-26"),
      '{"id":4,"jsonrpc":"2.0","result":{}}',
      `{"id":5,"jsonrpc":"2.0","result":${ECHO_TOOLS}}`,
      toolText(6, '{"delay_ms":1,"text":"hi"}', false),
      toolText(7, 'update failed, as asked: {"fail":true}', true),
      toolText(8, "{}", false),
      '{"error":{"code":-32602,"message":"Unknown tool: delete"},"id":9,"jsonrpc":"2.0"}',
      '{"error":{"code":-32601,"message":"Method not found: resources/list"},"id":10,"jsonrpc":"2.0"}',
      '{"error":{"code":-32600,"message":"Invalid Request: expected one JSON-RPC object"},"id":null,"jsonrpc":"2.0"}',
      '{"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"}',
    ]);
  });

  it("answers in input order: a slow call holds up every later answer", async () => {
    const child = spawnDemo([]);
    const done = finished(child);
    const arrivals: Array<[string, number]> = [];
    const start = Date.now();
    child.stdout.on("data", (c: Buffer) => {
      for (const l of c.toString("utf8").split("\n").filter(Boolean)) arrivals.push([l, Date.now() - start]);
    });
    child.stdin.end(
      [call(1, "update", { delay_ms: 400 }), call(2, "lookup", {}), rpc({ id: 3, method: "ping" })].join("\n") + "\n",
    );
    const run = await done;
    assert.equal(run.code, 0);
    assert.deepEqual(
      arrivals.map(([l]) => l),
      [toolText(1, '{"delay_ms":400}', false), toolText(2, "{}", false), '{"id":3,"jsonrpc":"2.0","result":{}}'],
    );
    assert.ok(arrivals[1]![1] >= 390, `the quick call was answered after ${arrivals[1]![1]} ms`);
  });

  it("reads bytes split on \\n: CRLF, invalid UTF-8 (replaced), a last line without \\n", async () => {
    const input = Buffer.concat([
      Buffer.from(rpc({ id: 1, method: "ping" }) + "\r\n"),
      Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup","arguments":{"text":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' caf\u00e9"}}}\n'),
      Buffer.from(rpc({ id: 3, method: "ping" })),
    ]);
    const run = await runDemo([], input);
    assert.equal(run.code, 0);
    assert.deepEqual(lines(run.stdout), [
      '{"id":1,"jsonrpc":"2.0","result":{}}',
      toolText(2, '{"text":"\ufffd\ufffd caf\u00e9"}', false),
      '{"id":3,"jsonrpc":"2.0","result":{}}',
    ]);
  });

  it("skips lines that are only (Unicode) whitespace, but not a byte-order mark", async () => {
    const input = ["", "  \t", "\u00a0\u3000\u0085", "\ufeff", rpc({ id: 1, method: "ping" })].join("\n");
    const run = await runDemo([], input + "\n");
    assert.deepEqual(lines(run.stdout), [
      '{"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"}',
      '{"id":1,"jsonrpc":"2.0","result":{}}',
    ]);
  });

  it("refuses as parse errors what a strict JSON parser (serde_json) refuses", async () => {
    const parseError = '{"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"}';
    const input = [
      '{"jsonrpc":"2.0","id":1,"method":"ping"} {}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup","arguments":{"text":"\\ud83d"}}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup","arguments":{"n":1e400}}}',
      `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"lookup","arguments":{"deep":${"[".repeat(200)}${"]".repeat(200)}}}}`,
      // A surrogate pair written as escapes is one character, and fine.
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"lookup","arguments":{"text":"\\ud83d\\ude00"}}}',
    ];
    const run = await runDemo([], input.join("\n") + "\n");
    assert.deepEqual(lines(run.stdout), [
      parseError,
      parseError,
      parseError,
      parseError,
      toolText(5, '{"text":"\u{1f600}"}', false),
    ]);
  });

  it("answers any non-null id as given, and leaves notifications and responses alone", async () => {
    const input = [
      rpc({ id: "a-1", method: "ping" }),
      rpc({ id: null, method: "ping" }),
      rpc({ id: 7, method: 42 }),
      rpc({ id: { x: [1] }, method: "ping" }),
      rpc({ id: 8, method: "tools/call", params: { name: "lookup", arguments: null } }),
    ];
    const run = await runDemo([], input.join("\n") + "\n");
    assert.deepEqual(lines(run.stdout), [
      '{"id":"a-1","jsonrpc":"2.0","result":{}}',
      '{"id":{"x":[1]},"jsonrpc":"2.0","result":{}}',
      toolText(8, "null", false),
    ]);
  });

  it("keeps up with a host that reads slowly, losing and reordering nothing", async function () {
    this.timeout(60_000);
    const child = spawnDemo([]);
    const done = finished(child);
    child.stdout.pause(); // hold off reading so the demo meets a full pipe
    const n = 3000;
    const filler = "x".repeat(1000);
    const input = Array.from({ length: n }, (_, i) => call(i, "lookup", { text: filler })).join("\n") + "\n";
    child.stdin.end(input);
    await new Promise((r) => setTimeout(r, 300));
    child.stdout.resume();
    const run = await done;
    assert.equal(run.code, 0);
    const answers = lines(run.stdout);
    assert.equal(answers.length, n);
    answers.forEach((a, i) => assert.equal(a, toolText(i, `{"text":"${filler}"}`, false)));
  });

  it("exits non-zero when its output is gone", async () => {
    const child = spawnDemo([]);
    const done = finished(child);
    child.stdout.destroy();
    child.stdin.write(rpc({ id: 1, method: "ping" }) + "\n");
    await new Promise((r) => setTimeout(r, 200));
    child.stdin.end(rpc({ id: 2, method: "ping" }) + "\n");
    const run = await done;
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^stretto-mcp-demo: .*Broken pipe/);
  });
});
