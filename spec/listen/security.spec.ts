/**
 * What `--listen` refuses, and that a refusal costs the other sessions nothing: a page on
 * another origin, a rebinding Host, a 5 MB body, a 65th session, a slow-loris body,
 * malformed JSON and batches. "Nothing reached the server" is read from the session's log:
 * every line the server was given is recorded, so the log holds only the probes that passed.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { connect } from "node:net";
import { DEMO, NODE, cleanTemp, killAll, readLogLines, sessionLogs, tempDir } from "../helpers/processes.js";
import { INIT, JSON_ONLY, Listening, refusal, SSE } from "./support.js";

const ping = (id: number | string) => ({ jsonrpc: "2.0", id, method: "ping" });

describe("listen: security", function () {
  let proxy: Listening;
  let sid: string;
  let logs: string;
  /** The ids of the pings that passed: only these may reach the server. */
  const passed: string[] = [];
  before(async function () {
    logs = tempDir();
    // A body must arrive within 400 ms here (10 s by default).
    proxy = await Listening.start(["--record", logs, "--", NODE, DEMO], { ...process.env, STRETTO_LISTEN_BODY_MS: "400" });
    sid = await proxy.open();
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  /** A ping the session answers: the session goes on. */
  async function stillServed(id: string): Promise<void> {
    const r = await proxy.post(ping(id), { ...JSON_ONLY, "Mcp-Session-Id": sid });
    assert.deepEqual(JSON.parse(r.body), { jsonrpc: "2.0", id, result: {} });
    passed.push(id);
  }

  it("refuses other origins and rebinding hosts (DNS rebinding)", async function () {
    const host = (h: string) => ({ ...JSON_ONLY, Host: h, "Mcp-Session-Id": sid });
    const hostText = "the Host header must be localhost, 127.0.0.1 or [::1] with the proxy's port: without a token, stretto-proxy answers only its own address";
    for (const h of [`localhost.evil.example:${proxy.port}`, `evil.example:${proxy.port}`, "127.0.0.1", `127.0.0.1:${proxy.port + 1}`, `[::1`]) {
      const r = await proxy.send("POST", host(h), JSON.stringify(ping("host")));
      assert.equal(r.status, 403, h);
      assert.equal(refusal(r).message, hostText);
    }
    for (const origin of ["http://evil.example", "null", "http://localhost.evil.example", "file://", "http://127.0.0.1.nip.io"]) {
      const r = await proxy.post(ping("origin"), { ...JSON_ONLY, Origin: origin, "Mcp-Session-Id": sid });
      assert.equal(r.status, 403, origin);
    }
    for (const [h, origin] of [[`LOCALHOST:${proxy.port}`, "http://localhost:6274"], [`[::1]:${proxy.port}`, "https://127.0.0.1"], [`localhost:${proxy.port}`, "http://[::1]:8080"]] as const) {
      const r = await proxy.send("POST", { ...JSON_ONLY, Host: h, Origin: origin, "Mcp-Session-Id": sid }, JSON.stringify(ping(`ok-${origin}`)));
      assert.equal(r.status, 200, `${h} ${origin}`);
      passed.push(`ok-${origin}`);
    }
    await stillServed("after-origins");
  });

  it("refuses malformed JSON, odd messages and bad batches with 400 and id null", async function () {
    const s = { ...JSON_ONLY, "Mcp-Session-Id": sid };
    const cases: Array<[string | Buffer, number, string | RegExp]> = [
      [Buffer.from([0xff, 0x7b]), -32700, "the body is not UTF-8"],
      ["nope", -32700, /^the body is not JSON: /],
      ['{"jsonrpc":"2.0","id":"bad","method":"ping",', -32700, /^the body is not JSON: /],
      ["[]", -32600, "an empty batch"],
      ['[{"jsonrpc":"2.0","id":"bad","method":"ping"},1]', -32600, "each message is a JSON-RPC request, notification or response"],
      ['{"jsonrpc":"2.0","id":"bad"}', -32600, "each message is a JSON-RPC request, notification or response"],
      ['[{"jsonrpc":"2.0","id":"bad","method":"ping"},{"jsonrpc":"2.0","id":"bad","method":"ping"}]', -32600, 'request "bad" is already waiting for its answer'],
      [JSON.stringify([INIT]), -32600, "initialize comes alone, and without Mcp-Session-Id: it starts a session"],
    ];
    for (const [body, code, message] of cases) {
      const r = await proxy.send("POST", s, body);
      assert.equal(r.status, 400, String(body));
      const e = refusal(r);
      assert.equal(e.code, code);
      if (typeof message === "string") assert.equal(e.message, message);
      else assert.match(e.message, message);
    }
    const badName = await proxy.post(INIT, { ...JSON_ONLY, "Stretto-Session": "a b" });
    assert.equal(refusal(badName).message, "Stretto-Session names the host session: at most 128 letters, digits, and . _ : -");
    // A good batch is taken apart into lines; its answers come back as one array.
    const batch = await proxy.post([ping("b1"), ping("b2")], s);
    assert.deepEqual((JSON.parse(batch.body) as Array<{ id: string }>).map((a) => a.id), ["b1", "b2"]);
    passed.push("b1", "b2");
    await stillServed("after-json");
  });

  it("refuses a 5 MB body and a slow-loris body in bounded time and memory, and the session goes on", async function () {
    const five = Buffer.from(`{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"${"x".repeat(5 << 20)}"}}`);
    assert.equal(await sendLarge(proxy, sid, five, false), 413);
    // The same without Content-Length: refused as its bytes pass 4 MiB.
    assert.equal(await sendLarge(proxy, sid, five, true), 413);
    const loris = slowLoris(proxy, sid);
    // While it holds its request open, the session is served.
    await stillServed("during-loris");
    assert.equal(await loris, 408);
    // One that never finishes its headers is cut off too.
    assert.equal(await slowHeaders(proxy), "HTTP/1.1 408 Request Timeout");
    await stillServed("after-loris");
  });

  it("and none of what it refused reached the server", async function () {
    assert.equal(await proxy.stop(), 0);
    const ids: unknown[] = [];
    for (const file of sessionLogs(logs)) {
      for (const e of readLogLines(file).entries) {
        const entry = JSON.parse(e) as { from: string; message?: { id?: unknown; method?: string } };
        if (entry.from === "client" && entry.message?.method === "ping") ids.push(entry.message.id);
      }
    }
    assert.deepEqual(ids, passed);
  });
});

