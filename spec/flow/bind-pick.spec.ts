/**
 * Binding a lookup's arguments (lib/flow/bind), with worked vectors.
 * A learner finds these bindings in training episodes; here each test writes the
 * counts that learning gives (worked out in the comments) into a flow read from the
 * published fixture.
 */
import assert from "node:assert/strict";
import { binderFor, bindPending, explainingBinderFor, requiredArgs, type Binding } from "../../lib/flow/bind/index.js";
import { parseFlow } from "../../lib/flow/ir/load-flow.js";
import type { Flow, ToolDoc } from "../../lib/flow/ir/flow-types.js";
import type { Episode, EpisodeEvent, ToolCall } from "../../lib/trace/episode-types.js";
import type { Json } from "../../lib/trace/json.js";
import { requireFixture } from "./flow-fixture.js";
import { bindings, type BindingsSpec } from "./bind-helpers.js";

let published: Flow;

/** The published flow with other bindings (and, optionally, sites and docs). */
function flowWith(s: BindingsSpec, extra: { everyRead?: string[]; docs?: Record<string, string[]> } = {}): Flow {
  const docs = new Map<string, ToolDoc>(
    Object.entries(extra.docs ?? {}).map(([tool, args]) => [tool, { summary: "", args: new Map(args.map((a) => [a, ""])) }]),
  );
  return {
    ...published,
    bindings: bindings(s),
    sites: extra.everyRead ? { ...published.sites, everyRead: true, reads: extra.everyRead } : published.sites,
    manifest: { ...published.manifest, docs },
  };
}

const user = (text: string): EpisodeEvent => ({ kind: "user", text });
const toolCall = (id: string, name: string, args: Json): ToolCall => ({ id, name, arguments: args });
const call = (id: string, name: string, args: Json): EpisodeEvent => ({ kind: "assistant", text: null, calls: [toolCall(id, name, args)], usage: null });
const result = (id: string, name: string, content: Json, error = false): EpisodeEvent => ({
  kind: "tool_result",
  call_id: id,
  name,
  error,
  content: typeof content === "string" ? content : JSON.stringify(content),
});
const episode = (events: EpisodeEvent[]): Episode => ({ id: "e", task_id: "1", trial: 0, domain: "retail", agent_model: "m", reward: 0, events });
const userRecord = (orders: string[]): Json => ({ user_id: "ann_1", orders });

function bound(b: Binding): { args: Record<string, Json>; chance: number } {
  assert.ok(b.ok, `bound, got: ${b.ok ? "" : b.why}`);
  return { args: b.args, chance: b.chance };
}
function why(b: Binding): string {
  assert.ok(!b.ok, `an error, got ${JSON.stringify(b)}`);
  return b.why;
}
const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);

