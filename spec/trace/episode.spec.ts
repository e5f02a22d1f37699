import assert from "node:assert/strict";
import {
  assistantTurns,
  callId,
  episode,
  episodeSent,
  isEpisode,
  manifest,
  parseLog,
  succeeded,
  toolCalls,
  usesNewValues,
  type AssistantEvent,
  type Json,
  type ToolResultEvent,
} from "../../lib/trace/index.js";
import { HEADER, at, call, callWith, logAt, logOf, outline, reply, results, type Line } from "./log-fixtures.js";

describe("trace: log → Episode", () => {
  it("version_2_adds_the_conversation_and_the_proxys_own_calls", () => {
    const log = logOf([
      ["context", { role: "user", content: "Cancel #W1 please" }],
      call(1, "get_user"),
      reply(1, "user"),
      [
        "proxy",
        {
          jsonrpc: "2.0",
          id: "stretto-flow-1",
          method: "tools/call",
          params: { name: "get_order", arguments: { order_id: "#W1" } },
        },
      ],
      reply("stretto-flow-1", "order"),
      ["context", { role: "assistant", content: "It is pending." }],
    ]);
    log.header.stretto_mcp_log = 2;
    const ep = episode(log);
    assert.deepEqual(outline(ep), [
      "user",
      "turn(get_user)",
      "result:1",
      "turn(get_order)",
      "result:stretto-flow-1",
      "turn()",
    ]);
    assert.deepEqual(ep.events[0], { kind: "user", text: "Cancel #W1 please" });
    assert.deepEqual(ep.events[5], { kind: "assistant", text: "It is pending.", calls: [], usage: null });
    // Neither kind of entry lists tools.
    assert.deepEqual(manifest(log, "retail").tools, {});
    // Version 2 logs parse; later versions do not.
    assert.doesNotThrow(() => parseLog(HEADER.replace('"stretto_mcp_log":1', '"stretto_mcp_log":2') + "\n"));
    assert.throws(() => parseLog(HEADER.replace('"stretto_mcp_log":1', '"stretto_mcp_log":3') + "\n"));
  });

  it("the_proxys_own_answers_count_and_a_calls_first_response_wins", () => {
    const log = logOf([
      call(1, "get_user"),
      reply(1, "user"),
      // The proxy's copy, with a flow's lookups appended: not a second result.
      [
        "proxy",
        {
          jsonrpc: "2.0",
          id: 1,
          result: {
            content: [
              { type: "text", text: "user" },
              { type: "text", text: "--- Also looked up automatically ---" },
            ],
            isError: false,
          },
        },
      ],
      call(2, "cancel_order"),
      // Refused by a guard: the proxy answers, and the server never sees the call.
      ["proxy", { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "Refused" }], isError: true } }],
    ]);
    const ep = episode(log);
    assert.deepEqual(outline(ep), ["turn(get_user)", "result:1", "turn(cancel_order)", "result:2"]);
    assert.deepEqual(results(ep), [
      ["1", false, "user"],
      ["2", true, "Refused"],
    ]);
  });

  it("groups_parallel_calls_into_one_turn", () => {
    const log = logOf([
      call(1, "get_user"),
      // Sent before either response: the same turn.
      call(2, "get_order"),
      reply(2, "order"),
      reply(1, "user"),
      // Everything answered: a new turn.
      call(3, "cancel_order"),
      reply(3, "cancelled"),
      call(4, "get_user"),
      call(5, "get_order"),
      reply(4, "user"),
      // Call 5 is still in flight, so this joins its turn.
      call(6, "get_payment"),
      reply(5, "order"),
      reply(6, "payment"),
      // Never answered: a call without a result.
      call(7, "get_user"),
    ]);
    const ep = episode(log);
    assert.deepEqual(outline(ep), [
      "turn(get_user,get_order)",
      "result:2",
      "result:1",
      "turn(cancel_order)",
      "result:3",
      "turn(get_user,get_order,get_payment)",
      "result:4",
      "result:5",
      "result:6",
      "turn(get_user)",
    ]);
    assert.equal(assistantTurns(ep), 4);
    assert.equal(toolCalls(ep).length, 7);
  });

  it("marks_tool_errors_and_protocol_errors", () => {
    const log = logOf([
      call(1, "cancel_order"),
      [
        "server",
        {
          jsonrpc: "2.0",
          id: 1,
          result: {
            isError: true,
            content: [
              { type: "text", text: "order is not pending" },
              { type: "text", text: "try get_order" },
            ],
          },
        },
      ],
      call(2, "no_such_tool"),
      ["server", { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Unknown tool: no_such_tool" } }],
      call(3, "get_order"),
      [
        "server",
        {
          jsonrpc: "2.0",
          id: 3,
          result: {
            content: [{ type: "image", data: "iVBO", mimeType: "image/png" }],
            structuredContent: { status: "pending" },
          },
        },
      ],
      call(4, "get_order"),
      ["server", { jsonrpc: "2.0", id: 4, result: { content: [] } }],
    ]);
    assert.deepEqual(results(episode(log)), [
      ["1", true, "order is not pending\ntry get_order"],
      ["2", true, "Unknown tool: no_such_tool"],
      ["3", false, '{"status":"pending"}'],
      ["4", false, '{"content":[]}'],
    ]);
  });

  it("writes a result's JSON compact, keys sorted, whatever order the server sent", () => {
    const log = logOf([
      call(1, "a"),
      ["server", { jsonrpc: "2.0", id: 1, result: { structuredContent: { z: 1, a: [true, null], é: "x" } } }],
      call(2, "b"),
      ["server", { jsonrpc: "2.0", id: 2, result: { isError: "yes", b: 1, a: { d: 2, c: 1 } } }],
      call(3, "c"),
      ["server", { jsonrpc: "2.0", id: 3, error: { message: 7, code: -1 } }],
    ]);
    assert.deepEqual(results(episode(log)), [
      ["1", false, '{"a":[true,null],"z":1,"é":"x"}'],
      ["2", false, '{"a":{"c":1,"d":2},"b":1,"isError":"yes"}'],
      ["3", true, '{"code":-1,"message":7}'],
    ]);
  });

  it("matches_string_and_numeric_ids", () => {
    const log = logOf([
      call(7, "get_user"),
      call("abc-1", "get_order"),
      // The server's own requests use its own ids, which may collide.
      ["server", { jsonrpc: "2.0", id: 7, method: "roots/list" }],
      ["client", { jsonrpc: "2.0", id: 7, result: { roots: [] } }],
      // The string "7" is not the number 7.
      reply("7", "not mine"),
      reply("abc-1", "order"),
      reply(7, "user"),
    ]);
    const ep = episode(log);
    assert.deepEqual(
      toolCalls(ep).map((c) => c.id),
      ["7", "abc-1"],
    );
    assert.deepEqual(results(ep), [
      ["abc-1", false, "order"],
      ["7", false, "user"],
    ]);
    assert.equal((ep.events[2] as ToolResultEvent).name, "get_user");
  });

  // A message of the conversation in another role, a call without a name, a
  // cancellation of nothing and a request of the client's own make no event. A call that
  // reuses the id of one still awaiting its result replaces it, and an error without a
  // message is shown whole.
  it("lines_that_make_no_event_change_nothing", () => {
    const log = logOf([
      ["context", { role: "system", content: "Be brief." }],
      ["client", { jsonrpc: "2.0", id: 1, method: "tools/call", params: {} }],
      call(2, "get_user"),
      call(2, "get_order"),
      ["client", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } }],
      ["client", { jsonrpc: "2.0", id: 3, method: "ping" }],
      ["server", { jsonrpc: "2.0", id: 2, error: { code: -32000 } }],
    ]);
    const ep = episode(log);
    assert.deepEqual(outline(ep), ["turn(get_user)", "turn(get_order)", "result:2"]);
    assert.deepEqual(results(ep), [["2", true, '{"code":-32000}']]);
  });

  it("skips_raw_lines_and_flattens_batches", () => {
    const text = [
      HEADER,
      '{"t_ms":0,"from":"client","message":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example-host","version":"1.0"}}}}',
      '{"t_ms":1,"from":"server","raw":"Debugger listening on ws://127.0.0.1:9229"}',
      '{"t_ms":2,"from":"client","message":[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b","arguments":{"x":1}}}]}',
      '{"t_ms":3,"from":"client","raw":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":3,"}',
      '{"t_ms":4,"from":"server","message":[{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"A"}]}},{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"B"}]}}]}',
      "",
    ].join("\n");
    const ep = episode(parseLog(text));
    assert.deepEqual(outline(ep), ["turn(a,b)", "result:1", "result:2"]);
    assert.deepEqual(
      toolCalls(ep).map((c) => c.arguments),
      [{}, { x: 1 }],
    );
    assert.deepEqual([ep.id, ep.task_id, ep.trial, ep.reward], ["s1", "", 0, 0]);
    assert.equal(ep.domain, "mcp");
    assert.equal(ep.agent_model, "example-host");
    assert.equal(succeeded(ep), false);

    // The header's names win over the defaults.
    const named = text.replace('"domain":null,"agent_model":null', '"domain":"shop","agent_model":"glm-5"');
    const ep2 = episode(parseLog(named));
    assert.deepEqual([ep2.domain, ep2.agent_model], ["shop", "glm-5"]);
  });

  it("a_call_close_after_its_turns_last_response_is_the_same_llm_turn", () => {
    // As in a Claude Code session: two reads of the turn reach the server together, and the
    // other two, streamed later, 120 ms after the last response. The next turn comes later.
    const channel = (id: number, name: string, c: string) => callWith(id, name, { channel: c });
    const log = at([
      [0, channel(7, "get_users", "general")],
      [0, channel(8, "get_users", "External_0")],
      [7, reply(7, '["Alice"]')],
      [9, reply(8, '["Bob"]')],
      [129, channel(9, "get_users", "random")],
      [129, channel(10, "get_users", "private")],
      [136, reply(9, "[]")],
      [137, reply(10, "[]")],
      // A turn of writes, run one at a time, 7 ms after each response.
      [9937, callWith(11, "add_user", { user: "Alice" })],
      [9941, reply(11, "ok")],
      [9948, callWith(12, "add_user", { user: "Bob" })],
      [9952, reply(12, "ok")],
      // The next turn, after the model read the results.
      [17963, channel(13, "get_users", "External_0")],
      [17970, reply(13, '["Alice","Bob"]')],
    ]);
    const turns = outline(episode(log)).filter((e) => e.startsWith("turn"));
    assert.deepEqual(turns, [
      "turn(get_users,get_users,get_users,get_users)",
      "turn(add_user,add_user)",
      "turn(get_users)",
    ]);
    // The last two reads were sent after two of their turn's results.
    const { sentAfter } = episodeSent(log);
    assert.deepEqual(
      ["7", "8", "9", "10", "11", "12", "13"].map((id) => sentAfter.get(id)),
      [0, 0, 2, 2, 0, 1, 0],
    );
    // Half a second is the limit, inclusive.
    const late = at([
      [0, call(1, "a")],
      [5, reply(1, "one")],
      [505, call(2, "b")],
      [510, reply(2, "two")],
      [1011, call(3, "c")],
    ]);
    assert.deepEqual(outline(episode(late)), ["turn(a,b)", "result:1", "result:2", "turn(c)"]);
  });

  it("a_call_that_needs_what_its_turn_returned_starts_a_new_one", () => {
    // A scripted agent calls as soon as it has a result: finding the user comes first, and
    // reading them needs the id it returned.
    const log = at([
      [0, callWith(1, "find_user", { email: "c1@example.com" })],
      [3, reply(1, "user_1")],
      [5, callWith(2, "get_user", { user_id: "user_1" })],
      [8, reply(2, '{"orders": ["#W1a", "#W1b"]}')],
      [10, callWith(3, "get_order", { order_id: "#W1a" })],
      [13, reply(3, '{"status": "pending"}')],
      // The customer's other order was known before this read: both could have been asked.
      [15, callWith(4, "get_order", { order_id: "#W1b" })],
      [18, reply(4, '{"status": "delivered"}')],
    ]);
    assert.deepEqual(
      outline(episode(log)).filter((e) => e.startsWith("turn")),
      ["turn(find_user)", "turn(get_user)", "turn(get_order,get_order)"],
    );
    // A value the turn returned that the session held before is not new; a number and a
    // short value count only when new.
    assert.equal(usesNewValues({ a: "user_1" }, "user_1", '"user_1"'), false);
    assert.equal(usesNewValues({ a: [7, "x"], b: 12 }, "12", ""), true);
    assert.equal(usesNewValues({ a: "x", b: true, c: null }, "x", ""), false);
    // Characters, not UTF-16 units: one emoji is one character.
    assert.equal(usesNewValues({ a: "😀" }, "😀", ""), false);
    assert.equal(usesNewValues({ a: "é1" }, "é1", ""), true);
  });

  it("something_said_between_calls_ends_the_turn", () => {
    const log = at([
      [0, call(1, "get_order")],
      [5, reply(1, "one")],
      [50, ["context", { role: "user", content: "And my other order?" }]],
      [60, call(2, "get_order")],
    ]);
    assert.deepEqual(outline(episode(log)), ["turn(get_order)", "result:1", "user", "turn(get_order)"]);
    assert.equal(callId(7), "7");
    assert.equal(callId("stretto-1"), "stretto-1");
  });

  it("the_proxys_lookups_one_after_another_are_turns_of_their_own", () => {
    // A flow's chain: each lookup follows the last one's result within milliseconds,
    // needing nothing it returned.
    const lookup = (id: string): Line => ["proxy", callWith(id, "get_order", { order_id: "#W1" })[1]];
    const log = at([
      [0, call(1, "get_user")],
      [5, reply(1, "#W1")],
      [6, lookup("stretto-1")],
      [8, reply("stretto-1", "one")],
      [9, lookup("stretto-2")],
      [11, reply("stretto-2", "two")],
    ]);
    assert.deepEqual(outline(episode(log)), [
      "turn(get_user)",
      "result:1",
      "turn(get_order)",
      "result:stretto-1",
      "turn(get_order)",
      "result:stretto-2",
    ]);
  });

  it("a_cancelled_call_releases_its_turn", () => {
    const log = logOf([
      call(1, "slow_search"),
      ["client", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "timeout" } }],
      call(2, "get_order"),
      reply(2, "order"),
      // Answered anyway, after the cancellation.
      reply(1, "late"),
    ]);
    assert.deepEqual(outline(episode(log)), ["turn(slow_search)", "turn(get_order)", "result:2", "result:1"]);
  });

  it("a call never answered keeps its turn open, so later calls join it", () => {
    const log = logOf([call(1, "hangs"), call(2, "a"), reply(2, "x"), call(3, "b")]);
    assert.deepEqual(outline(episode(log)), ["turn(hangs,a,b)", "result:2"]);
  });

  it("keeps a call's arguments as sent, and takes `{}` only when they are missing", () => {
    const log = logOf([
      callWith(1, "a", { z: 1, a: 2 }),
      reply(1, "x"),
      ["client", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "b", arguments: null } }],
    ]);
    const calls = toolCalls(episode(log));
    assert.deepEqual(Object.keys(calls[0]!.arguments as object), ["z", "a"]);
    assert.equal(calls[1]!.arguments, null);
  });

  describe("protocol eras", () => {
    const meta = (name: string): Json => ({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name, version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    });

    it("builds a 2026-07-28 session, which has no initialize, naming the client from _meta", () => {
      const log = logAt([
        [0, "client", { jsonrpc: "2.0", id: "d", method: "server/discover", params: { _meta: meta("new-host") } }],
        [2, "server", { jsonrpc: "2.0", id: "d", result: { serverInfo: { name: "demo" } } }],
        [
          5,
          "client",
          { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "lookup", arguments: {}, _meta: meta("other") } },
        ],
        [9, "server", { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ok" }] } }],
      ]);
      const ep = episode(log);
      assert.equal(ep.agent_model, "new-host");
      assert.deepEqual(outline(ep), ["turn(lookup)", "result:1"]);
    });

    it("prefers initialize's clientInfo, and the header's model to both", () => {
      const lines: [number, "client", Json][] = [
        [0, "client", { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: meta("from-meta") } }],
        [1, "client", { jsonrpc: "2.0", id: 2, method: "initialize", params: { clientInfo: { version: "0" } } }],
        [2, "client", { jsonrpc: "2.0", id: 3, method: "initialize", params: { clientInfo: { name: "from-init" } } }],
      ];
      assert.equal(episode(logAt(lines)).agent_model, "from-init");
      assert.equal(episode(logAt(lines.slice(0, 2))).agent_model, "from-meta");
      assert.equal(episode(logAt(lines.slice(1, 2))).agent_model, "unknown");
      const named = logAt(lines);
      named.header.agent_model = "glm-5";
      assert.equal(episode(named).agent_model, "glm-5");
    });
  });

  it("every episode matches the Episode schema, and a wrong one does not", () => {
    const log = logOf([
      ["context", { role: "user", content: "hi" }],
      call(1, "a"),
      ["server", { jsonrpc: "2.0", id: 1, error: { code: 1 } }],
    ]);
    const ep = episode(log);
    assert.ok(isEpisode(ep));
    const errors: string[] = [];
    const wrong = { ...ep, events: [{ ...(ep.events[1] as AssistantEvent), kind: "turn" }] };
    assert.equal(isEpisode(wrong, errors), false);
    assert.ok(errors.length > 0);
    assert.equal(isEpisode({ ...ep, trial: -1 }), false);
    assert.equal(isEpisode({ ...ep, extra: 1 }), false);
  });
});
