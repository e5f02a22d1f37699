#!/usr/bin/env node
/**
 * How live a followed session is: the time from a line's append to a session log until the
 * console's follow stream (GET /api/sessions/{key}/follow) delivers it. A writer process
 * appends a line every 50 ms, each carrying the time it was written (performance.timeOrigin +
 * performance.now(), comparable across processes on one machine); this process runs the
 * console and reads the stream, and prints p50, p95 and the worst delay.
 *
 * usage: node dist/scripts/console-live-delay.js [--lines N]   (default 100)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createParser } from "eventsource-parser";
import { startConsole } from "../lib/console/server.js";

const LINES = process.argv[2] === "--lines" ? Number(process.argv[3]) : 100;
const now = () => performance.timeOrigin + performance.now();

const WRITER = `
const { appendFileSync } = require("node:fs");
const { performance } = require("node:perf_hooks");
const [path, n] = [process.argv[1], Number(process.argv[2])];
let i = 0;
const t = setInterval(() => {
  const at = performance.timeOrigin + performance.now();
  appendFileSync(path, JSON.stringify({ t_ms: i, from: "client", message: { jsonrpc: "2.0", method: "ping", id: i, params: { at } } }) + "\\n");
  if (++i === n) clearInterval(t);
}, 50);
`;

async function main(): Promise<void> {
  const data = mkdtempSync(join(tmpdir(), "stretto-live-delay-"));
  const session = "20260101T000000.000Z-1";
  const log = join(data, `${session}.jsonl`);
  writeFileSync(log, `${JSON.stringify({ stretto_mcp_log: 2, session, started_unix_ms: Date.now(), server_command: ["x"], domain: "bench", agent_model: null })}\n`);
  const c = await startConsole({ data, host: "127.0.0.1", port: 0, token: undefined, readOnly: true, version: "bench", home: undefined, env: {}, exe: undefined, stretto: undefined });
  const delays: number[] = [];
  try {
    const abort = new AbortController();
    const res = await fetch(`http://127.0.0.1:${c.address.port}/api/sessions/${session}/follow`, { signal: abort.signal });
    const done = new Promise<void>((resolve) => {
      const parser = createParser({
        onEvent: (e) => {
          if (e.event !== "line") return;
          const arrived = now();
          const { line } = JSON.parse(e.data) as { line: string };
          const at = (JSON.parse(line) as { message: { params: { at: number } } }).message.params.at;
          delays.push(arrived - at);
          if (delays.length === LINES) resolve();
        },
      });
      void (async () => {
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        try {
          for (;;) {
            const { done: end, value } = await reader.read();
            if (end) break;
            parser.feed(Buffer.from(value).toString("utf8"));
          }
        } catch {
          // Aborted at the end.
        }
      })();
    });
    const writer = spawn(process.execPath, ["-e", WRITER, log, String(LINES)], { stdio: "inherit" });
    await done;
    abort.abort();
    writer.kill();
  } finally {
    await c.stop();
    rmSync(data, { recursive: true, force: true });
  }
  delays.sort((a, b) => a - b);
  const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]!.toFixed(1);
  process.stdout.write(`${LINES} lines: write → follow event p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, worst ${delays[delays.length - 1]!.toFixed(1)} ms (load ${loadavg()[0]!.toFixed(1)})\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`console-live-delay: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
