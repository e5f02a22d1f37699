/**
 * Which calls make the flow-latency bench's p99, for finding out why (not part of `make
 * bench`: no `.bench` in its name). The same sessions as `flow-latency.bench.ts` (the
 * published flow, threshold 0.1, no session cap, a counting flow log, a warm-up session per
 * arm first), then per measured flow session: its p99, its collections, how many calls
 * took over 1 ms and how many of those are among calls 1–100, and the slowest calls by
 * index (`L` when the flow looked something up after it).
 *
 *   node --expose-gc dist/bench/flow/latency-tail.js [--order habit,reach] [--warm 200]
 *
 * `--order` measures the deciders in another order, to tell a decider's cost from the cost
 * of being measured first in the process. Each measured session is framed by a line
 * `#session <decider>` and `#end <decider>` written straight to stdout, so the runtime's
 * own traces (`--trace-opt --trace-deopt --trace-gc`, under `stdbuf -oL` to keep the
 * order) can be counted per session. `--mark` also frames each answer the plugin holds,
 * `#call <n>` to `#done <n>` (the lookups inside), and prints the slowest calls' frames on
 * `CLOCK_MONOTONIC` in ns, the clock `perf record -k CLOCK_MONOTONIC` stamps its samples
 * with: what each thread ran during a slow call. The marks add a little to each span.
 */
import { writeSync } from "node:fs";
import { tap } from "../../lib/bus/rx.js";
import type { Frame } from "../../lib/bus/frame.js";
import type { PluginFactory } from "../../lib/bus/runtime/api.js";
import type { DeciderName } from "../../lib/flow/decide/index.js";
import { flowPlugin } from "../../lib/plugins/flow/flow-plugin.js";
import { percentile } from "../stdio/stats.js";
import { countingSink, publishedFlows, retailConversation, runSession } from "./latency-session.js";


function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

async function main(): Promise<void> {
  const flows = publishedFlows();
  if (flows === undefined) return;
  const { published, reachFlow } = flows;
  const mark = process.argv.includes("--mark");
  // Per measured call, when it entered and left the plugin (ns); the first answer is the listing's.
  const entered: bigint[] = [];
  const left: bigint[] = [];
  let answer = -1;
  let marking = false;
  const arm = (decider: DeciderName) => (): PluginFactory => {
    const sink = countingSink();
    const factory = flowPlugin({ flow: decider === "reach" ? reachFlow : published, decider, threshold: 0.1, perSession: Number.POSITIVE_INFINITY, log: () => sink });
    if (!mark) return factory;
    return async (session) => {
      const plugin = await factory(session);
      const server = plugin.server;
      if (server === undefined) return plugin;
      const into = tap((_f: Frame) => {
        if (!marking) return;
        if (answer >= 0) writeSync(1, `#call ${answer + 1}\n`);
        entered[answer] = process.hrtime.bigint();
      });
      const out = tap((_f: Frame) => {
        if (!marking) return;
        left[answer] = process.hrtime.bigint();
        if (answer >= 0) writeSync(1, `#done ${answer + 1}\n`);
        answer += 1;
      });
      return { ...plugin, server: (source) => server(source.pipe(into)).pipe(out) };
    };
  };
  const order = option("--order", "habit,reach").split(",") as DeciderName[];
  const warm = Number(option("--warm", "200"));
  const rows: Array<[string, () => PluginFactory | undefined]> = [["floor", () => undefined], ...order.map((d): [string, () => PluginFactory] => [d, arm(d)])];
  const calls = retailConversation(1_000);
  const gc = (globalThis as { gc?: () => void }).gc;

  for (const [, factory] of rows) await runSession(factory(), calls.slice(0, warm));
  for (const [name, factory] of rows) {
    gc?.();
    writeSync(1, `#session ${name}\n`);
    answer = -1;
    marking = mark;
    const figures = await runSession(factory(), calls);
    marking = false;
    writeSync(1, `#end ${name}\n`);
    if (name === "floor") continue;
    const added = Array.from(figures.added);
    const p99 = percentile(Float64Array.from(added).sort(), 99);
    const slowest = added
      .map((ms, i) => ({ ms, i }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15);
    const over = added.flatMap((ms, i) => (ms > 1 ? [i] : []));
    console.log(
      `${name}: p99 ${p99.toFixed(3)} ms; ${figures.collections} collections, ${figures.collectionsMeasured} begun in a measured span; ` +
        `${over.length} calls over 1 ms, ${over.filter((i) => i < 100).length} of them among calls 1–100`,
    );
    console.log(`  slowest (call index: ms): ${slowest.map(({ ms, i }) => `${i + 1}: ${ms.toFixed(2)}${figures.lookupsPerCall[i]! > 0 ? "L" : ""}`).join(", ")}`);
    if (mark) for (const { ms, i } of slowest.slice(0, 10)) console.log(`  call ${i + 1}: ${ms.toFixed(3)} ms, in the plugin from ${entered[i]} to ${left[i]} ns`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
