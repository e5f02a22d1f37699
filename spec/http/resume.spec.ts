/**
 * 2025-11-25 (SEP-1699): an answer's event stream that closes before the answer is picked up
 * again by GET with `Last-Event-ID`, after the server's `retry`; one that cannot be picked up
 * is answered with an error, so the host never waits forever.
 */
import { strict as assert } from "node:assert";
import { accepted, events, methodNotAllowed, result, startScriptedServer, type Behaviour, type ScriptedServer } from "../../fixtures/http/scripted-server.js";
import { killAll } from "../helpers/processes.js";
import { HostSession, initialize, initialized, proxyError, request } from "./support.js";

const INIT = result({ protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "scripted", version: "0" } }, { "mcp-session-id": "s-r" });
const PROGRESS = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}';
const ANSWER = '{"result":{"content":[]},"id":2,"jsonrpc":"2.0"}';

/** The standalone GET stream stays open and quiet; a GET that resumes `c-2` gets the answer. */
const resumeWithAnswer: Behaviour = (_req, res, seen) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  if (seen.headers["last-event-id"] === "c-2") res.write(`id: c-3\ndata: ${ANSWER}\n\n`);
};

describe("http upstream: resuming an answer's stream (SEP-1699)", function () {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    await server?.close();
    server = undefined;
  });

  it("reopens a stream closed before its answer by GET with Last-Event-ID", async () => {
    server = await startScriptedServer({
      post: {
        initialize: INIT,
        "notifications/initialized": accepted,
        "tools/call": events(`id: c-1\nretry: 100\ndata: \n\nid: c-2\ndata: ${PROGRESS}\n\n`),
      },
      get: [resumeWithAnswer],
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1, "2025-11-25"), initialized, request(2, "tools/call", { name: "t", arguments: {}, _meta: { progressToken: "t" } }));
    assert.equal(await host.waitFor((l) => l.includes('"id":2')), ANSWER);
    const resumed = await server.waitFor((s) => s.method === "GET" && s.headers["last-event-id"] !== undefined);
    const ended = await host.end();

    assert.equal(ended.code, 0);
    assert.equal(ended.stderr, "");
    // The priming event sent nothing; the progress came first, the answer after the resumption.
    assert.deepEqual(ended.lines.slice(1), [PROGRESS, ANSWER]);
    assert.equal(resumed.headers["last-event-id"], "c-2");
    assert.equal(resumed.headers["mcp-session-id"], "s-r");
    assert.equal(resumed.headers["mcp-protocol-version"], "2025-11-25");
    assert.equal(resumed.headers["accept"], "text/event-stream");
    assert.equal(server.seen.filter((s) => s.method === "DELETE").length, 1);
  });

  it("answers with an error when the stream cannot be resumed", async () => {
    server = await startScriptedServer({
      post: {
        initialize: INIT,
        "notifications/initialized": accepted,
        // An id to resume from, but the server offers no GET.
        resumable: events(`id: r-1\nretry: 50\ndata: \n\n`),
        // No event id at all: nothing to resume from.
        bare: events(`data: ${PROGRESS}\n\n`),
      },
      get: [methodNotAllowed],
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1, "2025-11-25"), initialized, request(2, "resumable"), request(3, "bare"));
    assert.equal(await host.waitFor((l) => l.includes('"id":2')), proxyError(2, "the server's answer was cut off"));
    assert.equal(await host.waitFor((l) => l.includes('"id":3')), proxyError(3, "the server's answer was cut off"));
    const ended = await host.end();
    assert.equal(ended.code, 0);
    assert.ok(ended.lines.includes(PROGRESS));
    assert.ok(server.seen.some((s) => s.method === "GET" && s.headers["last-event-id"] === "r-1"));
    assert.match(ended.stderr, /^stretto-proxy: reading the HTTP server's answer: the event stream ended before the answer$/m);
    assert.match(ended.stderr, /^stretto-proxy: reading the HTTP server's answer: the event stream ended before the answer, and could not be resumed$/m);
  });
});
