/**
 * The stdio benchmark (docs/benchmarks.md): what stretto-proxy costs a host
 * talking to a stdio MCP server, measured against a bare Node relay in the same run.
 *
 * Configurations: direct (host ↔ echo server), bare relay (the floor), stretto-proxy, and
 * stretto-proxy --record. For each: 1, 8 and 32 requests in flight and pipelined, with
 * request lines of 1 KiB, 64 KiB and 1 MiB. For each (payload, mode) group the four chains
 * are started afresh (so the time to the first answer and the peak RSS belong to that group
 * alone) and warmed up, then timed in rounds whose order rotates, so that load from
 * elsewhere on the machine falls on every configuration alike. Then a single 64 MiB line
 * through the relay and through the proxy.
 *
 * Targets are reported PASS/MISS beside the figures; a miss never fails the process. No
 * comparison with other proxies: the only reference is the floor measured here.
 *
 *   node --expose-gc dist/bench/stdio-relay.bench.js [--scale F] [--only 1KiB/pipelined] [--profile DIR]
 *
 * `--scale` multiplies the request counts (0.2 for a quick look; the figures get noisier);
 * `--only` keeps the groups whose `<payload>/<mode>` contains it (`64MiB` for the big line);
 * `--profile` writes a `--cpu-prof` profile of every relay and proxy process under DIR.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, release, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CONFIGURATIONS, Chain, killAllChains, type ConfigName, type Configuration } from "./stdio/chain.js";
import { Host, RequestFactory } from "./stdio/load.js";
import { RssSampler, cpuNsOf, median, memoryOf, percentile } from "./stdio/stats.js";

interface Payload {
  label: string;
  bytes: number;
  /** Timed requests per configuration and mode (split over the rounds), and warm-up ones. */
  count: number;
  warmup: number;
  rounds: number;
}

interface Mode {
  label: string;
  /** Requests kept in flight; 0 is pipelined (all sent without waiting for answers). */
  inFlight: number;
}

interface Cell {
  p50: number;
  p99: number;
  msgsPerS: number;
  mbPerS: number;
  /** Peak RSS of the relay or proxy process, bytes; undefined for direct. */
  rss: number | undefined;
  firstMs: number;
  /** CPU of the relay or proxy process per timed message, µs. */
  cpuUs: number | undefined;
}

const KiB = 1024;
const MiB = 1024 * KiB;
/**
 * The warm-up of 1 KiB requests is as long as the timed part: the proxy's code, and with
 * `--record` its writer thread's, is still being compiled over the first few thousand lines
 * (V8's compiler threads busy, the writer at 20 µs a line over its first 800 lines against
 * 1.5–2 µs later on), so with 400 the 1 KiB cells measured the start of a session rather
 * than its throughput, and measured it for the proxy only: the bare relay's path is Node's
 * own pipes, compiled before it starts. What starting costs is the "1st answer" column.
 */
const PAYLOADS: Payload[] = [
  { label: "1 KiB", bytes: KiB, count: 4000, warmup: 4000, rounds: 5 },
  { label: "64 KiB", bytes: 64 * KiB, count: 800, warmup: 80, rounds: 5 },
  { label: "1 MiB", bytes: MiB, count: 48, warmup: 8, rounds: 4 },
];
const MODES: Mode[] = [
  { label: "1", inFlight: 1 },
  { label: "8", inFlight: 8 },
  { label: "32", inFlight: 32 },
  { label: "pipelined", inFlight: 0 },
];
const BIG_LINE = 64 * MiB;
const TARGET = { passive: 0.9, record: 0.85, addedP50: 1.5, bigLineRss: 100 * 1e6, bigLineRecordRss: 200 * 1e6 };

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const options = parseArgs(process.argv.slice(2));
const tmpRoot = mkdtempSync(join(tmpdir(), "stretto-bench-"));
const out = (line = "") => process.stdout.write(`${line}\n`);

interface Options {
  scale: number;
  /** Only the groups whose `<payload>/<mode>` (spaces dropped, e.g. `1KiB/pipelined`) contains this. */
  only: string | undefined;
  /** Write a `--cpu-prof` profile of every relay and proxy process under this folder. */
  profile: string | undefined;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { scale: 1, only: undefined, profile: undefined };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    if (argv[i] === "--scale" && Number(v) > 0) o.scale = Number(v);
    else if (argv[i] === "--only" && v) o.only = v;
    else if (argv[i] === "--profile" && v) o.profile = resolve(v);
    else usage();
    i++;
  }
  return o;
}

