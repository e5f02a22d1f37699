/**
 * The decisions a held-out episode holds: one after each call whose result came back, at a
 * site the training flow offers lookups at, labelled with what the agent did next.
 */
import assert from "node:assert/strict";
import { decisionCases } from "../../lib/learn/arbiter/index.js";
import { learnFlow } from "../../lib/learn/index.js";
import type { Episode, EpisodeEvent, JsonObject, ToolManifest } from "../../lib/trace/index.js";

const MANIFEST: ToolManifest = {
  domain: "shop",
  tools: { close_order: "write", find_account: "read", get_account: "read", get_order: "read" },
  docs: {},
};

type Call = [id: string, name: string, args: JsonObject];

function turn(...calls: Call[]): EpisodeEvent {
  return { kind: "assistant", text: null, calls: calls.map(([id, name, args]) => ({ id, name, arguments: args })), usage: null };
}

function result(id: string, name: string, content: string, error = false): EpisodeEvent {
  return { kind: "tool_result", call_id: id, name, error, content };
}

function episode(id: string, events: EpisodeEvent[]): Episode {
  return { id, task_id: "", trial: 0, domain: "shop", agent_model: "t", reward: 1, events };
}

/** find_account → get_account → get_order → get_order → reply → close_order. */
function usual(n: number): Episode {
  return episode(`train-${n}`, [
    { kind: "user", text: `c${n}@example.com` },
    turn(["1", "find_account", { email: `c${n}@example.com` }]),
    result("1", "find_account", `acct_${n}`),
    turn(["2", "get_account", { account_id: `acct_${n}` }]),
    result("2", "get_account", JSON.stringify({ orders: [`o${n}a`, `o${n}b`] })),
    turn(["3", "get_order", { order_id: `o${n}a` }]),
    result("3", "get_order", "{}"),
    turn(["4", "get_order", { order_id: `o${n}b` }]),
    result("4", "get_order", "{}"),
    { kind: "assistant", text: "Which one?", calls: [], usage: null },
    { kind: "user", text: "The first." },
    turn(["5", "close_order", { order_id: `o${n}a` }]),
    result("5", "close_order", "closed"),
  ]);
}

describe("the held-out decisions (cases)", () => {
  const training = [1, 2, 3].map(usual);
  const flow = learnFlow({ episodes: training, manifest: MANIFEST, contracts: new Map(), constants: false, version: "t", nowMs: 0, alpha: 1 });

  it("decides after each call the flow knows a site for, labelled with the agent's next read or respond", () => {
    const cases = decisionCases(flow, usual(9));
    assert.deepEqual(
      cases.map((c) => [c.live.site, c.options, c.label]),
      [
        ["find_account", ["get_account", "respond"], "get_account"],
        ["get_account", ["get_order", "respond"], "get_order"],
        ["get_order", ["get_order", "respond"], "get_order"],
        // The agent wrote to the customer: handing back.
        ["get_order", ["get_order", "respond"], "respond"],
      ],
    );
    assert.ok(cases.every((c) => c.session === "train-9" && c.task === "train-9"));
    // Each point is the episode as it stood when the call came back.
    assert.equal(cases[1]!.at.episode.events.length, 5);
    const habit = cases[0]!.habit;
    assert.ok(habit.get("get_account")! > 0.5 && Math.abs(habit.get("get_account")! + habit.get("respond")! - 1) < 1e-12);
  });

  it("skips a failed call's site training never saw, a call that never came back, and calls a flow cannot follow", () => {
    const ep = episode("held", [
      { kind: "user", text: "hi" },
      turn(["1", "find_account", { email: "x" }]),
      result("1", "find_account", "acct_x"),
      turn(["2", "get_account", { account_id: "acct_x" }]),
      result("2", "get_account", "Error: down", true),
      turn(["3", "get_account", { account_id: "acct_x" }]),
      // Never answered: no decision after it.
      turn(["4", "close_order", { order_id: "o" }]),
      result("4", "close_order", "closed"),
    ]);
    assert.deepEqual(
      decisionCases(flow, ep).map((c) => [c.live.site, c.label]),
      [["find_account", "get_account"]],
    );
  });

  it("takes parallel calls of one turn as following each other, the calls in flight set apart", () => {
    const ep = episode("parallel", [
      { kind: "user", text: "hi" },
      turn(["1", "get_account", { account_id: "a" }]),
      result("1", "get_account", JSON.stringify({ orders: ["oa", "ob"] })),
      turn(["2", "get_order", { order_id: "oa" }], ["3", "get_order", { order_id: "ob" }]),
      result("2", "get_order", "{}"),
      result("3", "get_order", "{}"),
    ]);
    const cases = decisionCases(flow, ep);
    assert.deepEqual(
      cases.map((c) => [c.live.site, c.label]),
      [
        ["get_account", "get_order"],
        ["get_order", "get_order"],
        ["get_order", "respond"],
      ],
    );
    assert.deepEqual(cases[1]!.at.inFlight.map((c) => c.id), ["3"]);
    assert.deepEqual(cases[2]!.at.inFlight, []);
  });
});
