/** `--plugin` end to end: the example plugin and a test plugin, behind the real proxy and demo. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEMO, DIST, NODE, cleanTemp, jsonLines, killAll, readLogLines, run, runProxy, sessionLogs, tempDir } from "../helpers/processes.js";

const DENY = join(DIST, "fixtures/plugins/deny-tool.js");
const ASK_TWICE = join(DIST, "fixtures/plugins/ask-twice.js");
const call = (id: number | string, name: string, args: object = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

describe("--plugin: user plugins on the public API", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("a refused call never reaches the server; other lines pass byte for byte", async () => {
    const dir = tempDir();
    const input = jsonLines(call(1, "lookup", { text: "a" }), call("two", "update", { text: "b" }), call(3, "lookup", { text: "c" }));
    const direct = await run(NODE, [DEMO], { input: jsonLines(call(1, "lookup", { text: "a" }), call(3, "lookup", { text: "c" })) });
    const r = await runProxy(["--record", dir, "--plugin", DENY, "--", NODE, DEMO], {
      input,
      env: { ...process.env, STRETTO_DENY_TOOLS: "update" },
    });
    assert.equal(r.code, 0);
    // The refusal comes straight from the proxy; the server's answers keep their bytes and order.
    const lines = r.stdout.toString().trimEnd().split("\n");
    assert.deepEqual(lines, [
      '{"jsonrpc":"2.0","id":"two","result":{"content":[{"type":"text","text":"update is not allowed here; nothing was run."}],"isError":true}}',
      ...direct.stdout.toString().trimEnd().split("\n"),
    ]);
    assert.match(r.stderr, /stretto-proxy: refused update: denied by the deny-tool plugin/);

    const { entries } = readLogLines(sessionLogs(dir)[0]!);
    const parsed = entries.map((e) => JSON.parse(e) as { from: string; message: { id?: unknown; method?: string } });
    assert.deepEqual(parsed.map((e) => `${e.from}:${JSON.stringify(e.message.id)}`), [
      "client:1", "client:\"two\"", "proxy:\"two\"", "client:3", "server:1", "server:3",
    ]);
  });

  it("a plugin's own requests use stretto-<n> ids; their answers go to the plugin, not the host", async () => {
    const dir = tempDir();
    const r = await runProxy(["--record", dir, "--plugin", ASK_TWICE, "--", NODE, DEMO], {
      input: jsonLines(call(1, "both", { text: "x" }), call(2, "lookup", { text: "after" })),
    });
    assert.equal(r.code, 0);
    const lines = r.stdout.toString().trimEnd().split("\n").map((l) => JSON.parse(l) as { id: unknown; result: { content: Array<{ text: string }> } });
    assert.deepEqual(lines.map((l) => l.id), [1, 2], "no stretto-<n> answer reaches the host, and order is kept");
    assert.equal(lines[0]!.result.content[0]!.text, 'lookup: {"text":"x"}\nupdate: {"text":"x"}');
    const { entries } = readLogLines(sessionLogs(dir)[0]!);
    const own = entries.map((e) => JSON.parse(e) as { from: string; message: { id?: unknown } }).filter((e) => String(e.message.id).startsWith("stretto-"));
    assert.deepEqual(own.map((e) => `${e.from}:${String(e.message.id)}`), [
      "proxy:stretto-1", "server:stretto-1", "proxy:stretto-2", "server:stretto-2",
    ]);
  });

  it("a plugin that cannot be loaded is the proxy's failure: 125 with the reason", async () => {
    const r = await runProxy(["--plugin", "./no/such/plugin.js", "--", "cat"]);
    assert.equal(r.code, 125);
    assert.match(r.stderr, /^stretto-proxy: loading the plugin \.\/no\/such\/plugin\.js: /);
    const notPlugin = await runProxy(["--plugin", join(DIST, "lib/version.js"), "--", "cat"]);
    assert.equal(notPlugin.code, 125);
    assert.match(notPlugin.stderr, /it exports no plugin/);
  });

  it("with plugins, a 64 MiB line still arrives whole and exact", async () => {
    const big = Buffer.alloc(64 << 20, 0x61);
    big.write('{"x":"', 0);
    big.write('"}\n', big.length - 3);
    const r = await runProxy(["--plugin", DENY, "--", "cat"], { input: big, timeoutMs: 60000 });
    assert.equal(r.code, 0);
    assert.ok(r.stdout.equals(big));
  });
});
