/**
 * Active mode's cost: `stretto-proxy --guards --domain retail` against the passive proxy,
 * in one run, on a mixed stream (reads, writes the guards refuse, notifications) sent
 * pipelined to the fast echo server. Target (issue 15): active ≥ 0.7× the passive proxy's throughput.
 * Rounds alternate between the two, so load from elsewhere hits both alike.
 *
 * Each round's proxy is sent the stream twice, the second time once the first is
 * answered: the first send is a fresh process's (most of its time is V8 compiling the
 * code the stream runs, more of it for the guards than for passive forwarding), the second
 * is the steady state a proxy in front of a server all day runs in. The target is read on
 * the second; the first is printed beside it.
 */
import { ECHO_SERVER, STRETTO_PROXY, killAllChains } from "./stdio/chain.js";
import { compareRounds } from "./stdio/pipelined-rounds.js";

const node = process.execPath;
const echo = [node, ECHO_SERVER];
const CONFIGS = {
  passive: [node, STRETTO_PROXY, "--", ...echo],
  guards: [node, STRETTO_PROXY, "--domain", "retail", "--guards", "--", ...echo],
};
const MESSAGES = Number(process.env["STRETTO_BENCH_MESSAGES"] ?? 20_000);
const ROUNDS = 5;
const TARGET = 0.7;

/** Message i of the mix: 6 in 10 reads, 2 writes the guards refuse, 2 notifications. */
function message(i: number): { line: string; answered: boolean } {
  const id = i + 1;
  switch (i % 10) {
    case 3:
    case 7:
      return {
        line: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "cancel_pending_order", arguments: { order_id: `#W${i}a`, reason: "found it cheaper" } } }),
        answered: true,
      };
    case 5:
    case 9:
      return { line: JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: i, progress: i } }), answered: false };
    default:
      return {
        line: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_order_details", arguments: { order_id: `#W${i}a` } } }),
        answered: true,
      };
  }
}

// A session begins with initialize, which names the client; then the mix.
const INITIALIZE = {
  line: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } } }),
  answered: true,
};
const batch = [INITIALIZE, ...Array.from({ length: MESSAGES - 1 }, (_, i) => message(i))];
const stream = {
  payload: Buffer.from(batch.map((m) => `${m.line}\n`).join("")),
  messages: MESSAGES,
  answers: batch.filter((m) => m.answered).length,
};

async function main(): Promise<void> {
  const cold = await compareRounds(CONFIGS.passive, CONFIGS.guards, stream, ROUNDS, 2);
  const warm = cold.warm!;
  const rate = (n: number): string => `${Math.round(n).toLocaleString("en")} msg/s`.padStart(14);
  console.log(`${MESSAGES} pipelined messages (6/10 reads, 2/10 refused writes, 2/10 notifications), sent twice to each fresh proxy, median of ${ROUNDS} rounds`);
  console.log(`  a fresh proxy's first send:`);
  console.log(`    passive stretto-proxy     ${rate(cold.base)}  (1.00×)`);
  console.log(`    --guards --domain retail  ${rate(cold.other)}  (${cold.ratio.toFixed(2)}×)`);
  console.log(`  its second send, warm:`);
  console.log(`    passive stretto-proxy     ${rate(warm.base)}  (1.00×)`);
  console.log(`    --guards --domain retail  ${rate(warm.other)}  (${warm.ratio.toFixed(2)}×)   target ≥ ${TARGET}×   ${warm.ratio >= TARGET ? "PASS" : "MISS"}`);
}

process.on("SIGINT", () => {
  killAllChains();
  process.exit(130);
});
main().catch((e: unknown) => {
  killAllChains();
  console.error(e);
  process.exit(1);
});
