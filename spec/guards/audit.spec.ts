import assert from "node:assert/strict";
import type { EpisodeEvent } from "../../lib/trace/episode-types.js";
import { Auditor, RETAIL_RULES, audit, auditJson, auditMarkdown } from "../../lib/guards/index.js";
import { call, episode, result, user } from "./helpers.js";

function order(status: string) {
  return { order_id: "#W1", user_id: "ann_1", status, items: [{ item_id: "i1", product_id: "p1" }], payment_history: [{ payment_method_id: "credit_card_1" }] };
}

function withCancel(id: string, reason: string, refused: boolean, reward: number) {
  const events: EpisodeEvent[] = [
    user("Cancel #W1, I'm ann@x.com"),
    call("1", "find_user_id_by_email", { email: "ann@x.com" }),
    result("1", "find_user_id_by_email", "ann_1"),
    call("2", "get_order_details", { order_id: "#W1" }),
    result("2", "get_order_details", order("pending")),
    user("Yes, please cancel it."),
    call("3", "cancel_pending_order", { order_id: "#W1", reason }),
    { kind: "tool_result", call_id: "3", name: "cancel_pending_order", error: refused, content: "{}" },
  ];
  return episode(events, { id, reward });
}

describe("guards: the audit of recorded episodes", () => {
  const episodes = [
    withCancel("a", "no longer needed", false, 1),
    // A reason the policy refuses, in an episode that passed anyway.
    withCancel("b", "found it cheaper", false, 1),
    withCancel("c", "found it cheaper", false, 0),
    // The tool refused it too.
    withCancel("d", "found it cheaper", true, 0),
  ];
  const a = audit("retail", RETAIL_RULES, episodes);

  it("sorts each write by the tool and by the episode", () => {
    assert.equal(a.domain, "retail");
    assert.deepEqual([a.episodes, a.writes, a.refused], [[2, 2], [3, 1], [1, 1]]);
    const reason = a.rules.find((r) => r.rule === "retail.cancel_reason")!;
    assert.equal(reason.enforced, true);
    assert.deepEqual(reason.successful, [1, 1, 0]);
    assert.deepEqual(reason.failed, [0, 1, 0]);
    assert.deepEqual(reason.refused_by_tool, [0, 1, 0]);
    assert.deepEqual(reason.episodes_failed, [1, 1]);
    assert.deepEqual(reason.false_alarms, [["b", "1", "'found it cheaper' is not an accepted reason"]]);
    assert.deepEqual([...a.tasks], [["1", [2, 2, 1, 1]]]);
  });

  it("lists the rules by id", () => {
    assert.deepEqual(
      a.rules.map((r) => r.rule),
      RETAIL_RULES.map((r) => r.id).sort(),
    );
  });

  it("writes the Markdown report", () => {
    const md = auditMarkdown([a]);
    assert.ok(md.startsWith("# Policy guards against recorded trajectories\n\n"), md);
    for (const line of [
      "\n## retail\n\n4 episodes (2 successful, 2 failed); 3 writes the tool accepted and 1 it refused. " +
        "The enforced rules would refuse an accepted write in **1 of 2 successful** episodes and **1 of 2 failed** ones.\n",
      "\n| Rule | Enforced | Accepted, successful: pass / fail / unknown | Accepted, failed: pass / fail / unknown | Refused by the tool: pass / fail / unknown | Episodes failed: successful / failed |\n|---|---|---|---|---|---|\n",
      "\n| `retail.cancel_reason` | yes | 1 / 1 / 0 | 0 / 1 / 0 | 0 / 1 / 0 | 1 / 1 |\n",
      "\n| `retail.confirmed` | logged |",
      "\n- `retail.cancel_reason`, task 1 (b): 'found it cheaper' is not an accepted reason\n",
    ]) {
      assert.ok(md.includes(line), `${line}\n---\n${md}`);
    }
  });

  it("writes the JSON in its fixed shape, tasks in code point order", () => {
    const more = new Auditor("retail", RETAIL_RULES);
    for (const [id, task] of [["x", "9"], ["y", "10"], ["z", "2"]] as const) more.add({ ...withCancel(id, "no longer needed", false, 1), task_id: task });
    const json = auditJson([more.finish()]);
    const parsed = JSON.parse(json) as Array<Record<string, unknown>>;
    assert.deepEqual(Object.keys(parsed[0]!), ["domain", "episodes", "writes", "refused", "rules", "tasks"]);
    assert.deepEqual(Object.keys((parsed[0]!["rules"] as object[])[0]!), [
      "rule", "policy", "enforced", "successful", "failed", "refused_by_tool", "episodes_failed", "false_alarms",
    ]);
    assert.ok(json.indexOf('"10": [') < json.indexOf('"2": [') && json.indexOf('"2": [') < json.indexOf('"9": ['), json);
    assert.ok(json.startsWith('[\n  {\n    "domain": "retail",\n    "episodes": [\n      3,\n      0\n    ],'), json);
    assert.ok(json.includes('"false_alarms": []'));
  });

  it("judges every call of a turn on what came before the turn", () => {
    const ep = episode([
      call("1", "find_user_id_by_email", {}),
      result("1", "find_user_id_by_email", "ann_1"),
      // One turn: the lookup and the cancellation together; the cancellation cannot count on the lookup.
      {
        kind: "assistant",
        text: null,
        calls: [
          { id: "2", name: "get_order_details", arguments: { order_id: "#W1" } },
          { id: "3", name: "cancel_pending_order", arguments: { order_id: "#W1", reason: "no longer needed" } },
        ],
        usage: null,
      },
      result("2", "get_order_details", order("pending")),
      result("3", "cancel_pending_order", order("cancelled")),
    ]);
    const b = audit("retail", RETAIL_RULES, [ep]);
    assert.deepEqual(b.writes, [1, 0]);
    assert.deepEqual(b.rules.find((r) => r.rule === "retail.status_checked")!.successful, [0, 1, 0]);
    assert.deepEqual(b.refused, [1, 0]);
  });

  it("names recorded tools the way the rules know them", () => {
    const qualified = episode([
      call("1", "shop::find_user_id_by_email", {}),
      result("1", "shop::find_user_id_by_email", "ann_1"),
      call("3", "shop::cancel_pending_order", { order_id: "#W1", reason: "no longer needed" }),
    ]);
    const b = new Auditor("retail", RETAIL_RULES, (n) => n.slice(n.indexOf("::") + 2));
    b.add(qualified);
    const r = b.finish();
    assert.deepEqual(r.writes, [1, 0]);
    assert.deepEqual(r.rules.find((x) => x.rule === "retail.authenticated")!.successful, [1, 0, 0]);
  });
});
