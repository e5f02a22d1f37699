/**
 * The binding tables a flow learns (facts-flows §1.3, §5.1 step 9), from episodes built
 * by hand: where values came from (overall, as lists, by site), bare calls, and how the
 * binder's own picks fared where the agent called, by whether the customer named them.
 */
import assert from "node:assert/strict";
import type { Episode, EpisodeEvent, Json } from "../../lib/trace/index.js";
import type { ToolKind } from "../../lib/flow/ir/index.js";
import { learnBindings } from "../../lib/learn/index.js";

let ids = 0;
function calls(...cs: [string, Json, string][]): EpisodeEvent[] {
  const out: EpisodeEvent[] = [];
  for (const [name, args, result] of cs) {
    const id = String(++ids);
    out.push({ kind: "assistant", text: null, calls: [{ id, name, arguments: args }], usage: null });
    out.push({ kind: "tool_result", call_id: id, name, error: false, content: result });
  }
  return out;
}
const user = (text: string): EpisodeEvent => ({ kind: "user", text });
const ep = (events: EpisodeEvent[]): Episode => ({ id: "e", task_id: "", trial: 0, domain: "shop", agent_model: "t", reward: 1, events });

const KINDS = new Map<string, ToolKind>([
  ["find_account", "read"],
  ["get_account", "read"],
  ["get_order", "read"],
  ["get_orders", "read"],
  ["list_orders", "read"],
  ["ping", "read"],
  ["close_order", "write"],
]);

const account = (n: number) => JSON.stringify({ account_id: `acct_${n}`, orders: [`ord_${n}a`, `ord_${n}b`] });
const order = (id: string, n: number) => JSON.stringify({ account_id: `acct_${n}`, order_id: id, status: "open" });

function usual(n: number, customer = `I am c${n}@example.com`): Episode {
  return ep([
    user(customer),
    ...calls(
      ["find_account", { email: `c${n}@example.com` }, `acct_${n}`],
      ["get_account", { account_id: `acct_${n}` }, account(n)],
      ["get_order", { order_id: `ord_${n}a` }, order(`ord_${n}a`, n)],
      ["get_order", { order_id: `ord_${n}b` }, order(`ord_${n}b`, n)],
      ["close_order", { order_id: `ord_${n}a`, reason: "done" }, "closed"],
    ),
  ]);
}

describe("learning bindings", () => {
  it("traces each string to the most recent output showing it, and scores the binder's picks", () => {
    const b = learnBindings([usual(1), usual(2), usual(3)], KINDS, false);
    assert.deepEqual(Object.fromEntries([...b.args].map(([t, c]) => [t, [c.calls, Object.fromEntries(c.passed)]])), {
      find_account: [3, { email: 3 }],
      get_account: [3, { account_id: 3 }],
      get_order: [6, { order_id: 6 }],
    });
    const found = (tool: string, arg: string) => [...(b.sources.get([tool, arg])?.found ?? [])];
    assert.equal(b.sources.get(["find_account", "email"])?.values, 3);
    assert.deepEqual(found("find_account", "email"), []);
    assert.deepEqual(found("get_account", "account_id"), [[["find_account", "$"], 3]]);
    assert.deepEqual(found("get_order", "order_id"), [[["get_account", "$.orders[*]"], 6]]);
    // No write is counted, and no pick was of a value the customer named.
    assert.equal(b.args.has("close_order"), false);
    assert.deepEqual(Object.fromEntries(b.agreed), { get_account: [[3, 3], [0, 0]], get_order: [[6, 6], [0, 0]] });
    assert.equal(b.namedOther.size + b.describedRead.size + b.bare.size + b.lists.size + b.siteSources.length, 0);
  });

  it("counts a pick the customer named apart, and one that passed over what they named as named_other", () => {
    // The customer names the second order and the agent reads it first: the binder picks it too.
    const named = ep([
      user("I am c4@example.com, it is about ord_4b"),
      ...calls(
        ["find_account", { email: "c4@example.com" }, "acct_4"],
        ["get_account", { account_id: "acct_4" }, account(4)],
        ["get_order", { order_id: "ord_4b" }, order("ord_4b", 4)],
      ),
    ]);
    const b = learnBindings([usual(1), usual(2), named], KINDS, false);
    assert.deepEqual(b.agreed.get("get_order"), [[4, 4], [1, 1]]);
    // After ord_4b was read, the binder would read ord_4a, which the customer did not name
    // while naming another: the agent never read it.
    assert.deepEqual(b.namedOther.get("get_order"), [0, 1]);
  });

  it("keeps bare calls only for a tool sometimes called bare, and traces lists of strings", () => {
    const e = ep([
      user("I am c5@example.com"),
      ...calls(
        ["get_account", { account_id: "acct_5" }, account(5)],
        ["list_orders", {}, "[]"],
        ["list_orders", { status: "open" }, "[]"],
        ["list_orders", { status: "closed" }, "[]"],
        ["ping", {}, "pong"],
        ["get_orders", { order_ids: ["ord_5a", "ord_5b"] }, "[]"],
      ),
    ]);
    const b = learnBindings([e], KINDS, false);
    assert.deepEqual(Object.fromEntries(b.bare), { list_orders: 1 });
    assert.deepEqual([...b.lists.keys()], [["get_orders", "order_ids"]]);
    assert.equal(b.lists.get(["get_orders", "order_ids"])!.values, 1);
    assert.deepEqual([...b.lists.get(["get_orders", "order_ids"])!.found], [[["get_account", "$.orders[*]"], 1]]);
  });

  it("keeps the sources by site only for an argument taken from more than one source", () => {
    // The account id comes from find_account in one episode, from an order in another.
    const viaOrder = ep([
      user("about ord_7a"),
      ...calls(["get_order", { order_id: "ord_7a" }, order("ord_7a", 7)], ["get_account", { account_id: "acct_7" }, account(7)]),
    ]);
    const b = learnBindings([usual(1), viaOrder], KINDS, false);
    assert.deepEqual(b.siteSources, [
      { tool: "get_account", arg: "account_id", site: "find_account", source: ["find_account", "$"], values: 1 },
      { tool: "get_account", arg: "account_id", site: "get_order", source: ["get_order", "$.account_id"], values: 1 },
    ]);
  });

  it("learns a constant only from five calls, one value, never found and not the customer's", () => {
    const withFields = (n: number, value: string) =>
      ep([user(`I am c${n}@example.com`), ...calls(["get_order", { order_id: `ord_${n}a`, fields: value }, order(`ord_${n}a`, n)])]);
    const five = [1, 2, 3, 4, 5].map((n) => withFields(n, "all"));
    assert.deepEqual([...learnBindings(five, KINDS, true).constants], [[["get_order", "fields"], "all"]]);
    assert.equal(learnBindings(five, KINDS, false).constants.size, 0);
    assert.equal(learnBindings(five.slice(0, 4), KINDS, true).constants.size, 0);
    assert.equal(learnBindings([...five.slice(0, 4), withFields(5, "some")], KINDS, true).constants.size, 0);
  });
});
