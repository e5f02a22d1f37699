/**
 * Traffic a flow does not act on: `stretto-proxy --flow <published retail flow>` against
 * the passive proxy, in one run, on a pipelined stream of notifications and calls of a
 * tool the flow has no site for, to the fast echo server. Target (issue 15): ≥ 0.85× the
 * passive proxy's throughput. Rounds alternate between the two.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ECHO_SERVER, STRETTO_PROXY, killAllChains } from "./stdio/chain.js";
import { compareRounds } from "./stdio/pipelined-rounds.js";

const FLOW = join(STRETTO_PROXY, "../../../../../shared/fixtures/flows/retail-5-sessions.flow.json");
const node = process.execPath;
const echo = [node, ECHO_SERVER];
const NO_OP = fileURLToPath(new URL("./flow/no-op-plugin.js", import.meta.url));
const CONFIGS = {
  passive: [node, STRETTO_PROXY, "--", ...echo],
  active: [node, STRETTO_PROXY, "--plugin", NO_OP, "--", ...echo],
  flow: [node, STRETTO_PROXY, "--flow", FLOW, "--flow-decider", "habit", "--", ...echo],
};
const MESSAGES = 20_000;
const ROUNDS = 5;
const TARGET = 0.85;

// A session begins with initialize, which names the client; then the traffic.
const lines: string[] = [
  JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } } }),
];
let expected = 1;
for (let i = 1; i < MESSAGES; i++) {
  if (i % 2 === 0) {
    lines.push(JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: i, progress: i } }));
  } else {
    lines.push(JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "search_catalog", arguments: { q: `item ${i}` } } }));
    expected++;
  }
}
const stream = { payload: Buffer.from(`${lines.join("\n")}\n`), messages: MESSAGES, answers: expected };

async function main(): Promise<void> {
  if (!existsSync(FLOW)) {
    console.log(`skipped: the published flow is not at ${FLOW}`);
    return;
  }
  const { base: passive, other: flow, ratio } = await compareRounds(CONFIGS.passive, CONFIGS.flow, stream, ROUNDS);
  // Active mode with no feature, against the passive proxy in its own rounds: the part of
  // the gap that parsing every line and keeping the Episode make, whatever the plugin.
  const floor = await compareRounds(CONFIGS.passive, CONFIGS.active, stream, ROUNDS);
  const rate = (n: number) => `${Math.round(n).toLocaleString("en")} msg/s`.padStart(14);
  console.log(`${MESSAGES} pipelined messages the flow does not act on (notifications, calls of a tool without a site), median of ${ROUNDS} rounds`);
  const row = (label: string, n: number, rest: string) => console.log(`  ${label.padEnd(40)}${rate(n)}  ${rest}`);
  row("passive stretto-proxy", passive, "(1.00×)");
  row("--flow (published retail flow)", flow, `(${ratio.toFixed(2)}×)   target ≥ ${TARGET}×   ${ratio >= TARGET ? "PASS" : "MISS"}`);
  row("passive, again", floor.base, "(1.00×)");
  row("active mode, a plugin that does nothing", floor.other, `(${floor.ratio.toFixed(2)}×)   what active mode itself costs`);
}

main().catch((e: unknown) => {
  killAllChains();
  console.error(e);
  process.exit(1);
});