describe("listen: 64 sessions at most", function () {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("refuses a 65th, and that costs the others nothing", async function () {
    // `cat` is the cheapest server there is: each session runs one.
    const proxy = await Listening.start(["--", "cat"]);
    const ids: string[] = [];
    for (let i = 1; i <= 64; i++) ids.push(await openAtHeaders(proxy));
    const refused = await proxy.post(INIT);
    assert.equal(refused.status, 503);
    assert.equal(refusal(refused).message, "stretto-proxy has as many sessions as it keeps: end one (DELETE) first");
    const note = await proxy.post({ jsonrpc: "2.0", method: "notifications/initialized" }, { ...JSON_ONLY, "Mcp-Session-Id": ids[0]! });
    assert.equal(note.status, 202);
    assert.equal((await proxy.send("DELETE", { "Mcp-Session-Id": ids[1]! })).status, 200);
    await openAtHeaders(proxy);
    await proxy.said("session 65 opened");
    assert.equal(await proxy.stop(), 0);
  });
});

/** Opens a session with an event stream and returns its id as soon as the headers come. */
function openAtHeaders(proxy: Listening): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(proxy.url, { method: "POST", headers: { Host: `127.0.0.1:${proxy.port}`, ...SSE }, setHost: false }, (res) => {
      res.resume();
      const id = res.headers["mcp-session-id"];
      if (res.statusCode === 200 && typeof id === "string") resolve(id);
      else reject(new Error(`initialize: ${res.statusCode}`));
    });
    req.on("error", reject);
    req.end(JSON.stringify(INIT));
  });
}

/** A large body, its length said up front or sent in chunks: the status it gets. */
function sendLarge(proxy: Listening, sid: string, body: Buffer, chunked: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const length: Record<string, string> = chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(body.length) };
    const req = request(proxy.url, { method: "POST", headers: { Host: `127.0.0.1:${proxy.port}`, "Content-Type": "application/json", "Mcp-Session-Id": sid, ...length }, setHost: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    // The proxy may close the connection while the rest is still being written.
    req.on("error", reject);
    for (let i = 0; i < body.length; i += 1 << 16) req.write(body.subarray(i, i + (1 << 16)));
    req.end();
  });
}

/** A POST that promises 1000 bytes and sends 17: its status, once the proxy gives up on it. */
function slowLoris(proxy: Listening, sid: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(proxy.url, { method: "POST", headers: { Host: `127.0.0.1:${proxy.port}`, "Content-Type": "application/json", "Content-Length": "1000", "Mcp-Session-Id": sid }, setHost: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.write('{"jsonrpc":"2.0",');
  });
}

/** A request whose headers never end: the status line it gets before the proxy hangs up. */
function slowHeaders(proxy: Listening): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = "";
    const socket = connect(proxy.port, "127.0.0.1", () => socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\n`));
    socket.on("data", (d: Buffer) => (got += d.toString("latin1")));
    socket.on("close", () => resolve(got.split("\r\n")[0] ?? ""));
    socket.on("error", reject);
  });
}