function usage(): never {
  process.stderr.write("usage: stdio-relay.bench.js [--scale F] [--only 1KiB/pipelined] [--profile DIR]\n");
  process.exit(2);
}

function cleanUp(): void {
  killAllChains();
  rmSync(tmpRoot, { recursive: true, force: true });
}
process.on("exit", cleanUp);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(sig, () => {
    cleanUp();
    process.exit(130);
  });
}

/** One configuration's chain, alive for the whole of a (payload, mode) group. */
interface Live {
  config: Configuration;
  chain: Chain;
  host: Host;
  sampler: RssSampler | undefined;
  recordDir: string | undefined;
  firstMs: number;
  batches: { latenciesUs: Float64Array; elapsedMs: number; count: number; bytes: number; cpuNs: number | undefined }[];
}

/** Starts `config` afresh, times its first answer, and warms it up. */
async function start(config: Configuration, factory: RequestFactory, warmup: number, mode: Mode, tag: string): Promise<Live> {
  const recordDir = config.needsRecordDir ? mkdtempSync(join(tmpRoot, "log-")) : undefined;
  const flags =
    options.profile && config.hasMiddle ? ["--cpu-prof", `--cpu-prof-dir=${join(options.profile, `${config.name}-${tag.replace("/", "-")}`)}`] : [];
  gc();
  const chain = new Chain(config.argv(recordDir, flags));
  const live: Live = {
    config,
    chain,
    host: new Host(chain.proc.stdin, chain.proc.stdout, chain.exited),
    sampler: config.hasMiddle ? new RssSampler(chain.pid) : undefined,
    recordDir,
    firstMs: Number.NaN,
    batches: [],
  };
  try {
    live.firstMs = (await live.host.first()) - chain.spawnedAt;
    await live.host.run(factory, warmup, mode.inFlight);
  } catch (err) {
    await abandon([live]);
    throw failure(live, tag, err);
  }
  return live;
}

/** One timed batch on a live chain. */
async function batch(live: Live, factory: RequestFactory, count: number, mode: Mode): Promise<void> {
  gc();
  const middle = live.config.hasMiddle ? live.chain.pid : undefined;
  const cpu0 = middle === undefined ? undefined : cpuNsOf(middle);
  const r = await live.host.run(factory, count, mode.inFlight);
  const cpu1 = middle === undefined ? undefined : cpuNsOf(middle);
  live.batches.push({ ...r, count, cpuNs: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0 });
}

/** Stops the chain and reduces its batches to one row of figures. */
async function finish(live: Live): Promise<Cell> {
  const rss = live.sampler?.stop();
  const status = await live.chain.stop();
  if (live.recordDir) rmSync(live.recordDir, { recursive: true, force: true });
  if (status.code !== 0) throw new Error(`exited with ${status.code ?? status.signal}`);
  const all = new Float64Array(live.batches.reduce((n, b) => n + b.count, 0));
  let at = 0;
  for (const b of live.batches) {
    all.set(b.latenciesUs, at);
    at += b.count;
  }
  all.sort();
  const cpu = live.batches.every((b) => b.cpuNs !== undefined)
    ? live.batches.reduce((n, b) => n + b.cpuNs!, 0) / 1000 / all.length
    : undefined;
  return {
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    // The median batch: one batch slowed by a neighbour's burst does not move it.
    msgsPerS: median(live.batches.map((b) => b.count / (b.elapsedMs / 1000))),
    mbPerS: median(live.batches.map((b) => b.bytes / 1e6 / (b.elapsedMs / 1000))),
    rss,
    firstMs: live.firstMs,
    cpuUs: cpu,
  };
}

async function abandon(lives: Live[]): Promise<void> {
  for (const live of lives) {
    live.sampler?.stop();
    live.chain.kill();
    await live.chain.exited;
    if (live.recordDir) rmSync(live.recordDir, { recursive: true, force: true });
  }
}

