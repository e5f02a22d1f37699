import assert from "node:assert/strict";
import {
  contract,
  contractsOf,
  isWrite,
  kindOf,
  manifest,
  manifestOf,
  collapse,
  isToolManifest,
  type Json,
} from "../../lib/trace/index.js";
import { logOf, type Line } from "./log-fixtures.js";

describe("trace: tool manifests and contracts", () => {
  const schema = { type: "object" };

  it("reads_tool_kinds_from_annotations", () => {
    const log = logOf([
      ["client", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
      [
        "server",
        {
          jsonrpc: "2.0",
          id: 1,
          result: {
            tools: [
              { name: "get_order", inputSchema: schema, annotations: { readOnlyHint: true } },
              {
                name: "cancel_order",
                description: "Cancel a pending\n   order.",
                inputSchema: {
                  type: "object",
                  properties: {
                    order_id: { type: "string", description: "The order id." },
                    reason: { type: "string" },
                  },
                },
                annotations: { readOnlyHint: false, destructiveHint: true },
              },
              { name: "calculate", inputSchema: schema },
              { name: "lookup", inputSchema: schema, annotations: { title: "Lookup" } },
            ],
          },
        },
      ],
      // A later listing, under a string id, re-annotates one tool.
      ["client", { jsonrpc: "2.0", id: "list-2", method: "tools/list" }],
      [
        "server",
        {
          jsonrpc: "2.0",
          id: "list-2",
          result: { tools: [{ name: "calculate", inputSchema: schema, annotations: { readOnlyHint: true } }] },
        },
      ],
      // A response to another request lists no tools, whatever it holds.
      ["client", { jsonrpc: "2.0", id: 3, method: "prompts/list" }],
      ["server", { jsonrpc: "2.0", id: 3, result: { tools: [{ name: "not_a_tool" }] } }],
    ]);
    const m = manifest(log, "shop");
    assert.ok(isToolManifest(m));
    assert.equal(isToolManifest({ ...m, tools: { x: "unknown" } }), false);
    assert.equal(m.domain, "shop");
    assert.equal(Object.keys(m.tools).length, 4);
    assert.equal(kindOf(m, "get_order"), "read");
    assert.ok(isWrite(m, "cancel_order"));
    assert.equal(kindOf(m, "lookup"), "generic");
    assert.equal(isWrite(m, "lookup"), false);
    assert.equal(kindOf(m, "calculate"), "read");
    assert.equal(kindOf(m, "not_a_tool"), undefined);
    // Descriptions become docs; undocumented tools have none.
    assert.deepEqual(m.docs, { cancel_order: { summary: "Cancel a pending order.", args: { order_id: "The order id." } } });
    // The manifest's JSON: maps sorted by name.
    assert.equal(
      JSON.stringify(m),
      '{"domain":"shop","tools":{"calculate":"read","cancel_order":"write","get_order":"read","lookup":"generic"},' +
        '"docs":{"cancel_order":{"summary":"Cancel a pending order.","args":{"order_id":"The order id."}}}}',
    );
  });

  it("a string id and a number id are different requests; the proxy lists nothing", () => {
    const log = logOf([
      ["client", { jsonrpc: "2.0", id: "1", method: "tools/list" }],
      ["server", { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "numbered" }] } }],
      ["proxy", { jsonrpc: "2.0", id: 2, method: "tools/list" }],
      ["server", { jsonrpc: "2.0", id: 2, result: { tools: [{ name: "proxys" }] } }],
      ["server", { jsonrpc: "2.0", id: "1", result: { tools: [{ name: "stringed" }] } }],
      // Only the first answer to a request counts.
      ["server", { jsonrpc: "2.0", id: "1", result: { tools: [{ name: "again" }] } }],
    ]);
    assert.deepEqual(manifest(log, "d").tools, { stringed: "generic" });
  });

  it("in one log a later undocumented listing removes a tool's docs; across logs later ones win", () => {
    const listing = (id: number, tool: Json): Line[] => [
      ["client", { jsonrpc: "2.0", id, method: "tools/list" }],
      ["server", { jsonrpc: "2.0", id, result: { tools: [tool] } }],
    ];
    const documented = listing(1, { name: "t", description: "  Does\tthings\u0085 ", annotations: { readOnlyHint: false } });
    const bare = listing(2, { name: "t", annotations: { readOnlyHint: true } });
    assert.deepEqual(manifest(logOf(documented), "d").docs, { t: { summary: "Does things", args: {} } });
    assert.deepEqual(manifest(logOf([...documented, ...bare]), "d"), { domain: "d", tools: { t: "read" }, docs: {} });
    // manifestOf adds each log's docs: a log without docs removes none (a later listing that
    // leaves out descriptions should not erase what an earlier one documented).
    assert.deepEqual(manifestOf([logOf(documented), logOf(bare)], "d"), {
      domain: "d",
      tools: { t: "read" },
      docs: { t: { summary: "Does things", args: {} } },
    });
    assert.deepEqual(manifestOf([logOf(bare), logOf(documented)], "d").tools, { t: "write" });
    assert.equal(collapse("\ufeffa  b\u00a0c"), "\ufeffa b c");
  });

  it("a_listed_tool_without_a_name_is_left_out", () => {
    const log = logOf([
      ["client", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
      ["server", { jsonrpc: "2.0", id: 1, result: { tools: [{ description: "nameless" }, { name: "get" }] } }],
    ]);
    assert.deepEqual(Object.keys(manifest(log, "d").tools), ["get"]);
  });

  it("a_tools_contract_names_its_arguments_types_and_which_are_required", () => {
    const tool = {
      name: "get_order",
      inputSchema: {
        type: "object",
        properties: { order_id: { type: "string" }, limit: { type: ["integer", "null"] }, x: {} },
        required: ["order_id"],
      },
    };
    assert.equal(contract(tool), "limit:integer|null, order_id:string!, x:any");
    assert.equal(contract({ name: "no_schema" }), undefined);
    assert.equal(contract({ name: "empty", inputSchema: { type: "object" } }), "");
    const log = logOf([
      ["client", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
      ["server", { jsonrpc: "2.0", id: 1, result: { tools: [tool] } }],
    ]);
    log.header.stretto_mcp_log = 2;
    assert.deepEqual([...contractsOf([log])], [["get_order", "limit:integer|null, order_id:string!, x:any"]]);
  });
});
