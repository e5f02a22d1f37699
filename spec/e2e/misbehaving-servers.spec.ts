/**
 * stretto-proxy in front of servers that misbehave (fixtures/servers/, one per behaviour),
 * and with hosts and disks that misbehave: the real binary, real pipes, real signals.
 * Every check is on exact bytes, exit codes, log contents or /proc; timeouts are only
 * safety nets, except where the behaviour itself is a bound (the 2 s + 2 s stop on a
 * signal, memory that must stay bounded).
 */
import { strict as assert } from "node:assert";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  HUGE_LINE_BYTES,
  INVALID_UTF8_LINES,
  NOISY_BANNER,
  STAYING_LINE,
  floodLine,
  halfAnswer,
  hugeAnswer,
  noiseAfter,
  noiseBefore,
} from "../../fixtures/servers/shared/payloads.js";
import {
  cleanTemp,
  fixtureServer,
  jsonLines,
  killAll,
  NODE,
  PROXY,
  readLogLines,
  run,
  runProxy,
  sessionLogs,
  start,
  tempDir,
} from "../helpers/processes.js";
import { exitOf, gather, groupMembers, isRunning, lineText, parseEntry, sleep, splitLines, until, vmRssKb, waitFor } from "../helpers/wire.js";

const GRACE_MS = 2000;
/** Room for process start-up and scheduling on a busy machine; not a speed requirement. */
const MARGIN_MS = 5000;

const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "spec", version: "0" } },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const toolsList = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
const toolsCall = (id: number, args: object = { text: "hi" }) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: args } });
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

/** The only session log in `dir`: path, header and entries (`{from, message|raw}`). */
function theLog(dir: string) {
  const logs = sessionLogs(dir);
  assert.equal(logs.length, 1, `one session log in ${dir}`);
  const { header, entries } = readLogLines(logs[0]!);
  const parsed = entries.map(parseEntry);
  for (let i = 1; i < parsed.length; i++) assert.ok(parsed[i]!.tMs >= parsed[i - 1]!.tMs, "t_ms never decreases");
  return {
    path: logs[0]!,
    header,
    entries: parsed.map((e) => (e.message !== undefined ? { from: e.from, message: e.message } : { from: e.from, raw: e.raw! })),
  };
}

/** How a well-formed JSON wire line is logged: its text as `message`. */
const msg = (from: string, line: Buffer | string) => ({ from, message: lineText(Buffer.from(line)) });
const raw = (from: string, text: string) => ({ from, raw: text });

/** stderr's lines from the proxy itself. */
const proxySaid = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("stretto-proxy:"));

/** The proxy in front of `server`, recording into `dir`, as a live process. */
function startProxy(dir: string, server: string[], env: NodeJS.ProcessEnv = process.env): ChildProcessWithoutNullStreams {
  const child = start(NODE, [PROXY, "--record", dir, "--", ...server], { env }) as ChildProcessWithoutNullStreams;
  child.stdin.on("error", () => {});
  return child;
}

/** The children of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The one child of `pid` (the proxy's server). */
function childOf(pid: number): number {
  const children = childrenOf(pid);
  assert.equal(children.length, 1, `one child of ${pid}`);
  return children[0]!;
}

/** How many bytes a process has written so far (/proc/<pid>/io `wchar`). */
function bytesWritten(pid: number): number | undefined {
  try {
    const m = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Counts a big file's lines without holding it, and returns its last line. */
function countLines(path: string): { count: number; last: string } {
  const fd = openSync(path, "r");
  const buf = Buffer.alloc(1 << 20);
  let count = 0;
  let tail = Buffer.alloc(0);
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const chunk = buf.subarray(0, n);
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) count++;
      tail = Buffer.concat([tail, chunk]).subarray(-8192);
    }
  } finally {
    closeSync(fd);
  }
  const lines = tail.toString("utf8").split("\n");
  return { count, last: lines[lines.length - 2]! };
}

function pgidOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

/**
 * Servers' process groups, SIGKILLed after each test: a server that ignores stdin EOF and
 * SIGTERM outlives a failed test (or a proxy bug) otherwise.
 */
const groups = new Set<number>();
function reapGroups(): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already empty
    }
  }
  groups.clear();
}

