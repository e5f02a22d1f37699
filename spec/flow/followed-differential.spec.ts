/**
 * The decisions a served flow makes from the session it keeps itself (`FollowedEpisode`:
 * followed with its turns, a long turn's repeats folded) against the same decisions made from
 * the whole Episode, read afresh at each decision point (`decisionAfter`). Generated sessions
 * (fast-check) of pipelined calls to the retail world, answered in any order, the same orders
 * and customers asked for again and again, customers speaking between bursts, pauses that
 * start new turns; after each answer of the agent's, the flow decides and looks up as the
 * plugin does. Folding starts at a few calls here, so it runs many times in each session.
 *
 * The session is logged twice: into a `SessionLog` that keeps the whole Episode (the
 * reference) and into one that keeps no history, whose turns are followed (`followTurns`),
 * as a `--flow` session's is when no other plugin reads the Episode whole.
 *
 * Sessions of many short turns (an agent that mostly waits for each answer, calls cancelled
 * whose answers come turns later) let their closed past go into the live decisions' compacted
 * reading (`LiveDecisions.letGo`) from a few dozen events on; there every read's binding is
 * compared too, and two past readers made wrong on purpose must make the comparison fail.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { frame } from "../../lib/bus/frame.js";
import { SessionLog } from "../../lib/bus/runtime/session-log.js";
import { answerMessage } from "../../lib/demo/answer.js";
import { emptyListing } from "../../lib/demo/worlds/listing.js";
import { retailWorld } from "../../lib/demo/worlds/retail.js";
import { binder, decide, deciderFlows, HEADER, PER_CALL } from "./decide-locally.js";
import { contextLength, decisionAfter, decisionLine, FollowedEpisode, LET_GO_AT, LiveDecisions, type DeciderName, type PastReader } from "../../lib/flow/decide/index.js";
import type { SessionReading } from "../../lib/flow/bind/index.js";
import { parseFlow } from "../../lib/flow/ir/load-flow.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import { seededRandom } from "../../lib/flow/program/seeded-random.js";
import type { Peer } from "../../lib/trace/log-types.js";
import { FIXTURE_PATH, requireFixture } from "./flow-fixture.js";
import { inProcessSession } from "./in-process-session.js";
import { readFileSync } from "node:fs";
import { Subject } from "../../lib/bus/rx.js";
import type { Frame } from "../../lib/bus/frame.js";
import { line } from "../../lib/bus/runtime/json-rpc.js";
import { flowPlugin } from "../../lib/plugins/flow/flow-plugin.js";

interface Shape {
  seed: number;
  /** Calls sent before the first answer is awaited: how long turns grow. */
  window: number;
  /** How many distinct customers and orders the session asks about: how often calls repeat. */
  customers: number;
  calls: number;
  firstFold: number;
  /** How many of the agent's calls read a customer's record (whose orders a binding takes, newest first). */
  records: number;
  /** With it, the closed past goes (`LiveDecisions` reads it first) from this many events on. */
  letGo?: number;
  /** How often, between bursts, a pause starts a new turn (0.3 unless said). */
  pauses?: number;
  /** How often the host cancels a call, whose answer then comes after later turns (never unless said). */
  cancels?: number;
  /** How many outputs the past holds before it is first compacted. */
  compactAt?: number;
}

/** A past reader made wrong on purpose, to show the spec would catch it. */
type Breaking = (live: LiveDecisions) => PastReader;

interface Served {
  decisions: number;
  lookups: number;
  folds: number;
  /** Events let go, of how many the sessions logged. */
  gone?: number;
  events?: number;
}

