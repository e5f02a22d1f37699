/**
 * The HTTP upstream benchmark (docs/benchmarks.md, "HTTP upstream"): what `stretto-proxy --upstream` costs a
 * host talking to a Streamable HTTP server, against the floor measured in the same run.
 *
 * The server is a fast loopback echo server in a process of its own
 * (fixtures/http/echo-server.ts). Configurations:
 * - floor: a direct node:http client with a keep-alive agent, in this process: the HTTP
 *   round trip with nothing in between (no stdio hop, no host process);
 * - stretto-proxy: this process is the host, on the proxy's stdin and stdout, and the proxy
 *   POSTs to the server;
 * - bare stdio hop: the same host in front of bench/http-upstream-hop.ts, a few lines of
 *   Node that POST each line with node:http and write the answer back: what the process hop
 *   alone costs (no target; the stdio benchmark's bare relay, for HTTP);
 * - mcp-remote: the same host in front of `mcp-remote <URL> --transport http-only`, the
 *   usual stdio-to-remote bridge;
 * - supergateway: the same host in front of `supergateway --streamableHttp <URL>
 *   --outputTransport stdio`, the other common one;
 * - transport in-process: the proxy's HTTP transport (`HttpUpstream`) in this process, its
 *   input and output driven directly: the HTTP leg without the stdio hops and the bus, to
 *   show which part of the proxy's latency is which (no target).
 *
 * For each: the start (process spawn to the `initialize` answer; for the floor, a fresh agent
 * to its first answer), requests one at a time in two ways, and pipelined requests (all
 * written at once; messages per second until the last answer). Each round starts every
 * configuration afresh and keeps them all alive while the sequential requests take turns,
 * so load from elsewhere falls on every configuration alike; the pipelined runs go one
 * after another, the order rotating each round. Targets are printed PASS/MISS beside the
 * figures; a miss never fails the process.
 *
 * The sequential p50 the target is read on is that of calls with think time: each call
 * waits THINK_MS after the one before, and the configurations take turns call by call. A
 * host sends its calls seconds apart (the model thinks between them), so by the time a call
 * comes every process on its path has gone to sleep: the server, and the proxy too. Back to
 * back, the floor's round trip is between two processes that never sleep (this one and the
 * server, which every configuration keeps busy), while the proxy sleeps through the other
 * configurations' turns and wakes at each of its own: in blocks of 20 the first calls of a
 * block paid that and the rest did not, so the ratio moved with the block size (in a row
 * ×1.07-1.25, in blocks of 20 ×1.44-2.16, with a pause before every call ×1.54-1.59; load
 * 5-7, 2026-12-03). The back-to-back p50 (blocks of 20) is still printed, without a target.
 *
 * `--profile DIR` runs the proxy under `node --cpu-prof`, its profiles written to DIR.
 *
 *   node --expose-gc dist/bench/http-upstream.bench.js [--scale F] [--rounds N] [--profile DIR]
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { Agent, request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HttpUpstream } from "../lib/transport/http/http-upstream.js";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, "../..");
const ECHO = join(ROOT, "dist/fixtures/http/echo-server.js");
const PROXY = join(ROOT, "dist/lib/cli/stretto-proxy.js");
const HOP = join(ROOT, "dist/bench/http-upstream-hop.js");
const MCP_REMOTE = join(ROOT, "node_modules/mcp-remote/dist/proxy.js");
const SUPERGATEWAY = join(ROOT, "node_modules/supergateway/dist/index.js");

const TARGET = { throughput: 0.9, p50: 1.3, vsRemote: 8 };
const options = parseArgs(process.argv.slice(2));
const SEQ = Math.max(50, Math.round(2000 * options.scale));
/** Sequential calls with think time per configuration and round (each takes THINK_MS more). */
const THINKING = Math.max(50, Math.round(1000 * options.scale));
/** The pause before each call with think time: past the few hundred µs a CPU polls before it idles. */
const THINK_MS = 2;
const PIPELINED = Math.max(100, Math.round(5000 * options.scale));
const WARMUP_SEQ = Math.max(20, Math.round(300 * options.scale));
const WARMUP_PIPELINED = Math.max(50, Math.round(1000 * options.scale));
/** The bridges are much slower; they get fewer requests so the run stays short. */
const REMOTE_SHARE = 0.25;

