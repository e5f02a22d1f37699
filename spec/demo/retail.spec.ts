import assert from "node:assert/strict";
import { call, lines, rpc, runDemo, stopAll } from "./demo-process.js";

const toolText = (id: number, text: string, isError: boolean) =>
  `{"id":${id},"jsonrpc":"2.0","result":{"content":[{"text":${JSON.stringify(text)},"type":"text"}],` +
  `"isError":${isError}}}`;
const unknownTool = (id: number, name: string) =>
  `{"error":{"code":-32602,"message":"Unknown tool: ${name}"},"id":${id},"jsonrpc":"2.0"}`;
const shopTool = (name: string, description: string, args: string[], annotations: string) =>
  `{"annotations":${annotations},"description":${JSON.stringify(description)},"inputSchema":{"properties":{` +
  args.map((a) => `"${a}":{"type":"string"}`).join(",") +
  `},"required":${JSON.stringify(args)},"type":"object"},"name":"${name}"}`;
const FIND = (a: string) => shopTool("find_user_id_by_email", "Find a user id by email.", ["email"], a);
const USER = (a: string) =>
  shopTool("get_user_details", "Get a user's details, including their orders.", ["user_id"], a);
const ORDER = (a: string) =>
  shopTool("get_order_details", "Get the status and details of an order.", ["order_id"], a);
const CANCEL = (a: string) =>
  shopTool(
    "cancel_pending_order",
    "Cancel a pending order. The reason is 'no longer needed' or 'ordered by mistake'.",
    ["order_id", "reason"],
    a,
  );
const READ = '{"readOnlyHint":true}';
const WRITE = '{"readOnlyHint":false}';

async function answers(args: string[], input: string[]): Promise<string[]> {
  const run = await runDemo(args, input.join("\n") + "\n");
  assert.equal(run.code, 0);
  assert.equal(run.stderr, "");
  return lines(run.stdout);
}

describe("stretto-mcp-demo --world retail", () => {
  afterEach(stopAll);

  it("lists the shop's four tools, every argument a required string", async () => {
    const out = await answers(["--world", "retail"], [rpc({ id: 1, method: "tools/list" })]);
    assert.deepEqual(out, [
      `{"id":1,"jsonrpc":"2.0","result":{"tools":[${[FIND(READ), USER(READ), ORDER(READ), CANCEL(WRITE)].join(",")}]}}`,
    ]);
  });

  it("answers from its canned data", async () => {
    const out = await answers(
      ["--world", "retail"],
      [
        call(1, "find_user_id_by_email", { email: "c7@example.com" }),
        call(2, "find_user_id_by_email", { email: "c@example.com" }),
        call(3, "get_user_details", { user_id: "user_7", delay_ms: 1 }),
        call(4, "get_user_details", { user_id: "user_" }),
        call(5, "get_order_details", { order_id: "#W7b" }),
        call(6, "get_order_details", { order_id: "#W7c" }),
        call(7, "cancel_pending_order", { order_id: "#W7a", reason: "no longer needed" }),
        call(8, "cancel_pending_order", { order_id: "#W7a", reason: "too slow" }),
        call(9, "cancel_pending_order", { order_id: "W7a", reason: "ordered by mistake" }),
        call(10, "get_user_details"),
        call(11, "lookup", {}),
      ],
    );
    assert.deepEqual(out, [
      toolText(1, "user_7", false),
      toolText(2, "Error: User not found", true),
      toolText(
        3,
        '{"email":"c7@example.com","orders":["#W7a","#W7b"],' +
          '"payment_methods":{"credit_card_7":{"source":"credit_card"}},"user_id":"user_7"}',
        false,
      ),
      toolText(4, "Error: User not found", true),
      toolText(
        5,
        '{"items":[{"item_id":"1","name":"Desk lamp","product_id":"p1"}],"order_id":"#W7b",' +
          '"payment_history":[{"payment_method_id":"credit_card_7"}],"status":"pending","user_id":"user_7"}',
        false,
      ),
      toolText(6, "Error: Order not found", true),
      toolText(7, '{"order_id":"#W7a","status":"cancelled"}', false),
      toolText(8, "Error: Invalid reason", true),
      toolText(9, "Error: Order not found", true),
      toolText(10, "Error: User not found", true),
      unknownTool(11, "lookup"),
    ]);
  });

  it("stores nothing, reads N as written, and takes a non-string argument as empty", async () => {
    const out = await answers(
      ["--world", "retail"],
      [
        call(1, "cancel_pending_order", { order_id: "#W3a", reason: "ordered by mistake" }),
        call(2, "get_order_details", { order_id: "#W3a" }),
        call(3, "find_user_id_by_email", { email: "c007@example.com" }),
        call(4, "find_user_id_by_email", { email: 7 }),
        call(5, "get_user_details", { user_id: "user_1x" }),
        call(6, "cancel_pending_order", { order_id: "#W3b", reason: "No longer needed" }),
        call(7, "cancel_pending_order", { order_id: "#W3b" }),
      ],
    );
    assert.deepEqual(out, [
      toolText(1, '{"order_id":"#W3a","status":"cancelled"}', false),
      toolText(
        2,
        '{"items":[{"item_id":"1","name":"Desk lamp","product_id":"p1"}],"order_id":"#W3a",' +
          '"payment_history":[{"payment_method_id":"credit_card_3"}],"status":"pending","user_id":"user_3"}',
        false,
      ),
      toolText(3, "user_007", false),
      toolText(4, "Error: User not found", true),
      toolText(5, "Error: User not found", true),
      toolText(6, "Error: Invalid reason", true),
      toolText(7, "Error: Invalid reason", true),
    ]);
  });

  it("lists its tools as --hide and --hint tell it, and refuses calls to a hidden one", async () => {
    const out = await answers(
      [
        "--world", "retail",
        "--hide", "get_order_details",
        "--hint", "find_user_id_by_email=false",
        "--hint", "get_user_details=none",
      ],
      [rpc({ id: 1, method: "tools/list" }), call(2, "get_order_details", { order_id: "#W1a" })],
    );
    assert.deepEqual(out, [
      `{"id":1,"jsonrpc":"2.0","result":{"tools":[${[FIND(WRITE), USER("{}"), CANCEL(WRITE)].join(",")}]}}`,
      unknownTool(2, "get_order_details"),
    ]);
  });

  it("lets a later --hint win, and ignores hints for tools it does not have", async () => {
    const out = await answers(
      ["--world", "retail", "--hint", "get_user_details=false", "--hint", "get_user_details=none", "--hint", "nope=false"],
      [rpc({ id: 1, method: "tools/list" })],
    );
    assert.deepEqual(out, [
      `{"id":1,"jsonrpc":"2.0","result":{"tools":[${[FIND(READ), USER("{}"), ORDER(READ), CANCEL(WRITE)].join(",")}]}}`,
    ]);
  });
});