describe("flow binding", () => {
  before(function () {
    published = parseFlow(requireFixture(this));
  });

  describe("binds_the_next_order_not_yet_looked_up", () => {
    // Training: 3 episodes, each get_user_details(ann_1) → orders [#W1,#W2], then
    // get_order_details #W1 and #W2, both found at get_user_details $.orders[*]; the binding
    // agreed at all 6, none mentioned.
    const spec: BindingsSpec = {
      args: [
        ["get_order_details", [6, { order_id: 6 }]],
        ["get_user_details", [3, { user_id: 3 }]],
      ],
      sources: [
        [["get_order_details", "order_id"], 6, [[["get_user_details", "$.orders[*]"], 6]]],
        [["get_user_details", "user_id"], 3, []],
      ],
      agreed: { get_order_details: [[6, 6], [0, 0]] },
    };
    const live = (...extra: EpisodeEvent[]): Episode =>
      episode([
        user("I want to cancel something"),
        call("a", "get_user_details", { user_id: "bob_2" }),
        result("a", "get_user_details", userRecord(["#W7", "#W8", "#W9"])),
        ...extra,
      ]);

    it("binds #W7, then #W8 once #W7 is read, and the named W9 first", () => {
      const flow = flowWith(spec);
      assert.deepEqual(bound(bindPending(flow, "get_order_details", live())).args, { order_id: "#W7" });
      const afterOne = live(call("b", "get_order_details", { order_id: "#W7" }), result("b", "get_order_details", { order_id: "#W7" }));
      assert.deepEqual(bound(bindPending(flow, "get_order_details", afterOne)).args, { order_id: "#W8" });
      assert.deepEqual(bound(bindPending(flow, "get_order_details", live(user("It's order W9")))).args, { order_id: "#W9" });
    });

    it("gives the chance 7/8 (agreed 6 of 6, unmentioned)", () => {
      close(bound(bindPending(flowWith(spec), "get_order_details", live())).chance, 7 / 8);
    });

    it("leaves get_user_details unbound: its value comes from the customer", () => {
      assert.equal(why(bindPending(flowWith(spec), "get_user_details", live())), "no source for `user_id` (the LLM supplies it)");
    });

    it("counts a call in flight as made: its value is not passed again", () => {
      const flow = flowWith(spec);
      const inFlight = [toolCall("b", "get_order_details", { order_id: "#W7" })];
      assert.deepEqual(bound(bindPending(flow, "get_order_details", live(), inFlight)).args, { order_id: "#W8" });
      const all = ["#W7", "#W8", "#W9"].map((o, i) => toolCall(`f${i}`, "get_order_details", { order_id: o }));
      assert.equal(why(bindPending(flow, "get_order_details", live(), all)), "nothing left to pass as `order_id`");
    });

    it("binds only from successful outputs", () => {
      const failed = episode([call("a", "get_user_details", { user_id: "x" }), result("a", "get_user_details", userRecord(["#W1"]), true)]);
      assert.equal(why(bindPending(flowWith(spec), "get_order_details", failed)), "nothing left to pass as `order_id`");
    });
  });

  describe("the_record_the_customer_described_is_scored_by_use", () => {
    // Training: 4 episodes looking a customer up by phone 555-0102 (lines L1..L3), reading
    // L1 and L2: agreed [(8,8),(0,0)]; after the line with the number the binding would pass
    // L3, which no agent read: described_read (0,4).
    const spec: BindingsSpec = {
      args: [
        ["get_customer_by_phone", [4, { phone_number: 4 }]],
        ["get_details_by_id", [8, { id: 8 }]],
      ],
      sources: [
        [["get_customer_by_phone", "phone_number"], 4, []],
        [["get_details_by_id", "id"], 8, [[["get_customer_by_phone", "$.line_ids[*]"], 8]]],
      ],
      agreed: { get_details_by_id: [[8, 8], [0, 0]] },
      describedRead: { get_details_by_id: [0, 4] },
    };
    const lines = (phone: string): Episode =>
      episode([
        call("a", "get_customer_by_phone", { phone_number: phone }),
        result("a", "get_customer_by_phone", { customer_id: "C1", phone_number: phone, line_ids: ["L1", "L2", "L3"] }),
        call("b", "get_details_by_id", { id: "L1" }),
        result("b", "get_details_by_id", { line_id: "L1", phone_number: "555-0101" }),
        call("c", "get_details_by_id", { id: "L2" }),
        result("c", "get_details_by_id", { line_id: "L2", phone_number: "555-0102" }),
      ]);

    it("passes L3 at 0.3 once the described line was read, and at 0.9 otherwise", () => {
      const found = bound(bindPending(flowWith(spec), "get_details_by_id", lines("555-0102")));
      assert.deepEqual(found.args, { id: "L3" });
      close(found.chance, 0.3);
      const open = bound(bindPending(flowWith(spec), "get_details_by_id", lines("555-0103")));
      assert.deepEqual(open.args, { id: "L3" });
      close(open.chance, 0.9);
    });

    it("gives a flow without the count the unmentioned chance", () => {
      close(bound(bindPending(flowWith({ ...spec, describedRead: {} }), "get_details_by_id", lines("555-0102"))).chance, 0.9);
    });
  });

  describe("a_record_the_customer_did_not_name_is_scored_by_use", () => {
    // Training: 4 episodes where the customer names W2 of three orders and the agent reads
    // only it: agreed [(0,0),(4,4)], named_other (0,4).
    const spec: BindingsSpec = {
      args: [
        ["get_order_details", [4, { order_id: 4 }]],
        ["get_user_details", [4, { user_id: 4 }]],
      ],
      sources: [
        [["get_order_details", "order_id"], 4, [[["get_user_details", "$.orders[*]"], 4]]],
        [["get_user_details", "user_id"], 4, []],
      ],
      agreed: { get_order_details: [[0, 0], [4, 4]] },
      namedOther: { get_order_details: [0, 4] },
    };
    const live = (...extra: EpisodeEvent[]): Episode =>
      episode([
        user("where is W8?"),
        call("a", "get_user_details", { user_id: "bob_2" }),
        result("a", "get_user_details", userRecord(["#W7", "#W8", "#W9"])),
        ...extra,
      ]);
    const after = live(call("b", "get_order_details", { order_id: "#W8" }), result("b", "get_order_details", { order_id: "#W8" }));

    it("binds the named order first at 5/6, then another at 1/6", () => {
      const first = bound(bindPending(flowWith(spec), "get_order_details", live()));
      assert.deepEqual(first.args, { order_id: "#W8" });
      close(first.chance, 5 / 6);
      const next = bound(bindPending(flowWith(spec), "get_order_details", after));
      assert.deepEqual(next.args, { order_id: "#W7" });
      close(next.chance, 1 / 6);
    });

    it("gives 0.5 without the named_other count", () => {
      close(bound(bindPending(flowWith({ ...spec, namedOther: {} }), "get_order_details", after)).chance, 0.5);
    });
  });

  describe("takes_the_source_the_agent_used_at_the_site", () => {
    // Training: 10 episodes; after the first order the agent took the list's next order 8
    // times and the first order's related one twice.
    const spec: BindingsSpec = {
      args: [["get_order_details", [20, { order_id: 20 }]]],
      sources: [
        [
          ["get_order_details", "order_id"],
          20,
          [
            [["get_order_details", "$.related_order"], 2],
            [["get_user_details", "$.orders[*]"], 18],
          ],
        ],
      ],
      agreed: { get_order_details: [[18, 20], [0, 0]] },
      siteSources: [
        { tool: "get_order_details", arg: "order_id", site: "get_order_details", source: ["get_order_details", "$.related_order"], values: 2 },
        { tool: "get_order_details", arg: "order_id", site: "get_order_details", source: ["get_user_details", "$.orders[*]"], values: 8 },
        { tool: "get_order_details", arg: "order_id", site: "get_user_details", source: ["get_user_details", "$.orders[*]"], values: 10 },
      ],
    };
    const afterOne = episode([
      user("I want to cancel something"),
      call("a", "get_user_details", { user_id: "bob_2" }),
      result("a", "get_user_details", userRecord(["#W7", "#W8"])),
      call("b", "get_order_details", { order_id: "#W7" }),
      result("b", "get_order_details", { order_id: "#W7", related_order: "#W5" }),
    ]);

    it("binds #W8 by the site's order, and #W5 by recency alone", () => {
      assert.deepEqual(bound(bindPending(flowWith(spec), "get_order_details", afterOne)).args, { order_id: "#W8" });
      assert.deepEqual(bound(bindPending(flowWith({ ...spec, siteSources: [] }), "get_order_details", afterOne)).args, { order_id: "#W5" });
    });

    it("goes by recency where the site took fewer than 5 values", () => {
      const few = spec.siteSources!.map((s) => (s.site === "get_order_details" ? { ...s, values: 2 } : s));
      assert.deepEqual(bound(bindPending(flowWith({ ...spec, siteSources: few }), "get_order_details", afterOne)).args, { order_id: "#W5" });
    });
  });

  describe("binds_each_line_of_a_text_listing", () => {
    const spec: BindingsSpec = {
      args: [
        ["read_text_file", [4, { path: 4 }]],
        ["search_files", [2, { path: 2, pattern: 2 }]],
      ],
      sources: [[["read_text_file", "path"], 4, [[["search_files", "$[*]"], 4]]]],
    };
    const live = (...extra: EpisodeEvent[]): Episode =>
      episode([
        call("s", "search_files", { path: "/n", pattern: "*.md" }),
        result("s", "search_files", "/n/gamma/c.md\n/n/gamma/d.md"),
        ...extra,
      ]);

    it("binds each line in turn", () => {
      assert.deepEqual(bound(bindPending(flowWith(spec), "read_text_file", live())).args, { path: "/n/gamma/c.md" });
      const afterOne = live(call("r1", "read_text_file", { path: "/n/gamma/c.md" }), result("r1", "read_text_file", "# C"));
      assert.deepEqual(bound(bindPending(flowWith(spec), "read_text_file", afterOne)).args, { path: "/n/gamma/d.md" });
    });

    it("reads one line as one value, not a listing", () => {
      const one = episode([call("s", "search_files", { path: "/n", pattern: "*.md" }), result("s", "search_files", "/n/only.md")]);
      assert.equal(why(bindPending(flowWith(spec), "read_text_file", one)), "nothing left to pass as `path`");
    });
  });

  describe("binds_a_whole_list_the_agent_passes_on", () => {
    const spec: BindingsSpec = {
      args: [
        ["get_all_hotels_in_city", [2, { city: 2 }]],
        ["get_hotels_prices", [2, { hotel_names: 2 }]],
      ],
      sources: [[["get_all_hotels_in_city", "city"], 2, []]],
      lists: [[["get_hotels_prices", "hotel_names"], 2, [[["get_all_hotels_in_city", "$.Hotel Names[*]"], 2]]]],
      agreed: { get_hotels_prices: [[2, 2], [0, 0]] },
    };
    const names = ["Savoy", "Ritz", "Claridge's"];
    const live = (...extra: EpisodeEvent[]): Episode =>
      episode([
        call("h", "get_all_hotels_in_city", { city: "London" }),
        result("h", "get_all_hotels_in_city", { "Hotel Names": names }),
        ...extra,
      ]);

    it("passes the whole listing, at 3/4", () => {
      const b = bound(bindPending(flowWith(spec), "get_hotels_prices", live()));
      assert.deepEqual(b.args, { hotel_names: names });
      close(b.chance, 3 / 4);
    });

    it("does not pass the same list twice", () => {
      const again = live(call("p", "get_hotels_prices", { hotel_names: names }), result("p", "get_hotels_prices", {}));
      assert.equal(why(bindPending(flowWith(spec), "get_hotels_prices", again)), "no list left to pass as `hotel_names`");
    });

    it("says when a list has no source", () => {
      const none: BindingsSpec = { ...spec, lists: [[["get_hotels_prices", "hotel_names"], 2, [[["get_all_hotels_in_city", "$.Hotel Names[*]"], 1]]]] };
      assert.equal(why(bindPending(flowWith(none), "get_hotels_prices", live())), "no source for the list `hotel_names` (the LLM supplies it)");
    });
  });

  describe("a_lookup_without_arguments_is_as_likely_as_the_agents_bare_calls", () => {
    const spec: BindingsSpec = {
      args: [
        ["get_current_day", [4, {}]],
        ["search_tasks", [4, { assignee: 1, board: 1, due: 1, task_name: 1 }]],
      ],
      bare: { search_tasks: 0 },
    };

    it("binds a bare search at 1/6, and an always-bare tool at 1", () => {
      const search = bound(bindPending(flowWith(spec), "search_tasks", episode([])));
      assert.deepEqual(search.args, {});
      close(search.chance, 1 / 6);
      assert.equal(bound(bindPending(flowWith(spec), "get_current_day", episode([]))).chance, 1);
    });

    it("makes an argument-free lookup once, a call in flight included", () => {
      const called = episode([call("d", "get_current_day", {}), result("d", "get_current_day", "2023-11-30")]);
      assert.equal(why(bindPending(flowWith(spec), "get_current_day", called)), "already looked up");
      assert.equal(why(bindPending(flowWith(spec), "get_current_day", episode([]), [toolCall("d", "get_current_day", {})])), "already looked up");
    });
  });

  describe("a_pick_the_customer_did_not_mention_earns_less_trust", () => {
    const spec: BindingsSpec = {
      args: [
        ["get_order_details", [8, { order_id: 8 }]],
        ["get_product_details", [8, { product_id: 8 }]],
      ],
      sources: [
        [["get_order_details", "order_id"], 8, []],
        [["get_product_details", "product_id"], 8, [[["get_order_details", "$.items[*].product_id"], 8]]],
      ],
      agreed: { get_product_details: [[0, 4], [4, 4]] },
    };
    const order = { items: [{ name: "Desk Lamp", product_id: "p1" }, { name: "Water Bottle", product_id: "p2" }] };
    const live = (said: string): Episode =>
      episode([user(said), call("a", "get_order_details", { order_id: "#W5" }), result("a", "get_order_details", order)]);

    it("binds the record named by a sibling at 5/6, and an unmentioned pick at 1/6", () => {
      const named = bound(bindPending(flowWith(spec), "get_product_details", live("the desk lamp")));
      assert.deepEqual(named.args, { product_id: "p1" });
      close(named.chance, 5 / 6);
      const plain = bound(bindPending(flowWith(spec), "get_product_details", live("hello")));
      assert.deepEqual(plain.args, { product_id: "p1" });
      close(plain.chance, 1 / 6);
      const bottle = bound(bindPending(flowWith(spec), "get_product_details", live("my water bottle leaks")));
      assert.deepEqual(bottle.args, { product_id: "p2" });
    });
  });

  describe("a_lookup_training_never_made_is_bound_by_argument_name (every_read, manifest docs)", () => {
    const spec: BindingsSpec = { args: [] };
    const extra = { everyRead: ["get_item", "get_order", "get_user", "get_undocumented", "ping"], docs: { get_item: ["item_id"], get_user: ["user_id"], ping: [] } };
    const live = (...more: EpisodeEvent[]): Episode =>
      episode([
        user("The lamp in my order, please."),
        result("1", "get_order", { items: [{ item_id: "111", name: "Chair" }, { item_id: "222", name: "Lamp" }] }),
        ...more,
      ]);

    it("binds the item whose record the customer mentioned, at 1/2, then the next", () => {
      const flow = flowWith(spec, extra);
      const first = bound(bindPending(flow, "get_item", live()));
      assert.deepEqual(first.args, { item_id: "222" });
      assert.equal(first.chance, 0.5);
      assert.deepEqual(bound(bindPending(flow, "get_item", live(call("2", "get_item", { item_id: "222" })))).args, { item_id: "111" });
    });

    it("counts pending calls as used", () => {
      const flow = flowWith(spec, extra);
      assert.deepEqual(bound(bindPending(flow, "get_item", live(), [toolCall("2", "get_item", { item_id: "222" })])).args, { item_id: "111" });
    });

    it("says why it cannot bind", () => {
      const flow = flowWith(spec, extra);
      assert.equal(why(bindPending(flow, "get_user", live())), "no `user_id` in earlier results to pass");
      assert.equal(why(bindPending(flow, "get_undocumented", live())), "never called in training, and its arguments are unknown");
      assert.equal(why(bindPending(flow, "not_offered", live())), "never called in training");
      assert.equal(why(bindPending(flowWith(spec), "get_item", live())), "never called in training");
      assert.deepEqual(bound(bindPending(flow, "ping", live())), { args: {}, chance: 1 });
      assert.equal(why(bindPending(flow, "ping", live(call("3", "ping", {})))), "already looked up");
    });
  });

  describe("passes_the_constants_the_agent_always_passed_when_learned", () => {
    const spec: BindingsSpec = {
      args: [
        ["get_orders", [10, { limit: 3, status: 10, user_id: 10 }]],
        ["get_time", [10, { zone: 10 }]],
        ["list_all", [10, { verbose: 2 }]],
      ],
      sources: [[["get_orders", "user_id"], 10, [[["find_user", "$"], 10]]]],
      agreed: { get_orders: [[9, 10], [0, 0]] },
      constants: [
        [["get_orders", "limit"], 5],
        [["get_orders", "status"], "pending"],
        [["get_time", "zone"], "UTC"],
        [["list_all", "verbose"], true],
      ],
    };
    const live = episode([call("f", "find_user", { email: "a@b.c" }), result("f", "find_user", "u_1")]);

    it("passes a required constant, binds the rest, and adds the other constants", () => {
      const b = bound(bindPending(flowWith(spec), "get_orders", live));
      assert.deepEqual(b.args, { limit: 5, status: "pending", user_id: "u_1" });
      close(b.chance, 10 / 12);
      assert.deepEqual(bound(bindPending(flowWith(spec), "get_time", live)).args, { zone: "UTC" });
    });

    it("adds constants to a lookup with no required argument", () => {
      assert.deepEqual(bound(bindPending(flowWith(spec), "list_all", live)), { args: { verbose: true }, chance: 1 });
    });
  });

  describe("required arguments (90 %) and why a binding fails", () => {
    it("requires an argument passed in at least 90 % of the calls", () => {
      const flow = flowWith({ args: [["t", [10, { a: 9, b: 8, c: 10 }]]] });
      assert.deepEqual(requiredArgs(flow.bindings, "t"), ["a", "c"]);
      assert.equal(requiredArgs(flow.bindings, "u"), undefined);
    });

    it("binds only required arguments, in sorted order", () => {
      const flow = flowWith({
        args: [["t", [10, { z: 10, a: 9, opt: 8 }]]],
        sources: [
          [["t", "a"], 9, [[["s", "$.a"], 9]]],
          [["t", "opt"], 8, [[["s", "$.opt"], 8]]],
          [["t", "z"], 10, [[["s", "$.z"], 10]]],
        ],
      });
      const b = bound(bindPending(flow, "t", episode([result("1", "s", { a: "A1", opt: "O1", z: "Z1" })])));
      assert.deepEqual(Object.keys(b.args), ["a", "z"]);
      assert.deepEqual(b.args, { a: "A1", z: "Z1" });
      close(b.chance, 0.5);
    });

    it("trusts only sources found at least twice and for 10 % of the values", () => {
      const ep = episode([result("1", "s", { a: "A1", b: "B1" })]);
      const withSources = (values: number, found: [[string, string], number][]): Flow =>
        flowWith({ args: [["t", [30, { a: 30 }]]], sources: [[["t", "a"], values, found]] });
      // 2 of 30 is under 10 %; 1 is under twice.
      assert.equal(why(bindPending(withSources(30, [[["s", "$.a"], 2], [["s", "$.b"], 1]]), "t", ep)), "no source for `a` (the LLM supplies it)");
      // 2 of 20 is 10 %.
      assert.deepEqual(bound(bindPending(withSources(20, [[["s", "$.a"], 2], [["s", "$.b"], 1]]), "t", ep)).args, { a: "A1" });
      // 3 of 30 also: sources are tried in `found` order.
      assert.deepEqual(bound(bindPending(withSources(30, [[["s", "$.a"], 2], [["s", "$.b"], 3]]), "t", ep)).args, { a: "B1" });
    });

    it("says when a required argument never took a string", () => {
      const flow = flowWith({ args: [["t", [30, { a: 30, n: 30 }]]], sources: [[["t", "a"], 30, [[["s", "$.b"], 3]]]] });
      assert.equal(why(bindPending(flow, "t", episode([result("1", "s", { a: "A1", b: "B1" })]))), "`n` never took a string in training");
    });
  });

  describe("the published flow (retail-5-sessions)", () => {
    it("binds get_user_details from the email lookup's result, at 3/4", () => {
      const ep = episode([
        user("Hi, my email is ann@example.com"),
        call("1", "find_user_id_by_email", { email: "ann@example.com" }),
        result("1", "find_user_id_by_email", "user_7"),
      ]);
      const bind = binderFor(published, ep, []);
      assert.deepEqual(bind("get_user_details"), { args: { user_id: "user_7" }, chance: 0.75 });
      assert.equal(bind("find_user_id_by_email"), undefined);
      const explain = explainingBinderFor(published, ep);
      assert.equal(why(explain("find_user_id_by_email")), "no source for `email` (the LLM supplies it)");
      assert.equal(why(explain("list_all_product_types")), "never called in training");
    });

    it("binds an order, then a product, from earlier results", () => {
      const ep = episode([
        call("1", "get_user_details", { user_id: "user_7" }),
        result("1", "get_user_details", { orders: ["#W100", "#W200"], user_id: "user_7" }),
        call("2", "get_order_details", { order_id: "#W100" }),
        result("2", "get_order_details", { items: [{ item_id: "i1", name: "Lamp", product_id: "p9" }], order_id: "#W100", user_id: "user_7" }),
      ]);
      const bind = binderFor(published, ep);
      assert.deepEqual(bind("get_order_details"), { args: { order_id: "#W200" }, chance: 0.9 });
      const product = bind("get_product_details");
      assert.deepEqual(product?.args, { product_id: "p9" });
      close(product.chance, 0.5);
      // The user id comes only from the email lookup (the order's user_id is found once).
      assert.equal(bind("get_user_details"), undefined);
    });
  });
});