const tmp = mkdtempSync(join(tmpdir(), "stretto-http-bench-"));
const children = new Set<ChildProcessWithoutNullStreams>();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const out = (line = "") => process.stdout.write(`${line}\n`);

function parseArgs(argv: string[]): { scale: number; rounds: number; profile: string | undefined } {
  const o: { scale: number; rounds: number; profile: string | undefined } = { scale: 1, rounds: 3, profile: undefined };
  for (let i = 0; i < argv.length; i += 2) {
    const v = Number(argv[i + 1]);
    if (argv[i] === "--scale" && v > 0) o.scale = v;
    else if (argv[i] === "--rounds" && Number.isInteger(v) && v > 0) o.rounds = v;
    else if (argv[i] === "--profile" && argv[i + 1] !== undefined) o.profile = resolve(argv[i + 1]!);
    else {
      process.stderr.write("usage: http-upstream.bench.js [--scale F] [--rounds N] [--profile DIR]\n");
      process.exit(2);
    }
  }
  return o;
}

function cleanUp(): void {
  for (const c of children) c.kill("SIGKILL");
  children.clear();
  rmSync(tmp, { recursive: true, force: true });
}
process.on("exit", cleanUp);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(sig, () => {
    cleanUp();
    process.exit(130);
  });
}

function spawnTracked(args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"], env });
  children.add(child);
  child.once("exit", () => children.delete(child));
  child.stderr.resume();
  child.stdin.on("error", () => {});
  return child;
}

// ---- messages ----------------------------------------------------------------------------

