/**
 * What the recorder's writer thread costs per line, measured in one process with nothing
 * else in the way (docs/session-log.md, "What recording costs"): the stdio benchmark's
 * `--record` cells move with whoever else runs on the machine, while the CPU time of one
 * thread, read from `/proc/self/task/<tid>/schedstat`, moves much less.
 *
 * A real LogWriter (its real writer thread) in a temporary folder is handed 1 KiB request and
 * answer lines as the echo benchmark makes them, in one of two ways:
 *
 * - `--pairs N` (default 100,000): as fast as it takes them, 64 pairs a turn: the writer's CPU
 *   per line when lines keep coming (the pipelined cells);
 * - `--every MS` with `--seconds S`: one pair every MS milliseconds for S seconds: the writer's
 *   CPU per second and its time slices per second when lines come now and then (a session
 *   a model drives), where waking up costs more than the lines.
 *
 * Linux only (/proc).
 *
 *   node dist/bench/stdio/writer-cost.js [--pairs N] [--every MS --seconds S]
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { LogWriter } from "../../lib/record/log-writer.js";
import { RequestFactory } from "./load.js";

interface Options {
  pairs: number;
  everyMs: number | undefined;
  seconds: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { pairs: 100_000, everyMs: undefined, seconds: 4 };
  for (let i = 0; i < argv.length; i += 2) {
    const v = Number(argv[i + 1]);
    if (argv[i] === "--pairs" && Number.isInteger(v) && v > 0) o.pairs = v;
    else if (argv[i] === "--every" && v > 0) o.everyMs = v;
    else if (argv[i] === "--seconds" && v > 0) o.seconds = v;
    else {
      process.stderr.write("usage: writer-cost.js [--pairs N] [--every MS --seconds S]\n");
      process.exit(2);
    }
  }
  return o;
}

/** Field `k` of a thread's schedstat: 0 is its CPU time in ns, 2 its time slices. */
function schedstat(tid: string, k: number): number {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[k]);
  } catch {
    return 0;
  }
}

const threads = () => readdirSync("/proc/self/task");
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const factory = new RequestFactory(1024);
  const requests = Array.from({ length: 256 }, (_, i) => factory.make(i));
  // The echo server's answer: the request with its method and params turned into a result.
  const answers = requests.map((r) => Buffer.from(r.toString("latin1").replace(',"method":"echo","params":', ',"result":'), "latin1"));
  const dir = mkdtempSync(join(tmpdir(), "stretto-writer-cost-"));
  try {
    const before = new Set(threads());
    const writer = LogWriter.create(dir, "s", { stretto_mcp_log: 2 });
    await pause(300);
    // The threads that came with the writer: its own, and whatever V8 started with it.
    const ours = threads().filter((t) => !before.has(t));
    const cpu = () => ours.reduce((n, t) => n + schedstat(t, 0), 0);
    const slices = () => ours.reduce((n, t) => n + schedstat(t, 2), 0);
    const log = join(dir, "s.jsonl");
    const cpu0 = cpu();
    const slices0 = slices();
    const t0 = performance.now();
    let pairs = 0;
    let tMs = 0;
    if (o.everyMs === undefined) {
      for (; pairs < o.pairs; pairs++) {
        writer.line("client", tMs, requests[pairs & 255]!);
        writer.line("server", tMs, answers[pairs & 255]!);
        if ((pairs + 1) % 64 === 0) {
          tMs++;
          await new Promise((r) => setImmediate(r));
        }
      }
      // Written once the log stops growing (the writer naps 10 ms between rounds).
      for (let size = -1; ; ) {
        await pause(60);
        const now = statSync(log).size;
        if (now === size) break;
        size = now;
      }
    } else {
      while (performance.now() - t0 < o.seconds * 1000) {
        writer.line("client", tMs, requests[pairs & 255]!);
        writer.line("server", tMs, answers[pairs & 255]!);
        pairs++;
        tMs += o.everyMs;
        await pause(o.everyMs);
      }
      await pause(100);
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpuMs = (cpu() - cpu0) / 1e6;
    const lines = 2 * pairs;
    process.stdout.write(
      `${o.everyMs === undefined ? "as fast as taken" : `a pair every ${o.everyMs} ms`}: ${lines} lines of 1 KiB in ${seconds.toFixed(2)} s; ` +
        `writer thread ${((cpuMs * 1000) / lines).toFixed(2)} µs CPU per line, ${(cpuMs / seconds).toFixed(1)} ms CPU/s, ` +
        `${((slices() - slices0) / seconds).toFixed(0)} time slices/s; load ${loadavg()[0]!.toFixed(2)}\n`,
    );
    await writer.finish();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`writer-cost: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