function failure(live: Live, tag: string, err: unknown): Error {
  const stderr = live.chain.stderr.trim();
  return new Error(`${live.config.label.trim()}, ${tag}: ${(err as Error).message}${stderr ? `\n${stderr}` : ""}`);
}

/**
 * How a group's timed requests are cut into rounds. A batch keeps at least `inFlight`
 * requests, so with big payloads and 32 in flight there are fewer rounds (never under two)
 * rather than many more requests.
 */
function plan(payload: Payload, mode: Mode): { rounds: number; perBatch: number } {
  const count = Math.max(1, Math.round(payload.count * options.scale));
  const rounds = Math.max(2, Math.min(payload.rounds, Math.floor(count / Math.max(1, mode.inFlight))));
  return { rounds, perBatch: Math.max(mode.inFlight, Math.round(count / rounds)) };
}

/**
 * One (payload, mode) group: all four chains started and warmed up, then timed in rounds,
 * the order rotating each round, so that a burst of load from elsewhere on the machine
 * falls on every configuration alike instead of on whichever ran at that moment.
 */
async function group(payload: Payload, mode: Mode): Promise<Record<ConfigName, Cell>> {
  const tag = `${payload.label}/${mode.label}`.replace(/ /g, "");
  const factory = new RequestFactory(payload.bytes);
  const { rounds, perBatch } = plan(payload, mode);
  const warmup = Math.max(1, Math.round(payload.warmup * options.scale));
  const lives: Live[] = [];
  try {
    for (const config of CONFIGURATIONS) lives.push(await start(config, factory, warmup, mode, tag));
  } catch (err) {
    await abandon(lives);
    throw err;
  }
  let current = lives[0]!;
  try {
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < lives.length; k++) {
        current = lives[(k + round) % lives.length]!;
        await batch(current, factory, perBatch, mode);
      }
    }
    const cells = {} as Record<ConfigName, Cell>;
    for (const live of lives) {
      current = live;
      cells[live.config.name] = await finish(live);
    }
    return cells;
  } catch (err) {
    await abandon(lives);
    throw failure(current, tag, err);
  }
}

interface BigLine {
  ms: number;
  /** RSS once started and answering (before the line), and the peak while it passed. */
  idle: number | undefined;
  peak: number | undefined;
}

/** One 64 MiB request line through `config`, and its 64 MiB answer back. */
async function bigLine(config: Configuration): Promise<BigLine> {
  const factory = new RequestFactory(BIG_LINE);
  const live = await start(config, new RequestFactory(KiB), 1, MODES[0]!, "64MiB");
  live.sampler?.stop();
  gc();
  const idle = memoryOf(live.chain.pid)?.rss;
  const sampler = new RssSampler(live.chain.pid, 5);
  try {
    await batch(live, factory, 1, MODES[0]!);
    const peak = sampler.stop();
    await finish(live);
    return { ms: live.batches[0]!.elapsedMs, idle, peak };
  } catch (err) {
    sampler.stop();
    await abandon([live]);
    throw failure(live, "64 MiB line", err);
  }
}

// ---------------------------------------------------------------- printing

const pad = (s: string, n: number) => s.padStart(n);
const padEnd = (s: string, n: number) => s.padEnd(n);
const num = (v: number | undefined, digits = 0) =>
  v === undefined || !Number.isFinite(v) ? "—" : v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (v: number | undefined, floor: number | undefined) =>
  v === undefined || floor === undefined || !(floor > 0) ? "" : `${(v / floor).toFixed(2)}×`;
const fig = (v: number | undefined, floor: number | undefined, digits = 0) => {
  const r = ratio(v, floor);
  return `${num(v, digits)}${r ? ` ${pad(`(${r})`, 8)}` : v === undefined ? "         " : " (     —)"}`;
};
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");

const WIDTHS = [9, 5, 0, 20, 20, 18, 16, 15, 17, 18];

function header(): string {
  return [
    padEnd("mode", WIDTHS[0]!),
    pad("n", WIDTHS[1]!),
    "  ",
    padEnd("configuration", 14),
    ...["p50 µs", "p99 µs", "msg/s", "MB/s", "peak RSS MB", "1st answer ms", "CPU µs/msg"].map((c, i) => pad(c, WIDTHS[i + 3]!)),
    "  targets",
  ].join("");
}

