/**
 * A `--flow` session gives its Episode up once the flow can decide nothing more (its
 * per-session lookup cap reached): from then on the live Episode keeps no history, unless
 * another plugin reads it whole (docs/session-memory.md). These specs read the live
 * Episode's own count of what it holds (`SessionLog.retained`), not the process's memory,
 * and check that the flow's decisions, its flow log and what the host is sent are the same
 * as in a session that keeps everything.
 *
 * In-process, over the real `SessionLog`, the session's readers as active mode wires them
 * (`EpisodeReaders`), the real flow plugin, and the retail world's own answers
 * (`answerMessage`, as `stretto-mcp-demo --world retail` writes them): a count of what one
 * object holds cannot be read from outside the proxy.
 */
import assert from "node:assert/strict";
import { frame, type Frame } from "../../lib/bus/frame.js";
import { Subject, type Observable } from "../../lib/bus/rx.js";
import type { EpisodeFollower, Plugin, PluginFactory } from "../../lib/bus/runtime/api.js";
import { line } from "../../lib/bus/runtime/json-rpc.js";
import { parseFlow } from "../../lib/flow/ir/load-flow.js";
import { flowPlugin } from "../../lib/plugins/flow/flow-plugin.js";
import { logHeader } from "../../lib/record/log-header.js";
import { readFileSync } from "node:fs";
import { FIXTURE_PATH, requireFixture } from "./flow-fixture.js";
import { inProcessSession } from "./in-process-session.js";

const HEADER = logHeader({ session: "s", startedUnixMs: 0, serverCommand: ["stretto-mcp-demo", "--world", "retail"], domain: "retail" });

/** Retail customers in turn (an email, then a cancellation; a user id; a mistyped email, then the right one): the flow looks up after most. */
function conversation(n: number): Array<{ name: string; arguments: Record<string, string> }> {
  const calls: Array<{ name: string; arguments: Record<string, string> }> = [];
  for (let k = 1; calls.length < n; k += 3) {
    calls.push(
      { name: "find_user_id_by_email", arguments: { email: `c${k}@example.com` } },
      { name: "cancel_pending_order", arguments: { order_id: `#W${k}a`, reason: "no longer needed" } },
      { name: "get_user_details", arguments: { user_id: `user_${k + 1}` } },
      { name: "find_user_id_by_email", arguments: { email: `c${k + 2}@example.org` } },
      { name: "find_user_id_by_email", arguments: { email: `c${k + 2}@example.com` } },
    );
  }
  return calls.slice(0, n);
}

interface Outcome {
  /** What the host was sent, in order. */
  host: string[];
  /** The flow log, each decision's `ms` read as 0 (its only figure that is a time). */
  flowLog: string[];
  /** What the live Episode held after each call. */
  retained: number[];
  /** The call after which the flow had made its last lookup. */
  lastLookupAt: number;
  /** Each event handed to a follower, as text. */
  followed: string[];
}

/**
 * One session of `n` calls through the flow (per-session cap 40, threshold 0.1 as the e2e
 * serves it). `release`: the context offers `releaseEpisode`, as active mode's does; without,
 * the Episode is kept whole whatever the flow says. `others`: plugins set up after the flow.
 * `followTurns`: the context offers it too, as active mode's does (the flow then keeps the
 * session itself from the start).
 */
