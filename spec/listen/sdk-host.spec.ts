/**
 * The official SDK's StreamableHTTPClientTransport as the host, through
 * `stretto-proxy --listen -- server-everything` (stdio): list, call, progress, cancellation,
 * a server→host request (sampling), resumption of a dropped stream with Last-Event-ID, and
 * DELETE. Each is what the SDK does on its own against any Streamable HTTP server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { NODE, ROOT, cleanTemp, killAll } from "../helpers/processes.js";
import { Listening } from "./support.js";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const LONG = "trigger-long-running-operation";

type Text = { content: Array<{ type: string; text?: string }> };

describe("listen: the SDK's Streamable HTTP client as the host", function () {
  let proxy: Listening;
  before(async function () {
    proxy = await Listening.start(["--", NODE, EVERYTHING, "stdio"]);
  });
  after(async () => {
    await proxy.stop();
    killAll();
    cleanTemp();
  });

  async function connect(sessionId?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(proxy.url), sessionId === undefined ? {} : { sessionId });
    const client = new Client({ name: "spec-host", version: "1.0.0" }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: "assistant",
      content: { type: "text", text: "sampled by the host" },
      model: "spec-model",
      stopReason: "endTurn",
    }));
    await client.connect(transport);
    return { client, transport };
  }

  it("lists, calls, follows progress, cancels, and answers the server's own request", async function () {
    const { client, transport } = await connect();
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ["echo", LONG, "trigger-sampling-request"]) assert.ok(names.includes(name), name);
    const echoed = (await client.callTool({ name: "echo", arguments: { message: "hi" } })) as Text;
    assert.equal(echoed.content[0]?.text, "Echo: hi");

    const progress: number[] = [];
    await client.callTool({ name: LONG, arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    assert.deepEqual(progress, [1, 2, 3]);

    // Cancelled after its first progress: the call fails at once, the session goes on.
    const abort = new AbortController();
    const cancelled = client.callTool({ name: LONG, arguments: { duration: 30, steps: 300 } }, undefined, {
      signal: abort.signal,
      onprogress: () => abort.abort("enough"),
    });
    await assert.rejects(cancelled);
    const sampled = (await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hello", maxTokens: 10 } })) as Text;
    assert.match(JSON.stringify(sampled.content), /sampled by the host/);
    await transport.terminateSession();
    await client.close();
  });

  it("resumes a dropped stream with Last-Event-ID, then DELETE ends the session", async function () {
    const first = await connect();
    const sessionId = first.transport.sessionId!;
    let token: string | undefined;
    let dropped!: () => void;
    const firstProgress = new Promise<void>((r) => (dropped = r));
    const lost = first.client.request(
      { method: "tools/call", params: { name: LONG, arguments: { duration: 0.6, steps: 3 } } },
      CallToolResultSchema,
      { onresumptiontoken: (t) => (token = t), onprogress: () => dropped() },
    );
    lost.catch(() => {});
    await firstProgress;
    await first.client.close(); // the connection goes; the call goes on at the server
    assert.match(token!, /^\d+-\d+$/);

    const again = await connect(sessionId);
    const resumed = (await again.client.request({ method: "tools/call", params: { name: LONG, arguments: {} } }, CallToolResultSchema, { resumptionToken: token })) as Text;
    assert.match(resumed.content[0]?.text ?? "", /Long running operation completed\. Duration: 0\.6 seconds, Steps: 3\./);

    await again.transport.terminateSession();
    await proxy.said(/session \d+ ended: its host ended it/);
    await assert.rejects(again.client.listTools());
    await again.client.close();
  });
});