interface Verdicts {
  throughput: { name: string; value: number; target: number; ok: boolean }[];
  latency: { name: string; value: number; ok: boolean }[];
}
const verdicts: Verdicts = { throughput: [], latency: [] };

function row(mode: Mode, n: number, config: Configuration, cells: Record<ConfigName, Cell>, where: string): string {
  const c = cells[config.name];
  const floor = cells.relay;
  const targets: string[] = [];
  if (config.name === "proxy" || config.name === "record") {
    const target = config.name === "proxy" ? TARGET.passive : TARGET.record;
    const thr = c.msgsPerS / floor.msgsPerS;
    const ok = thr >= target;
    verdicts.throughput.push({ name: `${config.name} ${where}`, value: thr, target, ok });
    targets.push(`thr ${thr.toFixed(2)}≥${target} ${verdict(ok)}`);
    if (mode.inFlight > 0) {
      const added = c.p50 - cells.direct.p50;
      const floorAdded = floor.p50 - cells.direct.p50;
      if (floorAdded > 0) {
        const r = added / floorAdded;
        const okLat = r <= TARGET.addedP50;
        verdicts.latency.push({ name: `${config.name} ${where}`, value: r, ok: okLat });
        targets.push(`+p50 ${Math.round(added)}/${Math.round(floorAdded)}µs=${r.toFixed(2)}≤${TARGET.addedP50} ${verdict(okLat)}`);
      } else {
        targets.push("+p50 n/a (relay added none)");
      }
    }
  }
  const mb = (v: number | undefined) => (v === undefined ? undefined : v / 1e6);
  return [
    padEnd(mode.label, WIDTHS[0]!),
    pad(String(n), WIDTHS[1]!),
    "  ",
    padEnd(config.label, 14),
    pad(fig(c.p50, floor.p50), WIDTHS[3]!),
    pad(fig(c.p99, floor.p99), WIDTHS[4]!),
    pad(fig(c.msgsPerS, floor.msgsPerS), WIDTHS[5]!),
    pad(fig(c.mbPerS, floor.mbPerS, 1), WIDTHS[6]!),
    pad(fig(mb(c.rss), mb(floor.rss)), WIDTHS[7]!),
    pad(fig(c.firstMs, floor.firstMs), WIDTHS[8]!),
    pad(fig(c.cpuUs, floor.cpuUs, 1), WIDTHS[9]!),
    targets.length ? `  ${targets.join("; ")}` : "",
  ].join("");
}