async function session(n: number, release: boolean, others: PluginFactory[] = [], followTurns = false): Promise<Outcome> {
  const flow = parseFlow(readFileSync(FIXTURE_PATH, "utf8"));
  const { log, readers, base, answerOf: answer, flowLog, sink, lookups: looked } = inProcessSession({ followTurns, say: (m) => assert.fail(`the flow said: ${m}`), header: HEADER });
  const factories = [flowPlugin({ flow, decider: "habit", threshold: 0.1, log: () => sink }), ...others];
  const plugins: Plugin[] = [];
  for (const factory of factories) {
    const context = readers.contextFor(base, plugins.length);
    plugins.push(await factory(release ? context : { ...context, releaseEpisode: undefined }));
  }
  readers.settle(plugins);
  const [plugin] = plugins as [Plugin];

  const host: string[] = [];
  let delivered: ((f: Frame) => void) | undefined;
  const client$ = new Subject<Frame>();
  const server$ = new Subject<Frame>();
  const via = (s: Observable<Frame>, op: Plugin["client"]) => (op === undefined ? s : s.pipe(op));
  via(client$, plugin.client).subscribe((f) => {
    setImmediate(() => {
      const back = frame("server", 0, answer(f.bytes));
      log.add(back);
      server$.next(back);
    });
  });
  via(server$, plugin.server).subscribe((f) => {
    if (f.from === "proxy") log.add(f);
    host.push(f.bytes.toString("utf8"));
    delivered?.(f);
  });
  const ask = (message: object) =>
    new Promise<Frame>((resolve) => {
      delivered = resolve;
      const f = frame("client", 0, line({ jsonrpc: "2.0", ...message }));
      log.add(f);
      client$.next(f);
    });

  await ask({ id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "spec", version: "1" } } });
  await ask({ id: 1, method: "tools/list" });
  const retained: number[] = [];
  let lastLookupAt = -1;
  const calls = conversation(n);
  for (let i = 0; i < calls.length; i++) {
    const before = looked();
    await ask({ id: i + 2, method: "tools/call", params: calls[i] });
    if (looked() > before) lastLookupAt = i;
    retained.push(log.retained().events);
  }
  return { host, flowLog, retained, lastLookupAt, followed: [] };
}

/** A plugin that follows the Episode and reads nothing whole (as the guards do), recording what it is handed. */
function following(into: string[]): PluginFactory {
  return (context) => {
    const follower: EpisodeFollower = { event: (e) => into.push(JSON.stringify(e)), call: (c) => into.push(JSON.stringify({ call: c })) };
    context.followEpisode?.(follower);
    return { name: "following", readsEpisode: false };
  };
}

describe("a --flow session's memory", function () {
  before(function () {
    requireFixture(this);
  });

  const CALLS = 200;

  it("gives the Episode up once the lookup cap is reached, and decides and answers as a session that keeps it all", async function () {
    const dropping = await session(CALLS, true);
    const keeping = await session(CALLS, false);
    assert.ok(dropping.lastLookupAt > 0 && dropping.lastLookupAt < CALLS / 2, `the cap is reached early (after call ${dropping.lastLookupAt})`);
    assert.deepEqual(dropping.flowLog, keeping.flowLog);
    assert.deepEqual(dropping.host, keeping.host);
    assert.ok(dropping.flowLog.length > 0);
    // Up to the cap, both keep the same Episode; after it, one keeps nothing.
    assert.deepEqual(dropping.retained.slice(0, dropping.lastLookupAt), keeping.retained.slice(0, dropping.lastLookupAt));
    for (let i = dropping.lastLookupAt + 1; i < CALLS; i++) assert.equal(dropping.retained[i], 0, `after call ${i}`);
    assert.ok(keeping.retained[CALLS - 1]! > CALLS, `the whole Episode grows (${keeping.retained[CALLS - 1]} events)`);
  });

  it("with the turns followed, keeps no history from the start, and decides and answers as a session that keeps it all", async function () {
    const followed = await session(CALLS, true, [], true);
    const keeping = await session(CALLS, false);
    assert.deepEqual(followed.flowLog, keeping.flowLog);
    assert.deepEqual(followed.host, keeping.host);
    assert.ok(followed.lastLookupAt > 0, "the flow looked things up");
    for (let i = 0; i < CALLS; i++) assert.equal(followed.retained[i], 0, `after call ${i}`);
  });

  it("keeps the Episode while another plugin reads it whole", async function () {
    const reader: PluginFactory = () => ({ name: "reader" });
    const s = await session(CALLS, true, [reader]);
    assert.ok(s.retained[CALLS - 1]! > CALLS);
  });

  it("still hands a follower every event after it is given up, as in a session that keeps it", async function () {
    const dropped: string[] = [];
    const kept: string[] = [];
    const a = await session(CALLS, true, [following(dropped)]);
    const b = await session(CALLS, false, [following(kept)]);
    assert.deepEqual(dropped, kept);
    assert.ok(dropped.length > 2 * CALLS, `${dropped.length} events followed`);
    assert.equal(a.retained[CALLS - 1], 0);
    assert.ok(b.retained[CALLS - 1]! > CALLS);
  });
});
