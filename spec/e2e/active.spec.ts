/**
 * Active mode end to end: `--guards --domain retail --commit --context` in front of
 * `stretto-mcp-demo --world retail` (docs/active-mode.md), driven line by line as a host.
 */
import assert from "node:assert/strict";
import { writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { ChildProcess } from "node:child_process";
import { DEMO, NODE, PROXY, cleanTemp, fixtureServer, jsonLines, killAll, readLogLines, run, runProxy, sessionLogs, start, tempDir } from "../helpers/processes.js";

type Msg = { id?: unknown; method?: string; result?: { content?: Array<{ text: string }>; isError?: boolean; tools?: Array<{ name: string }>; instructions?: string } };

/** A host that sends one line at a time and waits for the answer with that id. */
class Host {
  private readonly waiting = new Map<string, (m: Msg) => void>();
  readonly received: Msg[] = [];
  readonly exit: Promise<number | null>;
  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on("line", (l) => {
      const m = JSON.parse(l) as Msg;
      this.received.push(m);
      this.waiting.get(JSON.stringify(m.id))?.(m);
    });
    this.exit = new Promise((r) => child.once("exit", (code) => r(code)));
  }
  ask(id: number | string, method: string, params?: unknown): Promise<Msg> {
    const answer = new Promise<Msg>((r) => this.waiting.set(JSON.stringify(id), r));
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return answer;
  }
  call(id: number | string, name: string, args: object): Promise<Msg> {
    return this.ask(id, "tools/call", { name, arguments: args });
  }
  end(): Promise<number | null> {
    this.child.stdin!.end();
    return this.exit;
  }
}

function retailHost(dir: string, context: string, extra: string[] = []): Host {
  const child = start(NODE, [PROXY, "--record", dir, "--domain", "retail", "--guards", "--commit", "--context", context, ...extra, "--", NODE, DEMO, "--world", "retail"]);
  return new Host(child);
}
const text = (m: Msg) => m.result?.content?.map((c) => c.text).join("\n") ?? "";

