import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { DEMO, startHttpDemo, stopAll } from "./demo-process.js";

/** The official SDK's client proves the demo is a real MCP server, over both transports. */
describe("stretto-mcp-demo with the official MCP SDK client", () => {
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close(); // also ends a stdio transport's child
    client = undefined;
    await stopAll();
  });

  it("lists and calls the echo tools over stdio", async () => {
    client = new Client({ name: "spec", version: "0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [DEMO], stderr: "pipe" }));
    assert.deepEqual(client.getServerVersion(), { name: "stretto-mcp-demo", version: "0.1.0" });
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.annotations?.readOnlyHint]),
      [
        ["lookup", true],
        ["update", false],
      ],
    );
    const looked = await client.callTool({ name: "lookup", arguments: { text: "hello" } });
    assert.deepEqual(looked, { content: [{ type: "text", text: '{"text":"hello"}' }], isError: false });
    const failed = await client.callTool({ name: "update", arguments: { text: "hi", fail: true } });
    assert.deepEqual(failed, {
      content: [{ type: "text", text: 'update failed, as asked: {"fail":true,"text":"hi"}' }],
      isError: true,
    });
    await assert.rejects(client.callTool({ name: "delete", arguments: {} }), /Unknown tool: delete/);
  });

  it("lists and calls the shop's tools over Streamable HTTP, with its log messages and own stream", async () => {
    const demo = await startHttpDemo(["--world", "retail", "--require-auth", "Bearer t"]);
    const transport = new StreamableHTTPClientTransport(new URL(demo.url), {
      requestInit: { headers: { Authorization: "Bearer t" } },
    });
    client = new Client({ name: "spec", version: "0" });
    const logged: unknown[] = [];
    let heardHello!: () => void;
    const hello = new Promise<void>((r) => (heardHello = r));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logged.push(n.params.data);
      if (n.params.data === "hello from the server's own stream") heardHello();
    });
    await client.connect(transport);
    assert.match(transport.sessionId ?? "", /^demo-session-\d+$/);
    await hello; // the GET stream the SDK opens after initialized
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["find_user_id_by_email", "get_user_details", "get_order_details", "cancel_pending_order"],
    );
    const found = await client.callTool({ name: "find_user_id_by_email", arguments: { email: "c7@example.com" } });
    assert.deepEqual(found, { content: [{ type: "text", text: "user_7" }], isError: false });
    assert.deepEqual(logged, ["hello from the server's own stream", "calling find_user_id_by_email"]);
    await transport.terminateSession();
    assert.equal(transport.sessionId, undefined);
  });
});