const INITIALIZE = (id: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
  });
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
const CALL = (id: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"lookup","arguments":{"text":"a short question about an order","n":${id}}}}`;

// ---- the drivers -------------------------------------------------------------------------

interface Driver {
  /** Sends one request and resolves when its answer is in. */
  call(id: number): Promise<void>;
  /** Sends `ids` at once; resolves when every answer is in. */
  pipelined(ids: number[]): Promise<void>;
  close(): Promise<void>;
}

/** The floor: node:http straight to the server, keep-alive, at most 64 sockets (as the proxy). */
class FloorDriver implements Driver {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private session = "";
  private readonly url: URL;

  constructor(url: string) {
    this.url = new URL(url);
  }

  static async start(url: string): Promise<{ driver: FloorDriver; startMs: number }> {
    const t0 = performance.now();
    const d = new FloorDriver(url);
    await d.post(INITIALIZE(0), true);
    const startMs = performance.now() - t0;
    await d.post(INITIALIZED, false);
    return { driver: d, startMs };
  }

  private post(body: string, isInit = false): Promise<void> {
    return new Promise((resolvePost, reject) => {
      const headers: Record<string, string | number> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": Buffer.byteLength(body),
      };
      if (this.session !== "") {
        headers["mcp-session-id"] = this.session;
        headers["mcp-protocol-version"] = "2025-06-18";
      }
      const req = httpRequest(this.url, { method: "POST", agent: this.agent, headers }, (res) => {
        if (isInit) this.session = String(res.headers["mcp-session-id"] ?? "");
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          Buffer.concat(chunks); // the floor reads the answer whole, as a host would
          resolvePost();
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  call(id: number): Promise<void> {
    return this.post(CALL(id));
  }

  async pipelined(ids: number[]): Promise<void> {
    await Promise.all(ids.map((id) => this.post(CALL(id))));
  }

  close(): Promise<void> {
    this.agent.destroy();
    return Promise.resolve();
  }
}

/** Bridges being closed by the run (their exit is expected). */
const closing = new WeakSet<ChildProcessWithoutNullStreams>();

/** Where a host's lines go and its answers come from, and how that ends. */
interface LinePeer {
  input: Writable;
  output: Readable;
  close(): Promise<void>;
}

/** A host writing lines and reading answers: on a bridge's stdio, or on the HTTP transport itself. */
class LineDriver implements Driver {
  private pending = "";
  private readonly waiting = new Map<number, () => void>();

  private constructor(private readonly peer: LinePeer) {
    peer.output.setEncoding("utf8");
    peer.output.on("data", (text: string) => {
      const parts = (this.pending + text).split("\n");
      this.pending = parts.pop()!;
      for (const line of parts) {
        const m = /^\{"jsonrpc":"2\.0","id":(\d+),/.exec(line) ?? /"id":(\d+)[,}]/.exec(line);
        if (m === null) continue;
        const done = this.waiting.get(Number(m[1]));
        if (done) {
          this.waiting.delete(Number(m[1]));
          done();
        }
      }
    });
  }

  /** A bridge (stretto-proxy, mcp-remote, supergateway) as a process; the host is on its stdio. */
  static spawn(args: string[], env?: NodeJS.ProcessEnv): Promise<{ driver: LineDriver; startMs: number }> {
    const t0 = performance.now();
    const child = spawnTracked(args, env);
    // A bridge that dies with answers outstanding would leave the run waiting for ever.
    child.once("exit", (code, signal) => {
      if (!closing.has(child)) {
        process.stderr.write(`http-upstream bench: ${args[0]} exited (${code ?? signal}) before the run was done\n`);
        process.exit(1);
      }
    });
    const peer: LinePeer = {
      input: child.stdin,
      output: child.stdout,
      close: () =>
        new Promise((r) => {
          closing.add(child);
          child.once("exit", () => r());
          child.stdin.end();
          setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
        }),
    };
    return LineDriver.begin(peer, t0);
  }

  /** The proxy's HTTP transport in this process: no stdio, no bus, the host on its input and output. */
  static inProcess(url: string): Promise<{ driver: LineDriver; startMs: number }> {
    const t0 = performance.now();
    const upstream = new HttpUpstream({ url, report: (m) => process.stderr.write(`transport: ${m}\n`) });
    const peer: LinePeer = {
      input: upstream.input,
      output: upstream.output,
      close: async () => {
        upstream.input.end();
        await upstream.exited;
      },
    };
    return LineDriver.begin(peer, t0);
  }

  private static async begin(peer: LinePeer, t0: number): Promise<{ driver: LineDriver; startMs: number }> {
    const d = new LineDriver(peer);
    await d.send([0], [INITIALIZE(0)]);
    const startMs = performance.now() - t0;
    peer.input.write(`${INITIALIZED}\n`);
    return { driver: d, startMs };
  }

  private send(ids: number[], lines: string[]): Promise<void> {
    const answered = Promise.all(ids.map((id) => new Promise<void>((r) => this.waiting.set(id, r))));
    this.peer.input.write(`${lines.join("\n")}\n`);
    return answered.then(() => undefined);
  }

  call(id: number): Promise<void> {
    return this.send([id], [CALL(id)]);
  }

  pipelined(ids: number[]): Promise<void> {
    return this.send(ids, ids.map(CALL));
  }

  close(): Promise<void> {
    return this.peer.close();
  }
}

// ---- measuring -----------------------------------------------------------------------------

interface Config {
  name: string;
  share: number;
  start: (url: string) => Promise<{ driver: Driver; startMs: number }>;
}

const CONFIGS: Config[] = [
  { name: "floor (node:http)", share: 1, start: (url) => FloorDriver.start(url) },
  {
    name: "stretto-proxy",
    share: 1,
    start: (url) =>
      LineDriver.spawn([...(options.profile === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", options.profile]), PROXY, "--upstream", url]),
  },
  { name: "bare stdio hop", share: 1, start: (url) => LineDriver.spawn([HOP, url]) },
  { name: "transport in-process", share: 1, start: (url) => LineDriver.inProcess(url) },
  {
    name: "mcp-remote",
    share: REMOTE_SHARE,
    start: (url) =>
      LineDriver.spawn([MCP_REMOTE, url, "--transport", "http-only", "--silent"], {
        ...process.env,
        MCP_REMOTE_CONFIG_DIR: join(tmp, "mcp-remote"),
      }),
  },
  {
    name: "supergateway",
    share: REMOTE_SHARE,
    start: (url) => LineDriver.spawn([SUPERGATEWAY, "--streamableHttp", url, "--outputTransport", "stdio", "--logLevel", "none"]),
  },
];

interface Figures {
  startMs: number[];
  /** Sequential calls back to back (in blocks). */
  latenciesUs: number[];
  /** Sequential calls each after a pause (THINK_MS). */
  thinkingUs: number[];
  msgsPerS: number[];
}

let nextId = 1;
const ids = (n: number) => Array.from({ length: n }, () => nextId++);

/** Sequential calls one configuration makes before the next takes its turn. */
const BLOCK = 20;

interface Live {
  config: Config;
  driver: Driver;
  into: Figures;
  /** Sequential calls still to make this round, back to back and with think time. */
  seqLeft: number;
  thinkLeft: number;
}

/** Starts a configuration and warms it up. */
async function start(config: Config, url: string, into: Figures): Promise<Live> {
  const { driver, startMs } = await config.start(url);
  into.startMs.push(startMs);
  for (const id of ids(Math.round(WARMUP_SEQ * config.share))) await driver.call(id);
  await driver.pipelined(ids(Math.round(WARMUP_PIPELINED * config.share)));
  return {
    config,
    driver,
    into,
    seqLeft: Math.max(20, Math.round(SEQ * config.share)),
    thinkLeft: Math.max(20, Math.round(THINKING * config.share)),
  };
}

/**
 * Requests one at a time, every configuration alive at once taking turns of BLOCK calls
 * (the bridges, with a quarter of the calls, every fourth turn), so that a burst of load
 * from elsewhere falls on the floor and the proxy alike rather than on whichever was
 * being measured at the time.
 */
async function sequential(lives: Live[]): Promise<void> {
  gc();
  for (let turn = 0; lives.some((l) => l.seqLeft > 0); turn++) {
    for (const live of lives) {
      if (live.seqLeft === 0 || turn % Math.round(1 / live.config.share) !== 0) continue;
      const n = Math.min(BLOCK, live.seqLeft);
      live.seqLeft -= n;
      for (const id of ids(n)) {
        const t = process.hrtime.bigint();
        await live.driver.call(id);
        live.into.latenciesUs.push(Number(process.hrtime.bigint() - t) / 1000);
      }
    }
  }
}

/**
 * Requests one at a time as a host sends them, with think time: every configuration alive,
 * taking turns call by call (the bridges every fourth turn), each call THINK_MS after the
 * last answer, so every process on its path is asleep when it comes, the floor's server as
 * much as the proxy.
 */
async function thinking(lives: Live[]): Promise<void> {
  gc();
  for (let turn = 0; lives.some((l) => l.thinkLeft > 0); turn++) {
    for (const live of lives) {
      if (live.thinkLeft === 0 || turn % Math.round(1 / live.config.share) !== 0) continue;
      live.thinkLeft--;
      await new Promise((r) => setTimeout(r, THINK_MS));
      const t = process.hrtime.bigint();
      await live.driver.call(nextId++);
      live.into.thinkingUs.push(Number(process.hrtime.bigint() - t) / 1000);
    }
  }
}

/** Pipelined requests: all written at once, one configuration at a time. */
async function pipelined(live: Live): Promise<void> {
  const pipe = Math.max(50, Math.round(PIPELINED * live.config.share));
  gc();
  const batch = ids(pipe);
  const t = performance.now();
  await live.driver.pipelined(batch);
  live.into.msgsPerS.push(pipe / ((performance.now() - t) / 1000));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}
const median = (values: number[]) => percentile(values, 0.5);

async function main(): Promise<void> {
  const echo = spawnTracked([ECHO]);
  const url = await new Promise<string>((r) => {
    echo.stdout.setEncoding("utf8");
    echo.stdout.once("data", (text: string) => r(text.split("\n")[0]!));
  });
  out(
    `http upstream: ${THINKING} sequential with ${THINK_MS} ms think time, ${SEQ} back to back and ${PIPELINED} pipelined tools/call per round ` +
      `(mcp-remote and supergateway ×${REMOTE_SHARE}), ${options.rounds} rounds`,
  );
  out(`node ${process.version}, ${cpus().length} cpus, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}; server ${url}`);

  const figures = new Map<string, Figures>(CONFIGS.map((c) => [c.name, { startMs: [], latenciesUs: [], thinkingUs: [], msgsPerS: [] }]));
  for (let round = 0; round < options.rounds; round++) {
    const order = CONFIGS.map((_, i) => CONFIGS[(i + round) % CONFIGS.length]!);
    const lives: Live[] = [];
    for (const config of order) lives.push(await start(config, url, figures.get(config.name)!));
    await thinking(lives);
    await sequential(lives);
    for (const live of lives) await pipelined(live);
    for (const live of lives) await live.driver.close();
  }

  /** `p50`/`p99`: calls with think time (the target's); `b2b`: back to back. */
  type Row = { name: string; start: number; p50: number; p99: number; b2bP50: number; b2bP99: number; rate: number };
  const rows: Row[] = CONFIGS.map((c) => {
    const f = figures.get(c.name)!;
    return {
      name: c.name,
      start: median(f.startMs),
      p50: median(f.thinkingUs),
      p99: percentile(f.thinkingUs, 0.99),
      b2bP50: median(f.latenciesUs),
      b2bP99: percentile(f.latenciesUs, 0.99),
      rate: median(f.msgsPerS),
    };
  });
  const [floor, proxy, hop, inProcess, remote, gateway] = rows as [Row, Row, Row, Row, Row, Row];
  out();
  out(
    `${"configuration".padEnd(22)}${"start ms".padStart(10)}${"seq p50 µs".padStart(12)}${"seq p99 µs".padStart(12)}` +
      `${"b2b p50 µs".padStart(12)}${"b2b p99 µs".padStart(12)}${"pipelined msg/s".padStart(17)}`,
  );
  for (const r of rows) {
    out(
      `${r.name.padEnd(22)}${r.start.toFixed(1).padStart(10)}${r.p50.toFixed(0).padStart(12)}${r.p99.toFixed(0).padStart(12)}` +
        `${r.b2bP50.toFixed(0).padStart(12)}${r.b2bP99.toFixed(0).padStart(12)}${r.rate.toFixed(0).padStart(17)}`,
    );
  }
  out(`seq: one call at a time, ${THINK_MS} ms after the last answer; b2b: back to back, in blocks of ${BLOCK} per configuration`);
  out(`load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  out();
  const target = (what: string, ratio: number, ok: boolean, goal: string) =>
    out(`${ok ? "PASS" : "MISS"}  ${what.padEnd(44)} ×${ratio.toFixed(2)}  (target ${goal})`);
  const tp = proxy.rate / floor.rate;
  const p50 = proxy.p50 / floor.p50;
  const vsRemote = proxy.rate / remote.rate;
  target("--upstream throughput / direct node:http", tp, tp >= TARGET.throughput, `≥ ${TARGET.throughput}`);
  target("--upstream seq p50 / direct node:http", p50, p50 <= TARGET.p50, `≤ ${TARGET.p50}`);
  target("--upstream throughput / mcp-remote", vsRemote, vsRemote >= TARGET.vsRemote, `≥ ${TARGET.vsRemote}`);
  out();
  out(
    `stretto-proxy back to back / direct node:http: seq p50 ×${(proxy.b2bP50 / floor.b2bP50).toFixed(2)} (no target; a host's calls come with think time)`,
  );
  out(
    `the bare stdio hop / direct node:http: seq p50 ×${(hop.p50 / floor.p50).toFixed(2)}, back to back ×${(hop.b2bP50 / floor.b2bP50).toFixed(2)}, ` +
      `throughput ×${(hop.rate / floor.rate).toFixed(2)}; stretto-proxy / the bare hop: seq p50 ×${(proxy.p50 / hop.p50).toFixed(2)}`,
  );
  out(`the HTTP transport in-process (no stdio, no bus) / direct node:http: seq p50 ×${(inProcess.p50 / floor.p50).toFixed(2)}, throughput ×${(inProcess.rate / floor.rate).toFixed(2)}`);
  for (const [other, r] of [["direct node:http", floor], ["mcp-remote", remote], ["supergateway", gateway]] as const) {
    out(`stretto-proxy / ${other}: throughput ×${(proxy.rate / r.rate).toFixed(2)}, seq p50 ×${(proxy.p50 / r.p50).toFixed(2)}, p99 ×${(proxy.p99 / r.p99).toFixed(2)}, start ×${(proxy.start / r.start).toFixed(2)}`);
  }
  echo.kill("SIGTERM");
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`http-upstream bench: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