describe("active mode: guards, commit and the conversation", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("lists stretto_commit last, refuses a bad cancellation before the server sees it, and commits confirmed writes", async () => {
    const dir = tempDir();
    const context = join(dir, "conversation.jsonl");
    writeFileSync(context, `${JSON.stringify({ role: "user", content: "Hi, I'm c7@example.com. Please cancel #W7a." })}\n`);
    const host = retailHost(dir, context);

    const init = await host.ask(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } });
    assert.match(init.result!.instructions!, /^A demo server for stretto-proxy: two tools that echo their arguments\.\n\nThis session also offers stretto_commit/);
    const list = await host.ask(2, "tools/list");
    assert.deepEqual(list.result!.tools!.map((t) => t.name), [
      "find_user_id_by_email", "get_user_details", "get_order_details", "cancel_pending_order", "stretto_commit",
    ]);

    assert.equal(text(await host.call(3, "find_user_id_by_email", { email: "c7@example.com" })), "user_7");
    assert.match(text(await host.call(4, "get_order_details", { order_id: "#W7a" })), /"status":"pending"/);

    const refused = await host.call(5, "cancel_pending_order", { order_id: "#W7a", reason: "found it cheaper" });
    assert.equal(refused.result!.isError, true);
    assert.equal(
      text(refused),
      "Refused by the policy check, so cancel_pending_order was not run and nothing changed: 'found it cheaper' is not an accepted reason (policy check retail.cancel_reason).",
    );

    // The customer confirms; the host rewrites the file with one more line (read from the old offset).
    writeFileSync(context, `${JSON.stringify({ role: "user", content: "Hi, I'm c7@example.com. Please cancel #W7a." })}\n${JSON.stringify({ role: "user", content: "Yes, cancel #W7a, I no longer need it." })}\n`);
    const commit = await host.call(6, "stretto_commit", {
      calls: [
        { name: "get_order_details", arguments: { order_id: "#W7a" } },
        { name: "cancel_pending_order", arguments: { order_id: "#W7a", reason: "no longer needed" } },
      ],
    });
    assert.equal(commit.result!.isError, false);
    assert.match(text(commit), /^get_order_details \{"order_id":"#W7a"\}:\n\{.*\}\n\ncancel_pending_order \{"order_id":"#W7a","reason":"no longer needed"\}:\n\{"order_id":"#W7a","status":"cancelled"\}$/s);

    const stopped = await host.call(7, "stretto_commit", {
      calls: [
        { name: "cancel_pending_order", arguments: { order_id: "#W7b", reason: "found it cheaper" } },
        { name: "get_order_details", arguments: { order_id: "#W7b" } },
      ],
    });
    assert.equal(stopped.result!.isError, true);
    assert.match(text(stopped), /^cancel_pending_order \{"order_id":"#W7b","reason":"found it cheaper"\} was refused by the policy check: .*'found it cheaper' is not an accepted reason \(policy check retail\.cancel_reason\)\n\nget_order_details \{"order_id":"#W7b"\} was not run$/s);

    const bad = await host.call(8, "stretto_commit", { calls: [] });
    assert.equal(text(bad), 'stretto_commit takes {"calls": [{"name": tool, "arguments": {...}}, ...]}, one or more calls of the server\'s tools; nothing was run.');

    assert.equal(await host.end(), 0);
    const { entries } = readLogLines(sessionLogs(dir)[0]!);
    const log = entries.map((e) => JSON.parse(e) as { from: string; message?: { id?: unknown; method?: string; params?: { name?: string } } });
    const cancels = log.filter((e) => e.message?.method === "tools/call" && e.message.params?.name === "cancel_pending_order");
    assert.deepEqual(cancels.map((e) => e.from), ["client", "proxy"], "the refused call and the refused commit call never went to the server");
    assert.equal(log.filter((e) => e.from === "context").length, 2, "each customer line is logged once");
    assert.ok(log.some((e) => e.from === "proxy" && e.message?.id === 5), "the refusal is a proxy entry");
    // Context lines stand just before the call they precede.
    const firstContext = log.findIndex((e) => e.from === "context");
    assert.equal(log[firstContext + 1]!.message?.id, 3);
  });

  it("a refused call cannot walk around the guard: in a batch, with a string id, sent again", async () => {
    const dir = tempDir();
    const context = join(dir, "c.jsonl");
    writeFileSync(context, "");
    const child = start(NODE, [PROXY, "--record", dir, "--domain", "retail", "--guards", "--", NODE, DEMO, "--world", "retail"]);
    const bad = (id: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "cancel_pending_order", arguments: { order_id: "#W1a", reason: "found it cheaper" } } });
    const lookup = { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "get_order_details", arguments: { order_id: "#W1a" } } };
    const lines = [JSON.stringify([bad(1), lookup]), JSON.stringify(bad("s-2")), JSON.stringify(bad(3))];
    const r = await new Promise<string>((resolve) => {
      const out: Buffer[] = [];
      child.stdout!.on("data", (c: Buffer) => out.push(c));
      child.once("close", () => resolve(Buffer.concat(out).toString()));
      child.stdin!.end(`${lines.join("\n")}\n`);
    });
    const answers = r.trimEnd().split("\n").map((l) => JSON.parse(l) as Msg | Msg[]);
    const ids = answers.flatMap((a) => (Array.isArray(a) ? a.map((x) => x.id) : [a.id]));
    // The proxy answers the three refusals; the demo, which takes no batches, answers the
    // forwarded rest of the batch with an Invalid Request (id null).
    assert.deepEqual(new Set(ids), new Set([1, "s-2", 3, null]));
    const { entries } = readLogLines(sessionLogs(dir)[0]!);
    const toServer = entries.map((e) => JSON.parse(e) as { from: string; message: unknown });
    const sentCancels = toServer.filter((e) => e.from !== "client" && JSON.stringify(e.message).includes('"method":"tools/call","params":{"name":"cancel_pending_order"'));
    assert.deepEqual(sentCancels, [], "no refused call reached the server");
    // The rest of the batch went on, as the proxy's own batch.
    assert.ok(toServer.some((e) => e.from === "proxy" && Array.isArray(e.message) && (e.message as Msg[]).length === 1));
  });

  it("setup errors are the proxy's own: 125 with the exact message", async () => {
    const none = await runProxy(["--guards", "--", "cat"]);
    assert.equal(none.code, 125);
    assert.equal(none.stderr, "stretto-proxy: --guards needs --domain (retail or airline)\n");
    const telecom = await runProxy(["--guards", "--domain", "telecom", "--", "cat"]);
    assert.equal(telecom.code, 125);
    assert.equal(telecom.stderr, "stretto-proxy: no guards for telecom\n");
  });

  it("without active options a call named stretto_commit is an ordinary call", async () => {
    const r = await runProxy(["--", NODE, DEMO], { input: `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "stretto_commit", arguments: {} } })}\n` });
    assert.match(r.stdout.toString(), /Unknown tool: stretto_commit/);
  });

  it("logs the conversation a whole line at a time; blank lines skipped, a partial line waits", async () => {
    const dir = tempDir();
    const context = join(dir, "c.jsonl");
    writeFileSync(context, `\n${JSON.stringify({ role: "user", content: "Hi" })}\n{"role":`);
    const host = retailHost(dir, context);
    await host.call(1, "find_user_id_by_email", { email: "c1@example.com" });
    appendFileSync(context, `"assistant","content":"Found you."}\nnot json\n`);
    await host.call(2, "get_user_details", { user_id: "user_1" });
    await host.end();
    const { entries } = readLogLines(sessionLogs(dir)[0]!);
    const ctx = entries.filter((e) => e.includes('"from":"context"')).map((e) => JSON.parse(e) as { message?: unknown; raw?: string });
    assert.deepEqual(ctx.map((c) => c.message ?? c.raw), [{ role: "user", content: "Hi" }, { role: "assistant", content: "Found you." }, "not json"]);
  });
});

