/**
 * Traffic a flow does not act on: `stretto-proxy --flow <published retail flow>` against
 * the passive proxy, in one run, on a pipelined stream of notifications and calls of a
 * tool the flow has no site for, to the fast echo server. Target: ≥ 0.8× the passive
 * proxy's throughput. Rounds alternate between the two.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Chain, ECHO_SERVER, STRETTO_PROXY, killAllChains } from "./stdio/chain.js";
import { median } from "./stdio/stats.js";

const FLOW = join(STRETTO_PROXY, "../../../../../shared/fixtures/flows/retail-5-sessions.flow.json");
const node = process.execPath;
const echo = [node, ECHO_SERVER];
const CONFIGS = {
  passive: [node, STRETTO_PROXY, "--", ...echo],
  flow: [node, STRETTO_PROXY, "--flow", FLOW, "--flow-decider", "habit", "--", ...echo],
};
const MESSAGES = 20_000;
const ROUNDS = 5;

const lines: string[] = [];
let expected = 0;
for (let i = 0; i < MESSAGES; i++) {
  if (i % 2 === 0) {
    lines.push(JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: i, progress: i } }));
  } else {
    lines.push(JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "search_catalog", arguments: { q: `item ${i}` } } }));
    expected++;
  }
}
const payload = Buffer.from(`${lines.join("\n")}\n`);

async function round(argv: string[]): Promise<number> {
  const chain = new Chain(argv);
  let answers = 0;
  chain.proc.stdin.write('{"jsonrpc":"2.0","id":"warm","method":"ping"}\n');
  await new Promise<void>((r) => chain.proc.stdout.once("data", () => r()));
  const done = new Promise<void>((resolve) => {
    chain.proc.stdout.on("data", (c: Buffer) => {
      for (let i = c.indexOf(0x0a); i !== -1; i = c.indexOf(0x0a, i + 1)) answers++;
      if (answers >= expected) resolve();
    });
  });
  const start = performance.now();
  chain.proc.stdin.write(payload);
  await done;
  const ms = performance.now() - start;
  await chain.stop();
  return (MESSAGES / ms) * 1000;
}

async function main(): Promise<void> {
  if (!existsSync(FLOW)) {
    console.log(`skipped: the published flow is not at ${FLOW}`);
    return;
  }
  const rates: Record<keyof typeof CONFIGS, number[]> = { passive: [], flow: [] };
  await round(CONFIGS.passive);
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of (r % 2 === 0 ? ["passive", "flow"] : ["flow", "passive"]) as Array<keyof typeof CONFIGS>) {
      rates[name].push(await round(CONFIGS[name]));
    }
  }
  const passive = median(rates.passive);
  const flow = median(rates.flow);
  const ratio = flow / passive;
  console.log(`${MESSAGES} pipelined messages the flow does not act on (notifications, calls of a tool without a site), median of ${ROUNDS} rounds`);
  console.log(`  passive stretto-proxy            ${Math.round(passive).toLocaleString("en")} msg/s  (1.00×)`);
  console.log(`  --flow (published retail flow)   ${Math.round(flow).toLocaleString("en")} msg/s  (${ratio.toFixed(2)}×)   target ≥ 0.8×   ${ratio >= 0.8 ? "PASS" : "MISS"}`);
}

main().catch((e: unknown) => {
  killAllChains();
  console.error(e);
  process.exit(1);
});
