/**
 * Promotion (docs/promote-evaluate.md): the Wilson bound, scoring a flow as served (used lookups,
 * chains, calls in flight), the bar, and the promoted flow handing back where its lookups
 * were not the agent's own.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { decisionAt, nextExplored, NOT_PROMOTED } from "../../lib/flow/decide/index.js";
import { explainingBinderFor } from "../../lib/flow/bind/index.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import { parseFlow } from "../../lib/flow/ir/load-flow.js";
import { flowText } from "../../lib/flow/ir/flow-to-json.js";
import {
  emptyScoring,
  promoteServed,
  scoreSession,
  siteRecord,
  wilsonLower,
  WILSON_Z,
  type SentSession,
} from "../../lib/promote/index.js";
import type { Episode } from "../../lib/trace/episode-types.js";
import { requireFixture } from "../flow/flow-fixture.js";
import { call, episode, result, said, user } from "../flow/decide-helpers.js";

const userDetails = (n: number) => JSON.stringify({ email: `c${n}@example.com`, orders: [`#W${n}a`, `#W${n}b`], user_id: `user_${n}` });

/** Customer n: the agent finds the user, and in a later turn reads them; then it answers. */
function customer(n: number, readsUser = true): Episode {
  const events = [user(`I am c${n}@example.com.`), call("1", "find_user_id_by_email", { email: `c${n}@example.com` }), result("1", "find_user_id_by_email", `user_${n}`)];
  if (readsUser) events.push(call("2", "get_user_details", { user_id: `user_${n}` }), result("2", "get_user_details", userDetails(n)));
  events.push(said("Done."));
  return { ...episode(events), id: `s${n}`, task_id: `s${n}` };
}

const sent = (ep: Episode, sentAfter = new Map<string, number>()): SentSession => ({ episode: ep, sentAfter });

/** The sessions as a folder gives them to the promoter: one at a time, each after a turn of the event loop. */
async function* each(eps: Episode[]): AsyncGenerator<SentSession> {
  for (const ep of eps) {
    await Promise.resolve();
    yield sent(ep);
  }
}

describe("promote: the Wilson lower bound", () => {
  it("matches the formula at hand-computed points", () => {
    const z2 = WILSON_Z * WILSON_Z;
    // p = 1: (1 + z²/2n − z·z/2n) / (1 + z²/n) = 1 / (1 + z²/n)
    assert.ok(Math.abs(wilsonLower(3, 3) - 1 / (1 + z2 / 3)) < 1e-15);
    assert.equal(wilsonLower(3, 3).toFixed(4), "0.5258");
    assert.equal(wilsonLower(10, 10).toFixed(4), "0.7871");
    // p = 1/2, n = 4: (0.5 + z²/8 − z·sqrt(1/16 + z²/64)) / (1 + z²/4)
    const half = (0.5 + z2 / 8 - WILSON_Z * Math.sqrt(1 / 16 + z2 / 64)) / (1 + z2 / 4);
    assert.ok(Math.abs(wilsonLower(2, 4) - half) < 1e-15);
    assert.equal(wilsonLower(0, 0), 0);
    assert.equal(wilsonLower(0, 5), 0, "floored at 0");
  });

  it("lies in [0, p], rises with successes and with evidence at the same share", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 500 }), (n, k0) => {
        const k = Math.min(k0, n);
        const lower = wilsonLower(k, n);
        assert.ok(lower >= 0 && lower <= k / n + 1e-12, `${k}/${n}: ${lower}`);
        if (k < n) assert.ok(wilsonLower(k + 1, n) > lower);
        if (k > 0) assert.ok(wilsonLower(2 * k, 2 * n) > lower, "twice the evidence, a higher bound");
      }),
    );
  });
});

