import assert from "node:assert/strict";
import { McpStdioClient } from "../../lib/procedure/mcp-client.js";

/** A shell server that answers `initialize` after some noise, then the given lines in turn. */
function scripted(afterInit: string[]): string[] {
  const answers = afterInit.map((a, i) => `read -r l; printf '%s\\n' '${a.replace("ID", String(i + 2))}'`).join("; ");
  return [
    "sh",
    "-c",
    "read -r l; printf '%s\\n' 'not json' '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}' " +
      "'{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}' '{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}' " +
      "'{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"roots/list\"}' '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}'; " +
      `read -r l; ${answers}; cat >/dev/null`,
  ];
}

describe("the procedure's MCP stdio client", function () {
  this.timeout(30000);

  it("takes only the answer to its own request, and reads tool results as the run needs them", async () => {
    const client = await McpStdioClient.start(
      scripted([
        // Not the answer to request 2: another id, the id as a string or a float, a request of the server's.
        '{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"wrong"}]}}\' \'' +
          '{"jsonrpc":"2.0","id":"2","result":{"content":[{"type":"text","text":"wrong"}]}}\' \'' +
          '{"jsonrpc":"2.0","id":2.0,"result":{"content":[{"type":"text","text":"wrong"}]}}\' \'' +
          '{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{}}\' \'' +
          '{"jsonrpc":"2.0","id":ID,"result":{"content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}],"isError":true}}',
        '{"jsonrpc":"2.0","id":ID,"result":{}}',
        '{"jsonrpc":"2.0","id":ID,"result":{"content":"not a list","isError":"yes"}}',
        '{"error":{"code":-32602,"message":"Unknown tool: x"},"id":ID,"jsonrpc":"2.0"}',
      ]),
    );
    try {
      assert.deepEqual(await client.call("a", new Map()), { content: "a\nb", failed: true });
      assert.deepEqual(await client.call("b", new Map()), { content: "", failed: false });
      assert.deepEqual(await client.call("c", new Map()), { content: "", failed: false });
      await assert.rejects(client.call("x", new Map()), {
        message: 'tools/call: {"code":-32602,"message":"Unknown tool: x"}',
      });
    } finally {
      await client.shutdown();
    }
  });

  it("a server that ends without answering is an error", async () => {
    await assert.rejects(McpStdioClient.start(["sh", "-c", "read -r line"]), {
      message: "the server closed its output before answering initialize",
    });
    await assert.rejects(McpStdioClient.start([]), { message: "no server command" });
  });

  it("a server that does not exit is stopped, patience and all, in well under 5 s", async () => {
    const client = await McpStdioClient.start(
      ["sh", "-c", 'read -r l; printf \'{"jsonrpc":"2.0","id":1,"result":{}}\\n\'; exec sleep 30'],
      { patienceMs: 150 },
    );
    const started = Date.now();
    await client.shutdown();
    assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
  });
});

describe("the procedure's MCP stdio client, when the server stops reading", function () {
  this.timeout(30000);

  it("says the server's stdin is closed instead of waiting for an answer that cannot come", async () => {
    const client = await McpStdioClient.start(
      ["sh", "-c", 'read -r l; printf \'{"jsonrpc":"2.0","id":1,"result":{}}\\n\'; read -r l; exec 0<&-; exec sleep 30'],
      { patienceMs: 150 },
    );
    try {
      // The notification is read; then stdin is closed, so the call's request meets a broken pipe.
      await new Promise((r) => setTimeout(r, 300));
      await assert.rejects(client.call("x", new Map()), {
        message: "the server's stdin is closed",
      });
    } finally {
      await client.shutdown();
    }
  });
});
