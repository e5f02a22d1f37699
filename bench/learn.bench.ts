/**
 * `stretto learn --habit-only` over 1 000 and 10 000 generated sessions of about ten calls
 * (bench/learn/shop-sessions.ts: the retail shop as stretto-proxy records it), against the
 * floor of merely reading the same logs into Episodes: the folder planned and every session
 * built by the trace library's folder reader, one at a time, none kept. Each measurement
 * is a fresh child process (the learner is the real `dist/lib/cli/stretto.js`), so its
 * peak RSS is its own; a hook loaded with `--import` reports the child's peak RSS and CPU
 * time at exit, and the wall time is the child's whole life (start-up included, the same
 * for both). Each figure is the median of the rounds.
 *
 * The learner plans the folder and reads each log synchronously (a batch tool has nothing
 * else to do meanwhile, and the thread pool's round trips cost more than reading a small
 * log), where the folder reader plans and reads asynchronously by default. So there are two
 * floors: the folder reader as it is (`planFolder`, `folderEpisodes`), and the same reader
 * planning and reading synchronously (`{ sync: true }` to both), and the time target is
 * judged on the faster one of the two, so that learning is never measured against a slower
 * way of reading.
 *
 * Targets: learning costs ≤ 2× reading the same logs (wall time, at 10 000 sessions), and
 * its peak RSS at 10 000 sessions is ≤ 1.5× its peak RSS at 1 000.
 *
 * The sessions are generated once per generator version and kept in the system's temp
 * folder, so a second run starts measuring at once.
 *
 *   node --expose-gc dist/bench/learn.bench.js [sessions] [rounds]   (default 10000, 3)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { folderEpisodes, planFolder, toolCalls } from "../lib/trace/index.js";
import { GENERATOR_VERSION, shopSessions } from "./learn/shop-sessions.js";

const TIME_TARGET = 2;
const RSS_TARGET = 1.5;
const SEED = 7;
const SMALL_DIVISOR = 10;

const self = fileURLToPath(import.meta.url);
const here = dirname(self);
const HOOK = pathToFileURL(join(here, "learn", "usage-hook.js")).href;
const STRETTO = join(here, "..", "lib", "cli", "stretto.js");

interface Measurement {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  detail: string;
}

if (process.argv[2] === "--read" || process.argv[2] === "--read-sync") {
  await readOnly(process.argv[3]!, process.argv[2] === "--read-sync");
} else {
  await runBench(Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 3));
}

/** The floor: every session of the folder read into an Episode, one at a time, none kept. */
async function readOnly(dir: string, sync: boolean): Promise<void> {
  let episodes = 0;
  let calls = 0;
  for await (const ep of folderEpisodes(await planFolder(dir, undefined, undefined, { sync }), undefined, { sync })) {
    episodes++;
    calls += toolCalls(ep).length;
  }
  process.stdout.write(`${episodes} episodes, ${calls} calls`);
}

