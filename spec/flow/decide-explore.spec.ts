/**
 * Exploration (`--flow-explore`) and the decision line: the flow log records the chance of
 * what the flow took, so `stretto evaluate` can weigh it.
 */
import assert from "node:assert/strict";
import {
  contentKey,
  decisionLine,
  emptyNext,
  fnv1a64,
  foldOf,
  nextLocal,
  type DecideInput,
  type Next,
  type Policy,
} from "../../lib/flow/decide/index.js";
import type { Episode } from "../../lib/trace/episode-types.js";
import { requireFixture } from "./flow-fixture.js";
import { decisionAt } from "../../lib/flow/decide/decision-episode.js";
import { bindTable, bound, call, episode, fixtureJson, flowOf, result, user } from "./decide-helpers.js";

function orderEpisode(n: number, ids = ["7", "8"]): Episode {
  return episode([
    user(`Where is my order #W${n}? It is number ${n}.`),
    call(ids[0]!, "get_user_details", { user_id: `user_${n}` }),
    result(ids[0]!, "get_user_details", JSON.stringify({ orders: [`#W${n}`] })),
    call(ids[1]!, "get_order_details", { order_id: `#W${n}` }),
    result(ids[1]!, "get_order_details", JSON.stringify({ order_id: `#W${n}`, items: [{ product_id: "p1" }] })),
  ]);
}

const binding = () =>
  bindTable({
    get_order_details: bound({ order_id: "#W9" }, 0.9),
    get_product_details: bound({ product_id: "p1" }, 0.8),
  });

/** The rule a logged policy recomputes, lookup first: the likeliest by p, reaching the threshold, and p×binding too. */
function policyRule(policy: Policy): string | null {
  let best: Policy["options"][number] | undefined;
  for (const o of policy.options) if (best === undefined || o.p > best.p) best = o;
  if (best === undefined || best.p < policy.threshold || best.binding === null) return null;
  return best.p * best.binding >= policy.threshold ? best.tool : null;
}

describe("deciding: exploration", function () {
  let input: (ep: Episode, epsilon?: number, seed?: number) => DecideInput;
  before(function () {
    requireFixture(this);
    const flow = flowOf(fixtureJson());
    input = (ep, epsilon, seed = 0) => ({
      flow,
      at: decisionAt(ep),
      taskId: "task-1",
      decider: "habit",
      threshold: 0.05,
      bind: binding(),
      ...(epsilon === undefined ? {} : { explore: { epsilon, seed } }),
    });
  });

  it("explores about ε of the time, logging propensity ε or 1−ε", function () {
    const epsilon = 0.3;
    let explored = 0;
    const runs = 600;
    for (let n = 0; n < runs; n++) {
      const plain = nextLocal(input(orderEpisode(n)));
      const next = nextLocal(input(orderEpisode(n), epsilon));
      const policy = next.policy!;
      assert.equal(policy.greedy, (plain.proposal as { tool: string }).tool);
      assert.equal(policyRule(policy), policy.greedy, "PolicyView::rule equals the flow's own choice");
      assert.equal(policy.options.length, 2);
      if (policy.explored) {
        explored++;
        assert.ok(Math.abs(policy.propensity - epsilon) < 1e-12);
        assert.notEqual((next.proposal as { tool: string }).tool, policy.greedy);
      } else {
        assert.ok(Math.abs(policy.propensity - (1 - epsilon)) < 1e-12);
        assert.deepEqual(next.proposal, plain.proposal);
      }
    }
    const share = explored / runs;
    assert.ok(Math.abs(share - epsilon) < 0.07, `explored share ${share}`);
  });

  it("draws the same whatever ids the host assigned, and differently with another seed", function () {
    let differs = 0;
    for (let n = 0; n < 60; n++) {
      const a = nextLocal(input(orderEpisode(n, ["7", "8"]), 0.5));
      const b = nextLocal(input(orderEpisode(n, ["call_x", "call_y"]), 0.5));
      assert.deepEqual(a.policy, b.policy);
      assert.deepEqual(a.proposal, b.proposal);
      const c = nextLocal(input(orderEpisode(n), 0.5, 12345));
      if (c.policy!.explored !== a.policy!.explored) differs++;
    }
    assert.ok(differs > 0, "another seed changes some draws");
    assert.equal(contentKey(orderEpisode(1, ["a", "b"])), contentKey(orderEpisode(1, ["c", "d"])));
    assert.doesNotMatch(contentKey(orderEpisode(1)), /"id"|call_id|usage/);
  });

  it("ε = 0 changes only the log", function () {
    const ep = orderEpisode(3);
    const plain = nextLocal(input(ep));
    const next = nextLocal(input(ep, 0));
    assert.deepEqual(next.proposal, plain.proposal);
    const policy = next.policy!;
    assert.equal(policy.explored, false);
    assert.equal(policy.propensity, 1);
    assert.equal(policy.epsilon, 0);
    assert.equal(policy.decider, "habit");
    assert.equal(policy.task_id, "task-1");
    assert.equal(policy.events, ep.events.length);
    assert.deepEqual(
      policy.options.map((o) => [o.tool, o.binding, o.arguments]),
      [
        ["get_order_details", 0.9, { order_id: "#W9" }],
        ["get_product_details", 0.8, { product_id: "p1" }],
      ],
    );
    assert.equal(plain.policy, undefined);
  });

  it("an option that does not bind is logged as unbound and never explored", function () {
    const flow = flowOf(fixtureJson());
    const bind = bindTable({ get_order_details: bound({ order_id: "#W9" }, 0.9) });
    for (let n = 0; n < 40; n++) {
      const next = nextLocal({ flow, at: decisionAt(orderEpisode(n)), taskId: "t", decider: "habit", threshold: 0.05, bind, explore: { epsilon: 1, seed: 0 } });
      const product = next.policy!.options.find((o) => o.tool === "get_product_details")!;
      assert.equal(product.unbound, "never called in training");
      assert.equal(product.binding, null);
      assert.equal(next.policy!.explored, false);
      assert.equal(next.policy!.propensity, 1);
    }
  });

  it("folds by FNV-1a-64 of the task id, with the flows' offset (1469598103934665603, not FNV's standard basis) and prime", function () {
    const offset = 1469598103934665603n;
    const prime = 1099511628211n;
    assert.equal(fnv1a64(""), offset);
    const a = ((offset ^ 97n) * prime) & ((1n << 64n) - 1n);
    assert.equal(fnv1a64("a"), a);
    assert.equal(foldOf("a"), Number(a % 5n));
    // Multi-byte characters hash their UTF-8 bytes.
    const e = [0xc3n, 0xa9n].reduce((h, b) => ((h ^ b) * prime) & ((1n << 64n) - 1n), offset);
    assert.equal(fnv1a64("é"), e);
  });
});

