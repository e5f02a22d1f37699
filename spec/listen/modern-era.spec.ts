/**
 * MCP 2026-07-28 hosts (no `initialize`, no session id) end to end, with a real client
 * pinned to that era: the MCP Inspector 2.x CLI (`mcpdo connect --era modern`). It finds
 * `stretto-mcp-demo` offering the era over stdio and over `--http`, and through
 * `stretto-proxy --listen`; a call goes through each. mcpdo keeps a daemon and a catalog:
 * both live in a temporary HOME here, and the daemon is stopped at the end.
 * Then the proxy's own side, over raw HTTP: a modern POST needs no session id, gets none,
 * and `Stretto-Session` tells two hosts' sessions apart.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, NODE, ROOT, cleanTemp, killAll, readLogLines, run, sessionLogs, start, tempDir } from "../helpers/processes.js";
import { JSON_ONLY, Listening } from "./support.js";

const MCPDO = join(ROOT, "node_modules/@modelcontextprotocol/inspector/clients/mcpdo/build/mcp-bin.js");
const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientInfo": { name: "spec", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const modern = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } });
const headers = (method: string) => ({ ...JSON_ONLY, "MCP-Protocol-Version": V, "Mcp-Method": method });

function demoHttp(): Promise<string> {
  const demo = start(NODE, [DEMO, "--http", "127.0.0.1:0"]);
  return new Promise((resolve) => {
    let out = "";
    demo.stdout!.setEncoding("utf8");
    demo.stdout!.on("data", (t: string) => {
      out += t;
      if (out.includes("\n")) resolve(out.trim());
    });
  });
}

describe("listen: MCP 2026-07-28 hosts", function () {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("mcpdo --era modern finds the era in the demo (stdio, --http) and through --listen, and calls through each", async function () {
    const home = tempDir("stretto-mcpdo-");
    const env = { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, "catalog.json"), MCP_INSPECTOR_SECRET_STORE: "file" };
    const mcpdo = (...args: string[]) => run(NODE, [MCPDO, ...args], { env, cwd: home, timeoutMs: 60_000 });
    const logs = tempDir();
    const proxy = await Listening.start(["--record", logs, "--", NODE, DEMO]);
    const servers = {
      "demo-stdio": { command: NODE, args: [DEMO], protocolEra: "modern" },
      "demo-http": { type: "http", url: await demoHttp(), protocolEra: "modern" },
      listen: { type: "http", url: proxy.url, protocolEra: "modern" },
    };
    writeFileSync(env.MCP_CATALOG_PATH, JSON.stringify({ mcpServers: servers }));
    try {
      const names = Object.keys(servers);
      const connected = await Promise.all(names.map((n) => mcpdo("connect", n)));
      for (const [i, c] of connected.entries()) assert.match(c.stdout.toString(), /Era: modern/, `${names[i]}: ${c.stderr}`);
      const called = await Promise.all(names.map((n) => mcpdo(`@${n}`, "tools/call", "lookup", `text:=${n}`, "--format", "json")));
      for (const [i, c] of called.entries()) {
        const result = JSON.parse(c.stdout.toString()) as { content: Array<{ text: string }>; isError: boolean };
        assert.deepEqual(result, { content: [{ type: "text", text: JSON.stringify({ text: names[i] }) }], isError: false });
      }
    } finally {
      await mcpdo("daemon", "stop");
    }
    assert.equal(await proxy.stop(), 0);
    const [log] = sessionLogs(logs);
    const { header, entries } = readLogLines(log!);
    assert.equal(header["era"], "modern");
    const methods = entries.map((e) => (JSON.parse(e) as { message?: { method?: string } }).message?.method).filter((m) => m !== undefined);
    assert.deepEqual(methods.slice(0, 1), ["server/discover"]);
    assert.ok(methods.includes("tools/call"));
  });

  it("serves a modern POST without a session id, and tells hosts apart by Stretto-Session", async function () {
    const proxy = await Listening.start(["--", NODE, DEMO]);
    const discovered = await proxy.post(modern(1, "server/discover"), headers("server/discover"));
    assert.equal(discovered.status, 200);
    assert.equal(discovered.headers["mcp-session-id"], undefined, "a modern session has no id");
    const result = (JSON.parse(discovered.body) as { result: { supportedVersions: string[]; resultType: string } }).result;
    assert.deepEqual(result.supportedVersions, [V]);
    // The same id from two named hosts: two sessions, so no clash.
    for (const host of ["a", "b"]) {
      const r = await proxy.post(modern(2, "tools/list"), { ...headers("tools/list"), "Stretto-Session": host });
      assert.equal(r.status, 200, r.body);
      assert.equal((JSON.parse(r.body) as { result: { tools: unknown[] } }).result.tools.length, 2);
    }
    await proxy.said("session 2 opened, for host session a");
    await proxy.said("session 3 opened, for host session b");
    assert.equal(await proxy.stop(), 0);
  });
});