describe("active mode: lines no plugin acts on", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } };

  it("non-JSON lines, JSON that is not JSON-RPC and notifications reach the host byte for byte", async () => {
    const input = jsonLines(init, { jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } });
    const server = [NODE, fixtureServer("noisy-stdout")];
    const direct = await run(server[0]!, server.slice(1), { input });
    const dir = tempDir();
    const active = await runProxy(["--record", dir, "--domain", "retail", "--guards", "--commit", "--", ...server], { input });
    assert.equal(active.code, 0);
    // The commit plugin rewrites two answers (initialize's instructions, tools/list's
    // listing); every other line is the server's own bytes.
    const directLines = direct.stdout.toString().split("\n");
    const activeLines = active.stdout.toString().split("\n");
    assert.equal(activeLines.length, directLines.length);
    const differing = activeLines.map((l, i) => (l === directLines[i] ? -1 : i)).filter((i) => i >= 0);
    assert.equal(differing.length, 2);
    for (const i of differing) assert.match(activeLines[i]!, /stretto_commit/);
    const { entries } = readLogLines(sessionLogs(dir)[0]!);
    assert.ok(entries.some((e) => e.includes('"from":"server","raw":')), "the noise is logged as raw");
  });

  it("a host that stops reading does not crash the active proxy; what it sent is still logged", async () => {
    const dir = tempDir();
    const child = start(NODE, [PROXY, "--record", dir, "--domain", "retail", "--guards", "--", NODE, DEMO, "--world", "retail"]);
    const stderr: Buffer[] = [];
    child.stderr!.on("data", (c: Buffer) => stderr.push(c));
    child.stdout!.destroy(); // the host has gone away
    child.stdin!.end(jsonLines(init, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "cancel_pending_order", arguments: { order_id: "#W1a", reason: "found it cheaper" } } }, { jsonrpc: "2.0", id: 2, method: "tools/list" }));
    const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    assert.equal(code, 0);
    assert.match(Buffer.concat(stderr).toString(), /stretto-proxy: forwarding to the client: /);
    const { entries } = readLogLines(sessionLogs(dir)[0]!);
    const from = entries.map((e) => (JSON.parse(e) as { from: string }).from);
    assert.deepEqual(from.filter((f) => f === "client").length, 3);
    assert.ok(from.includes("proxy"), "the refusal is still logged, though nobody could read it");
  });
});
