/**
 * The soak: does a long guarded session run in flat memory? (docs/benchmarks.md, "Soak";
 * docs/session-memory.md.) `make bench-soak`, never part of `make bench` nor `make test`.
 *
 * The real `stretto-proxy --guards --domain retail` in front of `stretto-mcp-demo --world
 * retail`, one session of 1,000,000 `get_order_details` calls (of `--orders` distinct
 * orders, 1,000 by default, in turn), pipelined: up to `--window` calls in flight. At each
 * checkpoint (50k, 250k, 500k, 1M calls) sending stops until every call is answered, and
 * the proxy's `VmRSS` and `VmHWM` are read from `/proc/<pid>/status`. Target: RSS after
 * 1M ≤ 1.2× RSS after 50k.
 *
 *     node dist/bench/soak.bench.js                    # 1,000,000 calls, --guards
 *     node dist/bench/soak.bench.js --calls 200000     # the short variant
 *     node dist/bench/soak.bench.js --flow             # then --flow-calls (1,000,000) through the published retail flow,
 *                                                      # then --turn-calls (50,000) of many short turns
 *     node dist/bench/soak.bench.js --node-flag --trace-gc   # a flag for the proxy's node
 *     node dist/bench/soak.bench.js --flow --probe     # at each checkpoint, what the RSS is made of
 *
 * With `--calls N` the checkpoints are N/20, N/4, N/2 and N (so 50k/250k/500k/1M at the
 * default), and the target compares the last with the first; the same for the flow's
 * sessions. The flow's pipelined session is one long turn, folded; its session of short
 * turns is an agent that waits for each answer and says a line before each call (through
 * `--context`, so turn inference starts a turn at each call): it serves a few hundred calls a
 * second, so it is shorter. Memory is the flow's own copy of the session
 * (docs/session-memory.md, "A `--flow` session").
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Chain, STRETTO_PROXY, killAllChains } from "./stdio/chain.js";
import { memoryOf } from "./stdio/stats.js";
import type { Probe } from "./stdio/memory-probe.js";

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = join(here, "..", "lib", "cli", "stretto-mcp-demo.js");
const FLOW = join(here, "../../../shared/fixtures/flows/retail-5-sessions.flow.json");
const node = process.execPath;
const TARGET = 1.2;

interface Options {
  calls: number;
  flowCalls: number;
  turnCalls: number;
  orders: number;
  window: number;
  flow: boolean;
  /** At each checkpoint, after reading RSS: the proxy's heap spaces, live heap, malloc and mappings (stdio/memory-probe.ts). */
  probe: boolean;
  nodeFlags: string[];
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = { calls: 1_000_000, flowCalls: 1_000_000, turnCalls: 50_000, orders: 1_000, window: 2_000, flow: false, probe: false, nodeFlags: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--flow" || a === "--probe") {
      if (a === "--flow") o.flow = true;
      else o.probe = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${a} needs a value`);
    if (a === "--node-flag") {
      o.nodeFlags.push(value);
      continue;
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${a} takes a positive integer, not ${value}`);
    if (a === "--calls") o.calls = n;
    else if (a === "--flow-calls") o.flowCalls = n;
    else if (a === "--turn-calls") o.turnCalls = n;
    else if (a === "--orders") o.orders = n;
    else if (a === "--window") o.window = n;
    else throw new Error(`unknown option ${a} (--calls N, --flow, --flow-calls N, --turn-calls N, --orders N, --window N, --node-flag FLAG)`);
  }
  if (o.calls < 20 || o.flowCalls < 20 || o.turnCalls < 20) throw new Error("--calls, --flow-calls and --turn-calls must be at least 20");
  return o;
}

const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "soak", version: "0" } } });
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

/** Call `i` (from 1): `get_order_details` of order `#W<n>a`, n cycling over `orders` customers. */
function call(i: number, orders: number): string {
  const order = `#W${(i % orders) + 1}a`;
  return `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"get_order_details","arguments":{"order_id":"${order}"}}}\n`;
}

interface Checkpoint {
  calls: number;
  rss: number;
  hwm: number;
  seconds: number;
}