/** One session of `shape`: every decision from the followed session and from the whole Episode, compared as log lines. */
function serve(flow: Flow, decider: DeciderName, threshold: number, shape: Shape, out: Served, breaking?: Breaking): void {
  const next = seededRandom(shape.seed);
  const world = retailWorld(emptyListing());
  const whole = new SessionLog(HEADER, undefined);
  whole.keepWhole(true);
  const kept = new SessionLog(HEADER, undefined);
  const followed = new FollowedEpisode(contextLength(flow), () => kept.episode(), shape.firstFold, shape.letGo);
  kept.followTurns(followed);
  kept.keepWhole(false);
  const live = new LiveDecisions(() => followed.episode(), undefined, () => followed.generation, shape.compactAt);
  let gone = 0;
  if (shape.letGo !== undefined) {
    const reader = breaking?.(live) ?? live;
    followed.readPastWith({
      letGo: (events, keep) => {
        const n = reader.letGo(events, keep);
        gone += n;
        return n;
      },
    });
  }
  let t = 0;
  let own = 0;
  let id = 0;
  const add = (from: Peer, message: unknown): void => {
    const f = frame(from, (t += 10), Buffer.from(JSON.stringify(message)));
    whole.add(f);
    kept.add(frame(from, t, f.bytes));
  };
  const request = (callId: number | string, name: string, args: object) => ({ jsonrpc: "2.0", id: callId, method: "tools/call", params: { name, arguments: args } });
  const answer = (req: object): void => {
    const a = answerMessage(JSON.stringify(req), world);
    if (a !== undefined) add("server", a.message);
  };

  /** The flow's run after the agent's call `after` returned: decide, look up, decide again, as the plugin does. */
  const run = (after: string): void => {
    let at = after;
    for (let step = 0; step < PER_CALL; step++) {
      const want = decisionAfter(whole.episode(), at);
      const got = live.after(at);
      assert.deepEqual(got.last, want.last, `seed ${shape.seed}, after ${after}: the last step`);
      if (want.last?.kind !== "call") return;
      // The steps the habit reads, with their outputs: a fold keeps each of them.
      const k = contextLength(flow);
      assert.deepEqual(got.recent(k), want.recent(k), `seed ${shape.seed}, after ${at}: the last ${k} steps`);
      const g = decide(flow, got, decider, threshold);
      const w = decide(flow, want, decider, threshold);
      const fields = { after, address: `decide#${step}`, ms: 0 };
      assert.equal(decisionLine(g, fields), decisionLine(w, fields), `seed ${shape.seed}, after ${after}, decide#${step}`);
      // With the past let go, every read's binding too, not only the one the decider asks for.
      if (shape.letGo !== undefined) {
        const bindGot = binder(flow, got);
        const bindWant = binder(flow, want);
        for (const tool of flow.sites.reads) assert.deepEqual(bindGot(tool), bindWant(tool), `seed ${shape.seed}, after ${at}: binding ${tool}`);
      }
      out.decisions++;
      if (g.proposal.action !== "lookup") return;
      out.lookups++;
      const req = request(`stretto-${++own}`, g.proposal.tool, g.proposal.arguments);
      add("proxy", req);
      answer(req);
      at = `stretto-${own}`;
    }
  };

  const pending: object[] = [];
  const agentCall = (): void => {
    const k = 1 + Math.floor(next() * shape.customers);
    const r = next();
    const [name, args] =
      r < shape.records
        ? ["get_user_details", { user_id: `user_${k}` }]
        : r < 0.75
          ? ["get_order_details", { order_id: `#W${k}${next() < 0.5 ? "a" : "b"}` }]
          : r < 0.9
            ? ["find_user_id_by_email", { email: `c${k}@example.com` }]
            : r < 0.95
              ? ["get_product_details", { product_id: "6086499569" }]
              : ["cancel_pending_order", { order_id: `#W${k}b`, reason: "no longer needed" }];
    const req = request(++id, name, args);
    add("client", req);
    pending.push(req);
  };
  const answerOne = (): void => {
    // Answers come in any order, as a server working calls in parallel sends them.
    const i = Math.floor(next() * Math.min(pending.length, 4));
    const req = pending.splice(pending.length - 1 - i, 1)[0]! as { id: number };
    answer(req);
    run(String(req.id));
  };

  // Calls the host cancelled: the server answers them all the same, turns later.
  const late: object[] = [];
  const cancelOne = (): void => {
    const req = pending.shift()! as { id: number };
    add("client", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: req.id } });
    late.push(req);
  };
  const answerLate = (): void => {
    const req = late.splice(Math.floor(next() * late.length), 1)[0]! as { id: number };
    answer(req);
    run(String(req.id));
  };

  let sent = 0;
  while (sent < shape.calls || pending.length > 0 || late.length > 0) {
    if (pending.length > 0 && next() < (shape.cancels ?? 0)) cancelOne();
    else if (late.length > 0 && (next() < 0.05 || (sent >= shape.calls && pending.length === 0))) answerLate();
    else if (sent < shape.calls && pending.length < shape.window && (pending.length === 0 || next() < 0.6)) {
      agentCall();
      sent++;
    } else if (pending.length > 0) answerOne();
    if (pending.length === 0) {
      // Between bursts: now and then the customer speaks, or a pause lets the next call start a new turn.
      if (next() < 0.15) add("context", { role: "user", content: `It is about order #W${1 + Math.floor(next() * shape.customers)}a, please.` });
      if (next() < (shape.pauses ?? 0.3)) t += 1000;
    }
  }
  out.folds += followed.generation;
  if (out.gone !== undefined) out.gone += gone;
  if (out.events !== undefined) out.events += whole.episode().events.length;
  assert.equal(kept.retained().events, 0, "the session that follows its turns keeps no history");
}

