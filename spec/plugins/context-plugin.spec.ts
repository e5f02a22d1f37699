/**
 * The context plugin (`--context FILE`) through the proxy's own active session (the plugin
 * test kit, which wires the real plugin to a conversation file of the test's lines).
 */
import assert from "node:assert/strict";
import { CONVERSATION, type PluginFactory } from "../../lib/plugins/index.js";
import { conversationSays, request, resultFor, runPlugins, toolCall, toolResultFor, type ServerMessage } from "../../lib/testing/index.js";

const server = (m: ServerMessage) => (m.method === "tools/call" ? toolResultFor(m, "done") : resultFor(m, {}));
const said = (content: string) => ({ role: "user", content });
const entries = (log: Array<{ from: string; message?: unknown }>) =>
  log.map((e) => (e.from === "context" ? `context:${(e.message as { content: string }).content}` : `${e.from}:${(e.message as { id: number }).id}`));

describe("context plugin (plugin test kit)", () => {
  it("logs the conversation as context entries just before a tool call, not before other requests", async () => {
    const r = await runPlugins({
      plugins: [],
      conversation: [said("hi"), { role: "assistant", content: "hello, how can I help?" }],
      host: [request(1, "tools/list"), toolCall(2, "get_order_details", { order_id: "#W1" })],
      server,
    });
    assert.deepEqual(entries(r.log), ["client:1", "server:1", "context:hi", "context:hello, how can I help?", "client:2", "server:2"]);
    assert.deepEqual(r.log[2]!.message, said("hi"), "the line as the host wrote it");
    assert.deepEqual(r.toServer, [request(1, "tools/list"), toolCall(2, "get_order_details", { order_id: "#W1" })], "the conversation never reaches the server");
  });

  it("reads only what was appended since the last read, and the rest when the host ends", async () => {
    const r = await runPlugins({
      plugins: [],
      conversation: [said("one")],
      host: [toolCall(1, "a"), conversationSays(said("two"), "   "), toolCall(2, "b"), toolCall(3, "c"), conversationSays(said("bye"))],
      server,
    });
    assert.deepEqual(entries(r.log), ["context:one", "client:1", "server:1", "context:two", "client:2", "server:2", "client:3", "server:3", "context:bye"]);
  });

  it("puts the customer's words in the session's Episode", async () => {
    const r = await runPlugins({ plugins: [], conversation: [said("cancel #W1 please")], host: [toolCall(1, "get_order_details", { order_id: "#W1" })], server });
    assert.deepEqual(r.episode.events[0], { kind: "user", text: "cancel #W1 please" });
  });

  it("offers the CONVERSATION service: another plugin reads the conversation when it needs it", async () => {
    const readsOnList: PluginFactory = (session) => ({
      name: "reads-on-list",
      sees(f) {
        if (f.from === "client" && f.bytes.includes("tools/list")) session.service(CONVERSATION)?.readContext();
      },
    });
    const r = await runPlugins({ plugins: [readsOnList], conversation: [said("hi")], host: [request(1, "tools/list")], server });
    assert.deepEqual(entries(r.log), ["context:hi", "client:1", "server:1"]);
  });
});