describe("deciding: the flow log's decision line", function () {
  it("a hand-back: nulls printed, policy/shadow/withheld omitted, keys sorted", function () {
    const next = emptyNext(null, "the last step is not a tool call");
    assert.equal(
      decisionLine(next, { after: 3, address: "decide#0", ms: 2.7 }),
      '{"action":"hand_back","address":"decide#0","after":3,"binding":null,"key":null,"ms":2,"oracle":{},"predicates":{},"prob":null,"probs":{},"reason":"the last step is not a tool call","site":null}',
    );
  });

  it("a lookup in shadow, withheld, with a policy", function () {
    const next: Next = {
      proposal: { action: "lookup", tool: "get_user_details", arguments: { user_id: "user_7", a: 1 } },
      site: "find_user_id_by_email",
      probs: new Map([["respond", 0.25], ["get_user_details", 0.75]]),
      prob: 0.75,
      binding: 1,
      oracle: new Map(),
      predicates: new Map(),
      key: null,
      policy: {
        decider: "habit",
        threshold: 0.3,
        epsilon: 0,
        explored: false,
        greedy: "get_user_details",
        propensity: 1,
        task_id: "s1",
        events: 3,
        options: [{ tool: "get_user_details", p: 0.75, habit: 0.75, binding: 1, arguments: { user_id: "user_7", a: 1 } }],
      },
    };
    assert.equal(
      decisionLine(next, { after: "abc", address: "decide#1", ms: 0, shadow: true, withheld: "the server marks it as a write" }),
      '{"action":"lookup","address":"decide#1","after":"abc","arguments":{"a":1,"user_id":"user_7"},"binding":1,"key":null,"ms":0,' +
        '"oracle":{},"policy":{"decider":"habit","epsilon":0,"events":3,"explored":false,"greedy":"get_user_details",' +
        '"options":[{"arguments":{"a":1,"user_id":"user_7"},"binding":1,"habit":0.75,"p":0.75,"tool":"get_user_details"}],' +
        '"propensity":1,"task_id":"s1","threshold":0.3},"predicates":{},"prob":0.75,"probs":{"get_user_details":0.75,"respond":0.25},' +
        '"shadow":true,"site":"find_user_id_by_email","tool":"get_user_details","withheld":"the server marks it as a write"}',
    );
  });

  it("an unbound policy option carries its reason; shadow false is omitted", function () {
    const next = emptyNext("x", "r");
    next.policy = {
      decider: "reach",
      threshold: 0.3,
      epsilon: 0.1,
      explored: false,
      greedy: null,
      propensity: 0.9,
      task_id: "t",
      events: 1,
      options: [{ tool: "a", p: 0.5, habit: 0.4, binding: null, arguments: null, unbound: "already looked up" }],
    };
    const line = JSON.parse(decisionLine(next, { after: 1, address: "decide#0", ms: 5, shadow: false })) as Record<string, unknown>;
    assert.equal("shadow" in line, false);
    assert.equal("withheld" in line, false);
    assert.deepEqual((line["policy"] as { options: unknown[] }).options[0], {
      arguments: null,
      binding: null,
      habit: 0.4,
      p: 0.5,
      tool: "a",
      unbound: "already looked up",
    });
  });
});