describe("served decisions, from the session the flow keeps itself against the whole Episode", function () {
  let flows: { habit: Flow; reach: Flow };
  before(function () {
    flows = deciderFlows(this);
  });

  const shapes = fc.record({
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    window: fc.integer({ min: 1, max: 40 }),
    customers: fc.integer({ min: 1, max: 30 }),
    calls: fc.integer({ min: 20, max: 160 }),
    firstFold: fc.integer({ min: 2, max: 16 }),
    records: fc.double({ min: 0.2, max: 0.7, noNaN: true }),
  });

  for (const [decider, threshold] of [
    ["habit", 0.1],
    ["habit", 0.3],
    ["reach", 0.05],
  ] as const) {
    it(`are the same decision lines with ${decider} at ${threshold}, in generated pipelined sessions`, function () {
      const out: Served = { decisions: 0, lookups: 0, folds: 0 };
      fc.assert(
        fc.property(shapes, (shape) => serve(flows[decider], decider, threshold, shape, out)),
        { numRuns: 25 },
      );
      // The sessions folded often, decided often, and looked things up.
      assert.ok(out.folds > 25, `${out.folds} folds`);
      assert.ok(out.decisions > 250, `${out.decisions} decisions`);
      if (threshold < 0.3) assert.ok(out.lookups > 25, `${out.lookups} lookups`);
    });
  }
});

describe("served decisions in sessions of many short turns, the closed past let go, against the whole Episode", function () {
  let flows: { habit: Flow; reach: Flow };
  before(function () {
    flows = deciderFlows(this);
  });

  // An agent that mostly waits for each answer (a few calls at once at most), a pause after
  // most answers (a new turn), customers speaking now and then; the past goes from a few
  // dozen events on, so it goes, and its reading is compacted, many times in each session.
  const shortTurns = fc.record({
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    window: fc.integer({ min: 1, max: 3 }),
    customers: fc.integer({ min: 1, max: 60 }),
    calls: fc.integer({ min: 150, max: 400 }),
    firstFold: fc.integer({ min: 2, max: 16 }),
    records: fc.double({ min: 0.2, max: 0.9, noNaN: true }),
    letGo: fc.integer({ min: 8, max: 64 }),
    pauses: fc.double({ min: 0.5, max: 1, noNaN: true }),
    cancels: fc.constantFrom(0, 0.02, 0.1),
    compactAt: fc.integer({ min: 2, max: 32 }),
  });
  // Where a wrong past shows: many customers, their records read often, calls cancelled.
  const telling = fc.record({
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    window: fc.integer({ min: 1, max: 3 }),
    customers: fc.integer({ min: 20, max: 60 }),
    calls: fc.constant(400),
    firstFold: fc.constant(16),
    records: fc.double({ min: 0.6, max: 0.9, noNaN: true }),
    letGo: fc.integer({ min: 8, max: 32 }),
    pauses: fc.constant(0.9),
    cancels: fc.constant(0.25),
    compactAt: fc.integer({ min: 2, max: 8 }),
  });

  for (const [decider, threshold] of [
    ["habit", 0.1],
    ["habit", 0.3],
    ["reach", 0.05],
  ] as const) {
    it(`are the same decision lines with ${decider} at ${threshold}, and most of each session goes`, function () {
      const out: Served = { decisions: 0, lookups: 0, folds: 0, gone: 0, events: 0 };
      fc.assert(
        fc.property(shortTurns, (shape) => serve(flows[decider], decider, threshold, shape, out)),
        { numRuns: 20 },
      );
      assert.ok(out.decisions > 1000, `${out.decisions} decisions`);
      if (threshold < 0.3) assert.ok(out.lookups > 50, `${out.lookups} lookups`);
      // Most of the sessions went (a cancelled call holds its turn and what follows until its answer comes).
      assert.ok(out.gone! > out.events! / 2, `${out.gone} of ${out.events} events let go`);
    });
  }

  /** Whether the property fails for a past reader made wrong on purpose. */
  const fails = (breaking: Breaking): boolean => {
    try {
      fc.assert(
        fc.property(telling, (shape) => serve(flows.habit, "habit", 0.1, shape, { decisions: 0, lookups: 0, folds: 0 }, breaking)),
        { numRuns: 30 },
      );
      return false;
    } catch {
      return true;
    }
  };

  it("fails for a past that lets go of turns whose calls still await their answers", function () {
    assert.ok(
      fails((live) => ({
        // The reader is shown the turns before the newest without the calls still unanswered.
        letGo: (events, keep) => {
          const answered = new Set(events.flatMap((e) => (e.kind === "tool_result" ? [e.call_id] : [])));
          let newest = events.length - 1;
          while (newest > 0 && events[newest]!.kind !== "assistant") newest--;
          const shown = events.map((e, i) => (e.kind === "assistant" && i < newest ? { ...e, calls: e.calls.filter((c) => answered.has(c.id)) } : e));
          return live.letGo(shown, keep);
        },
      })),
    );
  });

  it("fails for a past compacted to forget which values its calls passed", function () {
    assert.ok(
      fails((live) => ({
        letGo: (events, keep) => {
          const n = live.letGo(events, keep);
          // As if only what was shown counted: the calls' arguments go with the calls.
          const past = (live as unknown as { past: SessionReading | undefined }).past;
          if (past !== undefined) past.passed = undefined;
          return n;
        },
      })),
    );
  });
});

