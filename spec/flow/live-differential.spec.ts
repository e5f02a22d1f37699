/**
 * The decisions a served flow makes from the live session's incremental reading
 * (`LiveDecisions`: the closed past read once, the binder's memo of values still unpassed
 * and of mentions) against the same decisions made from the whole Episode, read afresh at
 * each decision point (`decisionAfter`, then a new binding view). Sessions are served the
 * way the proxy serves them: the published retail flow, the retail world of
 * `stretto-mcp-demo` answering every call (the agent's and the flow's own lookups), and
 * customers who say which orders they mean now and then. Each decision line must be the
 * same text.
 */
import assert from "node:assert/strict";
import { answerMessage } from "../../lib/demo/answer.js";
import { emptyListing } from "../../lib/demo/worlds/listing.js";
import { retailWorld } from "../../lib/demo/worlds/retail.js";
import { decide, deciderFlows, HEADER, PER_CALL } from "./decide-locally.js";
import { decisionAfter, decisionLine, LiveDecisions, type DeciderName } from "../../lib/flow/decide/index.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import type { Json } from "../../lib/trace/json.js";
import type { Peer } from "../../lib/trace/log-types.js";
import { EpisodeBuilder } from "../../lib/trace/turns.js";
import { seededRandom } from "../../lib/flow/program/seeded-random.js";

interface Served {
  decisions: number;
  lookups: number;
  /** Bindings of a value the customer did not name while naming another (their chance is lower). */
  otherNamed: number;
}

/** One served session of `customers`: every decision live and whole, compared as log lines. */
function serve(flow: Flow, decider: DeciderName, threshold: number, seed: number, customers: number, out: Served): void {
  const next = seededRandom(seed);
  const world = retailWorld(emptyListing());
  const builder = new EpisodeBuilder();
  const live = new LiveDecisions(() => builder.finish(HEADER));
  let t = 0;
  let own = 0;
  let id = 0;
  const add = (from: Peer, message: Json) => builder.entry({ t_ms: (t += 10), from, message });
  /** Sends a call as `from` and logs the world's answer; returns its id as the decisions name it. */
  const call = (from: "client" | "proxy", callId: number | string, name: string, args: Json): string => {
    const request = { jsonrpc: "2.0", id: callId, method: "tools/call", params: { name, arguments: args } };
    add(from, request);
    const answer = answerMessage(JSON.stringify(request), world);
    if (answer !== undefined) add("server", answer.message);
    return String(callId);
  };

  /** The agent's call, then the flow's run after it: decide, look up, decide again, as the plugin does. */
  const agent = (name: string, args: Json): void => {
    const after = call("client", ++id, name, args);
    let at = after;
    for (let step = 0; step < PER_CALL; step++) {
      const got = decide(flow, live.after(at), decider, threshold);
      const want = decide(flow, decisionAfter(builder.finish(HEADER), at), decider, threshold);
      const fields = { after: id, address: `decide#${step}`, ms: 0 };
      assert.equal(decisionLine(got, fields), decisionLine(want, fields), `seed ${seed}, after ${after}, decide#${step}`);
      out.decisions++;
      if (got.binding !== null && got.binding < 0.75) out.otherNamed++;
      if (got.proposal.action !== "lookup") break;
      out.lookups++;
      at = call("proxy", `stretto-${++own}`, got.proposal.tool, got.proposal.arguments);
    }
  };

  for (let k = 1; k <= customers; k++) {
    if (next() < 0.4) add("context", { role: "user", content: `Hi, it is about my order #W${k}${next() < 0.5 ? "a" : "b"}.` });
    // Most customers are found by email or id; some name an order straight away, so the
    // flow binds from what earlier customers' records showed.
    const r = next();
    if (r < 0.5) agent("find_user_id_by_email", { email: `c${k}@example.com` });
    else if (r < 0.75) agent("get_user_details", { user_id: `user_${k}` });
    else agent("get_order_details", { order_id: `#W${k}a` });
    if (next() < 0.5) agent("get_order_details", { order_id: `#W${k}${next() < 0.5 ? "a" : "b"}` });
    if (next() < 0.3) agent("cancel_pending_order", { order_id: `#W${k}b`, reason: "no longer needed" });
  }
}

describe("served decisions, live against the whole Episode", function () {
  let flows: { habit: Flow; reach: Flow };
  before(function () {
    flows = deciderFlows(this);
  });

  for (const [decider, threshold] of [
    ["habit", 0.1],
    ["habit", 0.3],
    ["reach", 0.05],
  ] as const) {
    it(`are the same decision lines with ${decider} at ${threshold}, customer after customer`, function () {
      const out: Served = { decisions: 0, lookups: 0, otherNamed: 0 };
      for (let seed = 1; seed <= 2; seed++) serve(flows[decider], decider, threshold, seed, 30, out);
      // Enough lookups for the long past to matter, and bindings the customer's words changed.
      assert.ok(out.decisions > 60, `${out.decisions} decisions`);
      if (threshold < 0.3) {
        assert.ok(out.lookups > 80, `${out.lookups} lookups`);
        assert.ok(out.otherNamed > 10, `${out.otherNamed} bindings of a value when the customer named another`);
      }
    });
  }
});
