/**
 * The flow plugin through the proxy's own active session (the plugin test kit): the
 * published flow, a scripted retail server answering both the agent and the flow's own
 * lookups, and the flow log kept in memory.
 */
import assert from "node:assert/strict";
import { APPENDIX } from "../../lib/plugins/flow/appendix.js";
import type { FlowLogSink } from "../../lib/plugins/flow/flow-log.js";
import { flowPlugin, type FlowSettings } from "../../lib/plugins/flow/flow-plugin.js";
import { loadFlow } from "../../lib/flow/ir/load-flow.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import { request, resultFor, runPlugins, toolCall, toolResultFor, type ServerMessage } from "../../lib/testing/index.js";
import { FIXTURE_PATH, requireFixture } from "./flow-fixture.js";

const TOOLS = [
  { name: "find_user_id_by_email", annotations: { readOnlyHint: true }, inputSchema: { type: "object", properties: { email: { type: "string" } }, required: ["email"] } },
  { name: "get_user_details", annotations: { readOnlyHint: true }, inputSchema: { type: "object", properties: { user_id: { type: "string" } }, required: ["user_id"] } },
  { name: "get_order_details", annotations: { readOnlyHint: true }, inputSchema: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] } },
];
const USER = '{"orders":["#W7a"],"user_id":"user_7"}';

function retail(m: ServerMessage) {
  if (m.method === "tools/list") return resultFor(m, { tools: TOOLS });
  const name = (m.params as { name?: string } | undefined)?.name;
  if (name === "find_user_id_by_email") return toolResultFor(m, "user_7");
  if (name === "get_user_details") return toolResultFor(m, USER);
  if (name === "get_order_details") return toolResultFor(m, "Order not found", true);
  return undefined;
}

type Answer = { id: unknown; result: { content: Array<{ text: string }> } };

describe("the flow plugin (plugin test kit)", function () {
  let flow: Flow;
  before(function () {
    requireFixture(this);
    flow = loadFlow(FIXTURE_PATH);
  });

  async function run(settings: Partial<FlowSettings> = {}) {
    const lines: string[] = [];
    const sink: FlowLogSink = { write: (l) => lines.push(l) };
    const r = await runPlugins({
      plugins: [flowPlugin({ flow, decider: "habit", threshold: 0.1, log: () => sink, ...settings })],
      domain: "retail",
      host: [request(2, "tools/list"), toolCall(3, "find_user_id_by_email", { email: "c7@example.com" })],
      server: retail,
    });
    return { ...r, flowLines: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
  }

  it("looks up what the agent will need next, as the proxy's own requests, and appends it to the agent's result", async () => {
    const r = await run();
    const own = (r.toServer as Array<{ id: unknown; params?: { name: string; arguments: unknown } }>).filter((m) => String(m.id).startsWith("stretto-"));
    assert.deepEqual(own[0], toolCall("stretto-1", "get_user_details", { user_id: "user_7" }));
    assert.equal(r.toHost.length, 2, "the answers to the lookups never reach the host");
    const items = (r.toHost[1] as Answer).result.content;
    assert.equal(items[0]!.text, "user_7");
    assert.ok(items[1]!.text.startsWith(APPENDIX));
    assert.ok(items[1]!.text.includes('\n\nget_user_details {"user_id":"user_7"}:\n' + USER));
    assert.equal(r.log.at(-1)!.from, "proxy", "the agent's result, rewritten, is the proxy's");
    assert.equal(r.flowLines.filter((l) => "action" in l)[0]!["tool"], "get_user_details");
  });

  it("follows a call whose tool name is written with escapes (read, not passed over by its bytes)", async () => {
    const escaped = String.raw`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"find\u005fuser_id_by_email","arguments":{"email":"c7@example.com"}}}`;
    const r = await runPlugins({
      plugins: [flowPlugin({ flow, decider: "habit", threshold: 0.1 })],
      domain: "retail",
      host: [escaped],
      server: retail,
    });
    const own = (r.toServer as Array<{ id: unknown }>).filter((m) => String(m.id).startsWith("stretto-"));
    assert.ok(own.length > 0, "the flow looked something up after the call");
  });

  it("without a flow log, lets a call of a tool with no site and its answer pass unchanged, and still follows the next call", async () => {
    const r = await runPlugins({
      plugins: [flowPlugin({ flow, decider: "habit", threshold: 0.1 })],
      domain: "retail",
      host: [toolCall(2, "search_catalog", { q: "lamp" }), toolCall(3, "find_user_id_by_email", { email: "c7@example.com" })],
      server: (m) => ((m.params as { name?: string } | undefined)?.name === "search_catalog" ? toolResultFor(m, "[]") : retail(m)),
    });
    assert.deepEqual(r.toHost[0], toolResultFor({ id: 2 }, "[]"));
    const own = (r.toServer as Array<{ id: unknown }>).filter((m) => String(m.id).startsWith("stretto-"));
    assert.ok(own.length > 0, "the flow looked something up after the second call");
  });

  it("in shadow decides and logs but looks nothing up, and the server's answer goes on unchanged", async () => {
    const r = await run({ shadow: true });
    assert.deepEqual(r.toServer, [request(2, "tools/list"), toolCall(3, "find_user_id_by_email", { email: "c7@example.com" })]);
    assert.deepEqual(r.toHost[1], toolResultFor({ id: 3 }, "user_7"));
    assert.equal(r.flowLines[0]!["shadow"], true);
    assert.equal(r.flowLines[0]!["action"], "lookup");
  });
});