/**
 * One session of `calls` calls through the proxy started by `argv`; memory at each checkpoint,
 * each told to `reached` too. `before(i)`: done before call `i` is sent.
 */
async function soak(argv: string[], o: Options, checkpoints: readonly number[], reached: (p: Checkpoint) => void, before?: (i: number) => void): Promise<Checkpoint[]> {
  const chain = new Chain(argv);
  const out: Checkpoint[] = [];
  let answered = 0;
  let wake: (() => void) | undefined;
  chain.proc.stdout.on("data", (b: Buffer) => {
    for (let at = b.indexOf(10); at !== -1; at = b.indexOf(10, at + 1)) answered++;
    wake?.();
  });
  const exited = chain.exited.then((s) => {
    throw new Error(`the proxy exited early (${s.code ?? s.signal}): ${chain.stderr}`);
  });
  /** Resolves once `answered` reaches `n` (the initialize's answer counts as one). */
  const until = (n: number): Promise<void> =>
    answered >= n
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => {
            wake = () => {
              if (answered >= n) {
                wake = undefined;
                resolve();
              }
            };
          }),
          exited,
        ]);
  const started = performance.now();
  chain.proc.stdin.write(`${INITIALIZE}\n`);
  await until(1);
  chain.proc.stdin.write(`${INITIALIZED}\n`);
  let sent = 0;
  for (const mark of checkpoints) {
    while (sent < mark) {
      const upTo = Math.min(mark, sent + Math.max(1, o.window - (sent - (answered - 1))));
      let chunk = "";
      for (let i = sent + 1; i <= upTo; i++) {
        before?.(i);
        chunk += call(i, o.orders);
      }
      sent = upTo;
      if (!chain.proc.stdin.write(chunk)) await new Promise((r) => chain.proc.stdin.once("drain", r));
      // Keep at most `window` calls in flight: wait for half of them to come back.
      await until(Math.max(1, sent + 1 - Math.floor(o.window / 2)));
    }
    await until(mark + 1);
    const m = memoryOf(chain.pid);
    out.push({ calls: mark, rss: m?.rss ?? Number.NaN, hwm: m?.hwm ?? Number.NaN, seconds: (performance.now() - started) / 1000 });
    reached(out[out.length - 1]!);
    if (o.probe) console.log(await probed(chain.pid));
  }
  const status = await chain.stop();
  if (status.code !== 0) throw new Error(`the proxy exited with ${status.code ?? status.signal}: ${chain.stderr}`);
  return out;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`.padStart(10);

const PROBE = join(here, "stdio", "memory-probe.js");
/** Where the probe writes (set once `--probe` is given). */
let probeOut = "";

/**
 * The proxy's figures at a checkpoint (it runs stdio/memory-probe.ts: the spaces before its two
 * collections, the live heap after), and its mappings' kinds after them, as one line.
 */
async function probed(pid: number): Promise<string> {
  const before = existsSync(probeOut) ? readFileSync(probeOut, "utf8").length : 0;
  process.kill(pid, "SIGUSR2");
  let text = "";
  for (let waited = 0; waited < 5000; waited += 10) {
    text = existsSync(probeOut) ? readFileSync(probeOut, "utf8").slice(before) : "";
    if (text.endsWith("\n")) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const p = JSON.parse(text) as Probe;
  const f = (b: number | undefined) => (b === undefined ? "-" : (b / 2 ** 20).toFixed(1));
  const space = (name: string) => `${f(p.spaces[name]?.size)}/${f(p.spaces[name]?.used)}`;
  let rollup = "";
  try {
    const r = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kib = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(r)?.[1] ?? Number.NaN) * 1024;
    rollup = `; mapped after them: anon ${f(kib("Anonymous"))} file ${f(kib("Rss") - kib("Anonymous"))}`;
  } catch {
    // Not Linux.
  }
  return (
    `      MB, size/used: new ${space("new_space")} old ${space("old_space")} code ${space("code_space")} large ${space("large_object_space")}; ` +
    `heap ${f(p.heapTotal)}/${f(p.heapUsed)}, live ${f(p.liveHeap)}; external ${f(p.external)} (buffers ${f(p.arrayBuffers)}); malloced ${f(p.malloced)} (peak ${f(p.peakMalloced)}); threads ${p.threads}${rollup}`
  );
}

/** Runs one soak, printing each checkpoint as it is reached, then the target's verdict. */
async function soakAndReport(label: string, argv: string[], o: Options, checkpoints: readonly number[], before?: (i: number) => void): Promise<void> {
  console.log(`  ${label}`);
  console.log(`    ${"calls".padStart(9)}  ${"VmRSS".padStart(10)}  ${"VmHWM".padStart(10)}  ${"elapsed".padStart(8)}  calls/s`);
  const points = await soak(argv, o, checkpoints, (p) => {
    const rate = Math.round(p.calls / p.seconds).toLocaleString("en");
    console.log(`    ${p.calls.toLocaleString("en").padStart(9)}  ${mb(p.rss)}  ${mb(p.hwm)}  ${`${p.seconds.toFixed(0)} s`.padStart(8)}  ${rate}`);
  }, before);
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const ratio = last.rss / first.rss;
  const verdict = ratio <= TARGET ? "PASS" : "MISS";
  console.log(`    RSS after ${last.calls.toLocaleString("en")} / after ${first.calls.toLocaleString("en")}: ${ratio.toFixed(2)}×   target ≤ ${TARGET}×   ${verdict}`);
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  try {
    await soaks(o);
  } finally {
    if (probeOut !== "") rmSync(dirname(probeOut), { recursive: true, force: true });
  }
}

async function soaks(o: Options): Promise<void> {
  if (!existsSync(DEMO)) throw new Error(`build first: ${DEMO} is missing`);
  const checkpoints = (n: number) => [n / 20, n / 4, n / 2, n].map(Math.floor);
  const demo = [node, DEMO, "--world", "retail"];
  if (o.probe) process.env["SOAK_PROBE_OUT"] = probeOut = join(mkdtempSync(join(tmpdir(), "soak-probe-")), "probe.jsonl");
  const proxy = [node, ...o.nodeFlags, ...(o.probe ? ["--expose-gc", `--import=${PROBE}`] : []), STRETTO_PROXY];
  console.log(
    `one session of ${o.calls.toLocaleString("en")} pipelined get_order_details calls (${o.orders.toLocaleString("en")} distinct orders, ≤ ${o.window.toLocaleString("en")} in flight) to stretto-mcp-demo --world retail; load ${loadavg()[0]!.toFixed(2)}`,
  );
  await soakAndReport("--guards --domain retail", [...proxy, "--guards", "--domain", "retail", "--", ...demo], o, checkpoints(o.calls));
  if (!o.flow) return;
  if (!existsSync(FLOW)) {
    console.log(`  --flow: skipped, the published flow is not at ${FLOW}`);
    return;
  }
  // The flow decides after each answer, but every decision hands back (each order shown was
  // passed already): it looks nothing up and never reaches its per-session cap (40), so what
  // it keeps is its own copy of the session, one long turn folded (docs/session-memory.md).
  await soakAndReport("--flow (published retail flow, habit decider)", [...proxy, "--flow", FLOW, "--flow-decider", "habit", "--", ...demo], o, checkpoints(o.flowCalls));
  // The same calls one at a time, each after a line of the agent's: every call starts a turn,
  // so what the flow keeps is its reading of the closed past (docs/session-memory.md).
  const dir = mkdtempSync(join(tmpdir(), "soak-"));
  const said = join(dir, "conversation.jsonl");
  writeFileSync(said, "");
  const line = `${JSON.stringify({ role: "assistant", content: "Let me look that up." })}\n`;
  try {
    await soakAndReport(
      `--flow, many short turns (one call at a time, ${o.turnCalls.toLocaleString("en")} calls, each after a line of the agent's)`,
      [...proxy, "--flow", FLOW, "--flow-decider", "habit", "--context", said, "--", ...demo],
      { ...o, window: 1 },
      checkpoints(o.turnCalls),
      () => appendFileSync(said, line),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.on("SIGINT", () => {
  killAllChains();
  process.exit(130);
});
main().catch((e: unknown) => {
  killAllChains();
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
