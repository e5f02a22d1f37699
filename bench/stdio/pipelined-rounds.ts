/**
 * Throughput of one proxy configuration against another on the same pipelined stream:
 * each round starts a chain afresh, writes the whole payload at once (and, when asked,
 * again once it is answered) and counts answer lines; rounds alternate the order of the
 * two, so load from elsewhere hits both alike.
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

/**
 * Messages per second through one fresh chain, for each of `passes` sends of the whole
 * payload one after another (each once every answer of the last is in): the first is a
 * fresh process's, code not yet compiled; later ones are a warm process's.
 */
export async function pipelinedRound(argv: readonly string[], stream: Stream, passes = 1): Promise<number[]> {
  const chain = new Chain(argv);
  // The chain is up once a ping has gone through it.
  chain.proc.stdin.write('{"jsonrpc":"2.0","id":"warm","method":"ping"}\n');
  await new Promise<void>((r) => chain.proc.stdout.once("data", () => r()));
  let answers = 0;
  let wanted = 0;
  let answered: () => void = () => undefined;
  chain.proc.stdout.on("data", (c: Buffer) => {
    for (let i = c.indexOf(0x0a); i !== -1; i = c.indexOf(0x0a, i + 1)) answers++;
    if (answers >= wanted) answered();
  });
  const rates: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    wanted += stream.answers;
    const done = new Promise<void>((resolve) => (answered = resolve));
    const start = performance.now();
    chain.proc.stdin.write(stream.payload);
    await done;
    rates.push((stream.messages / (performance.now() - start)) * 1000);
  }
  await chain.stop();
  return rates;
}

export interface Compared {
  base: number;
  other: number;
  ratio: number;
}

/**
 * Median msg/s of `base` and `other` over `rounds` alternating rounds, after one warm-up:
 * of a fresh process's first send, and (with `passes` > 1) of its last send, warm.
 */
export async function compareRounds(
  base: readonly string[],
  other: readonly string[],
  stream: Stream,
  rounds = 5,
  passes = 1,
): Promise<Compared & { warm?: Compared }> {
  const rates = { base: [] as number[][], other: [] as number[][] };
  await pipelinedRound(base, stream); // warm the page cache and the JIT's files
  for (let r = 0; r < rounds; r++) {
    const order: Array<"base" | "other"> = r % 2 === 0 ? ["base", "other"] : ["other", "base"];
    for (const name of order) rates[name].push(await pipelinedRound(name === "base" ? base : other, stream, passes));
  }
  const compared = (pass: number): Compared => {
    const b = median(rates.base.map((r) => r[pass]!));
    const o = median(rates.other.map((r) => r[pass]!));
    return { base: b, other: o, ratio: o / b };
  };
  return passes > 1 ? { ...compared(0), warm: compared(passes - 1) } : compared(0);
}
