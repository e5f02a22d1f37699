/**
 * A request the host cancels (`notifications/cancelled`): nothing more is waited for on its
 * behalf, and nothing is said about it. The GET that resumes its stream is dropped even
 * while it still connects, and a refusal that comes in for it is not reported.
 */
import { strict as assert } from "node:assert";
import { accepted, events, result, startScriptedServer, type ScriptedServer } from "../../fixtures/http/scripted-server.js";
import { headThenHold, heldWithoutHead } from "../../fixtures/http/stream-behaviours.js";
import { killAll } from "../helpers/processes.js";
import { HostSession, initialize, initialized, request } from "./support.js";

const INIT = result({ protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "scripted", version: "0" } }, { "mcp-session-id": "s-c" });
const cancel = (requestId: number) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "no longer needed" } });
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };

/** Resolves with `what`, or rejects with `message` after `ms`. */
function within<T>(what: Promise<T>, ms: number, message: string): Promise<T> {
  let timer!: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([what, late]).finally(() => clearTimeout(timer));
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("http upstream: a request the host cancels", function () {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    await server?.close();
    server = undefined;
  });

  it("drops the GET that resumes its stream while that GET still connects", async () => {
    const resume = heldWithoutHead();
    const standalone = heldWithoutHead();
    server = await startScriptedServer({
      post: {
        initialize: INIT,
        "notifications/initialized": accepted,
        // An id to resume from, then the stream ends before the answer.
        "tools/call": events(`id: c-1\nretry: 50\ndata: \n\n`),
        "notifications/cancelled": accepted,
      },
      // The session's own stream, then the resumption: neither gets an answer head.
      get: [standalone.behaviour, resume.behaviour],
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1, "2025-11-25"), initialized, request(2, "tools/call", { name: "slow", arguments: {} }));
    await server.waitFor((s) => s.method === "GET" && s.headers["last-event-id"] === "c-1");
    host.send(cancel(2));
    // The server is told (this revision cancels by the notification) …
    await server.waitFor((s) => s.message?.method === "notifications/cancelled");
    // … and the proxy stops waiting: the resuming GET is dropped.
    await within(resume.closed, 5_000, "the GET resuming a cancelled request was not dropped");
    const ended = await within(host.end(), 10_000, "the proxy did not end");
    assert.equal(ended.code, 0);
    assert.equal(ended.stderr, "");
    assert.ok(!ended.lines.some((l) => l.includes('"id":2')), "a cancelled request gets no answer from the proxy");
    assert.equal(server.seen.filter((s) => s.method === "GET" && s.headers["last-event-id"] === "c-1").length, 1, "and is not resumed again");
  });

  it("drops a POST still waiting for its answer's head, and one still waiting for a connection, which is then never sent", async () => {
    // Every tools/call is held without a head; the 64 connections of the request pool fill,
    // and the 65th call waits in the proxy for one.
    let closed = 0;
    let allClosed!: () => void;
    const everyHeldClosed = new Promise<void>((r) => (allClosed = r));
    const HELD = 64;
    server = await startScriptedServer({
      post: {
        initialize: INIT,
        "notifications/initialized": accepted,
        "notifications/cancelled": accepted,
        "tools/call": (_req, res) => {
          res.once("close", () => {
            if (++closed === HELD) allClosed();
          });
        },
      },
    });
    const host = HostSession.start(["--upstream", server.url]);
    host.send(initialize(1, "2025-11-25"), initialized);
    await host.answerTo(1);
    const ids = Array.from({ length: HELD + 1 }, (_, i) => 10 + i);
    host.send(...ids.map((id) => request(id, "tools/call", { name: "slow", arguments: { id } })));
    const held = server;
    await held.waitFor(() => held.seen.filter((s) => s.message?.method === "tools/call").length === HELD);
    const queued = ids[HELD]!;
    host.send(cancel(queued), ...ids.slice(0, HELD).map((id) => cancel(id)));
    await within(everyHeldClosed, 10_000, "the cancelled POSTs' connections were not dropped");
    const ended = await within(host.end(), 10_000, "the proxy did not end");
    assert.equal(ended.code, 0);
    assert.equal(ended.stderr, "");
    assert.ok(!ended.lines.some((l) => ids.some((id) => l.includes(`"id":${id}`))), "no answer for a cancelled request");
    const calls = server.seen.filter((s) => s.message?.method === "tools/call");
    assert.equal(calls.length, HELD, "the call cancelled while it waited for a connection was never sent");
    assert.ok(!calls.some((s) => s.message?.id === queued));
  });

  for (const era of ["2025-11-25", "2026-07-28"] as const) {
    it(`says nothing on stderr about a refusal that comes in for it (${era})`, async () => {
      const refusal = headThenHold(400, '{"jsonrpc":"2.0",');
      server = await startScriptedServer({
        post: { initialize: INIT, "notifications/initialized": accepted, "tools/call": refusal.behaviour, "notifications/cancelled": accepted },
      });
      const host = HostSession.start(["--upstream", server.url]);
      const call = request(2, "tools/call", { name: "slow", arguments: {}, ...(era === "2026-07-28" ? { _meta: META } : {}) });
      if (era === "2026-07-28") host.send(call);
      else host.send(initialize(1, era), initialized, call);
      await server.waitFor((s) => s.message?.method === "tools/call");
      await refusal.headSent;
      await pause(300); // the refusal's head reaches the proxy, its body is still coming
      host.send(cancel(2));
      await within(refusal.closed, 5_000, "the cancelled request's connection was not dropped");
      const ended = await within(host.end(), 10_000, "the proxy did not end");
      assert.equal(ended.code, 0);
      assert.equal(ended.stderr, "", "nothing is said about work the host cancelled");
      assert.ok(!ended.lines.some((l) => l.includes('"id":2')));
    });
  }
});
