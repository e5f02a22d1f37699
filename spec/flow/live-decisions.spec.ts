/**
 * The live decision points (lib/flow/decide/live-decisions.ts) against the plain
 * definition (`afterCall`, then `steps` over the whole episode), on random sessions: parallel
 * calls, the proxy's own lookups, errors, cancellations, reused ids, and what the customer
 * and the agent say in between.
 */
import assert from "node:assert/strict";
import type { SessionView } from "../../lib/flow/bind/session.js";
import { decisionAfter, LiveDecisions } from "../../lib/flow/decide/index.js";
import type { Json } from "../../lib/trace/json.js";
import type { Peer } from "../../lib/trace/log-types.js";
import { EpisodeBuilder } from "../../lib/trace/turns.js";
import { qualify, qualifyEpisode } from "../../lib/trace/qualify.js";
import { logHeader } from "../../lib/record/log-header.js";

const HEADER = logHeader({ session: "s", startedUnixMs: 0, serverCommand: ["x"] });

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = ["find_user_id_by_email", "get_user_details", "get_order_details", "cancel_pending_order"];

function session(seed: number, steps: number, check: (builder: EpisodeBuilder, live: LiveDecisions, callId: string) => void, server?: string): void {
  const next = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const builder = new EpisodeBuilder();
  const live = new LiveDecisions(() => builder.finish(HEADER), server);
  const open: Array<string | number> = [];
  let t = 0;
  let n = 0;
  let own = 0;
  const add = (from: Peer, message: Json) => builder.entry({ t_ms: t, from, message });
  for (let i = 0; i < steps; i++) {
    t += pick([0, 1, 200, 600]);
    const r = next();
    if (r < 0.3 || open.length === 0) {
      // A call: mostly fresh ids, sometimes one reused, sometimes the proxy's own.
      const proxy = next() < 0.15;
      const id: string | number = proxy ? `stretto-${++own}` : next() < 0.05 && n > 0 ? Math.ceil(next() * n) : ++n;
      add(proxy ? "proxy" : "client", { jsonrpc: "2.0", id, method: "tools/call", params: { name: pick(TOOLS), arguments: { v: `value-${Math.floor(next() * 6)}` } } });
      open.push(id);
    } else if (r < 0.75) {
      const id = open.splice(Math.floor(next() * open.length), 1)[0]!;
      const failed = next() < 0.2;
      add("server", failed ? { jsonrpc: "2.0", id, error: { code: -1, message: "no" } } : { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `{"v":"value-${i % 5}"}` }] } });
      check(builder, live, typeof id === "string" ? id : String(id));
    } else if (r < 0.82) {
      add("client", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: pick(open) } });
    } else if (r < 0.92) {
      add("context", { role: "user", content: `I am value-${Math.floor(next() * 6)}` });
    } else {
      add("context", { role: "assistant", content: next() < 0.2 ? "" : "Let me look." });
    }
  }
}

const VALUES = [0, 1, 2, 3, 4, 5].map((i) => `value-${i}`);

/** Everything a binding can ask a view, as plain data. */
function readOf(view: SessionView, server?: string): unknown {
  const name = (t: string) => (server === undefined ? t : qualify(server, t));
  return {
    customer: view.customer,
    outputs: view.outputs.map((o) => [o.tool, o.callId, o.value]),
    site: view.site,
    tools: TOOLS.map(name).map((t) => ({
      called: view.called(t),
      used: VALUES.map((v) => view.used(t, "v").has(v)),
      returned: VALUES.map((v) => [...(view.returned(t, "v", v) ?? [])].sort()),
    })),
    gave: VALUES.map((v) => view.gave(v)),
  };
}

describe("live decision points", function () {
  for (const server of [undefined, "shop"]) {
  it(`give the same last step, recent steps, episode, calls in flight and binding view as the whole episode does${server === undefined ? "" : ", its tools named server::tool"}`, function () {
    let checked = 0;
    let fast = 0;
    let named = 0;
    for (let seed = 1; seed <= 25; seed++) {
      session(seed, 300, (builder, live, callId) => {
        const whole = builder.finish(HEADER);
        const episode = server === undefined ? whole : qualifyEpisode(whole, server);
        const want = decisionAfter(episode, callId);
        const got = live.after(callId);
        const where = `seed ${seed}, after ${callId}`;
        assert.deepEqual(got.last, want.last, where);
        for (const k of [0, 1, 2, 3, 5]) assert.deepEqual(got.recent(k), want.recent(k), `${where}, recent(${k})`);
        assert.deepEqual(got.episode, want.episode, where);
        assert.deepEqual(got.inFlight, want.inFlight, where);
        assert.deepEqual(readOf(got.view, server), readOf(want.view, server), `${where}: what a binding reads`);
        checked++;
        // The flow reads ahead after a run: what it reads then must change no later decision.
        if (seed % 2 === 0) live.readAhead();
        if (got.last?.kind === "call") fast++;
        if (got.last?.kind === "call" && got.last.tool.startsWith(`${server}::`)) named++;
      }, server);
    }
    // Enough decision points, most of them after a call, for the comparison to mean something.
    assert.ok(checked > 1200, `${checked} decision points`);
    assert.ok(fast > checked / 2, `${fast} of ${checked} end on a call`);
    if (server !== undefined) assert.ok(named > 0, "the last steps name their server");
  });
  }

  it("keep the episode as it stood at the decision, though the session goes on", function () {
    const builder = new EpisodeBuilder();
      const live = new LiveDecisions(() => builder.finish(HEADER));
    const call = (id: number, name: string) => builder.entry({ t_ms: 0, from: "client", message: { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } } });
    call(1, "find_user_id_by_email");
    call(2, "get_user_details");
    builder.entry({ t_ms: 1, from: "server", message: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "user_1" }] } } });
    const at = live.after("1");
    // A third call joins the same turn after the decision point.
    call(3, "get_order_details");
    assert.deepEqual(
      at.inFlight.map((c) => c.id),
      ["2"],
    );
    assert.equal(at.episode.events.length, 2);
  });
});
