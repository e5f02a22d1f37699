/**
 * Deciding (lib/flow/decide): sites, gates, the habit back-off, reach, and both rules
 * with their exact hand-back reasons, on worked vectors.
 */
import assert from "node:assert/strict";
import {
  belowReason,
  fixed2,
  FlowDecideError,
  gate,
  lookupFirst,
  NO_LOOKUP,
  NO_REACH,
  nextExplored,
  nextLocal,
  reachBest,
  rustDisplay,
  siteOptions,
  steps,
  liveSite,
  type Next,
} from "../../lib/flow/decide/index.js";
import type { Oracle, OracleRequest, OracleResponse } from "../../lib/oracle/oracle.js";
import { OracleError } from "../../lib/oracle/oracle.js";
import type { JsonObject } from "../../lib/trace/json.js";
import { requireFixture } from "./flow-fixture.js";
import { decisionAt } from "../../lib/flow/decide/decision-episode.js";
import { bindTable, bound, call, emailEpisode, episode, fixtureJson, flowOf, result, said, user } from "./decide-helpers.js";

const ALPHA = 8.017279693592648;
/** The worked check's habit probability (the published flow): level 1 `[65536]` has `{9: 2}`; level 0 total 44 with 3 of id 9. */
const P0 = (3 + ALPHA / 18) / (44 + ALPHA);
const P_USER = (2 + ALPHA * P0) / (2 + ALPHA);

const userBinding = () => bindTable({ get_user_details: bound({ user_id: "user_1" }, 0.75) });

function failingOracle(): Oracle & { asked: OracleRequest[] } {
  const asked: OracleRequest[] = [];
  return {
    kind: "jev",
    asked,
    ask(request: OracleRequest): Promise<OracleResponse> {
      asked.push(request);
      return Promise.reject(new OracleError("TypeSafe returned 500: down"));
    },
  };
}

/** The published flow with the arbiter the sibling fixture ships: 3 predicates, 5 folds of 8 weights. */
function withArbiter(json = fixtureJson()) {
  const predicates = [
    { id: "list_pending", favors: "same_lookup", question: "Are there records left to read?", yes: "Yes.", no: "No." },
    { id: "needs_options", favors: "any_lookup", question: "Does it need options?", yes: "Yes.", no: "No." },
    { id: "must_ask", favors: "hand_back", question: "Must it ask the customer?", yes: "Yes.", no: "No." },
  ];
  const fold = { weights: [1, 1, 1, 0, 0.5, 0.5, 0.5, 1], rates: { sites: [], agree: 0.8, cover: 0.9 } };
  return flowOf({ ...json, predicates, weighed: predicates, folds: [fold, fold, fold, fold, fold], model: "jev-latest" });
}

