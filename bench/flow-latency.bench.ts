/**
 * The latency a flow adds to the agent's call beyond its own lookups (docs/benchmarks.md,
 * "Flows"; target (issue 15) p99 ≤ 1 ms on a 1,000-call session, with p99.9 printed beside
 * it), with the habit and the reach decider.
 *
 * In-process, so whole-millisecond clocks and process noise do not swamp a 1 ms target: the
 * real flow plugin, the real `SessionLog` keeping the session's Episode, and the retail
 * world of `stretto-mcp-demo --world retail` answering in the same process (see
 * `flow/latency-session.ts`). One session lists the tools, then makes 1,000 `tools/call`s
 * one at a time, shaped like retail conversations. Each call's figure is the time from
 * feeding the server's answer to the plugin until the frame comes out for the host, less
 * the time the plugin waited for its own lookups (each from `request` until its answer is
 * handed back; the in-process server answers on the next turn of the event loop). The floor
 * is the same loop with no plugin.
 *
 * Beside each wall-clock figure, the same percentiles of the process's CPU time over the same
 * spans (`process.cpuUsage`, every thread): time the scheduler gave another process is not in
 * it, so on a loaded machine it shows the plugin's own work where the wall clock shows time
 * slices. And each arm runs its 1,000 calls a second time in a fresh session of the same
 * process (the JIT warm, as in a proxy serving all day), printed beside as "warm"; the
 * target is read, as before, on the first.
 *
 * Each arm also prints the bytes allocated inside its measured spans (the plugin's own work;
 * the heap is read outside each span), those of the whole loop, and how many of the
 * session's collections began inside a measured span. Few do: V8 runs most young-generation
 * collections as a task between turns of the event loop, which fall in the lookups' waits and
 * the world's turns. So the world's garbage does not reach the figure, and the world stays in
 * this process rather than on a worker thread (docs/flows.md, "The tail of a decision").
 *
 * The session lookup cap (`--flow-per-session`, 40) is lifted so the flow acts all session
 * long: with it, the flow stops looking up after the first few customers and the later
 * calls say nothing about it. The published flow has no reach counts (the CLI refuses
 * `--flow-decider reach` on it), so reach is served the same flow with its habit base as
 * its reach counts, as the decide specs do.
 */
import { availableParallelism, loadavg } from "node:os";
import type { PluginFactory } from "../lib/bus/runtime/api.js";
import { flowPlugin } from "../lib/plugins/flow/flow-plugin.js";
import type { DeciderName } from "../lib/flow/decide/index.js";
import type { Flow } from "../lib/flow/ir/flow-types.js";
import { countingSink, publishedFlows, retailConversation, runSession, type SessionFigures } from "./flow/latency-session.js";
import { percentile } from "./stdio/stats.js";

const CALLS = 1_000;
const WARMUP_CALLS = 200;
/** As the e2e serves it (`--flow-threshold 0.1`); at the default 0.3 this flow hands back after the email lookup (get_user_details at 0.25). */
const THRESHOLD = 0.1;
const TARGET_MS = 1;

const gc = (globalThis as { gc?: () => void }).gc;
const collect = () => gc?.();

interface Row {
  label: string;
  factory: () => PluginFactory | undefined;
  sink?: ReturnType<typeof countingSink>;
}

function flowRow(label: string, flow: Flow, decider: DeciderName): Row {
  const row: Row = { label, factory: () => undefined };
  row.factory = () => {
    const sink = countingSink();
    row.sink = sink;
    return flowPlugin({ flow, decider, threshold: THRESHOLD, perSession: Number.POSITIVE_INFINITY, log: () => sink });
  };
  return row;
}

const ms = (v: number) => `${v.toFixed(3)} ms`.padStart(11);
const sorted = (a: Float64Array) => Float64Array.from(a).sort();
const p99 = (a: Float64Array) => percentile(sorted(a), 99);
const p999 = (a: Float64Array) => percentile(sorted(a), 99.9);

