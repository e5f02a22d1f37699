/**
 * What the server gets wrong reaches the host as an error or a line: every answer of
 * docs/http-upstream.md, "Errors the host can get", against a scripted server.
 */
import { strict as assert } from "node:assert";
import {
  accepted,
  events,
  hangUp,
  jsonText,
  methodNotAllowed,
  result,
  silent,
  startScriptedServer,
  status,
  truncated,
  type Behaviour,
  type ScriptedServer,
} from "../../fixtures/http/scripted-server.js";
import { killAll } from "../helpers/processes.js";
import { HostSession, initialize, initialized, proxyError, request } from "./support.js";

const INIT_RESULT = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "scripted", version: "0" } };

describe("http upstream: what the server gets wrong", function () {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    await server?.close();
    server = undefined;
  });

  it("reaches the host as an error or a line", async () => {
    server = await startScriptedServer({
      post: {
        initialize: result(INIT_RESULT, { "mcp-session-id": "s-1" }),
        "notifications/initialized": accepted,
        gone: status(404),
        truncated: truncated('{"jsonrpc":"2.0","id":3,"result":{'),
        junk: status(200, { "content-type": "text/plain" }, "not\nJSON\n"),
        empty: status(200, { "content-type": "application/json" }, " \n"),
      },
      get: [events('id: e1\ndata: {"data":"one"}\n\nid: e2\ndata: not JSON\ndata: either\n\n'), methodNotAllowed],
      delete: hangUp,
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1), "", initialized, "   ", initialized, request(2, "gone"), request(3, "truncated"), request(4, "junk"), request(5, "empty"));

    assert.equal(await host.waitFor((l) => l === proxyError(2, "the server has ended the session")), proxyError(2, "the server has ended the session"));
    assert.equal(await host.waitFor((l) => l === proxyError(3, "the server's answer was cut off")), proxyError(3, "the server's answer was cut off"));
    // A 2xx JSON answer with nothing in it still answers the request.
    await host.waitFor((l) => l === proxyError(5, "the server's answer to a request was empty"));
    await host.waitFor((l) => l === "not JSON");
    await host.waitFor((l) => l === '{"data":"one"}');
    await host.waitFor((l) => l === "not JSON either");
    // The GET stream ended; it is reopened with the last event id, and refused.
    const reopened = await server.waitFor((s) => s.method === "GET" && s.headers["last-event-id"] !== undefined);
    assert.equal(reopened.headers["last-event-id"], "e2");
    const ended = await host.end();

    assert.equal(ended.code, 0);
    assert.equal(ended.lines[0], JSON.stringify({ jsonrpc: "2.0", id: 1, result: INIT_RESULT }));
    assert.deepEqual(ended.lines.slice(1).sort(), [
      '{"data":"one"}',
      "not JSON",
      "not JSON either",
      proxyError(2, "the server has ended the session"),
      proxyError(3, "the server's answer was cut off"),
      proxyError(5, "the server's answer to a request was empty"),
    ].sort());
    assert.match(ended.stderr, /^stretto-proxy: the server's answer to a request was empty$/m);
    assert.match(ended.stderr, /^stretto-proxy: the server has ended the session$/m);
    assert.match(ended.stderr, /^stretto-proxy: reading the HTTP server's answer: .+$/m);
    assert.match(ended.stderr, /^stretto-proxy: ending the HTTP session: .+$/m);

    // Blank lines are skipped, and the second `initialized` opens no second stream.
    const posts = server.seen.filter((s) => s.method === "POST");
    assert.deepEqual(posts.slice(0, 3).map((s) => s.message?.method), ["initialize", "notifications/initialized", "notifications/initialized"]);
    assert.deepEqual(posts.slice(3).map((s) => s.message?.method).sort(), ["empty", "gone", "junk", "truncated"]);
    assert.ok(posts.every((s) => s.body.trim() !== ""));
    const gets = server.seen.filter((s) => s.method === "GET");
    assert.equal(gets.length, 2);
    assert.equal(gets[0]!.headers["last-event-id"], undefined);
    assert.equal(gets[0]!.headers["accept"], "text/event-stream");
    // The session id and the agreed version go with everything after initialize.
    for (const s of server.seen.slice(1)) {
      assert.equal(s.headers["mcp-session-id"], "s-1", `${s.method} ${s.body}`);
      assert.equal(s.headers["mcp-protocol-version"], "2025-06-18", `${s.method} ${s.body}`);
    }
    assert.equal(server.seen[0]!.headers["mcp-session-id"], undefined);
    assert.equal(server.seen.filter((s) => s.method === "DELETE").length, 1);
  });

  it("sends what a POST must carry, and hands the server's JSON over as sent", async () => {
    const text = '{"z":1.50, "jsonrpc":"2.0",\r\n  "id":2,\n"result":{"a":"café","list":[1e3,\n2]}}';
    server = await startScriptedServer({
      post: {
        initialize: result(INIT_RESULT, { "mcp-session-id": "s-2" }),
        "notifications/initialized": accepted,
        verbatim: jsonText(text),
      },
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1), initialized, request(2, "verbatim"));
    const line = await host.waitFor((l) => l.includes('"id":2'));
    assert.equal(line, '{"z":1.50, "jsonrpc":"2.0",  "id":2,"result":{"a":"café","list":[1e3,2]}}');
    const ended = await host.end();
    assert.equal(ended.code, 0);
    assert.equal(ended.stderr, "");
    const post = server.seen.find((s) => s.message?.method === "verbatim")!;
    assert.equal(post.body, JSON.stringify(request(2, "verbatim")));
    assert.equal(post.headers["content-type"], "application/json");
    assert.equal(post.headers["accept"], "application/json, text/event-stream");
    assert.equal(post.headers["mcp-method"], undefined, "a 2025 session sends no 2026-07-28 headers");
  });

  it("answers a refused request with the status, a 202 with nothing, and a request sent nowhere with `could not be reached`", async () => {
    server = await startScriptedServer({
      post: {
        initialize: result(INIT_RESULT),
        "notifications/initialized": accepted,
        locked: status(401),
        teapot: status(418),
        later: accepted,
      },
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1), initialized, request(2, "locked"), request(3, "later"), request(4, "teapot"), request(5, "ping"));
    // A batch and a line that is not JSON are sent too, but get no error line (no request id).
    host.send([request(9, "ping")], "this is not JSON");
    assert.equal(await host.waitFor((l) => l.includes('"id":2')), proxyError(2, "the server answered HTTP 401 Unauthorized"));
    assert.equal(await host.waitFor((l) => l.includes('"id":4')), proxyError(4, "the server answered HTTP 418 I'm a Teapot"));
    // No session id is known, so a 404 is just a status.
    assert.equal(await host.waitFor((l) => l.includes('"id":5')), proxyError(5, "the server answered HTTP 404 Not Found"));
    await server.waitFor((s) => s.message?.method === "later");
    await server.waitFor((s) => s.method === "GET");
    await server.waitFor((s) => s.body === "this is not JSON");
    const ended = await host.end();
    assert.equal(ended.code, 0);
    assert.equal(ended.lines.filter((l) => l.includes('"id":3')).length, 0, "a 202 sends nothing, even for a request");
    assert.equal(ended.lines.length, 4, ended.lines.join("\n"));
    assert.ok(server.seen.some((s) => s.body === '[{"jsonrpc":"2.0","id":9,"method":"ping"}]'));
    assert.ok(server.seen.some((s) => s.body === "this is not JSON"));
    assert.match(ended.stderr, /^stretto-proxy: the server answered HTTP 401 Unauthorized$/m);
    assert.equal(server.seen.filter((s) => s.method === "DELETE").length, 0, "no session, no DELETE");
    assert.equal(server.seen.filter((s) => s.method === "GET").length, 1, "the GET stream was tried once, and refused with 405");
  });

  it("answers what is in flight when the host's input ends, then ends the session", async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const slow: Behaviour = (req, res, seen, n) => void released.then(() => result({ late: true })(req, res, seen, n));
    server = await startScriptedServer({
      post: { initialize: result(INIT_RESULT, { "mcp-session-id": "s-3" }), "notifications/initialized": accepted, slow },
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1), initialized, request(2, "slow"));
    await server.waitFor((s) => s.message?.method === "slow");
    const ending = host.end();
    setTimeout(release, 100);
    const ended = await ending;
    assert.equal(ended.code, 0);
    assert.equal(ended.lines[1], '{"jsonrpc":"2.0","id":2,"result":{"late":true}}');
    const del = server.seen.findIndex((s) => s.method === "DELETE");
    assert.ok(del > server.seen.findIndex((s) => s.message?.method === "slow"));
    assert.equal(server.seen[del]!.headers["mcp-session-id"], "s-3");
  });

  it("ends the session and exits 0 on SIGTERM", async () => {
    server = await startScriptedServer({
      post: { initialize: result(INIT_RESULT, { "mcp-session-id": "s-4" }), "notifications/initialized": accepted, forever: silent },
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1), initialized, request(2, "forever"));
    await server.waitFor((s) => s.message?.method === "forever");
    host.kill("SIGTERM");
    const ended = await host.exit();
    assert.equal(ended.code, 0);
    assert.equal(ended.lines.length, 1);
    assert.equal(server.seen.find((s) => s.method === "DELETE")?.headers["mcp-session-id"], "s-4");
  });
});
