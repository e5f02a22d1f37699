/**
 * The guards plugin through the proxy's own active session (the plugin test kit): what it
 * refuses never reaches the server, and the host gets the refusal with the exact text.
 */
import assert from "node:assert/strict";
import { guardsPlugin } from "../../lib/plugins/guards/guards-plugin.js";
import { conversationSays, notification, request, runPlugins, toolCall, toolResultFor, type ServerMessage } from "../../lib/testing/index.js";

const guards = guardsPlugin({ domain: "retail" });
const ORDER = { order_id: "#W1", user_id: "ann_1", status: "pending", items: [{ item_id: "i1", product_id: "p1" }], payment_history: [{ payment_method_id: "credit_card_1" }] };

/** The retail server: ann@x.com is ann_1, #W1 is hers and pending; a cancellation succeeds. */
function retail(m: ServerMessage) {
  const name = (m.params as { name?: string } | undefined)?.name;
  if (m.method !== "tools/call") return m.id === undefined ? undefined : toolResultFor(m, "ok");
  if (name === "find_user_id_by_email") return toolResultFor(m, "ann_1");
  if (name === "get_order_details") return toolResultFor(m, JSON.stringify(ORDER));
  if (name === "cancel_pending_order") return toolResultFor(m, JSON.stringify({ ...ORDER, status: "cancelled" }));
  return toolResultFor(m, `no tool ${String(name)}`, true);
}

type ToolAnswer = { id: unknown; result: { content: Array<{ text: string }>; isError: boolean } };
type ErrorAnswer = { id: unknown; error: { code: number; message: string } };

describe("guards plugin (plugin test kit)", () => {
  it("refuses a cancel the policy forbids, with the exact text, and never sends it", async () => {
    const cancel = toolCall(1, "cancel_pending_order", { order_id: "#W1", reason: "changed my mind" });
    const r = await runPlugins({ plugins: [guards], domain: "retail", host: [cancel], server: retail });
    assert.deepEqual(r.toServer, []);
    assert.deepEqual(r.toHost, [{
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [{
          type: "text",
          text: "Refused by the policy check, so cancel_pending_order was not run and nothing changed: the user has not been authenticated by email or by name and zip code (policy check retail.authenticated); the order's status was not checked first (policy check retail.status_checked); 'changed my mind' is not an accepted reason (policy check retail.cancel_reason).",
        }],
        isError: true,
      },
    }]);
    assert.deepEqual(r.log.map((e) => e.from), ["client", "proxy"]);
    assert.deepEqual(r.said, [
      "refused cancel_pending_order: the user has not been authenticated by email or by name and zip code (policy check retail.authenticated); the order's status was not checked first (policy check retail.status_checked); 'changed my mind' is not an accepted reason (policy check retail.cancel_reason)",
    ]);
  });

  it("refuses only for what the session lacks: looked up, but the reason is not accepted", async () => {
    const r = await runPlugins({
      plugins: [guards],
      domain: "retail",
      host: [
        toolCall(1, "find_user_id_by_email", { email: "ann@x.com" }),
        toolCall(2, "get_order_details", { order_id: "#W1" }),
        toolCall(3, "cancel_pending_order", { order_id: "#W1", reason: "changed my mind" }),
      ],
      server: retail,
    });
    assert.deepEqual((r.toServer as Array<{ id: number }>).map((m) => m.id), [1, 2]);
    assert.equal((r.toHost[2] as ToolAnswer).result.content[0]!.text, "Refused by the policy check, so cancel_pending_order was not run and nothing changed: 'changed my mind' is not an accepted reason (policy check retail.cancel_reason).");
  });

  it("passes a proper cancel: authenticated, looked up, accepted reason, confirmed in the conversation (logged before the calls)", async () => {
    const r = await runPlugins({
      plugins: [guards],
      domain: "retail",
      conversation: [{ role: "user", content: "Cancel #W1, I'm ann@x.com" }],
      host: [
        toolCall(1, "find_user_id_by_email", { email: "ann@x.com" }),
        toolCall(2, "get_order_details", { order_id: "#W1" }),
        conversationSays({ role: "user", content: "Yes, please cancel it." }),
        toolCall(3, "cancel_pending_order", { order_id: "#W1", reason: "no longer needed" }),
      ],
      server: retail,
    });
    assert.deepEqual((r.toServer as Array<{ id: number }>).map((m) => m.id), [1, 2, 3]);
    assert.equal((r.toHost[2] as ToolAnswer).result.isError, false);
    assert.deepEqual(r.said, []);
    assert.deepEqual(r.log.map((e) => e.from), ["context", "client", "server", "client", "server", "context", "client", "server"]);
  });

  it("refuses a tools/call without a name with -32602: it cannot be checked", async () => {
    const r = await runPlugins({ plugins: [guards], domain: "retail", host: [request(7, "tools/call", { arguments: {} })], server: retail });
    assert.deepEqual(r.toServer, []);
    assert.deepEqual(r.toHost, [{
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: "stretto-proxy: a tools/call without a tool name cannot be checked by the policy guards, so it was not run" },
    }]);
    assert.deepEqual(r.said, ["refused a call: a tools/call without a tool name cannot be checked"]);
  });

  it("checks the calls of a batch one by one: the refused one is answered, the rest goes on, one batch back", async () => {
    const r = await runPlugins({
      plugins: [guards],
      domain: "retail",
      host: [[toolCall(1, "get_order_details", { order_id: "#W1" }), toolCall(2, "cancel_pending_order", { order_id: "#W1", reason: "changed my mind" })]],
      server: retail,
    });
    assert.deepEqual(r.toServer, [[toolCall(1, "get_order_details", { order_id: "#W1" })]]);
    const batch = r.toHost[0] as ToolAnswer[];
    assert.equal(r.toHost.length, 1);
    assert.deepEqual(batch.map((a) => [a.id, a.result.isError]), [[1, false], [2, true]]);
  });

  it("fails closed: a line it cannot read is answered by the proxy and logged raw, not forwarded", async () => {
    const r = await runPlugins({ plugins: [guards], domain: "retail", host: ['{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}', notification("notifications/initialized")], server: retail });
    assert.deepEqual(r.toServer, [notification("notifications/initialized")]);
    const refusal = r.toHost[0] as ErrorAnswer;
    assert.match(refusal.error.message, /^stretto-proxy did not forward this line: /);
    assert.equal(r.log[0]!.raw, '{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}');
  });
});