/**
 * The real flow plugin, in-process over the real `SessionLog` and the session's readers as
 * active mode wires them, in front of the retail world: with `followTurns` (the flow keeps
 * the session itself) and without (it reads the whole Episode), the same flow log and the
 * same lines to the host, and the live Episode keeps nothing in the first.
 */
async function pluginSession(follow: boolean, bursts: readonly number[], seed: number, said = false): Promise<{ host: string[]; flowLog: string[]; retained: number }> {
  const flow = parseFlow(readFileSync(FIXTURE_PATH, "utf8"));
  const { log, readers, base, answerOf, flowLog, sink } = inProcessSession({ followTurns: follow, say: () => {} });
  const plugin = await flowPlugin({ flow, decider: "habit", threshold: 0.1, perSession: 100_000, log: () => sink })(readers.contextFor(base, 0));
  readers.settle([plugin]);
  const host: string[] = [];
  let answered = 0;
  let wake: (() => void) | undefined;
  const client$ = new Subject<Frame>();
  const server$ = new Subject<Frame>();
  client$.pipe(plugin.client!).subscribe((f) =>
    setImmediate(() => {
      const back = frame("server", 0, answerOf(f.bytes));
      log.add(back);
      server$.next(back);
    }),
  );
  server$.pipe(plugin.server!).subscribe((f) => {
    if (f.from === "proxy") log.add(f);
    host.push(f.bytes.toString("utf8"));
    answered++;
    wake?.();
  });
  const send = (message: object): void => {
    const f = frame("client", 0, line({ jsonrpc: "2.0", ...message }));
    log.add(f);
    client$.next(f);
  };
  const until = (n: number): Promise<void> =>
    answered >= n
      ? Promise.resolve()
      : new Promise((resolve) => {
          wake = () => {
            if (answered >= n) resolve();
          };
        });
  send({ id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "spec", version: "1" } } });
  await until(1);
  const next = seededRandom(seed);
  let id = 0;
  for (const size of bursts) {
    // The agent's line before a burst: turn inference starts a turn at its first call.
    if (said) log.add(frame("context", 0, line({ role: "assistant", content: "One moment." })));
    for (let i = 0; i < size; i++) {
      const k = 1 + Math.floor(next() * 6);
      const call = next() < 0.5 ? { name: "get_user_details", arguments: { user_id: `user_${k}` } } : { name: "get_order_details", arguments: { order_id: `#W${k}a` } };
      send({ id: ++id, method: "tools/call", params: call });
    }
    await until(id + 1);
  }
  return { host, flowLog, retained: log.retained().events };
}

describe("the flow plugin keeping the session itself", function () {
  before(function () {
    requireFixture(this);
  });

  it("logs the same decisions and sends the host the same lines as when it reads the whole Episode, and the session keeps no history", async function () {
    // Bursts long enough to fold (FOLD_AT calls and more in one turn), and short ones.
    const bursts = [3, 1, 1100, 2, 2300, 1, 40];
    const kept = await pluginSession(true, bursts, 7);
    const whole = await pluginSession(false, bursts, 7);
    assert.equal(kept.flowLog.length, whole.flowLog.length);
    assert.deepEqual(kept.flowLog, whole.flowLog);
    assert.deepEqual(kept.host, whole.host);
    assert.ok(kept.flowLog.some((l) => l.includes('"action":"lookup"')), "the flow looked things up");
    assert.equal(kept.retained, 0);
    assert.ok(whole.retained > 3000, `the whole Episode holds ${whole.retained} events`);
  });

  it("the same in a session of many short turns, whose closed past it lets go", async function () {
    // Single calls and short bursts, each after a line of the agent's: well past LET_GO_AT events.
    const next = seededRandom(11);
    const bursts = Array.from({ length: 2000 }, () => (next() < 0.8 ? 1 : 2 + Math.floor(next() * 3)));
    const kept = await pluginSession(true, bursts, 11, true);
    const whole = await pluginSession(false, bursts, 11, true);
    assert.equal(kept.flowLog.length, whole.flowLog.length);
    assert.deepEqual(kept.flowLog, whole.flowLog);
    assert.deepEqual(kept.host, whole.host);
    assert.ok(kept.flowLog.some((l) => l.includes('"action":"lookup"')), "the flow looked things up");
    assert.equal(kept.retained, 0);
    assert.ok(whole.retained > 1.5 * LET_GO_AT, `the whole Episode holds ${whole.retained} events`);
  });
});
