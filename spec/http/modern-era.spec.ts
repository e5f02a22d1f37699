/**
 * MCP 2026-07-28 through `--upstream` (docs/http-upstream.md): no `initialize`, no session
 * id, `server/discover`; each POST names its version, method and target in headers; nothing
 * waits for a session id; no GET stream, no DELETE; recording works.
 */
import { strict as assert } from "node:assert";
import type { ServerResponse } from "node:http";
import { startScriptedServer, type Behaviour, type ScriptedServer, type Seen } from "../../fixtures/http/scripted-server.js";
import { cleanTemp, killAll, readLogLines, sessionLogs, tempDir } from "../helpers/processes.js";
import { HostSession, proxyError } from "./support.js";

const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };
const modern = (id: number, method: string, params: Record<string, unknown> = {}, version = V) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: { ...META, "io.modelcontextprotocol/protocolVersion": version } },
});

const TOOLS = {
  tools: [
    {
      name: "execute_sql",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" }, query: { type: "string" } },
      },
    },
  ],
};
const UNSUPPORTED = (id: unknown) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}}`;

/** A dual-purpose modern server: answers by method, with the rules of 2026-07-28. */
function modernServer(onCancelled: (res: ServerResponse) => void): Behaviour {
  return (_req, res, seen: Seen) => {
    const m = seen.message!;
    const id = m.id;
    const reply = (value: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: value }));
    if (seen.headers["mcp-protocol-version"] === "1900-01-01") {
      res.writeHead(400, { "content-type": "application/json" }).end(UNSUPPORTED(id));
      return;
    }
    switch (m.method) {
      case "server/discover":
        return reply({ supportedVersions: [V], capabilities: { tools: {} }, serverInfo: { name: "modern", version: "0" }, resultType: "complete" });
      case "tools/list":
        return reply({ ...TOOLS, resultType: "complete" });
      case "resources/read":
        return reply({ contents: [], resultType: "complete" });
      case "tools/call": {
        const name = (m["params"] as { name: string }).name;
        if (name === "slow") {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write(": working\n\n");
          res.once("close", () => onCancelled(res));
          return;
        }
        res.writeHead(200, { "content-type": "text/event-stream", "x-accel-buffering": "no" });
        res.end(
          `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n` +
            `data: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"ok"}],"resultType":"complete"}}\n\n`,
        );
        return;
      }
      case "bare/refusal":
        res.writeHead(400).end();
        return;
      default:
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32601,"message":"Method not found"}}`);
    }
  };
}

describe("http upstream: MCP 2026-07-28", function () {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    await server?.close();
    server = undefined;
    cleanTemp();
  });

  it("sends the modern headers, waits for no session, and records the session", async () => {
    let cancelled!: () => void;
    const cancelledSeen = new Promise<void>((r) => (cancelled = r));
    server = await startScriptedServer({ post: { "*": modernServer(() => cancelled()) } });
    const record = tempDir();
    const host = HostSession.start(["--record", record, "--upstream", server.url]);
    // Everything at once: nothing waits for anything.
    host.send(
      modern(1, "server/discover"),
      modern(2, "tools/list"),
      modern(3, "resources/read", { uri: "file:///Zürich/a b.txt" }),
      modern(4, "unknown/method"),
      modern(5, "tools/list", {}, "1900-01-01"),
      modern(6, "bare/refusal"),
    );
    assert.deepEqual((await host.answerTo(1))["result"], {
      supportedVersions: [V],
      capabilities: { tools: {} },
      serverInfo: { name: "modern", version: "0" },
      resultType: "complete",
    });
    await host.answerTo(2);
    await host.answerTo(3);
    // A modern server's own JSON-RPC errors reach the host as it wrote them.
    assert.equal(await host.waitFor((l) => l.includes('"id":4')), '{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found"}}');
    assert.equal(await host.waitFor((l) => l.includes('"id":5')), UNSUPPORTED(5));
    assert.equal(await host.waitFor((l) => l.includes('"id":6')), proxyError(6, "the server answered HTTP 400 Bad Request"));

    // With the listing learned, a call mirrors its x-mcp-header argument.
    host.send(modern(7, "tools/call", { name: "execute_sql", arguments: { region: "us-west1", query: "SELECT 1" } }));
    assert.equal(
      await host.waitFor((l) => l.includes('"id":7')),
      '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"ok"}],"resultType":"complete"}}',
    );
    // Cancelling closes the request's stream, and the notification itself is not sent.
    host.send(modern(8, "tools/call", { name: "slow", arguments: {} }));
    await server.waitFor((s) => s.message?.id === 8);
    host.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 8, reason: "no longer needed" } });
    await cancelledSeen;
    const ended = await host.end();

    assert.equal(ended.code, 0);
    assert.ok(!ended.lines.some((l) => l.includes('"id":8')), "a cancelled request gets no answer from the proxy");
    assert.equal(server.seen.filter((s) => s.method !== "POST").length, 0, "no GET stream, no DELETE");
    assert.ok(!server.seen.some((s) => s.message?.method === "notifications/cancelled"));
    for (const s of server.seen) {
      assert.equal(s.headers["mcp-session-id"], undefined);
      assert.equal(s.headers["mcp-method"], s.message!.method, s.body);
    }
    const byId = (id: number) => server!.seen.find((s) => s.message?.id === id)!.headers;
    assert.equal(byId(1)["mcp-protocol-version"], V);
    assert.equal(byId(1)["mcp-name"], undefined);
    assert.equal(byId(3)["mcp-name"], `=?base64?${Buffer.from("file:///Zürich/a b.txt").toString("base64")}?=`);
    assert.equal(byId(5)["mcp-protocol-version"], "1900-01-01", "each request's own version");
    assert.equal(byId(7)["mcp-name"], "execute_sql");
    assert.equal(byId(7)["mcp-param-region"], "us-west1");
    assert.equal(byId(7)["mcp-param-query"], undefined);

    const [log] = sessionLogs(record);
    const { entries } = readLogLines(log!);
    assert.equal(entries.filter((e) => e.includes('"from":"client"')).length, 9);
    // 6 answers and one progress notification are the server's; the proxy's own error (id 6)
    // is the proxy's (logging it as a server line would blame the server for it).
    assert.equal(entries.filter((e) => e.includes('"from":"server"')).length, 7);
    assert.deepEqual(
      entries.filter((e) => e.includes('"from":"proxy"')).map((e) => e.replace(/^\{"t_ms":\d+,/, "{")),
      [`{"from":"proxy","message":${proxyError(6, "the server answered HTTP 400 Bad Request")}}`],
    );
  });
});
