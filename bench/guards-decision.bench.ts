/**
 * How long one guard decision takes at call 100 and at call 10 000 of a session, through
 * the real pieces the live proxy uses: the session log feeding the incremental Episode,
 * the guards plugin's event cursor, and the retail rules. Target: within 2× of each other
 * (the guards keep their facts up to date one event at a time rather than rebuilding them
 * from the whole episode at every call, so a decision should not slow as a session grows).
 */
import { performance } from "node:perf_hooks";
import { EMPTY } from "rxjs";
import { frame } from "../lib/bus/frame.js";
import type { PluginContext } from "../lib/bus/runtime/api.js";
import { CALL_CHECK, type CallCheck } from "../lib/plugins/index.js";
import { guardsPlugin } from "../lib/plugins/guards/guards-plugin.js";
import { SessionLog } from "../lib/bus/runtime/session-log.js";
import { median } from "./stdio/stats.js";

const header = {
  stretto_mcp_log: 2 as const, session: "bench", started_unix_ms: 0, server_command: [], domain: "retail", agent_model: null,
};
const line = (m: unknown) => Buffer.from(`${JSON.stringify(m)}\n`);

/** A fresh session: its log, its Episode, and the guards plugin's check over them. */
function newSession() {
  const log = new SessionLog(header, undefined);
  let t = 0;
  let n = 0;
  const session = {
    clock: { now: () => t, startedUnixMs: 0 }, domain: "retail", session: "bench", hostSession: undefined, frames$: EMPTY,
    toClient() {}, request: () => Promise.resolve({ kind: "no-answer", why: "server-gone" }), nextOwnId: () => "stretto-1",
    log() {}, episode: () => log.episode(), say() {}, serverOpen: () => true,
    provide: (key: { name: string }, service: CallCheck) => {
      if (key.name === CALL_CHECK.name) check = service;
    },
    service: () => undefined,
  } as unknown as PluginContext;
  let check: CallCheck | undefined;
  void guardsPlugin({ domain: "retail" })(session);

  /** One more call and its answer (a lookup the rules learn from), 600 ms apart: new turns. */
  function oneMoreCall(): void {
    n++;
    t += 600;
    const id = n;
    const order = `#W${n}a`;
    log.add(frame("client", t, line({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_order_details", arguments: { order_id: order } } })));
    log.add(frame("server", t + 5, line({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: JSON.stringify({ order_id: order, user_id: "user_1", status: "pending", items: [] }) }], isError: false } })));
  }

  /**
   * µs of one decision (with the new events it has to take in) over `count` calls: the
   * median, which a garbage collection landing in one of them does not move, and the mean.
   */
  function decisionsAt(upTo: number, count: number): { median: number; mean: number } {
    while (n < upTo) {
      oneMoreCall();
      check!({ name: "get_order_details", arguments: {} });
    }
    const took: number[] = [];
    for (let i = 0; i < count; i++) {
      oneMoreCall();
      const start = performance.now();
      check!({ name: "cancel_pending_order", arguments: { order_id: `#W${n}a`, reason: "no longer needed" } });
      took.push((performance.now() - start) * 1000);
    }
    return { median: median(took), mean: took.reduce((a, b) => a + b, 0) / count };
  }
  return { decisionsAt };
}

newSession().decisionsAt(3000, 500); // warm the JIT on a session of its own
const measured = newSession();
const at100 = measured.decisionsAt(100, 200);
const at10k = measured.decisionsAt(10_000, 200);
const ratio = at10k.median / at100.median;
console.log("guard decision (retail, cancel_pending_order), 200 decisions: median (mean)");
console.log(`  at call ~100:     ${at100.median.toFixed(1)} µs  (${at100.mean.toFixed(1)})`);
console.log(`  at call ~10 000:  ${at10k.median.toFixed(1)} µs  (${at10k.mean.toFixed(1)})`);
console.log(`  ratio 10 000/100 of the medians: ${ratio.toFixed(2)}×   target ≤ 2×   ${ratio <= 2 ? "PASS" : "MISS"}`);
