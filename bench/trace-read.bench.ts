/**
 * Reading recorded sessions into Episodes. A generated log of 1 M lines (calls in parallel
 * and one after another, results the size of τ²-bench retail's, progress notifications, raw
 * lines, the conversation) is read as the library reads it (streamed, split on `\n`, every
 * entry ajv-checked, turns inferred) and compared with the floor: the same bytes split the
 * same way, each line only `JSON.parse`d. The same 1 M lines are also read as a folder of
 * 1 000 sessions, as `stretto episodes` reads one. Each measurement runs in a fresh child
 * process, so its peak RSS is its own; each is the median of three. One more reading of the
 * one log keeps each result's text and nothing else: what any Episode held in memory costs
 * at the least, which says how much of `readEpisode`'s ratio is the keeping. Targets: `readEpisode`
 * ≤ 1.5× the floor (wall), `folderEpisodes` ≤ 2×; each printed PASS or MISS. What the bench
 * says about an episode (turns, calls) is counted after the clock stops.
 *
 *   node dist/bench/trace-read.bench.js [lines]      (default 1000000)
 */
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { folderEpisodes, forEachLine, outcome, planFolder, readEpisode, responseId, streamLog, toolCalls, type Json } from "../lib/trace/index.js";

/** `readEpisode` against the floor (the performance issue's target), and a folder read one episode at a time. */
const TARGETS = { readEpisode: 1.5, folderEpisodes: 2 };
const ROUNDS = 3;
const FOLDER_SESSIONS = 1000;
const self = fileURLToPath(import.meta.url);

type Phase = "floor" | "stream" | "texts" | "episode" | "folder-floor" | "folder";
interface Measurement {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  detail: string;
}

if (process.argv[2] === "--measure") {
  const m = await measure(process.argv[3] as Phase, process.argv[4]!);
  process.stdout.write(JSON.stringify(m) + "\n");
} else {
  await runBench(Number(process.argv[2] ?? 1_000_000));
}