describe("promote: scoring a flow as served", function () {
  let flow: Flow;
  before(function () {
    flow = parseFlow(requireFixture(this));
  });

  it("a shadow session's lookup the agent made itself is used (1 lookup, 1 used)", async () => {
    const scoring = emptyScoring();
    await scoreSession(sent(customer(7)), { flow, decider: "habit", threshold: 0.1, perCall: 8 }, scoring);
    const find = scoring.sites.get("find_user_id_by_email")!;
    assert.deepEqual([find.decisions, find.lookups, find.used, [...find.tasks]], [1, 1, 1, ["s7"]]);
    // The agent's copy had a result, so the chain went on after the lookup: once at the
    // spliced copy and once at the agent's own call.
    assert.equal(scoring.sites.get("get_user_details")!.decisions, 2);
    assert.equal(scoring.episodes, 1);
    assert.equal(scoring.unanswered, 0);
  });

  it("a lookup the agent did not make is not used, and nothing chains after it", async () => {
    const scoring = emptyScoring();
    await scoreSession(sent(customer(7, false)), { flow, decider: "habit", threshold: 0.1, perCall: 8 }, scoring);
    const find = scoring.sites.get("find_user_id_by_email")!;
    assert.deepEqual([find.lookups, find.used], [1, 0]);
    assert.equal(scoring.sites.has("get_user_details"), false);
  });

  it("calls in flight are those sent before the result; a copy in the same LLM turn is not the agent's later lookup", async () => {
    const ep = { ...episode([user("I am c7@example.com."), call("1", "find_user_id_by_email", { email: "c7@example.com" }), result("1", "find_user_id_by_email", "user_7"), said("Done.")]), id: "s7" };
    const turn = ep.events[1]!;
    if (turn.kind === "assistant") turn.calls.push({ id: "2", name: "get_user_details", arguments: { user_id: "user_7" } });
    ep.events.splice(3, 0, result("2", "get_user_details", userDetails(7)));
    const scoring = emptyScoring();
    // Call 2 was sent before call 1's result came back: it is in flight there, so the flow
    // would not repeat it; at call 2's own result the turn holds both.
    await scoreSession(sent(ep, new Map([["1", 0], ["2", 0]])), { flow, decider: "habit", threshold: 0.1, perCall: 8 }, scoring);
    const find = scoring.sites.get("find_user_id_by_email")!;
    assert.deepEqual([find.decisions, find.lookups], [1, 0], "the user is already being read");
    // Sent after call 1's result (one of the turn's results back): the flow did not know of
    // it, looks the user up, and the agent's copy, in the same turn, does not count as used.
    const later = emptyScoring();
    await scoreSession(sent(ep, new Map([["1", 0], ["2", 1]])), { flow, decider: "habit", threshold: 0.1, perCall: 8 }, later);
    const again = later.sites.get("find_user_id_by_email")!;
    assert.deepEqual([again.decisions, again.lookups, again.used], [1, 1, 0]);
  });

  it("the chain stops at --per-call lookups", async () => {
    const ep = customer(7);
    const one = emptyScoring();
    await scoreSession(sent(ep), { flow, decider: "habit", threshold: 0.1, perCall: 1 }, one);
    assert.equal(one.sites.get("get_user_details")!.decisions, 1, "only the agent's own call");
  });

  it("a flow that cannot decide leaves its decisions out, unanswered", async () => {
    const scoring = emptyScoring();
    await scoreSession(sent(customer(7)), { flow, decider: "reach", threshold: 0.1, perCall: 8 }, scoring);
    assert.equal(scoring.sites.size, 0);
    assert.equal(scoring.unanswered, 2, "one at each result something followed");
  });

  it("promotes where the lookups were the agent's own; the promoted flow hands back elsewhere", async () => {
    // A bar of 0.3 / 0.5 / 0.3 / 3, lower than the default (here at a threshold of 0.1, where
    // the published flow looks something up).
    const eps = Array.from({ length: 10 }, (_, i) => customer(i + 1));
    const bar = { threshold: 0.1, minUsed: 0.5, minLower: 0.3, minTasks: 3 };
    const { promotion, rounds } = await promoteServed(flow, () => each(eps), { decider: "habit", perCall: 8 }, bar);
    const find = promotion.sites.get("find_user_id_by_email")!;
    assert.deepEqual([find.lookups, find.used, find.tasks, find.promoted], [10, 10, 10, true]);
    const details = promotion.sites.get("get_user_details")!;
    assert.deepEqual([details.lookups, details.used, details.promoted], [20, 0, false]);
    assert.equal(rounds, 2, "the second round repeats the first's promotion");

    const promoted: Flow = { ...flow, promoted: promotion };
    const at = decisionAt(episode(customer(11).events.slice(0, 5)));
    const next = await nextExplored({
      flow: promoted,
      at,
      taskId: "t",
      decider: "habit",
      threshold: 0.1,
      bind: (tool) => {
        const b = explainingBinderFor(promoted, at.episode)(tool);
        return b.ok ? { ok: true, arguments: b.args, chance: b.chance } : { ok: false, why: b.why };
      },
    });
    assert.equal(next.site, "get_user_details");
    assert.deepEqual(next.proposal, { action: "hand_back", reason: NOT_PROMOTED });
  });

  it("a site record is promoted only when every part of the bar is met", () => {
    const bar = { threshold: 0.3, minUsed: 0.7, minLower: 0.5, minTasks: 3 };
    const tally = (lookups: number, used: number, tasks: number, served = 0) => ({ decisions: lookups, lookups, used, served, tasks: new Set(Array.from({ length: tasks }, (_, i) => `t${i}`)) });
    assert.equal(siteRecord(tally(3, 3, 3), bar).promoted, true);
    assert.equal(siteRecord(tally(3, 3, 2), bar).promoted, false, "too few tasks");
    assert.equal(siteRecord(tally(2, 2, 3), bar).promoted, false, "lower bound 0.43 below 0.5");
    assert.equal(siteRecord(tally(10, 6, 3), bar).promoted, false, "60% used");
    assert.equal(siteRecord(tally(0, 0, 0), bar).promoted, false, "no lookups");
    assert.equal(siteRecord(tally(10, 7, 3), { ...bar, minLower: 0 }).promoted, true, "exactly 70% used");
    assert.equal(siteRecord(tally(13, 3, 3, 10), bar).promoted, true, "the proxy's own lookups (served) count neither way");
    assert.equal(siteRecord(tally(5, 0, 3, 5), bar).promoted, false, "served only: nothing known of the agent");
  });

  it("the promoted flow, written and read again, holds the promotion and gates as served", async () => {
    const eps = Array.from({ length: 3 }, (_, i) => customer(i + 1));
    const { promotion } = await promoteServed(flow, () => each(eps), { decider: "habit", perCall: 8 }, { threshold: 0.1, minUsed: 0.7, minLower: 0.5, minTasks: 3 });
    const text = flowText({ ...flow, promoted: promotion });
    const json = JSON.parse(text) as { promoted: unknown };
    assert.deepEqual(json.promoted, {
      bar: { threshold: 0.1, min_used: 0.7, min_lower: 0.5, min_tasks: 3 },
      sites: {
        find_user_id_by_email: { decisions: 3, lookups: 3, used: 3, tasks: 3, lower: wilsonLower(3, 3), promoted: true },
        get_user_details: { decisions: 6, lookups: 6, used: 0, tasks: 3, lower: 0, promoted: false },
      },
    });
    const again = parseFlow(text);
    assert.deepEqual(again.promoted, promotion);
    assert.equal(flowText(again), text, "the rest of the flow as it was");
    assert.equal(flowText({ ...again, promoted: undefined }).includes('"promoted"'), false);
  });
});
