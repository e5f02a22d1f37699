/**
 * Round trips through the real binaries: a host drives stretto-mcp-demo through
 * stretto-proxy --record, and what the trace library (and `stretto`) reads back is what
 * happened: a session recorded end to end, and two proxies of one host session merged.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  episode,
  manifest,
  merge,
  readLog,
  readSessions,
  toolCalls,
  type Episode,
  type McpLog,
  type ToolManifest,
} from "../../lib/trace/index.js";

const bin = (name: string): string => fileURLToPath(new URL(`../../lib/cli/${name}.js`, import.meta.url));
const PROXY = bin("stretto-proxy");
const DEMO = bin("stretto-mcp-demo");
const STRETTO = bin("stretto");

/** Each event as `turn(id=name,…)`, `result(id=name)` or `error(id=name)`: an outline a test can compare at a glance. */
function outline(ep: Episode): string[] {
  return ep.events.map((e) => {
    if (e.kind === "assistant") return `turn(${e.calls.map((c) => `${c.id}=${c.name}`).join(",")})`;
    if (e.kind === "tool_result") return `${e.error ? "error" : "result"}(${e.call_id}=${e.name})`;
    return "user";
  });
}

function contents(ep: Episode): string[] {
  return ep.events.flatMap((e) => (e.kind === "tool_result" ? [e.content] : []));
}

async function onlyLog(dir: string): Promise<McpLog> {
  const files = await readdir(dir);
  assert.equal(files.length, 1, files.join(", "));
  return readLog(join(dir, files[0]!));
}

/** An SDK client on stdio, the host, in front of `args`. */
async function host(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "stretto-test-host", version: "0.0.1" });
  await client.connect(transport);
  return client;
}

function text(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return content.map((c) => c.text).join("\n");
}

