/**
 * `stretto evaluate` reads what the flow logs: decision lines written by the serving code
 * with exploration (`--flow-explore`) parse, the propensity it recomputes equals the
 * one the flow logged, and the habit target at the served threshold agrees with the rule.
 */
import assert from "node:assert/strict";
import { decisionLine, decisionAt, nextLocal } from "../../lib/flow/decide/index.js";
import { evaluate, parseDecision, propensity, takenChoice, targetChoice } from "../../lib/evaluate/index.js";
import type { Episode } from "../../lib/trace/episode-types.js";
import { requireFixture } from "../flow/flow-fixture.js";
import { bindTable, bound, call, episode, flowOf, result, user } from "../flow/decide-helpers.js";

function orderEpisode(n: number): Episode {
  return episode([
    user(`Where is my order #W${n}?`),
    call("1", "get_user_details", { user_id: `user_${n}` }),
    result("1", "get_user_details", JSON.stringify({ orders: [`#W${n}`] })),
    call("2", "get_order_details", { order_id: `#W${n}` }),
    result("2", "get_order_details", JSON.stringify({ order_id: `#W${n}`, items: [{ product_id: "p1" }] })),
  ]);
}

describe("stretto evaluate reads the flow's own decision lines", function () {
  it("recomputes the logged propensity of what the flow took, explored or not", function () {
    const flow = flowOf(JSON.parse(requireFixture(this)) as object);
    const lines = [];
    for (let n = 0; n < 200; n++) {
      const next = nextLocal({
        flow,
        at: decisionAt(orderEpisode(n)),
        taskId: `task-${n}`,
        decider: "habit",
        threshold: 0.05,
        bind: bindTable({ get_order_details: bound({ order_id: "#W9" }, 0.9), get_product_details: bound({ product_id: "p1" }, 0.8) }),
        explore: { epsilon: 0.3, seed: 0 },
      });
      const line = JSON.parse(decisionLine(next, { after: 2, address: "decide#0", ms: 0 })) as Record<string, unknown>;
      line["labels"] = (next.policy!.options).map((o) => ({ used: o.tool === "get_order_details", detour: o.tool !== "get_order_details", turn: 1 }));
      lines.push(line);
    }
    const decisions = lines.map((l, i) => parseDecision(JSON.stringify(l), `log:${i + 1}`)!);
    let explored = 0;
    for (const d of decisions) {
      if (d.policy.explored) explored++;
      assert.ok(Math.abs(propensity(d, takenChoice(d)) - d.policy.propensity) < 1e-12, d.where);
      // The habit at the served threshold is the rule the flow followed: its greedy choice.
      const chosen = targetChoice({ name: "h", decider: "habit", threshold: 0.05 }, d);
      assert.equal(chosen === -1 ? null : d.policy.options[chosen]!.tool, d.policy.greedy, d.where);
    }
    assert.ok(explored > 20 && explored < 200 - 20, `explored ${explored} of 200`);
    // Where the target is the logging rule, every non-explored decision weighs 1/(1−ε):
    // IPS and SNIPS then estimate the rule's own totals without bias; SNIPS exactly its direct
    // value here, since the rule's choice gets the same label at every decision.
    const all = evaluate({ name: "h", decider: "habit", threshold: 0.05 }, decisions, 10).all;
    assert.ok(all.snips !== undefined && all.direct.every((x, i) => Math.abs(x - all.snips![i]!) < 1e-9), JSON.stringify(all));
  });
});
