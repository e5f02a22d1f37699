/**
 * The `--listen` benchmark (docs/listen.md, "Benchmark"): what a host over HTTP gets from
 * `stretto-proxy --listen` in front of a stdio server, against the same host talking to a
 * server built as the MCP SDK's Streamable HTTP example is (`simpleStreamableHttp`: one
 * `StreamableHTTPServerTransport` per session, event streams, random session ids) doing the
 * same work, in the same run.
 *
 * The work is the demo's echo tool: `lookup` answers with its arguments as JSON text. Behind
 * the proxy it is `stretto-mcp-demo` (stdio, a process per session); the reference serves
 * the same tool from an `McpServer` in one process (this file, run with `--reference`).
 * The host is the SDK's `Client` on `StreamableHTTPClientTransport` for both.
 *
 * Figures: `tools/call` one at a time (p50/p99 of the round trip), and with 16 in flight
 * (calls per second); then 64 sessions opened one by one, at 1, 16, 32 and 64 sessions the
 * p99 of a round of calls on every session at once, and the RSS (the proxy alone, and with
 * its servers; the reference's one process; and the proxy alone with `--record`, its
 * sessions' logs written by one thread). Targets, printed PASS/MISS (a miss never fails
 * the process): throughput ≥ 1× the reference's, p99 ≤ 1.5× its p99.
 *
 *   node --expose-gc dist/bench/listen.bench.js [--scale F]
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { setMaxListeners } from "node:events";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, "../..");
const PROXY = join(ROOT, "dist/lib/cli/stretto-proxy.js");
const DEMO = join(ROOT, "dist/lib/cli/stretto-mcp-demo.js");
const TARGET = { throughput: 1, p99: 1.5 };
const SESSION_STEPS = [1, 16, 32, 64];

const out = (line = "") => process.stdout.write(`${line}\n`);
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL");
});

// ---- the reference: the SDK's Streamable HTTP example, serving the demo's echo tool --------

function serveReference(): void {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const server = createServer((req, res) => {
    void (async () => {
      const sid = req.headers["mcp-session-id"];
      const body: unknown = req.method === "POST" ? JSON.parse(await text(req)) : undefined;
      let transport = typeof sid === "string" ? transports.get(sid) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void transports.set(id, transport!),
        });
        const mcp = new McpServer({ name: "sdk-reference", version: "1.0.0" });
        mcp.registerTool("lookup", { description: "Look something up.", inputSchema: { text: z.string().optional(), n: z.number().optional() } }, (args) => ({
          content: [{ type: "text", text: JSON.stringify(args) }],
        }));
        await mcp.connect(transport);
      }
      await transport.handleRequest(req, res, body);
    })().catch(() => res.writeHead(500).end());
  });
  server.listen(0, "127.0.0.1", () => {
    const a = server.address() as { port: number };
    process.stdout.write(`http://127.0.0.1:${a.port}/mcp\n`);
  });
}

function text(req: IncomingMessage): Promise<string> {
  return new Promise((r) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => r(Buffer.concat(chunks).toString("utf8")));
  });
}

// ---- the host ------------------------------------------------------------------------------

async function host(url: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

let n = 0;
async function call(client: Client): Promise<number> {
  const t0 = performance.now();
  await client.callTool({ name: "lookup", arguments: { text: "a short question about an order", n: ++n } });
  return performance.now() - t0;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

function startUrl(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  children.add(child);
  return new Promise((resolveUrl) => {
    let buf = "";
    child.stdout.on("data", (c: Buffer) => {
      buf += c.toString();
      if (buf.includes("\n")) resolveUrl({ child, url: buf.split("\n")[0]! });
    });
  });
}

/** RSS in MiB of a process, and of it with its children (the proxy's servers). */
function rss(pid: number): { self: number; tree: number } {
  const kb = (p: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
  let kids: number[] = [];
  try {
    kids = execFileSync("pgrep", ["-P", String(pid)]).toString().trim().split("\n").filter(Boolean).map(Number);
  } catch {
    // no children
  }
  const self = kb(pid);
  return { self: self / 1024, tree: (self + kids.reduce((s, k) => s + kb(k), 0)) / 1024 };
}

interface Figures {
  p50: number;
  p99: number;
  perSecond: number;
  sessions: Array<{ n: number; p99: number; rss: { self: number; tree: number } }>;
}

async function measure(url: string, pid: number, scale: number): Promise<Figures> {
  const sequential = Math.round(400 * scale);
  const concurrent = Math.round(2000 * scale);
  const client = await host(url);
  for (let i = 0; i < 50; i++) await call(client); // warm-up
  const times: number[] = [];
  for (let i = 0; i < sequential; i++) times.push(await call(client));
  const t0 = performance.now();
  let left = concurrent;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left-- > 0) await call(client);
    }),
  );
  const perSecond = concurrent / ((performance.now() - t0) / 1000);
  const sessions = await measureSessions(url, pid, client);
  return { p50: pct(times, 50), p99: pct(times, 99), perSecond, sessions };
}