describe("trace: round trips through stretto-proxy --record (bins)", function () {
  this.timeout(60_000);
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "stretto-trace-e2e-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads back the turns, results and errors an SDK host's session had", async () => {
    const client = await host([PROXY, "--record", dir, "--", process.execPath, DEMO]);
    const { tools } = await client.listTools(); // id 1
    assert.deepEqual(
      tools.map((t) => t.name),
      ["lookup", "update"],
    );
    // One LLM turn, two calls in parallel: the demo answers in order, the first after 300 ms.
    const [slow, fast] = await Promise.all([
      client.callTool({ name: "lookup", arguments: { text: "order #W1", delay_ms: 300 } }), // id 2
      client.callTool({ name: "update", arguments: { text: "café ☕" } }), // id 3
    ]);
    await sleep(600); // the model reads the results
    // A turn whose calls the host runs one at a time: a failing call, then one right after.
    const failed = await client.callTool({ name: "lookup", arguments: { text: "x", fail: true } }); // id 4
    const next = await client.callTool({ name: "lookup", arguments: { text: "note" } }); // id 5
    // Right after again, but passing a value only the turn's results held ("failed"): a new turn.
    const uses = await client.callTool({ name: "lookup", arguments: { text: "failed" } }); // id 6
    await sleep(600);
    await assert.rejects(client.callTool({ name: "delete_everything", arguments: {} }), /Unknown tool: delete_everything/); // id 7
    await client.close();

    const log = await onlyLog(dir);
    assert.equal(log.header.domain, null);
    const ep = episode(log);
    assert.equal(ep.id, log.header.session);
    assert.equal(ep.domain, "mcp");
    assert.equal(ep.agent_model, "stretto-test-host");
    assert.deepEqual(outline(ep), [
      "turn(2=lookup,3=update)",
      "result(2=lookup)",
      "result(3=update)",
      "turn(4=lookup,5=lookup)",
      "error(4=lookup)",
      "result(5=lookup)",
      "turn(6=lookup)",
      "result(6=lookup)",
      "turn(7=delete_everything)",
      "error(7=delete_everything)",
    ]);
    assert.deepEqual(contents(ep), [
      '{"delay_ms":300,"text":"order #W1"}',
      '{"text":"café ☕"}',
      'lookup failed, as asked: {"fail":true,"text":"x"}',
      '{"text":"note"}',
      '{"text":"failed"}',
      "Unknown tool: delete_everything",
    ]);
    // What the host itself saw.
    assert.deepEqual(
      [slow, fast, failed, next, uses].map(text),
      contents(ep).slice(0, 5),
    );
    assert.equal(failed.isError, true);
    assert.deepEqual(toolCalls(ep)[0]!.arguments, { text: "order #W1", delay_ms: 300 });
    // The server's tools, as it annotated them.
    assert.deepEqual(manifest(log, ep.domain).tools, { lookup: "read", update: "write" });

    // The CLI says the same.
    const r = spawnSync(process.execPath, [STRETTO, "episode", join(dir, `${log.header.session}.jsonl`)], { encoding: "utf8" });
    assert.deepEqual([r.status, r.stderr], [0, ""]);
    assert.deepEqual(JSON.parse(r.stdout), ep);
  });

  // A fixed end-to-end session, the same one the Rust implementation's tests record (so both
  // read it back alike): the host writes its lines itself, two calls in one write.
  it("reads back a fixed end-to-end session, line for line", async () => {
    const lines = {
      initialize:
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stretto-test-host","version":"0.0.1"}}}',
      initialized: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      list: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      call3:
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup","arguments":{"text":"order #W1","delay_ms":300}}}',
      call4: '{"jsonrpc":"2.0","id":"call-4","method":"tools/call","params":{"name":"update","arguments":{"text":"café ☕"}}}',
      call5: '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"lookup","arguments":{"text":"x","fail":true}}}',
      call6: '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"delete_everything","arguments":{}}}',
    };
    const child = spawn(process.execPath, [PROXY, "--record", dir, "--domain", "demo", "--", process.execPath, DEMO], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let seen = "";
    let waiting: (() => void) | undefined;
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      seen += d;
      waiting?.();
    });
    const step = async (sent: string[], replies: number): Promise<void> => {
      const before = seen.split("\n").length - 1;
      child.stdin.write(sent.map((l) => l + "\n").join(""));
      while (seen.split("\n").length - 1 < before + replies) await new Promise<void>((r) => (waiting = r));
      await sleep(600); // the model reads what came back
    };
    const exited = new Promise<number | null>((r) => child.on("close", r));
    await step([lines.initialize], 1);
    await step([lines.initialized, lines.list], 1);
    await step([lines.call3, lines.call4], 2);
    await step([lines.call5], 1);
    await step([lines.call6], 1);
    await step(["this line is not JSON"], 1);
    child.stdin.end();
    assert.equal(await exited, 0);

    const log = await onlyLog(dir);
    const ep = episode(log);
    assert.deepEqual([ep.domain, ep.agent_model], ["demo", "stretto-test-host"]);
    assert.deepEqual(outline(ep), [
      "turn(3=lookup,call-4=update)",
      "result(3=lookup)",
      "result(call-4=update)",
      "turn(5=lookup)",
      "error(5=lookup)",
      "turn(6=delete_everything)",
      "error(6=delete_everything)",
    ]);
    const c = contents(ep);
    assert.deepEqual(JSON.parse(c[0]!), { text: "order #W1", delay_ms: 300 });
    assert.deepEqual(JSON.parse(c[1]!), { text: "café ☕" });
    assert.ok(c[2]!.startsWith("lookup failed, as asked"), c[2]);
    assert.equal(c[3], "Unknown tool: delete_everything");
    assert.deepEqual(manifest(log, ep.domain).tools, { lookup: "read", update: "write" });
  });

  // Two proxies of one host session are one session (the trace's half; e2e/flow-servers has the flow's).
  it("merges two proxies with --server-name and one STRETTO_SESSION into one session", async () => {
    const env = { STRETTO_SESSION: "task-7" };
    const record = ["--record", dir];
    const shop = await host([PROXY, ...record, "--server-name", "shop", "--", process.execPath, DEMO, "--world", "retail"], env);
    const notes = await host([PROXY, ...record, "--server-name", "notes", "--", process.execPath, DEMO], env);
    await shop.listTools();
    await notes.listTools();
    // Like a model, the agent takes a moment before each call: the logs time lines to the
    // millisecond, so calls to two servers closer than that could merge in either order.
    const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<string> => {
      await sleep(20);
      return text(await c.callTool({ name, arguments: args }));
    };
    const user = await call(shop, "find_user_id_by_email", { email: "c7@example.com" });
    assert.equal(user, "user_7");
    await call(shop, "get_user_details", { user_id: user });
    await call(notes, "lookup", { text: user });
    await call(shop, "get_order_details", { order_id: "#W7a" });
    await shop.close();
    await notes.close();

    const logs = await readSessions(dir);
    assert.equal(logs.length, 2);
    assert.deepEqual(
      logs.map((l) => [l.header.host_session, l.header.server_name]).sort(),
      [
        ["task-7", "notes"],
        ["task-7", "shop"],
      ],
    );
    const sessions = merge(logs);
    assert.deepEqual([sessions.mergedLogs, sessions.mergedSessions, sessions.apart], [2, 1, []]);
    const ep = episode(sessions.logs[0]!);
    assert.equal(ep.id, "task-7");
    // Reading the user needs the id the search returned: a new turn. The notes lookup
    // passes nothing new and follows at once: the same turn. The order id is new again.
    assert.deepEqual(outline(ep), [
      "turn(shop::2=shop::find_user_id_by_email)",
      "result(shop::2=shop::find_user_id_by_email)",
      "turn(shop::3=shop::get_user_details,notes::2=notes::lookup)",
      "result(shop::3=shop::get_user_details)",
      "result(notes::2=notes::lookup)",
      "turn(shop::4=shop::get_order_details)",
      "result(shop::4=shop::get_order_details)",
    ]);

    const r = spawnSync(process.execPath, [STRETTO, "episodes", dir], { encoding: "utf8" });
    assert.deepEqual([r.status, r.stderr], [0, "stretto: merged 2 logs into 1 session across servers\n"]);
    assert.deepEqual(r.stdout, JSON.stringify(ep) + "\n");
    const m = spawnSync(process.execPath, [STRETTO, "manifest", dir], { encoding: "utf8" });
    assert.equal(m.status, 0);
    assert.deepEqual((JSON.parse(m.stdout) as ToolManifest).tools, {
      "notes::lookup": "read",
      "notes::update": "write",
      "shop::cancel_pending_order": "write",
      "shop::find_user_id_by_email": "read",
      "shop::get_order_details": "read",
      "shop::get_user_details": "read",
    });
  });
});
