/**
 * The demo speaks MCP 2026-07-28 beside the earlier revisions: `server/discover`, results
 * marked complete, listings with their cache fields, an unsupported revision refused with
 * the ones it speaks; over `--http`, a modern POST needs no session but its headers must
 * match the message. (End to end with a client pinned to the era: spec/listen/modern-era.spec.ts.)
 */
import assert from "node:assert/strict";
import { answerMessage } from "../../lib/demo/answer.js";
import { echoWorld } from "../../lib/demo/worlds/echo.js";
import { DEMO, NODE, killAll, start } from "../helpers/processes.js";

const V = "2026-07-28";
const modern = (method: string, version = V, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": version } } });
const result = (text: string) => answerMessage(text, echoWorld)?.message["result"] as Record<string, unknown>;

describe("the demo in the 2026-07-28 era", () => {
  after(killAll);

  it("answers server/discover with the revisions it speaks, and marks modern results complete", () => {
    const discovered = result(modern("server/discover"));
    assert.deepEqual(discovered["supportedVersions"], [V]);
    assert.deepEqual(discovered["capabilities"], { tools: { listChanged: false } });
    assert.equal((discovered["_meta"] as Record<string, { name: string }>)["io.modelcontextprotocol/serverInfo"]?.name, "stretto-mcp-demo");
    const listed = result(modern("tools/list"));
    assert.deepEqual([listed["resultType"], listed["ttlMs"], listed["cacheScope"]], ["complete", 0, "private"]);
    assert.equal(result(modern("tools/call", V, { name: "lookup", arguments: { text: "x" } }))["resultType"], "complete");
    // Legacy requests are answered as before.
    assert.equal(result('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')["resultType"], undefined);
  });

  it("refuses a revision it does not speak, naming the ones it does", () => {
    assert.deepEqual(answerMessage(modern("tools/list", "1900-01-01"), echoWorld)?.message["error"], {
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported: [V], requested: "1900-01-01" },
    });
  });

  it("over --http serves a modern POST with no session, when its headers match the message", async () => {
    const demo = start(NODE, [DEMO, "--http", "127.0.0.1:0"]);
    const url = await new Promise<string>((resolve) => demo.stdout!.once("data", (b: Buffer) => resolve(b.toString().trim())));
    const post = (h: Record<string, string>) =>
      fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...h }, body: modern("tools/list") });
    const ok = await post({ "MCP-Protocol-Version": V, "Mcp-Method": "tools/list" });
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as { result: { tools: unknown[] } }).result.tools.length, 2);
    const wrong: Array<Record<string, string>> = [{ "MCP-Protocol-Version": "2025-11-25", "Mcp-Method": "tools/list" }, { "MCP-Protocol-Version": V, "Mcp-Method": "tools/call" }, { "MCP-Protocol-Version": V }];
    for (const bad of wrong) {
      const r = await post(bad);
      assert.equal(r.status, 400);
      assert.match(((await r.json()) as { error: { message: string } }).error.message, /^HeaderMismatch: /);
    }
    demo.kill();
  });
});