async function runBench(large: number, rounds: number): Promise<void> {
  const small = Math.max(1, Math.round(large / SMALL_DIVISOR));
  const work = mkdtempSync(join(tmpdir(), "stretto-learn-bench-out-"));
  try {
    const t0 = Date.now();
    const folders = new Map<number, string>();
    const made: number[] = [];
    for (const count of [small, large]) {
      const { dir, made: fresh } = await shopSessions(tmpdir(), count, SEED);
      folders.set(count, dir);
      if (fresh) made.push(count);
    }
    process.stdout.write(
      made.length > 0
        ? `generated ${made.map((c) => c.toLocaleString("en")).join(" and ")} sessions (generator v${GENERATOR_VERSION}) in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`
        : `reusing the generated sessions in ${tmpdir()} (generator v${GENERATOR_VERSION})\n`,
    );

    const runs = new Map<string, Measurement[]>();
    const keep = (key: string, m: Measurement): void => void runs.set(key, [...(runs.get(key) ?? []), m]);
    for (let r = 0; r < rounds; r++) {
      for (const count of [small, large]) {
        const dir = folders.get(count)!;
        keep(`read ${count}`, child([self, "--read", dir], work));
        keep(`sync ${count}`, child([self, "--read-sync", dir], work));
        const out = join(work, `flow-${count}.json`);
        keep(`learn ${count}`, child([STRETTO, "learn", "--habit-only", "--sessions", dir, "--domain", "shop", "--out", out, "--quiet"], work));
      }
    }
    const m = (key: string): Measurement => median(runs.get(key)!);

    const table: string[][] = [["", "wall", "cpu", "peak RSS", "× floor", ""]];
    const floorOf = (count: number): Measurement => [m(`read ${count}`), m(`sync ${count}`)].sort((a, b) => a.wallMs - b.wallMs)[0]!;
    for (const count of [small, large]) {
      const floor = floorOf(count);
      const n = count.toLocaleString("en");
      table.push(row(`${n} sessions: read into Episodes`, m(`read ${count}`), floor));
      table.push(row(`${n} sessions: read into Episodes, synchronously`, m(`sync ${count}`), floor));
      table.push(row(`${n} sessions: stretto learn --habit-only`, m(`learn ${count}`), floor));
    }
    const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
    for (const r of table) {
      process.stdout.write(r.map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd() + "\n");
    }

    const timeRatio = m(`learn ${large}`).wallMs / floorOf(large).wallMs;
    const rssRatio = m(`learn ${large}`).maxRssMb / m(`learn ${small}`).maxRssMb;
    const readRss = m(`read ${large}`).maxRssMb / m(`read ${small}`).maxRssMb;
    // The learner uses a second core (reading, the bindings, α), so its CPU ratio is told beside the wall one.
    const cpuRatio = m(`learn ${large}`).cpuMs / floorOf(large).cpuMs;
    const verdict = (ok: boolean): string => (ok ? "PASS" : "MISS");
    process.stdout.write(
      `learn time / read time (the faster floor) at ${large.toLocaleString("en")} sessions: ${timeRatio.toFixed(2)}× (target ≤ ${TIME_TARGET}×: ${verdict(timeRatio <= TIME_TARGET)}; CPU, every thread: ${cpuRatio.toFixed(2)}×)\n` +
        `learn peak RSS ${large.toLocaleString("en")} / ${small.toLocaleString("en")} sessions: ${rssRatio.toFixed(2)}× (target ≤ ${RSS_TARGET}×: ${verdict(rssRatio <= RSS_TARGET)}; reading alone: ${readRss.toFixed(2)}×)\n`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function row(label: string, x: Measurement, floor: Measurement): string[] {
  return [label, `${x.wallMs.toFixed(0)} ms`, `${x.cpuMs.toFixed(0)} ms`, `${x.maxRssMb.toFixed(0)} MB`, `${(x.wallMs / floor.wallMs).toFixed(2)}×`, x.detail];
}

/** Runs `node --import HOOK ...args` and measures it. */
function child(args: string[], work: string): Measurement {
  const usage = join(work, "usage.json");
  rmSync(usage, { force: true });
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--import", HOOK, ...args], {
    encoding: "utf8",
    env: { ...process.env, STRETTO_BENCH_USAGE: usage },
    maxBuffer: 1 << 24,
  });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.slice(0, 2).join(" ")} failed (${r.status ?? r.signal}): ${r.stderr}`);
  const u = JSON.parse(readFileSync(usage, "utf8")) as { maxRssMb: number; cpuMs: number };
  return { wallMs, cpuMs: u.cpuMs, maxRssMb: u.maxRssMb, detail: (r.stdout + r.stderr).trim().replace(/ and wrote .*$/, "") };
}

function median(ms: Measurement[]): Measurement {
  const by = <K extends keyof Measurement>(k: K): number => {
    const xs = ms.map((m) => m[k] as number).sort((a, b) => a - b);
    return xs[Math.floor(xs.length / 2)]!;
  };
  return { wallMs: by("wallMs"), cpuMs: by("cpuMs"), maxRssMb: by("maxRssMb"), detail: ms[0]!.detail };
}
