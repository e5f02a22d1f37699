/**
 * The confirmation judge's latency (docs/confirm-judge.md, "Latency"): the real
 * `stretto-proxy --guards --domain retail --context FILE` in front of `stretto-mcp-demo
 * --world retail`, driven a line at a time.
 *
 * 1. A judged write with a cached answer (`--confirm-judge enforce --oracle replay`, the
 *    cache seeded for every write) against the same guarded write unjudged, rounds
 *    alternating in one run. Target: p99 of the judged write ≤ the unjudged one's + 2 ms.
 * 2. The judge asking a fake Jev (fixtures/http/fake-jev.ts) that answers in 100 ms, with a
 *    read sent right after each write: the write waits ~100 ms, and the read waits no longer
 *    than the write does. Targets: median write ≤ 100 ms + 20 ms; p99 of (read − write) ≤ 5 ms.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { FakeJev } from "../fixtures/http/fake-jev.js";
import { confirmRequest } from "../lib/guards/confirm/index.js";
import { AnswerCache, requestKey } from "../lib/oracle/index.js";
import { STRETTO_PROXY } from "./stdio/chain.js";
import { percentile } from "./stdio/stats.js";

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = join(here, "..", "lib", "cli", "stretto-mcp-demo.js");
const node = process.execPath;
const WRITES = Number(process.env["STRETTO_BENCH_WRITES"] ?? 200);
const ROUNDS = 4;
const SLOW_WRITES = Number(process.env["STRETTO_BENCH_SLOW_WRITES"] ?? 40);
const JEV_MS = 100;

const PROPOSAL = "The order is pending. Shall I cancel it as no longer needed?";
const YES = "Yes, cancel it.";
const args = (n: number) => ({ order_id: `#W${n}a`, reason: "no longer needed" });

/** A proxy driven a line at a time: `ask` resolves with the answer's arrival time. */
class Driven {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, (t: number) => void>();
  private next = 1;
  constructor(extra: string[], env: NodeJS.ProcessEnv, context: string) {
    const argv = [STRETTO_PROXY, "--domain", "retail", "--guards", "--context", context, ...extra, "--", node, DEMO, "--world", "retail"];
    this.child = spawn(node, argv, { stdio: ["pipe", "pipe", "ignore"], env });
    createInterface({ input: this.child.stdout! }).on("line", (l) => {
      const t = performance.now();
      const id = (JSON.parse(l) as { id?: unknown }).id;
      if (typeof id === "number") this.waiting.get(id)?.(t);
    });
  }
  /** Sends a request; resolves with the time its answer arrived. */
  send(method: string, params: unknown): Promise<number> {
    const id = this.next++;
    const answered = new Promise<number>((r) => this.waiting.set(id, r));
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return answered;
  }
  call(name: string, a: object): Promise<number> {
    return this.send("tools/call", { name, arguments: a });
  }
  async start(): Promise<void> {
    await this.send("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
  }
  /** Customer n's lookups (so the guards pass the write), then the write, timed. */
  async write(n: number): Promise<number> {
    await this.call("find_user_id_by_email", { email: `c${n}@example.com` });
    await this.call("get_order_details", { order_id: `#W${n}a` });
    const t0 = performance.now();
    return (await this.call("cancel_pending_order", args(n))) - t0;
  }
  end(): void {
    this.child.stdin!.end();
  }
}

const p = (xs: number[], q: number) => percentile(Float64Array.from(xs).sort(), q);
const ms = (x: number) => `${x.toFixed(2)} ms`.padStart(10);

async function cachedAnswer(work: string, context: string): Promise<void> {
  const cache = join(work, "cache");
  const answers = new AnswerCache(cache);
  for (let n = 1; n <= WRITES * ROUNDS; n++) {
    const request = confirmRequest("jev-latest", { proposal: PROPOSAL, customer: YES }, { tool: "cancel_pending_order", arguments: args(n) }, "confirmed");
    await answers.write(requestKey(request), { model: "jev-bench", answers: { confirmed: { type: "noul", noul: 0.92 } }, usage: { input_tokens: 0, output_tokens: 0 } });
  }
  const env = { ...process.env, TYPESAFE_DEFAULT_MODEL: "" };
  const judged = new Driven(["--confirm-judge", "enforce", "--oracle", "replay", "--oracle-cache", cache, "--confirm-log", join(work, "confirm.jsonl")], env, context);
  const plain = new Driven([], env, context);
  await Promise.all([judged.start(), plain.start()]);
  const times = { judged: [] as number[], plain: [] as number[] };
  let n = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const first = n;
    for (let i = 0; i < WRITES; i++) times.plain.push(await plain.write(++n));
    n = first;
    for (let i = 0; i < WRITES; i++) times.judged.push(await judged.write(++n));
  }
  judged.end();
  plain.end();
  const added = p(times.judged, 99) - p(times.plain, 99);
  console.log(`A guarded write, ${WRITES * ROUNDS} each (${ROUNDS} alternating rounds), from the host's send to its answer`);
  console.log(`  ${"".padEnd(34)}${"p50".padStart(10)}${"p99".padStart(10)}`);
  console.log(`  ${"--guards".padEnd(34)}${ms(p(times.plain, 50))}${ms(p(times.plain, 99))}`);
  console.log(`  ${"--confirm-judge, cached answer".padEnd(34)}${ms(p(times.judged, 50))}${ms(p(times.judged, 99))}`);
  console.log(`  added p99 ${added.toFixed(2)} ms   target ≤ 2 ms   ${added <= 2 ? "PASS" : "MISS"}`);
}