describe("deciding: sites, gates and the habit", function () {
  before(function () {
    requireFixture(this);
  });

  it("names the site of the call that returned, `(error)` when it failed, and none after the agent spoke", function () {
    const ok = liveSite(steps(emailEpisode()).at(-1));
    assert.deepEqual(ok, { prev: "find_user_id_by_email", failed: false, site: "find_user_id_by_email" });
    const failed = episode([user("hi"), call("1", "get_order_details", { order_id: "#W1" }), result("1", "get_order_details", "Order not found", true)]);
    assert.equal(liveSite(steps(failed).at(-1))?.site, "get_order_details (error)");
    const unanswered = episode([user("hi"), call("1", "get_order_details", { order_id: "#W1" })]);
    assert.equal(liveSite(steps(unanswered).at(-1))?.site, "get_order_details (error)");
    assert.equal(liveSite(steps(episode([...emailEpisode().events, said("Found you.")])).at(-1)), undefined);
  });

  it("offers respond and the site's lookups, sorted, respond among them", function () {
    const flow = flowOf(fixtureJson());
    assert.deepEqual(siteOptions(flow, "get_order_details", false), ["get_order_details", "get_product_details", "respond"]);
    assert.deepEqual(siteOptions(flow, "find_user_id_by_email", false), ["get_user_details", "respond"]);
    assert.deepEqual(siteOptions(flow, "find_user_id_by_email", true), []);
  });

  it("serves the published flow: the CLI worked check (habit, threshold 0.15)", async function () {
    const flow = flowOf(fixtureJson());
    const bind = userBinding();
    const next = await nextExplored({ flow, at: decisionAt(emailEpisode()), taskId: "t", decider: "habit", threshold: 0.15, bind });
    assert.equal(next.site, "find_user_id_by_email");
    assert.deepEqual(next.proposal, { action: "lookup", tool: "get_user_details", arguments: { user_id: "user_1" } });
    assert.ok(Math.abs(next.prob! - P_USER) < 1e-12, `p ${next.prob} vs ${P_USER}`);
    assert.ok(Math.abs(next.prob! - 0.2527) < 5e-5);
    assert.equal(next.binding, 0.75);
    assert.deepEqual([...next.probs.keys()], ["get_user_details", "respond"]);
    assert.ok(Math.abs([...next.probs.values()].reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.equal(next.key, null);
    assert.deepEqual(bind.calls, ["get_user_details"]);
  });

  it("the_habit_alone_never_asks: at p·c + 0.01 it hands back with the arguments' reason", function () {
    const flow = flowOf(fixtureJson());
    const threshold = P_USER * 0.75 + 0.01;
    const next = nextLocal({ flow, at: decisionAt(emailEpisode()), taskId: "t", decider: "habit", threshold, bind: userBinding() });
    assert.deepEqual(next.proposal, {
      action: "hand_back",
      reason: `get_user_details at 0.25, times 0.75 for its arguments, below ${rustDisplay(threshold)}`,
    });
    assert.equal(next.prob, P_USER);
    assert.equal(next.binding, 0.75);
    assert.equal(next.key, null);
    const below = nextLocal({ flow, at: decisionAt(emailEpisode()), taskId: "t", decider: "habit", threshold: 0.3, bind: userBinding() });
    assert.deepEqual(below.proposal, { action: "hand_back", reason: "get_user_details at 0.25, below 0.3" });
    assert.equal(below.binding, null);
  });

  it("the_habit_alone_never_asks: the arbiter with a failing oracle sets the key and says the model failed", async function () {
    const oracle = failingOracle();
    const next = await nextExplored({ flow: withArbiter(), at: decisionAt(emailEpisode()), taskId: "t", decider: "arbiter", threshold: 0.15, bind: userBinding(), oracle });
    assert.equal(oracle.asked.length, 1);
    assert.match(next.key!, /^[0-9a-f]{64}$/);
    assert.equal(next.proposal.action, "hand_back");
    assert.equal((next.proposal as { reason: string }).reason, "the System-One model failed: TypeSafe returned 500: down");
  });

  it("hands back at an `(error)` site no lookup followed, and after the agent spoke", async function () {
    const flow = flowOf(fixtureJson());
    const failed = episode([user("I am c1@example.com"), call("1", "find_user_id_by_email", { email: "x" }), result("1", "find_user_id_by_email", "no user", true)]);
    const a = await nextExplored({ flow, at: decisionAt(failed), taskId: "t", decider: "habit", threshold: 0.1, bind: userBinding() });
    assert.equal(a.site, "find_user_id_by_email (error)");
    assert.deepEqual(a.proposal, { action: "hand_back", reason: "no lookups followed here in training" });
    const spoke = episode([...emailEpisode().events, said("Found you.")]);
    const b = await nextExplored({ flow, at: decisionAt(spoke), taskId: "t", decider: "habit", threshold: 0.1, bind: userBinding() });
    assert.equal(b.site, null);
    assert.deepEqual(b.proposal, { action: "hand_back", reason: "the last step is not a tool call" });
  });

  it("per_site_thresholds_take_the_served_ones_place", async function () {
    const json = { ...fixtureJson(), stretto_flow: 2 };
    const at = (t: number, site = "find_user_id_by_email") => ({ ...json, thresholds: { [site]: t } });
    const served = { at: decisionAt(emailEpisode()), taskId: "t", threshold: 0.15, bind: userBinding() };
    const strict = nextLocal({ ...served, flow: flowOf(at(0.99)), decider: "habit" });
    assert.deepEqual(strict.proposal, { action: "hand_back", reason: "get_user_details at 0.25, below 0.99" });
    for (const decider of ["habit", "arbiter"] as const) {
      const oracle = failingOracle();
      const off = await nextExplored({ ...served, flow: flowOf({ ...at(2), ...arbiterFields() }), decider, oracle });
      assert.deepEqual(off.proposal, { action: "hand_back", reason: "the site is switched off" });
      assert.equal(off.key, null);
      assert.equal(oracle.asked.length, 0);
    }
    const other = nextLocal({ ...served, flow: flowOf(at(0.99, "get_user_details")), decider: "habit" });
    assert.equal(other.proposal.action, "lookup");
  });

  it("the promotion gate: an unpromoted or unscored site hands back", function () {
    const record = (promoted: boolean) => ({ decisions: 10, lookups: 10, used: promoted ? 10 : 0, tasks: 3, lower: 0.5, promoted });
    const promoted = (sites: object) => ({ ...fixtureJson(), promoted: { bar: { threshold: 0.3, min_used: 0.5, min_lower: 0.3, min_tasks: 3 }, sites } });
    const input = { at: decisionAt(emailEpisode()), taskId: "t", decider: "habit" as const, threshold: 0.15, bind: userBinding() };
    const yes = nextLocal({ ...input, flow: flowOf(promoted({ find_user_id_by_email: record(true) })) });
    assert.equal(yes.proposal.action, "lookup");
    for (const sites of [{ find_user_id_by_email: record(false) }, { get_user_details: record(true) }]) {
      const no = nextLocal({ ...input, flow: flowOf(promoted(sites)) });
      assert.deepEqual(no.proposal, { action: "hand_back", reason: "the site is not promoted" });
    }
    assert.deepEqual(gate(flowOf(fixtureJson()), "anything", 0.3), { open: true, threshold: 0.3 });
  });
});

function arbiterFields() {
  const fold = { weights: [1, 1, 1, 0, 1], rates: { sites: [], agree: 0.8, cover: 0.9 } };
  return { folds: [fold, fold, fold, fold, fold], model: "jev-latest" };
}

describe("deciding: reach and the rules' reasons", function () {
  before(function () {
    requireFixture(this);
  });

  it("reach on a flow without reach counts is the flow's error, not a decision", async function () {
    const flow = flowOf(fixtureJson());
    const input = { flow, at: decisionAt(emailEpisode()), taskId: "t", decider: "reach" as const, threshold: 0.15, bind: userBinding() };
    assert.throws(() => nextLocal(input), (e: unknown) => e instanceof FlowDecideError && e.message === NO_REACH);
    await assert.rejects(nextExplored(input), (e: unknown) => e instanceof FlowDecideError && e.message === NO_REACH);
  });

  it("the arbiter on a flow without folds is the flow's error", async function () {
    const flow = flowOf(fixtureJson());
    await assert.rejects(
      nextExplored({ flow, at: decisionAt(emailEpisode()), taskId: "t", decider: "arbiter", threshold: 0.15, bind: userBinding(), oracle: failingOracle() }),
      { message: "this flow has no arbiter, so it decides with the habit alone" },
    );
  });

  it("reach reads its own counts: respond 0, the lookup by the back-off; at 1.01 it hands back", function () {
    const json = fixtureJson();
    const habit = json["habit"] as { base: JsonObject };
    const flow = flowOf({ ...json, reach: habit.base });
    const input = { flow, at: decisionAt(emailEpisode()), taskId: "t", decider: "reach" as const, bind: userBinding() };
    const next: Next = nextLocal({ ...input, threshold: 0.15 });
    assert.equal(next.probs.get("respond"), 0);
    // With no group layer and these counts, reach equals the habit base: P1 above.
    assert.ok(Math.abs(next.probs.get("get_user_details")! - P_USER) < 1e-12);
    assert.deepEqual(next.proposal, { action: "lookup", tool: "get_user_details", arguments: { user_id: "user_1" } });
    const high = nextLocal({ ...input, threshold: 1.01 });
    assert.deepEqual(high.proposal, { action: "hand_back", reason: "get_user_details at 0.25, below 1.01" });
  });

  it("reach_takes_the_best_lookup_by_its_chance_times_its_binding: c (0.45) over b (0.30); the first of equals wins", function () {
    const probs = new Map([["a", 0.2], ["b", 0.6], ["c", 0.9], ["respond", 0]]);
    const bind = bindTable({ a: bound({}, 1), b: bound({ x: "b" }, 0.5), c: bound({ x: "c" }, 0.5) });
    const r = reachBest(["a", "b", "c"], probs, 0.3, bind);
    assert.deepEqual(r.proposal, { action: "lookup", tool: "c", arguments: { x: "c" } });
    assert.equal(r.prob, 0.9);
    assert.equal(r.binding, 0.5);
    assert.deepEqual(bind.calls, ["b", "c"], "options below the threshold are not bound");
    const equal = reachBest(["b", "c"], new Map([["b", 0.9], ["c", 0.9]]), 0.3, bind);
    assert.equal((equal.proposal as { tool: string }).tool, "b");
  });

  it("the_rules_say_why_they_hand_back", function () {
    const none = bindTable({});
    assert.deepEqual(lookupFirst([], new Map([["respond", 1]]), 0.3, none).proposal, { action: "hand_back", reason: NO_LOOKUP });
    assert.deepEqual(reachBest([], new Map(), 0.3, none).proposal, { action: "hand_back", reason: "no lookup to make" });
    const low = new Map([["get_account", 0.2], ["respond", 0.8]]);
    assert.deepEqual(lookupFirst(["get_account"], low, 0.3, none).proposal, { action: "hand_back", reason: "get_account at 0.20, below 0.3" });
    assert.deepEqual(reachBest(["get_account"], low, 0.3, none).proposal, { action: "hand_back", reason: "get_account at 0.20, below 0.3" });
    const high = new Map([["get_account", 0.95]]);
    const halfBound = bindTable({ get_account: bound({ account_id: "acct_1" }, 0.5) });
    assert.deepEqual(lookupFirst(["get_account"], high, 0.9, halfBound).proposal, {
      action: "hand_back",
      reason: "get_account at 0.95, times 0.50 for its arguments, below 0.9",
    });
    assert.deepEqual(reachBest(["get_account"], high, 0.9, halfBound).proposal, {
      action: "hand_back",
      reason: "get_account at 0.95, times 0.50 for its arguments, below 0.9",
    });
    const tickets = new Map([["tickets::get", 0.8]]);
    const first = lookupFirst(["tickets::get"], tickets, 0.3, none);
    assert.deepEqual(first.proposal, { action: "hand_back", reason: "tickets::get: never called in training" });
    assert.equal(first.prob, 0.8);
    const best = reachBest(["get_account", "tickets::get"], new Map([["get_account", 0.1], ["tickets::get", 0.8]]), 0.3, none);
    assert.deepEqual(best.proposal, { action: "hand_back", reason: "tickets::get: never called in training" });
  });

  it("lookup first takes the likeliest, the first of equals, and never respond", function () {
    const bind = bindTable({ a: bound({}, 1), b: bound({}, 1) });
    const r = lookupFirst(["a", "b"], new Map([["a", 0.4], ["b", 0.4], ["respond", 0.9]]), 0.3, bind);
    assert.equal((r.proposal as { tool: string }).tool, "a");
    assert.deepEqual(bind.calls, ["a"]);
  });

  it("prints numbers in reasons as a Rust build does, so flow logs compare: `{threshold}` as Display, `{p:.2}` ties to even", function () {
    assert.equal(rustDisplay(0.3), "0.3");
    assert.equal(rustDisplay(1), "1");
    assert.equal(rustDisplay(1e-7), "0.0000001");
    assert.equal(rustDisplay(1e21), "1000000000000000000000");
    assert.equal(fixed2(0.2), "0.20");
    assert.equal(fixed2(0.125), "0.12");
    assert.equal(fixed2(0.375), "0.38");
    assert.equal(fixed2(1 / 6), "0.17");
    assert.equal(belowReason("t", 0.125, 0.9), "t at 0.12, below 0.9");
  });
});
