/**
 * A listener that records many sessions writes every log on one thread: sessions opened
 * together by the SDK's Streamable HTTP client, each calling at once, each log holding
 * exactly its own session's lines, and the proxy gaining no thread per session (a thread
 * each cost about 11 MiB a session: docs/listen.md). Threads are counted in
 * `/proc/<pid>/status`, so this runs on Linux only.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DEMO, NODE, cleanTemp, killAll, readLogLines, sessionLogs, tempDir } from "../helpers/processes.js";
import { Listening } from "./support.js";

const SESSIONS = 8;
const CALLS = 3;

function threadsOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^Threads:\s+(\d+)$/m.exec(status)![1]);
}

describe("listen: recorded sessions share one writer thread", function () {
  before(function () {
    if (!existsSync("/proc/self/status")) this.skip();
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  it(`records ${SESSIONS} sessions calling at once, each log its own, with no thread per session`, async function () {
    const logs = tempDir();
    const proxy = await Listening.start(["--record", logs, "--", NODE, DEMO]);
    const connect = async (): Promise<Client> => {
      const client = new Client({ name: "spec-host", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
      return client;
    };
    const calls = (client: Client, n: number) =>
      Promise.all(Array.from({ length: CALLS }, (_, k) => client.callTool({ name: "lookup", arguments: { q: `session ${n} call ${k}` } })));

    const first = await connect();
    await calls(first, 0);
    const oneSession = threadsOf(proxy.child.pid!);
    const clients = [first, ...(await Promise.all(Array.from({ length: SESSIONS - 1 }, connect)))];
    await Promise.all(clients.slice(1).map((c, i) => calls(c, i + 1)));
    const allSessions = threadsOf(proxy.child.pid!);
    // A thread per session would add SESSIONS − 1; libuv's pool, if it starts meanwhile, adds 4.
    assert.ok(allSessions - oneSession < SESSIONS - 1, `threads: ${oneSession} with one session, ${allSessions} with ${SESSIONS}`);

    for (const c of clients) await c.close();
    assert.equal(await proxy.stop(), 0);
    const written = sessionLogs(logs);
    assert.equal(written.length, SESSIONS);
    const seen = new Set<number>();
    for (const path of written) {
      const { header, entries } = readLogLines(path);
      assert.equal(header["stretto_mcp_log"], 2, path);
      const asked = entries.flatMap((e) => [...e.matchAll(/session (\d+) call (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const));
      const sessions = new Set(asked.map(([n]) => n));
      assert.equal(sessions.size, 1, `${path} holds the calls of one session: ${[...sessions].join(", ")}`);
      const n = [...sessions][0]!;
      seen.add(n);
      // Each call is logged twice: the host's request and the server's answer echoing it.
      assert.deepEqual(
        asked.map(([, k]) => k).sort((a, b) => a - b),
        Array.from({ length: CALLS }, (_, k) => [k, k]).flat(),
        path,
      );
    }
    assert.equal(seen.size, SESSIONS);
  });

  it("stops recording only the session whose log cannot be written (ulimit -f), and serves both on", async function () {
    const logs = tempDir();
    // `ulimit -f 32` is 16 or 32 KiB depending on the shell: one 64 KiB call passes it.
    const proxy = await Listening.start(["--record", logs, "--", NODE, DEMO], process.env, "ulimit -f 32");
    const connect = async (): Promise<Client> => {
      const client = new Client({ name: "spec-host", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
      return client;
    };
    const [big, small] = [await connect(), await connect()];
    await big.callTool({ name: "lookup", arguments: { q: "x".repeat(64 * 1024) } });
    await proxy.said(/recording stopped: writing \S+-1\.jsonl: .*(EFBIG|too large)/i);
    const again = await big.callTool({ name: "lookup", arguments: { q: "after" } });
    assert.match(JSON.stringify(again), /after/, "the session whose log failed is still served");
    for (let k = 0; k < CALLS; k++) await small.callTool({ name: "lookup", arguments: { q: `small ${k}` } });
    await big.close();
    await small.close();
    assert.equal(await proxy.stop(), 0);
    assert.equal((proxy.stderr.match(/recording stopped/g) ?? []).length, 1, proxy.stderr);
    const smallLog = sessionLogs(logs).find((p) => p.endsWith("-2.jsonl"))!;
    const { entries } = readLogLines(smallLog);
    const asked = entries.flatMap((e) => [...e.matchAll(/small (\d+)/g)].map((m) => Number(m[1])));
    assert.deepEqual(asked.sort((a, b) => a - b), Array.from({ length: CALLS }, (_, k) => [k, k]).flat(), "the other session's log is whole");
  });
});
