/**
 * Throughput of one proxy configuration against another on the same pipelined stream:
 * each round starts a chain afresh, writes the whole payload at once and counts answer
 * lines; rounds alternate the order of the two, so load from elsewhere hits both alike.
 */
import { performance } from "node:perf_hooks";
import { Chain } from "./chain.js";
import { median } from "./stats.js";

export interface Stream {
  payload: Buffer;
  /** Messages in the payload (what msg/s counts). */
  messages: number;
  /** Answer lines to wait for. */
  answers: number;
}

/** Messages per second through one fresh chain. */
export async function pipelinedRound(argv: readonly string[], stream: Stream): Promise<number> {
  const chain = new Chain(argv);
  // The chain is up once a ping has gone through it.
  chain.proc.stdin.write('{"jsonrpc":"2.0","id":"warm","method":"ping"}\n');
  await new Promise<void>((r) => chain.proc.stdout.once("data", () => r()));
  let answers = 0;
  const done = new Promise<void>((resolve) => {
    chain.proc.stdout.on("data", (c: Buffer) => {
      for (let i = c.indexOf(0x0a); i !== -1; i = c.indexOf(0x0a, i + 1)) answers++;
      if (answers >= stream.answers) resolve();
    });
  });
  const start = performance.now();
  chain.proc.stdin.write(stream.payload);
  await done;
  const ms = performance.now() - start;
  await chain.stop();
  return (stream.messages / ms) * 1000;
}

/** Median msg/s of `base` and `other` over `rounds` alternating rounds, after one warm-up. */
export async function compareRounds(
  base: readonly string[],
  other: readonly string[],
  stream: Stream,
  rounds = 5,
): Promise<{ base: number; other: number; ratio: number }> {
  const rates = { base: [] as number[], other: [] as number[] };
  await pipelinedRound(base, stream); // warm the page cache and the JIT's files
  for (let r = 0; r < rounds; r++) {
    const order: Array<"base" | "other"> = r % 2 === 0 ? ["base", "other"] : ["other", "base"];
    for (const name of order) rates[name].push(await pipelinedRound(name === "base" ? base : other, stream));
  }
  const b = median(rates.base);
  const o = median(rates.other);
  return { base: b, other: o, ratio: o / b };
}
