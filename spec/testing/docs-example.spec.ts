/**
 * The examples of "Testing a plugin" (docs/plugins.md), as written there: the deny-tool
 * plugin run by the kit, and its client operator in a marble diagram.
 */
import assert from "node:assert/strict";
import denyTool from "../../fixtures/plugins/deny-tool.js";
import { request, runPlugins, stubContext, testOperator, toolCall, toolResultFor } from "../../lib/testing/index.js";

describe("docs/plugins.md: testing a plugin", () => {
  let before: string | undefined;
  beforeEach(() => {
    before = process.env["STRETTO_DENY_TOOLS"];
    process.env["STRETTO_DENY_TOOLS"] = "update";
  });
  afterEach(() => {
    if (before === undefined) delete process.env["STRETTO_DENY_TOOLS"];
    else process.env["STRETTO_DENY_TOOLS"] = before;
  });

  it("refuses a denied call; the rest reaches the server", async () => {
    const run = await runPlugins({
      plugins: [denyTool],
      host: [toolCall(1, "update", { id: 7 }), toolCall(2, "lookup", { id: 7 })],
      server: (m) => toolResultFor(m, "done"),
    });
    assert.deepEqual(run.toServer, [toolCall(2, "lookup", { id: 7 })]);
    assert.deepEqual(run.toHost[0], {
      jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "update is not allowed here; nothing was run." }], isError: true },
    });
    assert.deepEqual(run.log.map((e) => e.from), ["client", "proxy", "client", "server"]);
    assert.deepEqual(run.said, ["refused update: denied by the deny-tool plugin"]);
  });

  it("withholds a denied call in a marble diagram", async () => {
    const { context, toHost } = stubContext();
    const plugin = await denyTool(context);
    testOperator(({ host, expectLines }) => {
      const lines = host("a-b-c|", { a: request(1, "tools/list"), b: toolCall(2, "update"), c: toolCall(3, "lookup") });
      expectLines(lines.pipe(plugin.client!)).toBe("a---c|", { a: request(1, "tools/list"), c: toolCall(3, "lookup") });
    });
    assert.deepEqual(toHost, [{
      jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "update is not allowed here; nothing was run." }], isError: true },
    }]);
  });
});
