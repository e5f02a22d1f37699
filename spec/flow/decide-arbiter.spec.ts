/**
 * The arbiter decider (lib/flow/decide/arbiter.ts): the v2 request, the conditional
 * logit over the eight features with reliability and coverage, and its hand-back reasons.
 */
import assert from "node:assert/strict";
import { requestKey } from "../../lib/oracle/cache.js";
import { MockOracle } from "../../lib/oracle/mock.js";
import type { Oracle, OracleRequest, OracleResponse } from "../../lib/oracle/oracle.js";
import { arbiterRequest, CTX, INCOMPLETE, nextExplored, type DecideInput } from "../../lib/flow/decide/index.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import { requireFixture } from "./flow-fixture.js";
import { decisionAt } from "../../lib/flow/decide/decision-episode.js";
import { bindTable, bound, call, emailEpisode, episode, fixtureJson, flowOf, result, said, user } from "./decide-helpers.js";

const ALPHA = 8.017279693592648;
const P0 = (3 + ALPHA / 18) / (44 + ALPHA);
const P_USER = (2 + ALPHA * P0) / (2 + ALPHA);
const WEIGHTS = [1, 1, 1, 0, 0.5, 0.5, 0.5, 1];

function arbiterFlow(sites: [string, [number, number, number]][] = []): Flow {
  const predicates = [
    { id: "list_pending", favors: "same_lookup", question: "Are there records left to read?", yes: "Yes.", no: "No." },
    { id: "needs_options", favors: "any_lookup", question: "Does it need options?", yes: "Yes.", no: "No." },
    { id: "must_ask", favors: "hand_back", question: "Must it ask the customer?", yes: "Yes.", no: "No." },
  ];
  const fold = { weights: WEIGHTS, rates: { sites, agree: 0.8, cover: 0.9 } };
  return flowOf({ ...fixtureJson(), predicates, weighed: predicates, folds: [fold, fold, fold, fold, fold], model: "jev-latest" });
}

function recording(inner: Oracle): Oracle & { asked: OracleRequest[] } {
  const asked: OracleRequest[] = [];
  return { kind: inner.kind, asked, ask: (r) => (asked.push(r), inner.ask(r)) };
}

function answering(response: OracleResponse): Oracle {
  return { kind: "jev", ask: () => Promise.resolve(response) };
}

const input = (flow: Flow, oracle: Oracle, threshold = 0.3): DecideInput => ({
  flow,
  at: decisionAt(emailEpisode()),
  taskId: "task-1",
  decider: "arbiter",
  threshold,
  bind: bindTable({ get_user_details: bound({ user_id: "user_1" }, 0.75) }),
  oracle,
});

