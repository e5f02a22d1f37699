/**
 * The passive proxy as a host sees it: forwarding, recording, exit codes and the command
 * line (docs/options.md, docs/robustness.md), driving the real binaries as processes.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { readLog } from "../../lib/trace/index.js";
import { isObject } from "../../lib/util/is-object.js";
import {
  DEMO, NODE, cleanTemp, jsonLines, killAll, readLogLines, run, runProxy, sessionLogs, tempDir,
} from "../helpers/processes.js";

const HOST_SCRIPT = jsonLines(
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "stretto-test-host", version: "0" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "lookup", arguments: { text: "order #W1", delay_ms: 300 } } },
  { jsonrpc: "2.0", id: "call-4", method: "tools/call", params: { name: "update", arguments: { text: "café ☕" } } },
  { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "lookup", arguments: { fail: true } } },
  { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "delete_everything", arguments: {} } },
  "this line is not JSON",
);

describe("stretto-proxy, passive, over stdio", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("forwards unchanged and records every line", async () => {
    const direct = await run(NODE, [DEMO], { input: HOST_SCRIPT });
    const dir = tempDir();
    const proxied = await runProxy(["--record", dir, "--domain", "demo", "--", NODE, DEMO], { input: HOST_SCRIPT });

    assert.equal(proxied.code, 0);
    assert.deepEqual(proxied.stdout, direct.stdout, "the host sees exactly what a direct connection shows");
    assert.equal(direct.stdout.toString().trimEnd().split("\n").length, 7);

    const logs = sessionLogs(dir);
    assert.equal(logs.length, 1);
    assert.equal(proxied.stderr, `stretto-proxy: recording to ${logs[0]}\n`);
    const { header, entries } = readLogLines(logs[0]!);
    assert.equal(basename(logs[0]!, ".jsonl"), header["session"]);
    assert.match(String(header["session"]), /^\d{8}T\d{6}\.\d{3}Z-\d+$/);
    assert.deepEqual(header["server_command"], [NODE, DEMO]);
    assert.equal(header["domain"], "demo");
    assert.equal(header["agent_model"], null);
    assert.equal(header["stretto_mcp_log"], 2);
    assert.match(String(header["host_session"]), /^host-\d+$/);
    assert.ok(!("server_name" in header));

    const parsed = entries.map((e) => JSON.parse(e) as { from: string; raw?: string; t_ms: number });
    assert.equal(parsed.filter((e) => e.from === "client").length, 8);
    assert.equal(parsed.filter((e) => e.from === "server").length, 7);
    assert.deepEqual(parsed.filter((e) => "raw" in e).map((e) => e.raw), ["this line is not JSON"]);
    for (const line of HOST_SCRIPT.trimEnd().split("\n").slice(0, 7)) {
      assert.ok(entries.some((e) => e.endsWith(`"from":"client","message":${line}}`)), line);
    }
    for (const line of direct.stdout.toString().trimEnd().split("\n")) {
      assert.ok(entries.some((e) => e.endsWith(`"from":"server","message":${line}}`)), line);
    }
    const times = parsed.map((e) => e.t_ms);
    assert.deepEqual(times, [...times].sort((a, b) => a - b), "times never decrease down the log");
  });

  it("without --record it only forwards, and says nothing on stderr", async () => {
    const direct = await run(NODE, [DEMO], { input: HOST_SCRIPT });
    const proxied = await runProxy(["--", NODE, DEMO], { input: HOST_SCRIPT });
    assert.equal(proxied.code, 0);
    assert.deepEqual(proxied.stdout, direct.stdout);
    assert.equal(proxied.stderr, "");
  });

  it("exits with the server when it exits first, while the host keeps stdin open", async () => {
    const dir = tempDir();
    const note = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"bye"}}';
    const r = await runProxy(["--record", dir, "--", "sh", "-c", `echo '${note}'; exit 3`], { keepStdinOpen: true });
    assert.equal(r.code, 3);
    assert.equal(r.stdout.toString(), `${note}\n`);
    const { header, entries } = readLogLines(sessionLogs(dir)[0]!);
    assert.deepEqual((header["server_command"] as string[]).slice(0, 2), ["sh", "-c"]);
    assert.equal(entries.length, 1);
    const entry: unknown = JSON.parse(entries[0]!);
    assert.ok(isObject(entry));
    assert.equal(entry["from"], "server");
  });

  it("reports a server that cannot start: 125, nothing on stdout, no log", async () => {
    const dir = join(tempDir(), "logs");
    const r = await runProxy(["--record", dir, "--", "/nonexistent/stretto-no-such-server"]);
    assert.equal(r.code, 125);
    assert.equal(r.stdout.length, 0);
    assert.match(r.stderr, /stretto-proxy: starting \/nonexistent\/stretto-no-such-server: No such file or directory \(os error 2\)\n$/);
    assert.ok(existsSync(dir), "the record directory was created");
    assert.deepEqual(readdirSync(dir), [], "and left empty");
  });

  it("exits with the server's code, or 128 + n when signal n ended it", async () => {
    assert.equal((await runProxy(["--", "sh", "-c", "exit 3"])).code, 3);
    assert.equal((await runProxy(["--", "sh", "-c", "kill -9 $$"])).code, 137);
    assert.equal((await runProxy(["--", "sh", "-c", "kill -15 $$"])).code, 143);
  });

  it("forwards every line unchanged and records it, with cat as the server", async () => {
    const input = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'),
      Buffer.from("not json\r\n"),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(" not UTF-8\n"),
      Buffer.from('[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]\n'),
      Buffer.from('{"jsonrpc":"2.0","id":3,"method":"ping"}'),
    ]);
    const dir = tempDir();
    const r = await runProxy(["--record", dir, "--", "cat"], { input });
    assert.equal(r.code, 0);
    assert.deepEqual(r.stdout, input);
    const { header, entries } = readLogLines(sessionLogs(dir)[0]!);
    assert.deepEqual(header["server_command"], ["cat"]);
    const parsed = entries.map((e) => JSON.parse(e) as { from: string; raw?: string; t_ms: number });
    const client = parsed.filter((e) => e.from === "client");
    assert.deepEqual(client.map((e) => e.raw), [undefined, "not json", "\uFFFD\uFFFD not UTF-8", undefined, undefined]);
    assert.equal(parsed.filter((e) => e.from === "server").length, 5);
    // Each echo comes after the line it echoes.
    for (let i = 0; i < 5; i++) {
      const clientAt = parsed.indexOf(client[i]!);
      const serverAt = parsed.filter((e) => e.from === "server").map((e) => parsed.indexOf(e))[i]!;
      assert.ok(clientAt < serverAt);
    }
    const times = parsed.map((e) => e.t_ms);
    assert.deepEqual(times, [...times].sort((a, b) => a - b));
  });

  it("prints help and version on stdout with exit 0", async () => {
    const v = await runProxy(["--version"]);
    assert.equal(v.code, 0);
    assert.equal(v.stdout.toString(), "stretto-proxy 0.1.0\n");
    const h = await runProxy(["--help"]);
    assert.equal(h.code, 0);
    assert.match(h.stdout.toString(), /Usage: stretto-proxy \[OPTIONS\] \[-- <SERVER_COMMAND>\.\.\.\]/);
    assert.match(h.stdout.toString(), /--record <DIR>/);
  });

  it("refuses a bad command line with exit 2 and does nothing else", async () => {
    const dir = join(tempDir(), "never");
    const r = await runProxy(["--record", dir, "--retain-days", "soon", "--", "cat"]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout.length, 0);
    assert.equal(r.stderr.split("\n")[0], "error: invalid value 'soon' for '--retain-days <DAYS>': invalid digit found in string");
    assert.ok(!existsSync(dir));
  });

  it("expands ~ in --record from HOME and copies --agent-model and --server-name", async () => {
    const home = tempDir();
    const r = await runProxy(["--record", "~/logs", "--agent-model", "glm-5", "--server-name", "shop", "--", "cat"], {
      env: { ...process.env, HOME: home, STRETTO_SESSION: "task-7" },
    });
    assert.equal(r.code, 0);
    const logs = sessionLogs(join(home, "logs"));
    assert.equal(logs.length, 1);
    const { header } = readLogLines(logs[0]!);
    assert.equal(header["agent_model"], "glm-5");
    assert.equal(header["server_name"], "shop");
    assert.equal(header["host_session"], "task-7");
  });

  it("--retain-days prunes the record dir and the oracle cache first, and says so", async () => {
    const home = tempDir();
    const logs = join(home, "logs");
    const cache = join(home, ".stretto/oracle-cache/ab");
    mkdirSync(logs, { recursive: true });
    mkdirSync(cache, { recursive: true });
    // Names the proxy gives its files: retention deletes nothing else (package.json stays).
    const oldLog = "20260101T000000.000Z-1.jsonl";
    const newLog = "20260102T000000.000Z-2.jsonl";
    const key = `ab${"0".repeat(62)}.json`;
    const old = (Date.now() - 30 * 86_400_000) / 1000;
    for (const f of [join(logs, oldLog), join(cache, key), join(logs, "package.json")]) {
      writeFileSync(f, "{}\n");
      utimesSync(f, old, old);
    }
    writeFileSync(join(logs, newLog), "{}\n");
    const r = await runProxy(["--record", logs, "--retain-days", "7", "--", "cat"], { env: { ...process.env, HOME: home } });
    assert.equal(r.code, 0);
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(lines[0], `stretto-proxy: deleted 1 files older than 7 days from ${logs}`);
    assert.equal(lines[1], `stretto-proxy: deleted 1 files older than 7 days from ${join(home, ".stretto/oracle-cache")}`);
    assert.ok(!existsSync(join(logs, oldLog)));
    assert.ok(existsSync(join(logs, newLog)));
    assert.ok(existsSync(join(logs, "package.json")));
    assert.ok(!existsSync(join(cache, key)));
  });

  it("a prune failure is told and does not stop the proxy", async () => {
    const home = tempDir();
    const cacheFile = join(home, "cache");
    writeFileSync(cacheFile, "not a dir");
    const r = await runProxy(["--retain-days", "1", "--oracle-cache", cacheFile, "--", "cat"], { input: "x\n" });
    assert.equal(r.code, 0);
    assert.equal(r.stdout.toString(), "x\n");
    assert.match(r.stderr, new RegExp(`^stretto-proxy: pruning ${cacheFile}: listing ${cacheFile}: `));
  });

  it("a log that cannot be created is the proxy's failure: 125, and the server never starts", async () => {
    const root = tempDir();
    const marker = join(root, "started");
    writeFileSync(join(root, "file"), "");
    const r = await runProxy(["--record", join(root, "file", "logs"), "--", "sh", "-c", `touch ${marker}`]);
    assert.equal(r.code, 125);
    assert.match(r.stderr, /^stretto-proxy: creating .*file\/logs: /);
    assert.ok(!existsSync(marker));
  });

  it("keeps the bytes of a 64 MiB line exact", async () => {
    const big = Buffer.alloc(64 << 20, 0x61);
    big.write('{"x":"', 0);
    big.write('"}\n', big.length - 3);
    const r = await runProxy(["--", "cat"], { input: big, timeoutMs: 60000 });
    assert.equal(r.code, 0);
    assert.ok(r.stdout.equals(big));
  });

  it("the log's server lines are the bytes the host received", async () => {
    const dir = tempDir();
    const r = await runProxy(["--record", dir, "--", NODE, DEMO], { input: HOST_SCRIPT });
    const { entries } = readLogLines(sessionLogs(dir)[0]!);
    const server = entries.map((e) => JSON.parse(e) as { from: string; message?: unknown }).filter((e) => e.from === "server");
    const raw = readFileSync(sessionLogs(dir)[0]!, "utf8");
    const fromLog = server.map((_, i) => raw.split("\n").filter((l) => l.includes('"from":"server"'))[i]!.replace(/^\{"t_ms":\d+,"from":"server","message":/, "").slice(0, -1));
    assert.equal(fromLog.join("\n") + "\n", r.stdout.toString());
  });
});

describe("the log header's protocol era", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  async function headerAfter(input: string): Promise<Record<string, unknown>> {
    const dir = tempDir();
    const r = await runProxy(["--record", dir, "--", "cat"], { input });
    assert.equal(r.code, 0);
    return readLogLines(sessionLogs(dir)[0]!).header;
  }

  it("a session that opens with initialize is legacy", async () => {
    const h = await headerAfter(jsonLines({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "h", version: "0" } } }));
    assert.equal(h["era"], "legacy");
    assert.ok(!("protocol_version" in h));
    assert.deepEqual(Object.keys(h).slice(0, 6), ["stretto_mcp_log", "session", "started_unix_ms", "server_command", "domain", "agent_model"]);
  });

  it("a 2026-07-28 session (no initialize; the version in each request's _meta) is modern", async () => {
    const h = await headerAfter(jsonLines({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } }));
    assert.equal(h["era"], "modern");
    assert.equal(h["protocol_version"], "2026-07-28");
    // The trace reader keeps what the header says of the era.
    const dir = tempDir();
    await runProxy(["--record", dir, "--", "cat"], { input: jsonLines({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } }) });
    const read = await readLog(sessionLogs(dir)[0]!);
    assert.equal(read.header.era, "modern");
    assert.equal(read.header.protocol_version, "2026-07-28");
  });

  it("a session whose first lines tell nothing has no era, and an empty session still has its header", async () => {
    assert.ok(!("era" in (await headerAfter("not json\n"))));
    const empty = await headerAfter("");
    assert.equal(empty["stretto_mcp_log"], 2);
    assert.ok(!("era" in empty));
  });
});