async function main(): Promise<void> {
  const flows = publishedFlows();
  if (flows === undefined) return;
  const { published, reachFlow, ownReach } = flows;
  const rows: Row[] = [
    { label: "passive floor (no plugin)", factory: () => undefined },
    flowRow("--flow-decider habit", published, "habit"),
    flowRow(ownReach ? "--flow-decider reach" : "--flow-decider reach (*)", reachFlow, "reach"),
  ];
  const calls = retailConversation(CALLS);

  // One short unmeasured session each, so the figures are not the JIT's first impressions.
  for (const row of rows) await runSession(row.factory(), calls.slice(0, WARMUP_CALLS));

  const results: Array<{ row: Row; figures: SessionFigures; seconds: number; warm: SessionFigures }> = [];
  for (const row of rows) {
    collect();
    const started = performance.now();
    const factory = row.factory();
    const figures = await runSession(factory, calls, row.sink);
    const seconds = (performance.now() - started) / 1000;
    collect();
    const warm = await runSession(row.factory(), calls, row.sink);
    results.push({ row, figures, seconds, warm });
  }

  console.log(
    `${CALLS.toLocaleString("en")} agent tools/call calls in one in-process session (retail demo world), each awaited; ` +
      `threshold ${THRESHOLD}, per call 8, per session unlimited; after a ${WARMUP_CALLS}-call warm-up session each; ` +
      `load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
  );
  console.log("added = answer fed to the plugin → frame out to the host, minus the plugin's waits for its own lookups");
  console.log(
    `  ${"".padEnd(28)}${"p50".padStart(11)}${"p99".padStart(11)}${"p99.9".padStart(11)}${"max".padStart(11)}${"p99 1–100".padStart(12)}${"p99 901–1000".padStart(14)}` +
      `${"p99 ×floor".padStart(12)}${"lookups".padStart(9)}${"appended".padStart(10)}   target p99 ≤ ${TARGET_MS} ms`,
  );
  const floorP99 = p99(results[0]!.figures.added);
  for (const { row, figures } of results) {
    const a = figures.added;
    const all = p99(a);
    const isFloor = row.label.startsWith("passive");
    console.log(
      `  ${row.label.padEnd(28)}${ms(percentile(sorted(a), 50))}${ms(all)}${ms(p999(a))}${ms(percentile(sorted(a), 100))}` +
        `${ms(p99(a.subarray(0, 100))).padStart(12)}${ms(p99(a.subarray(a.length - 100))).padStart(14)}` +
        `${`${(all / floorP99).toFixed(1)}×`.padStart(12)}${String(figures.lookups).padStart(9)}${String(figures.appended).padStart(10)}` +
        `${isFloor ? "" : `   ${(all / TARGET_MS).toFixed(2)}× the target   ${all <= TARGET_MS ? "PASS" : "MISS"}`}`,
    );
  }
  console.log("the process's CPU time over the same spans (every thread), and both figures of the same calls in a second session (warm)");
  console.log(
    `  ${"".padEnd(28)}${"cpu p50".padStart(11)}${"cpu p99".padStart(11)}${"cpu p99.9".padStart(11)}${"warm p50".padStart(11)}${"warm p99".padStart(11)}${"warm p99.9".padStart(12)}` +
      `${"warm cpu p99".padStart(14)}${"warm cpu p99.9".padStart(16)}`,
  );
  for (const { row, figures, warm } of results) {
    const c = sorted(figures.cpu);
    console.log(
      `  ${row.label.padEnd(28)}${ms(percentile(c, 50))}${ms(percentile(c, 99))}${ms(percentile(c, 99.9))}` +
        `${ms(percentile(sorted(warm.added), 50))}${ms(p99(warm.added))}${ms(p999(warm.added)).padStart(12)}${ms(p99(warm.cpu)).padStart(14)}${ms(p999(warm.cpu)).padStart(16)}`,
    );
  }
  for (const { row, figures } of results) {
    console.log(
      `  ${row.label}: ${(figures.allocatedMeasured / CALLS / 1024).toFixed(1)} KB allocated per call in the measured spans` +
        `${figures.spansWithCollection > 0 ? ` (${figures.spansWithCollection} with a collection left out)` : ""}, ` +
        `${(figures.allocated / CALLS / 1024).toFixed(1)} KB in the whole in-process loop; ` +
        `${figures.collections} collections, ${figures.collectionsMeasured} of them (${figures.collectionMsMeasured.toFixed(1)} ms) begun inside a measured span`,
    );
  }
  for (const { row, figures, seconds } of results) {
    if (row.label.startsWith("passive")) continue;
    const a = figures.added;
    const acted = (v: Float64Array) => Float64Array.from(v.filter((_, i) => figures.lookupsPerCall[i]! > 0));
    const handed = (v: Float64Array) => Float64Array.from(v.filter((_, i) => figures.lookupsPerCall[i] === 0));
    const both = (v: Float64Array) => `${ms(p99(acted(v))).trim()} / ${ms(p99(handed(v))).trim()}`;
    console.log(
      `  ${row.label}: p99 ${ms(p99(acted(a))).trim()} on the ${acted(a).length} calls it looked up after, ${ms(p99(handed(a))).trim()} on the ${handed(a).length} it did not ` +
        `(cpu ${both(figures.cpu)}; p50 ${ms(percentile(sorted(acted(a)), 50)).trim()} / ${ms(percentile(sorted(handed(a)), 50)).trim()}); ` +
        `${a.reduce((x, y) => x + y, 0).toFixed(0)} ms added in all; lookup waits ${figures.lookupWaitMs.toFixed(0)} ms in all (subtracted); ${figures.flowLogLines} flow log lines; session ${seconds.toFixed(1)} s`,
    );
    for (const [message, times] of figures.said) console.log(`    said ×${times}: ${message}`);
  }
  if (!ownReach) {
    console.log("  (*) the published flow has no reach counts: reach is served it with its habit base as its reach counts");
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
