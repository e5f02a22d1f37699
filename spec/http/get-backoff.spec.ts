/**
 * The session's own GET stream: reopened with exponential back-off when the server accepts
 * it and closes it at once (1 s doubling to 30 s, the server's `retry` the least, starting
 * over after a stream that lived 10 s), and given up, said once on stderr, when the server
 * stops offering it (405) or after 5 failures in a row.
 */
import { strict as assert } from "node:assert";
import { accepted, methodNotAllowed, result, startScriptedServer, status, type ScriptedServer } from "../../fixtures/http/scripted-server.js";
import { closesAtOnce } from "../../fixtures/http/stream-behaviours.js";
import { Backoff } from "../../lib/transport/http/reconnect.js";
import { killAll } from "../helpers/processes.js";
import { HostSession, initialize, initialized } from "./support.js";

const INIT = result({ protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "scripted", version: "0" } }, { "mcp-session-id": "s-g" });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("http upstream: reopening the GET stream", function () {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    await server?.close();
    server = undefined;
  });

  it("backs off exponentially from 1 s to 30 s, never under the server's retry, and starts over after a stream that lived", () => {
    const b = new Backoff();
    assert.equal(b.delay(undefined), 500, "after a stream that lived: the default wait");
    assert.equal(b.delay(100), 100, "or the server's retry");
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      b.ended(5);
      waits.push(b.delay(100));
    }
    assert.deepEqual(waits, [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    assert.equal(b.delay(45_000), 45_000, "a longer retry is honoured");
    b.ended(10_000);
    assert.equal(b.delay(undefined), 500, "a stream that stayed open 10 s starts the back-off over");
    b.failed();
    b.failed();
    assert.equal(b.delay(undefined), 2_000, "failed attempts back off the same way");
  });

  it("reopens a stream the server accepts and closes at once less and less often", async function () {
    this.timeout(30_000);
    server = await startScriptedServer({
      post: { initialize: INIT, "notifications/initialized": accepted },
      get: [closesAtOnce("retry: 100\n: closing at once\n\n")],
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1, "2025-11-25"), initialized);
    await server.waitFor((s) => s.method === "GET");
    const first = Date.now();
    await pause(7_600);
    const ended = await host.end();
    const at = server.seen.filter((s) => s.method === "GET").length;
    assert.equal(ended.code, 0);
    assert.equal(ended.stderr, "");
    // 0, 1, 3 and 7 s: four GETs in 7.6 s (a fixed 500 ms, or the server's 100 ms, would be 15 or more).
    assert.equal(at, 4, `GETs in ${Date.now() - first} ms`);
  });

  it("stops when the server stops offering the stream (405), and says so once", async function () {
    this.timeout(30_000);
    server = await startScriptedServer({
      post: { initialize: INIT, "notifications/initialized": accepted },
      get: [closesAtOnce("id: g-1\ndata: \n\n"), methodNotAllowed],
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1, "2025-11-25"), initialized);
    await server.waitFor((s) => s.method === "GET" && s.headers["last-event-id"] === "g-1");
    await pause(3_500); // past the next two waits (1 s, 2 s), were it still trying
    const ended = await host.end();
    assert.equal(ended.code, 0);
    assert.equal(server.seen.filter((s) => s.method === "GET").length, 2);
    assert.equal(ended.stderr, "stretto-proxy: the server's own event stream (GET) is not reopened: the server answered HTTP 405 Method Not Allowed\n");
  });

  it("gives up after 5 failures in a row, and says so once", async function () {
    this.timeout(40_000);
    server = await startScriptedServer({
      post: { initialize: INIT, "notifications/initialized": accepted },
      get: [status(503)],
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1, "2025-11-25"), initialized);
    // 1 + 2 + 4 + 8 s between the five tries.
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (host.stderr !== "") {
          clearInterval(check);
          resolve();
        }
      }, 100);
    });
    await pause(500);
    const ended = await host.end();
    assert.equal(ended.code, 0);
    assert.equal(server.seen.filter((s) => s.method === "GET").length, 5);
    assert.equal(
      ended.stderr,
      "stretto-proxy: the server's own event stream (GET) is not reopened: 5 tries in a row failed, the last with: the server answered HTTP 503 Service Unavailable\n",
    );
  });
});