function cpuModel(): string {
  const list = cpus();
  return `${list.length} × ${list[0]?.model.trim() ?? "unknown CPU"}`;
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const started = performance.now();
  const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
  out(`stdio relay benchmark — node ${process.version}, Linux ${release()}, ${cpuModel()}`);
  out(`load average at start: ${load()}`);
  out("Host ↔ [relay | stretto-proxy] ↔ echo server over stdio pipes. Per (payload, mode) group, each");
  out("configuration's chain is started afresh and warmed up, then timed in interleaved rounds.");
  out("p50/p99: every timed round trip; msg/s, MB/s: the median round; MB/s counts request + answer bytes.");
  out("Peak RSS and CPU are the relay's / proxy's own process. (×) = ratio to the bare relay, the floor,");
  out("measured in the same run. Ground rule: no cross-proxy comparisons; the only reference is that floor.");
  const firsts: Record<ConfigName, number[]> = { direct: [], relay: [], proxy: [], record: [] };
  for (const payload of PAYLOADS) {
    const modes = MODES.filter((m) => selected(`${payload.label}/${m.label}`));
    if (modes.length === 0) continue;
    out();
    out(
      `── ${payload.label} requests, answers the same size; n = timed requests per configuration, ` +
        `in up to ${payload.rounds} rounds`,
    );
    out(header());
    for (const mode of modes) {
      const cells = await group(payload, mode);
      const { rounds, perBatch } = plan(payload, mode);
      const n = rounds * perBatch;
      for (const config of CONFIGURATIONS) {
        firsts[config.name].push(cells[config.name].firstMs);
        out(row(mode, n, config, cells, `${payload.label}/${mode.label}`));
      }
    }
  }

  if (firsts.relay.length > 0) {
    out();
    out("── time to first answer (spawn → answer to `initialize`), median over the groups");
    for (const config of CONFIGURATIONS) {
      const m = median(firsts[config.name]);
      out(`${padEnd(config.label, 16)} ${pad(num(m, 1), 7)} ms  ${ratio(m, median(firsts.relay))}`);
    }
  }

  if (selected("64MiB/line")) {
    out();
    out("── one 64 MiB line each way (request and its echo), peak RSS of the relay/proxy process");
    const big: Partial<Record<ConfigName, BigLine>> = {};
    const mb = (v: number | undefined) => pad(num(v === undefined ? undefined : v / 1e6, 1), 6);
    for (const config of CONFIGURATIONS.filter((c) => c.hasMiddle)) {
      const b = await bigLine(config);
      big[config.name] = b;
      const passive = config.name !== "record";
      const ok = b.peak !== undefined && (passive ? b.peak < TARGET.bigLineRss : b.peak <= TARGET.bigLineRecordRss);
      const target = passive ? `  peak < 100 MB ${verdict(ok)}` : `  peak ≤ 200 MB ${verdict(ok)}`;
      const grew = b.peak !== undefined && b.idle !== undefined ? b.peak - b.idle : undefined;
      out(
        `${padEnd(config.label, 16)} ${pad(num(b.ms), 6)} ms  ${pad(num((2 * BIG_LINE) / 1e6 / (b.ms / 1000), 1), 6)} MB/s  ` +
          `RSS before ${mb(b.idle)} MB, peak ${mb(b.peak)} MB ${pad(ratio(b.peak, big.relay?.peak), 7)} (+${num(grew === undefined ? undefined : grew / 1e6, 1)} MB)${target}`,
      );
      if (config.name === "proxy") bigLineOk = ok;
      if (config.name === "record") bigLineRecordOk = ok;
    }
  }

  out();
  out("── targets (reported, never enforced)");
  summary("passive throughput ≥ 0.9× relay", verdicts.throughput.filter((v) => v.name.startsWith("proxy")));
  summary("--record throughput ≥ 0.85× relay", verdicts.throughput.filter((v) => v.name.startsWith("record")));
  summaryLatency("passive added p50 ≤ 1.5× relay's", verdicts.latency.filter((v) => v.name.startsWith("proxy")));
  summaryLatency("--record added p50 ≤ 1.5× relay's", verdicts.latency.filter((v) => v.name.startsWith("record")));
  if (bigLineOk !== undefined) out(`${padEnd("peak RSS < 100 MB, 64 MiB line (passive)", 40)} ${verdict(bigLineOk)}`);
  if (bigLineRecordOk !== undefined) out(`${padEnd("peak RSS ≤ 200 MB, 64 MiB line (--record)", 40)} ${verdict(bigLineRecordOk)}`);
  out();
  out(`load average at end: ${load()}; total ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

function selected(name: string): boolean {
  return options.only === undefined || name.replace(/ /g, "").toLowerCase().includes(options.only.toLowerCase());
}

let bigLineOk: boolean | undefined;
let bigLineRecordOk: boolean | undefined;

function summary(label: string, list: Verdicts["throughput"]): void {
  if (list.length === 0) return;
  const misses = list.filter((v) => !v.ok);
  const worst = list.reduce((a, b) => (b.value < a.value ? b : a), list[0]!);
  out(
    `${padEnd(label, 40)} ${verdict(misses.length === 0)}  ${list.length - misses.length}/${list.length} cells; ` +
      `lowest ${worst.value.toFixed(2)}× (${worst.name.replace(/^\w+ /, "")})` +
      (misses.length ? `; missed at ${misses.map((m) => m.name.replace(/^\w+ /, "")).join(", ")}` : ""),
  );
}

function summaryLatency(label: string, list: Verdicts["latency"]): void {
  if (list.length === 0) return;
  const misses = list.filter((v) => !v.ok);
  const worst = list.reduce((a, b) => (b.value > a.value ? b : a), list[0]!);
  out(
    `${padEnd(label, 40)} ${verdict(misses.length === 0)}  ${list.length - misses.length}/${list.length} cells; ` +
      `highest ${worst.value.toFixed(2)}× (${worst.name.replace(/^\w+ /, "")})` +
      (misses.length ? `; missed at ${misses.map((m) => m.name.replace(/^\w+ /, "")).join(", ")}` : ""),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`stdio-relay bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
