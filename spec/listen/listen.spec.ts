/**
 * `stretto-proxy --listen` against the real binary, with `stretto-mcp-demo --world retail`
 * behind it: a host over HTTP is answered and recorded as a stdio host would be, every
 * refusal with its status and body, sessions apart, idle sessions ended, a server that
 * cannot start, and the command line's own errors.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, NODE, cleanTemp, killAll, readLogLines, runProxy, sessionLogs, tempDir } from "../helpers/processes.js";
import { events, INIT, JSON_ONLY, Listening, openStream, refusal, SSE } from "./support.js";

const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "find_user_id_by_email", arguments: { email: "noah.brown7922@example.com" } } });

describe("listen: hosts over HTTP, against the real binary", function () {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("answers and records a host over HTTP as over stdio, and refuses what part A refuses", async function () {
    const logs = tempDir();
    const proxy = await Listening.start(["--record", logs, "--domain", "retail", "--", NODE, DEMO, "--world", "retail"]);
    assert.match(proxy.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await proxy.said(`serving hosts over Streamable HTTP at ${proxy.url}`);

    const init = await proxy.post(INIT, { ...SSE, "Stretto-Session": "task-7" });
    assert.equal(init.status, 200);
    assert.match(String(init.headers["content-type"]), /^text\/event-stream/);
    const sid = String(init.headers["mcp-session-id"]);
    assert.match(sid, /^[0-9a-f]{32}$/);
    assert.match(init.body, /^id: 1-\d+$/m, "each event has an id");
    const [answer] = events(init.body) as Array<{ result: { serverInfo: { name: string }; protocolVersion: string } }>;
    assert.equal(answer!.result.serverInfo.name, "stretto-mcp-demo");
    assert.equal(answer!.result.protocolVersion, "2025-11-25");
    await proxy.said("session 1 opened, for host session task-7");
    const s = { ...JSON_ONLY, "Mcp-Session-Id": sid };

    const initialized = await proxy.post({ jsonrpc: "2.0", method: "notifications/initialized" }, s);
    assert.deepEqual([initialized.status, initialized.body], [202, ""]);
    const called = await proxy.post(call(2), { ...SSE, "Mcp-Session-Id": sid });
    assert.equal((events(called.body)[0] as { id: number }).id, 2);
    const listed = await proxy.post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, s);
    assert.match(String(listed.headers["content-type"]), /^application\/json/);
    assert.equal(listed.headers["mcp-session-id"], undefined, "only the initialize answer names the session");
    assert.equal((JSON.parse(listed.body) as { result: { tools: unknown[] } }).result.tools.length, 4);
    const batch = await proxy.post(
      [{ jsonrpc: "2.0", id: 5, method: "ping" }, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 4 } }, { jsonrpc: "2.0", id: 6, method: "ping" }],
      s,
    );
    assert.deepEqual((JSON.parse(batch.body) as Array<{ id: number }>).map((a) => a.id), [5, 6]);

    // The refusals, each with its status and JSON-RPC body.
    const is = async (p: Promise<import("./support.js").Reply>, status: number, code: number, message: string | RegExp) => {
      const r = await p;
      assert.equal(r.status, status, r.body);
      const e = refusal(r);
      assert.equal(e.code, code);
      if (typeof message === "string") assert.equal(e.message, message);
      else assert.match(e.message, message);
      return r;
    };
    await is(proxy.post(call(7), { "Mcp-Session-Id": sid, "Content-Type": "text/plain" }), 415, -32000, "a message needs Content-Type: application/json");
    await is(proxy.post("{", s), 400, -32700, /^the body is not JSON: /);
    await is(proxy.post(INIT, s), 400, -32600, "initialize comes alone, and without Mcp-Session-Id: it starts a session");
    await is(proxy.post([call(8), call(8)], s), 400, -32600, "request 8 is already waiting for its answer");
    await is(proxy.send("GET", { "Mcp-Session-Id": sid, Accept: "application/json" }), 406, -32000, "a GET opens an event stream: send Accept: text/event-stream");
    assert.equal((await proxy.send("HEAD", { "Mcp-Session-Id": sid })).status, 405);
    await is(proxy.send("PUT", { "Mcp-Session-Id": sid }), 405, -32000, /POST, GET and DELETE/);
    const evil = { Origin: "http://evil.example", "Mcp-Session-Id": sid, Accept: "text/event-stream" };
    const originText = "a page on another site may not use stretto-proxy: without a token, only pages on this machine's loopback may";
    await is(proxy.send("GET", evil), 403, -32000, originText);
    await is(proxy.send("DELETE", evil), 403, -32000, originText);
    await is(proxy.post(call(9), JSON_ONLY), 400, -32600, "no Mcp-Session-Id: start a session with initialize");
    const gone = "no such session: it ended, or never was; start another with initialize";
    await is(proxy.post(call(9), { ...JSON_ONLY, "Mcp-Session-Id": "0123" }), 404, -32000, gone);
    await is(proxy.send("GET", { "Mcp-Session-Id": "0123", Accept: "text/event-stream" }), 404, -32000, gone);
    await is(proxy.send("GET", { "Mcp-Session-Id": sid, Accept: "text/event-stream", "MCP-Protocol-Version": "latest" }), 400, -32600, "MCP-Protocol-Version must name a revision, such as 2025-11-25");

    // DELETE ends an open GET stream, with no events on it; then the session is gone.
    const stream = await openStream(proxy, { "Mcp-Session-Id": sid, Accept: "text/event-stream" });
    assert.equal((await proxy.send("DELETE", { "Mcp-Session-Id": sid })).status, 200);
    const ended = await stream.rest;
    assert.equal(ended.status, 200);
    assert.deepEqual(events(ended.body), []);
    await is(proxy.post(call(10), s), 404, -32000, gone);
    await proxy.said("session 1 ended: its host ended it");

    assert.equal(await proxy.stop(), 0);
    const files = sessionLogs(logs);
    assert.equal(files.length, 1);
    const { header, entries } = readLogLines(files[0]!);
    assert.match(String(header["session"]), /-1$/);
    assert.equal(header["host_session"], "task-7");
    assert.equal(header["domain"], "retail");
    const from = entries.map((e) => (JSON.parse(e) as { from: string }).from);
    assert.equal(from.filter((f) => f === "client").length, 7);
    assert.equal(from.filter((f) => f === "server").length, 5);
  });

  it("keeps sessions apart, ends idle ones, and says why a server could not start", async function () {
    const logs = tempDir();
    const proxy = await Listening.start(["--record", logs, "--listen-idle", "0.005", "--", NODE, DEMO]);
    const a = await proxy.open();
    const b = await proxy.open();
    assert.notEqual(a, b);
    await proxy.said(/session 1 ended: no request and no open stream for 300ms/);
    await proxy.said(/session 2 ended: no request and no open stream for 300ms/);
    const r = await proxy.post({ jsonrpc: "2.0", id: 2, method: "ping" }, { ...JSON_ONLY, "Mcp-Session-Id": a });
    assert.equal(r.status, 404);
    assert.equal(await proxy.stop(), 0);
    assert.deepEqual(sessionLogs(logs).map((f) => f.replace(/^.*-(\d+)\.jsonl$/, "$1")).sort(), ["1", "2"]);

    const none = await Listening.start(["--", "/nonexistent/stretto-test-server"]);
    const failed = await none.post(INIT);
    assert.equal(failed.status, 200);
    const error = (JSON.parse(failed.body) as { id: number; error: { code: number; message: string } });
    assert.equal(error.id, 1);
    assert.equal(error.error.code, -32000);
    assert.match(error.error.message, /^the session ended: starting \/nonexistent\/stretto-test-server: No such file or directory/);
    assert.equal(await none.stop(), 0);
  });

  it("needs a token beyond loopback, checks it in constant time, and each session runs its own plugins", async function () {
    const dir = tempDir();
    const short = join(dir, "short");
    writeFileSync(short, "too short\n");
    const first = await Listening.start(["--", NODE, DEMO]);
    // The start-up failures, all at once: each is a process of its own.
    const [beyond, name, idle, weak, missing, taken] = await Promise.all([
      runProxy(["--listen", "0.0.0.0:0", "--", NODE, DEMO]),
      runProxy(["--listen", "localhost:8931", "--", NODE, DEMO]),
      runProxy(["--listen", "127.0.0.1:0", "--listen-idle", "0", "--", NODE, DEMO]),
      runProxy(["--listen", "127.0.0.1:0", "--listen-token-file", short, "--", NODE, DEMO]),
      runProxy(["--listen", "127.0.0.1:0", "--listen-token-file", join(dir, "none"), "--", NODE, DEMO]),
      // A port in use is the proxy's own failure.
      runProxy(["--listen", `127.0.0.1:${first.port}`, "--", NODE, DEMO]),
    ]);
    assert.equal(beyond.code, 125);
    assert.match(beyond.stderr, /^stretto-proxy: listening on 0\.0\.0\.0:0 needs a token \(--listen-token-file\): without one, stretto-proxy listens only on a loopback address, such as 127\.0\.0\.1:8931\n$/);
    assert.equal(name.code, 2);
    assert.equal(idle.code, 2);
    assert.equal(weak.code, 125);
    assert.match(weak.stderr, /the token in .*short must be at least 16 printable ASCII characters, with no spaces/);
    assert.equal(missing.code, 125);
    assert.match(missing.stderr, /reading the token from .*none: No such file or directory/);
    assert.equal(taken.code, 125);
    assert.match(taken.stderr, new RegExp(`^stretto-proxy: listening on 127\\.0\\.0\\.1:${first.port}: `));
    assert.equal(await first.stop(), 0);

    const token = "s3cret-token-0123";
    const file = join(dir, "token");
    writeFileSync(file, `  ${token}\n`);
    const proxy = await Listening.start(["--listen-token-file", file, "--commit", "--", NODE, DEMO]);
    const withToken = (value: string) => ({ ...JSON_ONLY, Authorization: value });
    for (const wrong of ["", "Bearer wrong", `Bearer ${token.slice(0, -1)}4`, `bearer ${token}`, `Bearer ${token}x`]) {
      const r = await proxy.post(INIT, wrong === "" ? JSON_ONLY : withToken(wrong));
      assert.equal(r.status, 401, wrong);
      assert.equal(r.headers["www-authenticate"], "Bearer");
      assert.equal(refusal(r).message, "send Authorization: Bearer <token>, with the token stretto-proxy was given (--listen-token-file)");
    }
    // With a token, any origin may connect; each session is active (stretto_commit listed).
    for (const n of [1, 2]) {
      const sid = await proxy.open({ Authorization: `Bearer ${token}`, Origin: "https://app.example" });
      const listed = await proxy.post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { ...withToken(`Bearer ${token}`), "Mcp-Session-Id": sid });
      const names = (JSON.parse(listed.body) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
      assert.ok(names.includes("stretto_commit"), `session ${n}: ${names.join(", ")}`);
    }
    assert.equal(await proxy.stop(), 0);
  });
});