async function measure(phase: Phase, path: string): Promise<Measurement> {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  let detail = "";
  let describe = (): string => detail;
  const parseAll = async (file: string): Promise<number> => {
    let values = 0;
    await forEachLine(file, (_n, text) => {
      if (JSON.parse(text) !== null) values++;
    });
    return values;
  };
  if (phase === "floor") detail = `${await parseAll(path)} values`;
  else if (phase === "folder-floor") {
    let values = 0;
    for (const f of await readdir(path)) values += await parseAll(join(path, f));
    detail = `${values} values`;
  } else if (phase === "stream") {
    let entries = 0;
    await streamLog(path, { entry: () => void entries++ });
    detail = `${entries} entries`;
  } else if (phase === "texts") {
    const texts: string[] = [];
    await forEachLine(path, (_n, text) => {
      const message = (JSON.parse(text) as { message?: Json }).message;
      if (message !== undefined && responseId(message) !== undefined) texts.push(outcome(message).content);
    });
    detail = `${texts.length} texts`;
  } else if (phase === "episode") {
    const ep = await readEpisode(path);
    describe = () => `1 episode: ${ep.events.filter((e) => e.kind === "assistant").length} turns, ${toolCalls(ep).length} calls`;
  } else {
    let episodes = 0;
    let calls = 0;
    for await (const ep of folderEpisodes(await planFolder(path))) {
      episodes++;
      for (const e of ep.events) if (e.kind === "assistant") calls += e.calls.length;
    }
    detail = `${episodes} episodes, ${calls} calls`;
  }
  const c = process.cpuUsage(c0);
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  return { wallMs, cpuMs: (c.user + c.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024, detail: describe() };
}

async function runBench(wanted: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "stretto-trace-bench-"));
  try {
    const path = join(dir, "session.jsonl");
    const folder = join(dir, "sessions");
    await mkdir(folder);
    const t0 = Date.now();
    const lines = await generate(path, wanted, 42);
    const perSession = Math.ceil(wanted / FOLDER_SESSIONS);
    for (let k = 0; k < FOLDER_SESSIONS; k++) {
      await generate(join(folder, `s${String(k).padStart(4, "0")}.jsonl`), perSession, 1000 + k, `task-${k}`);
    }
    const size = (await stat(path)).size;
    process.stdout.write(
      `generated ${lines.toLocaleString("en")} lines (${(size / 1e6).toFixed(0)} MB) as one log and as ${FOLDER_SESSIONS} logs, ` +
        `in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
    );
    const runs = new Map<Phase, Measurement[]>();
    const order: [Phase, string][] = [
      ["floor", path],
      ["stream", path],
      ["texts", path],
      ["episode", path],
      ["folder-floor", folder],
      ["folder", folder],
    ];
    for (let r = 0; r < ROUNDS; r++) {
      for (const [phase, input] of order) runs.set(phase, [...(runs.get(phase) ?? []), child(phase, input)]);
    }
    const m = (p: Phase): Measurement => median(runs.get(p)!);
    const rate = (x: Measurement): string => `${(lines / x.wallMs / 1000).toFixed(2)} M/s`;
    const ratio = (x: Measurement, floor: Measurement): string =>
      `${(x.wallMs / floor.wallMs).toFixed(2)}× (${(x.cpuMs / floor.cpuMs).toFixed(2)}×)`;
    const row = (label: string, x: Measurement, floor: Measurement): string[] => [
      label,
      `${x.wallMs.toFixed(0)} ms`,
      `${x.cpuMs.toFixed(0)} ms`,
      rate(x),
      `${x.maxRssMb.toFixed(0)} MB`,
      ratio(x, floor),
      x.detail,
    ];
    const table = [
      ["", "wall", "cpu", "lines/s", "peak RSS", "ratio wall (cpu)", ""],
      row("one log: JSON.parse each line (floor)", m("floor"), m("floor")),
      row("  streamLog: entries checked, none kept", m("stream"), m("floor")),
      row("  JSON.parse each line, each result's text kept", m("texts"), m("floor")),
      row("  readEpisode: the whole Episode", m("episode"), m("floor")),
      row(`${FOLDER_SESSIONS} logs: JSON.parse each line (floor)`, m("folder-floor"), m("folder-floor")),
      row("  folderEpisodes, one at a time", m("folder"), m("folder-floor")),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
    for (const r of table) {
      process.stdout.write(r.map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd() + "\n");
    }
    for (const [label, x, floor] of [
      ["readEpisode", m("episode"), m("floor")],
      ["folderEpisodes", m("folder"), m("folder-floor")],
    ] as const) {
      const r = x.wallMs / floor.wallMs;
      const target = TARGETS[label];
      process.stdout.write(
        `${label}: ${r.toFixed(2)}× the floor, cpu ${(x.cpuMs / floor.cpuMs).toFixed(2)}× (target ≤ ${target}×: ${r <= target ? "PASS" : "MISS"})\n`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function child(phase: Phase, input: string): Measurement {
  const r = spawnSync(process.execPath, [self, "--measure", phase, input], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${phase} failed (${r.status ?? r.signal}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Measurement;
}

function median(ms: Measurement[]): Measurement {
  return [...ms].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(ms.length / 2)]!;
}

/**
 * A session of about `total` lines: turns of one to three calls (some in parallel, some one
 * after another within 500 ms), each result after a progress notification, 0.6–2 s between
 * turns, now and then a raw line or what the user said. Returns how many lines it wrote.
 */
async function generate(path: string, total: number, seed: number, host = "task-1"): Promise<number> {
  const out = createWriteStream(path);
  const header = {
    stretto_mcp_log: 2,
    session: `20260923T212000.123Z-${seed}`,
    started_unix_ms: 1790198400123 + seed * 10_000_000,
    server_command: ["npx", "-y", "some-mcp-server"],
    domain: "retail",
    agent_model: null,
    host_session: host,
    server_name: "shop",
  };
  let buf = JSON.stringify(header) + "\n";
  let written = 1;
  let t = 0;
  let id = 0;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const line = (from: string, message: unknown): void => {
    buf += `{"t_ms":${t},"from":"${from}","message":${JSON.stringify(message)}}\n`;
    written++;
  };
  line("client", {
    jsonrpc: "2.0",
    id: id++,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-host", version: "1" } },
  });
  const tools = ["get_user_details", "get_order_details", "find_user_id_by_email", "cancel_pending_order"];
  while (written < total) {
    if (rand(20) === 0) {
      t += 3;
      line("context", { role: "user", content: `Please check order #W${rand(1000)} for user_${rand(500)}.` });
    }
    if (rand(50) === 0) {
      buf += `{"t_ms":${t},"from":"server","raw":"debug: cache warm (${rand(100)} entries)"}\n`;
      written++;
    }
    const calls = 1 + rand(3);
    const parallel = rand(2) === 0;
    const ids: number[] = [];
    for (let c = 0; c < calls; c++) {
      const callId = id++;
      const user = rand(500);
      const args = { user_id: `user_${user}`, order_id: `#W${user}${"abc"[rand(3)]}`, limit: rand(10) };
      line("client", { jsonrpc: "2.0", id: callId, method: "tools/call", params: { name: tools[rand(4)], arguments: args } });
      ids.push(callId);
      if (!parallel) {
        t += 5 + rand(40);
        answer(callId, user);
        t += 20 + rand(200);
        ids.pop();
      }
    }
    for (const callId of ids) {
      t += 5 + rand(40);
      answer(callId, rand(500));
    }
    t += 600 + rand(1400);
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, "drain");
      buf = "";
    }
  }
  out.end(buf);
  await once(out, "finish");
  return written;

  function answer(callId: number, user: number): void {
    line("server", { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: callId, progress: 1, total: 1 } });
    const text = JSON.stringify(rand(2) === 0 ? userDetails(user) : orderDetails(user));
    line("server", { jsonrpc: "2.0", id: callId, result: { content: [{ type: "text", text }], isError: false } });
  }
  // Answers the size and shape of τ²-bench retail's (a user ~550 bytes, an order ~1 KB).
  function userDetails(user: number): unknown {
    return {
      user_id: `user_${user}`,
      name: { first_name: "Anya", last_name: "Garcia" },
      address: { address1: `${rand(999)} Laurel Lane`, address2: `Suite ${rand(999)}`, city: "Philadelphia", country: "USA", state: "PA", zip: "19036" },
      email: `c${user}@example.com`,
      payment_methods: {
        [`gift_card_${user}`]: { source: "gift_card", id: `gift_card_${user}`, balance: rand(100) },
        [`credit_card_${user}`]: { source: "credit_card", id: `credit_card_${user}`, brand: "visa", last_four: String(1000 + rand(9000)) },
      },
      orders: [`#W${user}a`, `#W${user}b`, `#W${user}c`],
    };
  }
  function orderDetails(user: number): unknown {
    const item = (name: string): unknown => ({
      name,
      product_id: String(1e9 + rand(1e9)),
      item_id: String(1e9 + rand(1e9)),
      price: rand(50000) / 100,
      options: { color: "white", material: "glass", size: "medium" },
    });
    return {
      order_id: `#W${user}a`,
      user_id: `user_${user}`,
      address: { address1: "615 Laurel Lane", address2: "Suite 552", city: "Philadelphia", country: "USA", state: "PA", zip: "19036" },
      items: [item("E-Reader"), item("Bookshelf"), item("Bluetooth Speaker")],
      fulfillments: [{ tracking_id: [String(1e11 + rand(1e9))], item_ids: [String(1e9 + rand(1e9))] }],
      status: "pending",
      payment_history: [{ transaction_type: "payment", amount: rand(100000) / 100, payment_method_id: `credit_card_${user}` }],
    };
  }
}