async function slowJudge(work: string, context: string): Promise<void> {
  const fake = new FakeJev();
  const base = await fake.start();
  fake.delayMs = JEV_MS;
  fake.noul = () => 0.92;
  const env = { ...process.env, TYPESAFE_BASE_URL: base, TYPESAFE_API_KEY: "bench", TYPESAFE_DEFAULT_MODEL: "" };
  const judged = new Driven(["--confirm-judge", "enforce", "--oracle", "jev", "--oracle-cache", join(work, "jev-cache")], env, context);
  await judged.start();
  const writes: number[] = [];
  const behind: number[] = [];
  for (let n = 1; n <= SLOW_WRITES; n++) {
    await judged.call("find_user_id_by_email", { email: `c${n}@example.com` });
    await judged.call("get_order_details", { order_id: `#W${n}a` });
    const t0 = performance.now();
    const [w, r] = await Promise.all([judged.call("cancel_pending_order", args(n)), judged.call("get_order_details", { order_id: `#W${n}b` })]);
    writes.push(w - t0);
    behind.push(r - w);
  }
  judged.end();
  await fake.stop();
  const writeOk = p(writes, 50) <= JEV_MS + 20;
  const behindOk = p(behind, 99) <= 5;
  console.log(`The judge asking a fake Jev that answers in ${JEV_MS} ms, ${SLOW_WRITES} writes, each followed at once by a read`);
  console.log(`  the write waits               p50 ${ms(p(writes, 50))}  p99 ${ms(p(writes, 99))}   target p50 ≤ ${JEV_MS + 20} ms   ${writeOk ? "PASS" : "MISS"}`);
  console.log(`  the read's answer after it's  p50 ${ms(p(behind, 50))}  p99 ${ms(p(behind, 99))}   target p99 ≤ 5 ms   ${behindOk ? "PASS" : "MISS"}`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "stretto-bench-judge-"));
  const context = join(work, "conversation.jsonl");
  const lines = [
    { role: "user", content: "Hi, please cancel my order." },
    { role: "assistant", content: PROPOSAL },
    { role: "user", content: YES },
  ];
  writeFileSync(context, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  try {
    await cachedAnswer(work, context);
    await slowJudge(work, context);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