describe("deciding: the arbiter", function () {
  before(function () {
    requireFixture(this);
  });

  it("asks the v2 questions once and weighs the answers by the fold's conditional logit", async function () {
    const oracle = recording(new MockOracle());
    const next = await nextExplored(input(arbiterFlow(), oracle));
    assert.equal(oracle.asked.length, 1);
    const request = oracle.asked[0]!;
    assert.equal(next.key, requestKey(request));
    assert.deepEqual(Object.keys(request.questions).sort(), ["go_on", "next", "pred_list_pending", "pred_must_ask", "pred_needs_options"]);
    // Mock: `next` picks its first option (get_user_details) at 0.6; go_on 0.5; predicates 0.5 (logit 0).
    // Features: ln habit, ln one, ln two, respond, 3 predicates, reliability logit(0.8) on the pick.
    const lookup = P_USER * 0.6 * 0.5 * 4;
    const respond = (1 - P_USER) * 0.4 * 0.5;
    const expected = (lookup / (lookup + respond)) * 0.9;
    assert.ok(Math.abs(next.probs.get("get_user_details")! - expected) < 1e-12, `${next.probs.get("get_user_details")} vs ${expected}`);
    assert.ok(Math.abs(next.probs.get("respond")! - (respond / (lookup + respond)) * 0.9) < 1e-12);
    assert.deepEqual(Object.fromEntries(next.oracle), { get_user_details: 0.6, respond: 0.4 });
    assert.deepEqual(Object.fromEntries(next.predicates), { list_pending: 0.5, needs_options: 0.5, must_ask: 0.5 });
    assert.deepEqual(next.proposal, { action: "lookup", tool: "get_user_details", arguments: { user_id: "user_1" } });
  });

  it("reliability and coverage come from the site's rates, shrunk toward the pooled ones", async function () {
    // 10 decisions at the site, 5 agreed, 5 covered: r = (5 + 8)/20 = 0.65, coverage (5 + 9)/20 = 0.7.
    const next = await nextExplored(input(arbiterFlow([["find_user_id_by_email", [10, 5, 5]]]), new MockOracle()));
    const r = 0.65;
    const lookup = P_USER * 0.6 * 0.5 * (r / (1 - r));
    const respond = (1 - P_USER) * 0.4 * 0.5;
    assert.ok(Math.abs(next.probs.get("get_user_details")! - (lookup / (lookup + respond)) * 0.7) < 1e-12);
  });

  it("builds the v2 request: criteria, instructions, state slice", function () {
    const flow = arbiterFlow();
    const ep = episode([
      user("Hello, I want to check order #W1."),
      said("Sure, your email?"),
      user("c1@example.com"),
      call("1", "find_user_id_by_email", { email: "c1@example.com" }),
      result("1", "find_user_id_by_email", "user_1"),
      call("2", "get_order_details", { order_id: "#W1" }),
      result("2", "get_order_details", "Order not found", true),
    ]);
    const request = arbiterRequest(flow, ep, { prev: "get_order_details", failed: true, site: "get_order_details (error)" }, ["get_order_details", "get_product_details", "respond"]);
    assert.equal(request.model, "jev-latest");
    const next = request.questions["next"]!;
    assert.equal(next.type, "choice");
    assert.equal(
      next.instructions,
      `${CTX} Its last tool call, \`get_order_details\`, returned an error. What does it do next? Pick the lookup it makes now, or 'respond' if it hands back.`,
    );
    assert.deepEqual(Object.keys(next.criteria as object), ["get_order_details", "get_product_details", "respond"]);
    assert.equal(
      next.criteria["respond"],
      "Hand back: the agent writes to the customer now (to ask for missing details or a confirmation, report what it found, or answer), or it makes a change or a transfer.",
    );
    assert.equal(next.criteria["get_order_details"], flow.manifest.docs.get("get_order_details")!.summary.trim().slice(0, 250) + (flow.manifest.docs.get("get_order_details")!.summary.trim().length > 250 ? "…" : ""));
    const tool = request.questions["tool"]!;
    assert.equal(tool.instructions, `${CTX} Its last tool call, \`get_order_details\`, returned an error. Suppose it makes one more lookup now: which one?`);
    assert.deepEqual(Object.keys(tool.criteria as object), ["get_order_details", "get_product_details"]);
    assert.deepEqual(request.questions["go_on"], {
      type: "noul",
      instructions: `${CTX} Its last tool call, \`get_order_details\`, returned an error. Does it make another lookup now, before it writes to the customer or makes any change?`,
      criteria: {
        true: "It still needs information it can look up before it can reply or act.",
        false: "It has what it needs for now: it writes to the customer, or makes a change.",
      },
    });
    assert.deepEqual(request.questions["pred_must_ask"], { type: "noul", instructions: `${CTX} Must it ask the customer?`, criteria: { true: "Yes.", false: "No." } });
    assert.deepEqual(request.state, {
      customer_request: "Hello, I want to check order #W1.",
      later_customer_messages: ["c1@example.com"],
      agent_last_message: "Sure, your email?",
      latest_results: [
        { tool_call: "find_user_id_by_email", arguments: { email: "c1@example.com" }, result: "user_1" },
        { tool_call: "get_order_details", arguments: { order_id: "#W1" }, result: "Order not found", error: true },
      ],
    });
  });

  it("an incomplete answer hands back with the key set; a hostile oracle adds no option", async function () {
    const partial = answering({ model: "jev", answers: { next: { type: "choice", choice: "respond", probabilities: { respond: 1 }, confidence: 1 } }, usage: { input_tokens: 0, output_tokens: 0 } });
    const a = await nextExplored(input(arbiterFlow(), partial));
    assert.deepEqual(a.proposal, { action: "hand_back", reason: INCOMPLETE });
    assert.match(a.key!, /^[0-9a-f]{64}$/);
    const hostile = answering({
      model: "jev",
      answers: {
        next: { type: "choice", choice: "cancel_pending_order", probabilities: { cancel_pending_order: 1 }, confidence: 1 },
        go_on: { type: "noul", noul: 1 },
      },
      usage: { input_tokens: 0, output_tokens: 0 },
    });
    const b = await nextExplored(input(arbiterFlow(), hostile, 0.01));
    assert.deepEqual([...b.probs.keys()], ["get_user_details", "respond"]);
    assert.deepEqual(Object.fromEntries(b.oracle), { get_user_details: 0, respond: 0 });
    assert.equal(b.proposal.action === "lookup" ? b.proposal.tool : "none", "get_user_details");
  });
});
