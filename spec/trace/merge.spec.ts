import assert from "node:assert/strict";
import {
  episode,
  groupSessions,
  headerJson,
  jsonText,
  manifestOf,
  merge,
  qualifiedLog,
  qualify,
  qualifyEpisode,
  serverName,
  serverOf,
  summarize,
  unqualified,
  type Json,
  type McpLog,
  type Sessions,
  type ToolResultEvent,
} from "../../lib/trace/index.js";
import { field } from "../../lib/trace/json.js";
import {
  call,
  callWith,
  logAt,
  logOf,
  oneCall,
  outline,
  reply,
  said,
  serverLog,
  timed,
  type Line,
} from "./log-fixtures.js";

const sessions = (merged: Sessions): string[] => merged.logs.map((l) => l.header.session);

describe("trace: sessions across servers", () => {
  it("a_host_sessions_logs_are_one_session_across_servers", () => {
    const list = (id: number, tool: string): [Line, Line] => [
      ["client", { jsonrpc: "2.0", id, method: "tools/list" }],
      ["server", { jsonrpc: "2.0", id, result: { tools: [{ name: tool, annotations: { readOnlyHint: true } }] } }],
    ];
    let [ask, listed] = list(1, "get_ticket");
    const tickets = serverLog("tickets", "h1", 1_000, [
      timed(0, ask),
      timed(5, listed),
      timed(90, said("My ticket is T-1.")),
      timed(100, callWith(2, "get_ticket", { id: "T-1" })),
      timed(150, reply(2, "T-1: the printer is on fire")),
      timed(1_990, said("Thanks. And T-2?")),
      timed(2_000, callWith(3, "get_ticket", { id: "T-2" })),
      timed(2_050, reply(3, "T-2: toner low")),
    ]);
    [ask, listed] = list(1, "search");
    const docs = serverLog("docs", "h1", 1_020, [
      timed(0, ask),
      timed(4, listed),
      // The docs proxy reads what was said before its own calls.
      timed(100, said("My ticket is T-1.")),
      timed(101, callWith(2, "search", { q: "printer" })),
      timed(140, reply(2, "Printer fires: unplug it.")),
      timed(2_080, said("Thanks. And T-2?")),
      timed(2_081, callWith(3, "search", { q: "printer toner" })),
      timed(2_120, reply(3, "Toner: order more.")),
    ]);
    docs.header.agent_model = "glm-5.3";
    tickets.header.domain = "tickets";
    docs.header.domain = "docs";

    const merged = merge([tickets, docs]);
    assert.deepEqual([merged.mergedLogs, merged.mergedSessions, merged.apart.length], [2, 1, 0]);
    assert.deepEqual(sessions(merged), ["h1"]);
    const log = merged.logs[0]!;
    const h = log.header;
    assert.deepEqual([h.session, h.started_unix_ms, h.host_session], ["h1", 1_000, "h1"]);
    assert.deepEqual([h.domain, h.agent_model, h.server_name], [null, "glm-5.3", undefined]);
    assert.deepEqual(h.server_command, []);
    assert.equal(h.stretto_mcp_log, 2);
    assert.equal(field(log.entries[0]!.message, "id"), "tickets::1");
    assert.equal(log.entries[2]!.t_ms, 20);

    // The tools of both servers, each named after its own.
    const m = manifestOf(merged.logs, "support");
    assert.deepEqual(Object.keys(m.tools), ["docs::search", "tickets::get_ticket"]);
    // What was said once, and the LLM turns across the servers: the docs search went out
    // while the ticket was still being read, and the second came right after the second
    // ticket, needing nothing it returned.
    const ep = episode(log);
    assert.equal(ep.id, "h1");
    assert.deepEqual(outline(ep), [
      "user",
      "turn(tickets::get_ticket,docs::search)",
      "result:tickets::2",
      "result:docs::2",
      "user",
      "turn(tickets::get_ticket,docs::search)",
      "result:tickets::3",
      "result:docs::3",
    ]);
  });

  it("a_reused_host_id_names_each_of_its_sessions", () => {
    const a1 = serverLog("a", "host-7", 0, oneCall("x", 0, 10));
    const b1 = serverLog("b", "host-7", 5, oneCall("y", 0, 3));
    // The host's process id, used again by a later host.
    const a2 = serverLog("a", "host-7", 100, oneCall("x", 0, 10));
    const b2 = serverLog("b", "host-7", 101, oneCall("y", 0, 3));
    const domains: [McpLog, string][] = [
      [a1, "support"],
      [b1, "support"],
      [a2, "support"],
      [b2, "other"],
    ];
    for (const [log, domain] of domains) log.header.domain = domain;
    // A log of no host session, and one whose server has no name.
    const lone = serverLog("c", undefined, 50, oneCall("z", 0, 1));
    const unnamed = logAt(oneCall("w", 0, 1));
    const logs = [a1, b1, lone, a2, b2, unnamed];
    assert.deepEqual(groupSessions(logs.map(summarize)).groups, [[0, 1], [2], [3, 4], [5]]);

    const merged = merge(logs);
    assert.deepEqual(sessions(merged), ["host-7#0", "50-c", "host-7#1", "s1"]);
    assert.deepEqual([merged.mergedLogs, merged.mergedSessions], [4, 2]);
    assert.deepEqual(
      merged.logs.map((l) => l.header.domain),
      ["support", null, null, null],
    );
    // Once a host session is merged, every tool has its server's name, where it has one.
    const names = (log: McpLog): string[] =>
      episode(log).events.flatMap((e) => (e.kind === "tool_result" ? [`${e.call_id} ${e.name}`] : []));
    assert.deepEqual(names(merged.logs[1]!), ["c::1 c::z"]);
    assert.deepEqual(names(merged.logs[3]!), ["1 w"]);
    assert.deepEqual(names(merged.logs[0]!), ["b::1 b::y", "a::1 a::x"]);
  });

  it("two_servers_of_one_name_at_once_were_not_one_hosts", () => {
    // A harness ran two sessions of the same server from one process.
    const x1 = () => serverLog("a", "h", 0, oneCall("x", 0, 50));
    const x2 = () => serverLog("a", "h", 10, oneCall("x", 0, 20));
    const later1 = serverLog("a", "h", 1_000, oneCall("x", 0, 50));
    const later2 = serverLog("a", "h", 1_010, oneCall("x", 0, 20));
    const asIs = merge([x1(), x2(), later1, later2]);
    assert.deepEqual(asIs.apart, ["h"]);
    assert.deepEqual(asIs.logs, [x1(), x2(), later1, later2]);
    assert.equal(asIs.mergedSessions, 0);

    // A server that died and was started again while another ran: one host's session,
    // where the call it died on holds no turn open.
    const y1 = serverLog("a", "r", 0, [timed(0, call(1, "x"))]);
    y1.entries.push({ t_ms: 30, from: "server", raw: "crashed" });
    const cancel: Json = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } };
    const z = serverLog("b", "r", 0, [
      timed(500, call(1, "y")),
      timed(600, reply(1, "done")),
      timed(700, call(2, "slow")),
      [750, "client", cancel],
    ]);
    const y2 = serverLog("a", "r", 100, [timed(1_100, call(1, "x")), timed(1_110, reply(1, "done"))]);
    const merged = merge([x1(), x2(), y1, z, y2]);
    assert.deepEqual(merged.apart, ["h"]);
    assert.deepEqual(sessions(merged), ["0-a", "10-a", "r"]);
    assert.deepEqual([merged.mergedLogs, merged.mergedSessions], [3, 1]);
    assert.deepEqual(outline(episode(merged.logs[2]!)), [
      "turn(a::x)",
      "turn(b::y,b::slow)",
      "result:b::1",
      "turn(a::x)",
      "result:a::1",
    ]);
    // The crashed log's call was cancelled where its log ended.
    assert.deepEqual(
      merged.logs[2]!.entries.filter((e) => e.from === "proxy"),
      [{ t_ms: 30, from: "proxy", message: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "a::1" } } }],
    );
    // Merged or not, the logs apart are named alike.
    assert.deepEqual(outline(episode(merged.logs[0]!)), ["turn(a::x)", "result:a::1"]);
  });

  it("a_proxy_that_logs_a_different_line_keeps_it", () => {
    const a = serverLog("a", "h", 0, [
      timed(0, said("one")),
      timed(1, said("two")),
      [2, "context", "not a message"],
    ]);
    const b = serverLog("b", "h", 0, [timed(5, said("one")), timed(6, said("other"))]);
    b.entries.push({ t_ms: 7, from: "context", raw: "not json" });
    const merged = merge([a, b]);
    const lines = merged.logs[0]!.entries.map((e) =>
      e.message !== undefined ? jsonText(field(e.message, "content") ?? e.message) : `raw ${e.raw}`,
    );
    assert.deepEqual(lines, ['"one"', '"two"', '"not a message"', '"other"', "raw not json"]);
  });

  it("a_servers_name_is_its_proxys_or_its_own", () => {
    const log = logOf([
      ["client", { jsonrpc: "2.0", id: 9, result: { serverInfo: { name: "not the server" } } }],
      ["server", { jsonrpc: "2.0", id: 0, result: { serverInfo: { name: "" } } }],
      ["server", { jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "My Server::v2" } } }],
    ]);
    assert.equal(serverName(log), "My_Server__v2");
    log.header.domain = "retail";
    assert.equal(serverName(log), "retail");
    log.header.server_name = "orders";
    assert.equal(serverName(log), "orders");
    log.header.server_name = "";
    assert.equal(serverName(log), "retail");
    assert.equal(serverName(logOf([])), undefined);
    // A 2026-07-28 server names itself in its result's _meta.
    const era = logOf([["server", { jsonrpc: "2.0", id: 1, result: { _meta: { "io.modelcontextprotocol/serverInfo": { name: "nouveau ☕" } } } }]]);
    assert.equal(serverName(era), "nouveau__");
    // The header reads the same without the fields it did not have.
    const text = headerJson(logOf([]).header);
    assert.ok(!text.includes("host_session") && !text.includes("server_name"), text);
  });

  it("a_qualified_name_splits_back_into_server_and_tool", () => {
    assert.equal(qualify("docs", "search"), "docs::search");
    assert.equal(serverOf("docs::search"), "docs");
    assert.equal(serverOf("search"), undefined);
    assert.equal(unqualified("docs::search"), "search");
    assert.equal(unqualified("search"), "search");
    const ep = qualifyEpisode(episode(logOf([said("hi"), call(1, "search"), reply(1, "found")])), "docs");
    assert.deepEqual(outline(ep), ["user", "turn(docs::search)", "result:1"]);
    assert.equal((ep.events[2] as ToolResultEvent).name, "docs::search");
  });

  it("every_id_and_tool_of_a_log_is_named_after_its_server", () => {
    const log = logOf([
      [
        "client",
        [
          { jsonrpc: "2.0", id: "c1", method: "tools/call", params: { name: "get" } },
          { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c1" } },
        ],
      ],
      ["client", { jsonrpc: "2.0", method: "notifications/cancelled", params: {} }],
      ["server", { jsonrpc: "2.0", id: 4, result: { tools: [{ name: "get" }, { title: "no name" }] } }],
      ["server", { jsonrpc: "2.0", id: null, error: { message: "bad" } }],
      ["server", "a string"],
    ]);
    log.entries.push({ t_ms: 9, from: "server", raw: "starting" });
    const q = qualifiedLog(log, "s");
    const messages = q.entries.map((e) => e.message ?? null);
    assert.deepEqual(messages[0], [
      { jsonrpc: "2.0", id: "s::c1", method: "tools/call", params: { name: "s::get" } },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "s::c1" } },
    ]);
    assert.deepEqual(messages[1], log.entries[1]!.message);
    assert.deepEqual(messages[2], { jsonrpc: "2.0", id: "s::4", result: { tools: [{ name: "s::get" }, { title: "no name" }] } });
    assert.equal(field(messages[3], "id"), null);
    assert.equal(messages[4], "a string");
    assert.equal(q.entries[5]!.raw, "starting");
    // The log it was made from is unchanged.
    assert.equal(field(log.entries[2]!.message, "id"), 4);
  });
});
