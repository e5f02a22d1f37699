/**
 * A JSON body answers the request that was POSTed, or it is not taken as its answer: an
 * answer with another id (or no answer at all) reaches the host as the proxy's error for the
 * request, is said on stderr, and is logged as the proxy's line, like the transport's other
 * error answers. A batch must get one answer for each of its requests.
 */
import { strict as assert } from "node:assert";
import { accepted, jsonText, result, startScriptedServer, status, type Behaviour, type ScriptedServer } from "../../fixtures/http/scripted-server.js";
import { cleanTemp, killAll, readLogLines, sessionLogs, tempDir } from "../helpers/processes.js";
import { HostSession, initialize, initialized, proxyError, request } from "./support.js";

const INIT_RESULT = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "scripted", version: "0" } };
const MISMATCH = "the server's answer did not match the request";

/** Batches: the one with request 20 is answered right, the other with an id it did not ask. */
const batch: Behaviour = (req, res, seen, n) => {
  const ids = (JSON.parse(seen.body) as Array<{ id?: number }>).map((m) => m.id);
  const answerIds = ids.includes(20) ? ids : [ids[0], 12];
  jsonText(JSON.stringify(answerIds.map((id) => ({ jsonrpc: "2.0", id, result: {} }))))(req, res, seen, n);
};

describe("http upstream: a JSON body must answer the request it was POSTed for", function () {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    cleanTemp();
    await server?.close();
    server = undefined;
  });

  it("answers a body with another id, or none, with an error, logged as the proxy's", async () => {
    server = await startScriptedServer({
      post: {
        initialize: result(INIT_RESULT, { "mcp-session-id": "s-a" }),
        "notifications/initialized": accepted,
        right: result({ ok: true }),
        wrong: jsonText('{"jsonrpc":"2.0","id":99,"result":{}}'),
        stringId: jsonText('{"jsonrpc":"2.0","id":"3","result":{}}'),
        nullId: jsonText('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}'),
        notJson: status(200, { "content-type": "application/json; charset=utf-8" }, "oops"),
        notification: jsonText('{"jsonrpc":"2.0","method":"notifications/message","params":{}}'),
        "*": batch,
      },
    });
    const record = tempDir();
    const host = HostSession.start(["--record", record, "--upstream", server.url]);
    host.send(
      initialize(1),
      initialized,
      request(2, "wrong"),
      request(3, "stringId"),
      request(4, "nullId"),
      request(5, "notJson"),
      request(6, "notification"),
      request(7, "right"),
      [request(10, "b"), request(11, "b"), { jsonrpc: "2.0", method: "notifications/b" }],
      [request(20, "b"), request(21, "b")],
    );
    // The host's input ends at once: the proxy still answers everything in flight first.
    const ended = await host.end();
    assert.equal(ended.code, 0, ended.stderr);

    const batchError = `[${proxyError(10, MISMATCH)},${proxyError(11, MISMATCH)}]`;
    assert.deepEqual(ended.lines.slice(1).sort(), [
      ...[2, 3, 4, 5, 6].map((id) => proxyError(id, MISMATCH)),
      '{"jsonrpc":"2.0","id":7,"result":{"ok":true}}',
      batchError,
      '[{"jsonrpc":"2.0","id":20,"result":{}},{"jsonrpc":"2.0","id":21,"result":{}}]',
    ].sort(), ended.stderr);
    assert.ok(!ended.lines.some((l) => l.includes('"id":99') || l.includes('"id":12') || l.includes("notifications/message")), "a wrong answer never reaches the host");
    const said = ended.stderr.split("\n").filter((l) => l !== "").sort();
    assert.deepEqual(said, [
      `stretto-proxy: ${MISMATCH}: the answer to request 2 is for id 99`,
      `stretto-proxy: ${MISMATCH}: the answer to request 3 is for id "3"`,
      `stretto-proxy: ${MISMATCH}: the answer to request 4 is for id null`,
      `stretto-proxy: ${MISMATCH}: the answer to request 5 is not JSON`,
      `stretto-proxy: ${MISMATCH}: the answer to request 6 is not a JSON-RPC response`,
      `stretto-proxy: ${MISMATCH}: the answer to the batch of requests 10, 11 does not answer each of them once`,
      `stretto-proxy: recording to ${sessionLogs(record)[0]}`,
    ].sort());

    const [log] = sessionLogs(record);
    const logged = readLogLines(log!).entries.map((e) => JSON.parse(e) as { from: string; message: unknown });
    const from = (text: string) => logged.filter((e) => JSON.stringify(e.message) === text).map((e) => e.from);
    for (const id of [2, 3, 4, 5, 6]) assert.deepEqual(from(proxyError(id, MISMATCH)), ["proxy"], `the error for ${id}`);
    assert.deepEqual(from(batchError), ["proxy"]);
    assert.deepEqual(from('{"jsonrpc":"2.0","id":7,"result":{"ok":true}}'), ["server"]);
  });
});