describe("e2e: misbehaving servers, hosts and disks", function () {
  this.timeout(30000);
  afterEach(reapGroups);
  after(() => {
    killAll();
    reapGroups();
    cleanTemp();
  });

  describe("noisy-stdout: banners and log lines on stdout", () => {
    const input = jsonLines(initialize(0), initialized, toolsList(1), toolsCall(2, { text: "hi" }));

    it("passes the noise through byte for byte and logs it as raw", async () => {
      const dir = tempDir();
      const direct = await run(NODE, [fixtureServer("noisy-stdout")], { input });
      const got = await runProxy(["--record", dir, "--", NODE, fixtureServer("noisy-stdout")], { input });
      assert.equal(got.code, 0);
      assert.equal(got.stdout.toString("hex"), direct.stdout.toString("hex"), "the host gets exactly the server's bytes");
      assert.ok(got.stdout.toString("utf8").startsWith(NOISY_BANNER));
      assert.ok(got.stdout.includes(noiseAfter(2)), "CRLF noise kept");

      const answers = splitLines(direct.stdout).filter((l) => l.subarray(0, 11).toString() === '{"jsonrpc":');
      assert.equal(answers.length, 3);
      const { path, entries } = theLog(dir);
      const served = (method: string, answer: Buffer, id: number) => [
        raw("server", lineText(Buffer.from(noiseBefore(method)))),
        msg("server", answer),
        raw("server", `DEBUG answered ${id}`),
        msg("server", '{"level":30,"msg":"answered"}'),
      ];
      const sent = splitLines(Buffer.from(input));
      assert.deepEqual(entries, [
        msg("client", sent[0]!),
        msg("client", sent[1]!),
        msg("client", sent[2]!),
        msg("client", sent[3]!),
        raw("server", "noisy-stdout 1.0 starting… (this line is not JSON)"),
        ...served("initialize", answers[0]!, 0),
        ...served("tools/list", answers[1]!, 1),
        ...served("tools/call", answers[2]!, 2),
      ]);
      assert.deepEqual(proxySaid(got.stderr), [`stretto-proxy: recording to ${path}`]);
    });

    it("lets the SDK client work through it (it skips the noise, as it does directly)", async () => {
      const dir = tempDir();
      const transport = new StdioClientTransport({
        command: NODE,
        args: [PROXY, "--record", dir, "--", NODE, fixtureServer("noisy-stdout")],
        env: getDefaultEnvironment(),
        stderr: "pipe",
      });
      transport.stderr!.on("data", () => {});
      const client = new Client({ name: "spec", version: "0" });
      const errors: Error[] = [];
      client.onerror = (e) => errors.push(e);
      try {
        await client.connect(transport);
        const tools = await client.listTools();
        assert.deepEqual(tools.tools.map((t) => t.name), ["echo"]);
        const result = await client.callTool({ name: "echo", arguments: { text: "through the noise" } });
        assert.deepEqual(result.content, [{ type: "text", text: '{"text":"through the noise"}' }]);
      } finally {
        await client.close();
      }
      assert.ok(errors.length > 0, "the noise reached the client (which reported and skipped it)");
      const { entries } = theLog(dir);
      assert.ok(entries.some((e) => e.raw === "noisy-stdout 1.0 starting… (this line is not JSON)"));
    });
  });

  it("crash-mid-call: forwards the half line, exits 1, and the log is complete", async () => {
    const dir = tempDir();
    const input = jsonLines(initialize(0), initialized, toolsCall(2));
    // The host never closes stdin: the server's exit alone ends the session.
    const got = await runProxy(["--record", dir, "--", NODE, fixtureServer("crash-mid-call")], { input, keepStdinOpen: true });
    assert.equal(got.code, 1);
    const lines = splitLines(got.stdout);
    assert.equal(lines.length, 2);
    assert.equal(lines[1]!.toString("utf8"), halfAnswer(2), "the half line, without a \\n, as the server wrote it");
    const sent = splitLines(Buffer.from(input));
    const { path, entries } = theLog(dir);
    assert.deepEqual(entries, [
      msg("client", sent[0]!),
      msg("client", sent[1]!),
      msg("client", sent[2]!),
      msg("server", lines[0]!),
      raw("server", halfAnswer(2)),
    ]);
    assert.deepEqual(proxySaid(got.stderr), [`stretto-proxy: recording to ${path}`]);
  });

  it("huge-line: a 16 MiB line arrives byte-identical and is logged as one entry", async () => {
    const dir = tempDir();
    const input = jsonLines(toolsCall(7));
    const got = await runProxy(["--record", dir, "--", NODE, fixtureServer("huge-line")], { input });
    assert.equal(got.code, 0);
    const expected = hugeAnswer(7);
    assert.equal(expected.length, HUGE_LINE_BYTES);
    assert.equal(got.stdout.length, HUGE_LINE_BYTES);
    assert.ok(got.stdout.equals(expected), "byte-identical");

    const { entries } = theLog(dir);
    assert.equal(entries.length, 2, "one client entry, one server entry");
    assert.deepEqual(entries[0], msg("client", input));
    assert.equal(entries[1]!.from, "server");
    assert.ok(entries[1]!.message !== undefined && entries[1]!.message.length === HUGE_LINE_BYTES - 1);
    assert.ok(entries[1]!.message === lineText(expected), "the entry holds the whole line");
  });

  it("invalid-utf8: lines pass byte-identical both ways and are logged as raw with U+FFFD", async () => {
    const dir = tempDir();
    const fromHost = Buffer.concat([Buffer.from([0x80]), Buffer.from(" stray continuation byte\n")]);
    const input = Buffer.concat([Buffer.from(jsonLines(ping(1))), fromHost]);
    const direct = await run(NODE, [fixtureServer("invalid-utf8")], { input });
    const got = await runProxy(["--record", dir, "--", NODE, fixtureServer("invalid-utf8")], { input });
    assert.equal(got.code, 0);
    const answer = '{"jsonrpc":"2.0","id":1,"result":{}}\n';
    const expected = Buffer.concat([...INVALID_UTF8_LINES.map((l) => l.bytes), Buffer.from(answer), fromHost]);
    assert.equal(direct.stdout.toString("hex"), expected.toString("hex"), "the fixture wrote what it should");
    assert.equal(got.stdout.toString("hex"), expected.toString("hex"), "the host got it unchanged");

    const { entries } = theLog(dir);
    assert.deepEqual(entries, [
      msg("client", jsonLines(ping(1))),
      raw("client", "\uFFFD stray continuation byte"),
      ...INVALID_UTF8_LINES.map((l) => raw("server", l.raw)),
      msg("server", answer),
      raw("server", "\uFFFD stray continuation byte"),
    ]);
  });

  describe("ignores-stdin-eof: a server that stays after its stdin ends", () => {
    it("keeps the proxy running (no timeout); SIGTERM then stops both within the grace period, exit 143", async () => {
      const dir = tempDir();
      const pidFile = join(dir, "server.pid");
      const proxy = startProxy(join(dir, "logs"), [NODE, fixtureServer("ignores-stdin-eof")], { ...process.env, STRETTO_FIXTURE_PID_FILE: pidFile });
      const out = gather(proxy.stdout);
      const err = gather(proxy.stderr);
      proxy.stdin.end(jsonLines(initialize(0)));
      await until(out, proxy.stdout, STAYING_LINE);
      const serverPid = Number(readFileSync(pidFile, "utf8"));
      groups.add(serverPid);
      assert.equal(childOf(proxy.pid!), serverPid);

      await sleep(1000);
      assert.equal(proxy.exitCode, null, "the proxy still runs 1 s after the host closed stdin");
      assert.ok(isRunning(serverPid), "so does the server");

      const stopAt = Date.now();
      proxy.kill("SIGTERM");
      const status = await exitOf(proxy);
      const took = Date.now() - stopAt;
      assert.deepEqual(status, { code: 143, signal: null }, "128 + SIGTERM: the server's status");
      assert.ok(took < GRACE_MS + MARGIN_MS, `stopped in ${took} ms`);
      assert.ok(!isRunning(serverPid), "the server is gone");

      const { path, entries } = theLog(join(dir, "logs"));
      assert.equal(entries.length, 3);
      assert.deepEqual(entries[2], msg("server", STAYING_LINE));
      await out.done;
      assert.deepEqual(proxySaid((await err.done).toString()), [`stretto-proxy: recording to ${path}`]);
    });

    it("a server that also ignores SIGTERM is killed 2 s later (exit 137)", async () => {
      const dir = tempDir();
      const pidFile = join(dir, "server.pid");
      const proxy = startProxy(join(dir, "logs"), [NODE, fixtureServer("ignores-stdin-eof"), "--ignore-sigterm"], {
        ...process.env,
        STRETTO_FIXTURE_PID_FILE: pidFile,
      });
      const out = gather(proxy.stdout);
      proxy.stdin.end(jsonLines(initialize(0)));
      await until(out, proxy.stdout, STAYING_LINE);
      const serverPid = Number(readFileSync(pidFile, "utf8"));
      groups.add(serverPid);

      const stopAt = Date.now();
      proxy.kill("SIGTERM");
      const status = await exitOf(proxy);
      const took = Date.now() - stopAt;
      assert.deepEqual(status, { code: 137, signal: null }, "128 + SIGKILL");
      assert.ok(took >= 2 * GRACE_MS - 200, `not killed before the two grace periods (${took} ms)`);
      assert.ok(took < 2 * GRACE_MS + MARGIN_MS, `stopped in ${took} ms`);
      assert.ok(!isRunning(serverPid));
    });
  });

  describe("exits-by-signal: the exit code is 128 + n", () => {
    for (const [signal, code] of [
      ["SIGTERM", 143],
      ["SIGKILL", 137],
      ["SIGHUP", 129],
    ] as const) {
      it(`${signal} → ${code}, with the line before it forwarded and logged`, async () => {
        const dir = tempDir();
        const input = jsonLines(ping(1));
        const got = await runProxy(["--record", dir, "--", NODE, fixtureServer("exits-by-signal"), signal], { input, keepStdinOpen: true });
        assert.equal(got.code, code);
        assert.equal(got.stdout.toString(), '{"jsonrpc":"2.0","id":1,"result":{}}\n');
        const { entries } = theLog(dir);
        assert.deepEqual(entries, [msg("client", input), msg("server", got.stdout)]);
      });
    }
  });

  describe("npx-like-wrapper: the real server is a grandchild that ignores stdin EOF", () => {
    /** Starts the proxy in front of the wrapper; resolves once the grandchild answers. */
    async function wrapped(extra: string[] = []) {
      const dir = tempDir();
      const pidFile = join(dir, "grandchild.pid");
      const proxy = startProxy(join(dir, "logs"), [NODE, fixtureServer("npx-like-wrapper"), ...extra], {
        ...process.env,
        STRETTO_FIXTURE_PID_FILE: pidFile,
      });
      const out = gather(proxy.stdout);
      proxy.stdin.write(jsonLines(initialize(0)));
      await until(out, proxy.stdout, '"id":0,"result"');
      const wrapper = childOf(proxy.pid!);
      groups.add(wrapper);
      await waitFor("the grandchild's pid", () => {
        try {
          return readFileSync(pidFile, "utf8").endsWith("\n");
        } catch {
          return false;
        }
      });
      const grandchild = Number(readFileSync(pidFile, "utf8"));
      assert.equal(pgidOf(wrapper), wrapper, "the server leads its own process group");
      assert.equal(pgidOf(grandchild), wrapper, "the grandchild is in it");
      return { proxy, wrapper, grandchild };
    }

    it("SIGTERM, SIGINT or SIGHUP to the proxy leaves no orphan (exit 143: the wrapper's status)", async () => {
      // The three run side by side: each waits out the same 2 s grace period.
      await Promise.all(
        (["SIGTERM", "SIGINT", "SIGHUP"] as const).map(async (signal) => {
          const { proxy, wrapper, grandchild } = await wrapped();
          proxy.kill(signal);
          const status = await exitOf(proxy);
          assert.deepEqual(status, { code: 143, signal: null }, `${signal}: the wrapper ended by the group's SIGTERM`);
          await waitFor(`${signal}: the group to empty`, () => groupMembers(wrapper).length === 0, MARGIN_MS);
          assert.ok(!isRunning(grandchild), `${signal}: the grandchild is gone`);
        }),
      );
    });

    it("a grandchild that also ignores SIGTERM is killed too (the group, not just the wrapper, is waited for)", async () => {
      const { proxy, wrapper, grandchild } = await wrapped(["--ignore-sigterm"]);
      proxy.kill("SIGTERM");
      assert.deepEqual(await exitOf(proxy), { code: 143, signal: null });
      // The wrapper dies of the first SIGTERM; the grandchild shrugs it off, and only the
      // SIGKILL 2 s later ends it. Give that its time, plus a margin, after the proxy is gone.
      await waitFor("the group to empty", () => groupMembers(wrapper).length === 0, GRACE_MS + MARGIN_MS).catch(() => {});
      const left = groupMembers(wrapper);
      assert.deepEqual(left, [], `still running in the server's group: ${left.join(", ")}`);
      assert.ok(!isRunning(grandchild), "the grandchild is gone");
    });
  });

  it("floods-stdout with a slow host: nothing lost or reordered, the server is held back, memory stays bounded", async function () {
    this.timeout(60000);
    const LINES = 210_000;
    const SIZE = 1024; // 210 000 × 1 KiB ≈ 205 MiB
    const ALL = LINES * SIZE;
    const LIMIT_KB = 200 * 1024;
    const dir = tempDir();
    const proxy = startProxy(dir, [NODE, fixtureServer("floods-stdout"), String(LINES), String(SIZE)]);
    proxy.stdin.end();
    proxy.stderr.resume();
    proxy.stdout.pause(); // the host does not read yet
    await waitFor("the server to start", () => childrenOf(proxy.pid!).length === 1);
    const server = childrenOf(proxy.pid!)[0]!;

    let peakKb = 0;
    const sampler = setInterval(() => (peakKb = Math.max(peakKb, vmRssKb(proxy.pid!) ?? 0)), 25);

    /**
     * The host stops reading until the server is blocked too: its written-bytes count
     * stands still for half a second. A proxy that buffered instead would let the server
     * write everything (and its memory would show it).
     */
    const heldAt: number[] = [];
    const stallUntilServerBlocks = async () => {
      proxy.stdout.pause();
      let last = -1;
      let still = 0;
      while (still < 10) {
        await sleep(50);
        const now = bytesWritten(server);
        if (now === undefined || now >= ALL) break;
        still = now === last ? still + 1 : 0;
        last = now;
      }
      heldAt.push(bytesWritten(server) ?? ALL);
      proxy.stdout.resume();
    };

    let seq = 0;
    let total = 0;
    let carry: Buffer = Buffer.alloc(0);
    let mismatch: string | undefined;
    let midway: Promise<void> | undefined;
    const closed = new Promise((r) => proxy.stdout.once("close", r));
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      let at = 0;
      while (data.length - at >= SIZE) {
        if (mismatch === undefined && !data.subarray(at, at + SIZE).equals(floodLine(seq, SIZE))) {
          mismatch = `line ${seq} differs: ${data.subarray(at, at + 80).toString("latin1")}`;
        }
        seq++;
        at += SIZE;
      }
      carry = Buffer.from(data.subarray(at));
      if (midway === undefined && total >= ALL / 2) midway = stallUntilServerBlocks();
    };
    await stallUntilServerBlocks(); // at the start…
    proxy.stdout.on("data", onData); // …then read, stalling once more half way
    const status = await exitOf(proxy);
    await closed;
    await midway;
    clearInterval(sampler);

    assert.deepEqual(status, { code: 0, signal: null });
    assert.equal(mismatch, undefined);
    assert.equal(carry.length, 0, "no partial line left over");
    assert.equal(seq, LINES, "every line, in order");
    assert.ok(total >= 200 * 1024 * 1024, `${total} bytes passed`);
    assert.equal(heldAt.length, 2, "the host stalled twice");
    // While the host did not read, the server could not get far ahead of it.
    assert.ok(heldAt[0]! < 64 * 1024 * 1024, `the server wrote ${heldAt[0]} bytes before the host read any`);
    assert.ok(heldAt[1]! < ALL, `the server finished while the host stalled (${heldAt[1]} bytes)`);
    assert.ok(peakKb > 0 && peakKb < LIMIT_KB, `peak VmRSS ${peakKb} kB`);

    // The log has them all too (checked cheaply: the count of lines and the last one).
    const path = sessionLogs(dir)[0]!;
    const { count, last } = countLines(path);
    assert.equal(count, 1 + LINES, "the header and one entry per line");
    assert.equal(parseEntry(last).message, lineText(floodLine(LINES - 1, SIZE)));
  });

  it("a host that closes the proxy's stdout early (EPIPE): no crash, the client's lines are still recorded", async () => {
    const dir = tempDir();
    const proxy = startProxy(dir, [NODE, fixtureServer("noisy-stdout")]);
    const err = gather(proxy.stderr);
    const out = gather(proxy.stdout);
    proxy.stdin.write(jsonLines(initialize(0), initialized));
    await until(out, proxy.stdout, noiseAfter(0));
    proxy.stdout.destroy(); // the host stops listening
    const later = jsonLines(toolsList(1), toolsCall(2, { text: "nobody reads this" }), "not JSON from the host");
    proxy.stdin.end(later);

    const status = await exitOf(proxy);
    assert.deepEqual(status, { code: 0, signal: null }, "the server's status, no crash");
    const said = proxySaid((await err.done).toString());
    assert.equal(said.length, 2, said.join("\n"));
    assert.ok(said[1]!.startsWith("stretto-proxy: forwarding to the client: "), said[1]);
    assert.match(said[1]!, /EPIPE|ECONNRESET|broken pipe/i);

    const { entries } = theLog(dir);
    const client = entries.filter((e) => e.from === "client");
    const sent = splitLines(Buffer.from(jsonLines(initialize(0), initialized) + later));
    assert.deepEqual(client, [msg("client", sent[0]!), msg("client", sent[1]!), msg("client", sent[2]!), msg("client", sent[3]!), raw("client", "not JSON from the host")]);
    // …and the server's answers that could no longer be delivered.
    const server = entries.filter((e) => e.from === "server");
    assert.deepEqual(server.slice(-4), [
      raw("server", lineText(Buffer.from(noiseBefore("tools/call")))),
      msg("server", '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\\"text\\":\\"nobody reads this\\"}"}],"isError":false}}'),
      raw("server", "DEBUG answered 2"),
      msg("server", '{"level":30,"msg":"answered"}'),
    ]);
  });

  it("a log write failure mid-session (ulimit -f): forwarding goes on, recording stops, the exit code is the server's", async () => {
    const dir = tempDir();
    const LINES = 400;
    const SIZE = 200;
    // `ulimit -f 8` is 4 or 8 KiB depending on the shell; the log passes it quickly.
    const got = await run("sh", ["-c", 'ulimit -f 8; exec "$0" "$@"', NODE, PROXY, "--record", dir, "--", NODE, fixtureServer("floods-stdout"), String(LINES), String(SIZE), "7"]);
    const expected = Buffer.concat(Array.from({ length: LINES }, (_, i) => floodLine(i, SIZE)));
    assert.equal(got.signal, null, "the proxy did not die of SIGXFSZ");
    assert.equal(got.code, 7, "the server's exit code");
    assert.ok(got.stdout.equals(expected), "every line reached the host, unchanged and in order");

    const path = sessionLogs(dir)[0]!;
    assert.deepEqual(proxySaid(got.stderr).slice(0, 1), [`stretto-proxy: recording to ${path}`]);
    const stopped = proxySaid(got.stderr).slice(1);
    assert.equal(stopped.length, 1, got.stderr);
    assert.ok(stopped[0]!.startsWith(`stretto-proxy: recording stopped: writing ${path}: `), stopped[0]);
    assert.match(stopped[0]!, /EFBIG|too large/i);

    // What did reach the disk is a clean prefix of the log.
    assert.ok(statSync(path).size <= 8192);
    const lines = readFileSync(path, "utf8").split("\n");
    lines.pop(); // the last one may be cut off
    const entries = lines.slice(1).map(parseEntry);
    assert.ok(entries.length > 0);
    entries.forEach((e, i) => assert.equal(e.message, lineText(floodLine(i, SIZE))));
  });
});