/** Sessions opened one by one up to 64: at each step, a round of calls on every session at once, and the RSS. */
async function measureSessions(url: string, pid: number, first?: Client): Promise<Figures["sessions"]> {
  const clients = [first ?? (await host(url))];
  const sessions: Figures["sessions"] = [];
  for (const step of SESSION_STEPS) {
    while (clients.length < step) clients.push(await host(url));
    const round: number[] = [];
    for (let r = 0; r < 3; r++) round.push(...(await Promise.all(clients.map((c) => call(c)))));
    sessions.push({ n: step, p99: pct(round, 99), rss: rss(pid) });
  }
  await Promise.all(clients.map((c) => c.close()));
  return sessions;
}

async function main(): Promise<void> {
  // The SDK's client adds an abort listener per request to one signal: thousands of calls
  // on one client would each warn.
  setMaxListeners(0);
  const scaleAt = process.argv.indexOf("--scale");
  const scale = scaleAt === -1 ? 1 : Number(process.argv[scaleAt + 1]) || 1;
  out(`load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}; scale ${scale}`);
  const reference = await startUrl([fileURLToPath(import.meta.url), "--reference"]);
  const proxy = await startUrl([PROXY, "--listen", "127.0.0.1:0", "--", process.execPath, DEMO]);
  const ref = await measure(reference.url, reference.child.pid!, scale);
  const via = await measure(proxy.url, proxy.child.pid!, scale);
  // The same sessions recorded: every log is written by the proxy's one writer thread.
  const logs = mkdtempSync(join(tmpdir(), "stretto-listen-bench-"));
  const recording = await startUrl([PROXY, "--listen", "127.0.0.1:0", "--record", logs, "--", process.execPath, DEMO]);
  const recorded = await measureSessions(recording.url, recording.child.pid!);
  recording.child.kill("SIGTERM");
  const row = (name: string, f: Figures) =>
    out(`${name.padEnd(34)} ${f.p50.toFixed(2).padStart(7)} ${f.p99.toFixed(2).padStart(7)} ${f.perSecond.toFixed(0).padStart(9)}`);
  out(`${"tools/call".padEnd(34)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"calls/s".padStart(9)}`);
  row("SDK Streamable HTTP example", ref);
  row("stretto-proxy --listen + stdio", via);
  out();
  out(`${"sessions".padEnd(9)} ${"ref p99".padStart(8)} ${"ref RSS".padStart(8)} ${"proxy p99".padStart(10)} ${"proxy RSS".padStart(10)} ${"+servers".padStart(9)} ${"--record RSS".padStart(13)}`);
  for (const [i, s] of via.sessions.entries()) {
    const r = ref.sessions[i]!;
    const rec = recorded[i]!;
    out(`${String(s.n).padEnd(9)} ${r.p99.toFixed(2).padStart(8)} ${r.rss.self.toFixed(0).padStart(7)}M ${s.p99.toFixed(2).padStart(10)} ${s.rss.self.toFixed(0).padStart(9)}M ${s.rss.tree.toFixed(0).padStart(8)}M ${rec.rss.self.toFixed(0).padStart(12)}M`);
  }
  out();
  const verdict = (what: string, ratio: number, ok: boolean, goal: string) => out(`${ok ? "PASS" : "MISS"}  ${what.padEnd(40)} ×${ratio.toFixed(2)}  (target ${goal})`);
  verdict("throughput vs the SDK server", via.perSecond / ref.perSecond, via.perSecond >= TARGET.throughput * ref.perSecond, "≥ 1×");
  verdict("p99 vs the SDK server", via.p99 / ref.p99, via.p99 <= TARGET.p99 * ref.p99, "≤ 1.5×");
  const last = via.sessions.at(-1)!;
  const lastRef = ref.sessions.at(-1)!;
  verdict("p99 at 64 sessions vs the SDK server", last.p99 / lastRef.p99, last.p99 <= TARGET.p99 * lastRef.p99, "≤ 1.5×");
  proxy.child.kill("SIGTERM");
  reference.child.kill("SIGTERM");
  rmSync(logs, { recursive: true, force: true });
}

if (process.argv.includes("--reference")) serveReference();
else
  void main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
