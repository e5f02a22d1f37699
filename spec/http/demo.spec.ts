/**
 * The proxy in front of the strict
 * demo server (`stretto-mcp-demo --http`), a port nobody listens on, and the headers that come
 * from the environment; plus the command line's rules for `--upstream`.
 */
import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanTemp, killAll, readLogLines, runProxy, sessionLogs, tempDir } from "../helpers/processes.js";
import { HostSession, deadPort, initialize, initialized, proxyError, request, startDemoHttp } from "./support.js";

const HELLO = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"hello from the server's own stream","level":"info"}}`;

describe("http upstream: in front of stretto-mcp-demo --http", function () {
  afterEach(() => {
    killAll();
    cleanTemp();
  });

  it("records a Streamable HTTP session", async () => {
    const { url } = await startDemoHttp();
    const record = tempDir();
    const host = HostSession.start(["--record", record, "--domain", "demo", "--upstream", `${url}?token=s3cret`]);
    host.send(initialize(1), initialized);
    // The server's own stream says hello once `initialized` has gone.
    assert.equal(await host.waitFor((l) => l.includes("hello from the server's own stream")), HELLO);
    host.send(
      request(2, "tools/list"),
      request(3, "tools/call", { name: "lookup", arguments: { text: "hi" } }),
      request(4, "ping"),
    );
    const list = await host.answerTo(2);
    assert.deepEqual(
      ((list["result"] as { tools: Array<{ name: string }> }).tools).map((t) => t.name),
      ["lookup", "update"],
    );
    const call = await host.answerTo(3);
    assert.deepEqual(call["result"], { content: [{ text: '{"text":"hi"}', type: "text" }], isError: false });
    assert.deepEqual((await host.answerTo(4))["result"], {});
    const ended = await host.end();
    assert.equal(ended.code, 0);

    // The tool call came as an event stream: its log message first, then the answer.
    const calling = ended.lines.findIndex((l) => l.includes('"data":"calling lookup"'));
    const answer = ended.lines.findIndex((l) => l.includes('"id":3'));
    assert.ok(calling !== -1 && calling < answer, ended.lines.join("\n"));

    const logs = sessionLogs(record);
    assert.equal(logs.length, 1);
    const { header, entries } = readLogLines(logs[0]!);
    assert.deepEqual(header["server_command"], [`${url}?token=<redacted>`]);
    assert.equal(header["domain"], "demo");
    assert.equal(entries.filter((e) => e.includes('"from":"client"')).length, 5);
    assert.equal(entries.filter((e) => e.includes('"from":"server"')).length, 6);
    // Each line the host got is in the log, as the host got it.
    for (const line of ended.lines) assert.ok(entries.some((e) => e.endsWith(`"from":"server","message":${line}}`)), line);
    assert.ok(!readFileSync(logs[0]!, "utf8").includes("s3cret"));
    assert.equal(ended.stderr, `stretto-proxy: recording to ${logs[0]}\n`);
  });

  it("answers a request the server cannot take with an error", async () => {
    const port = await deadPort();
    const host = HostSession.start(["--upstream", `http://127.0.0.1:${port}/mcp`]);
    host.send(initialize(1), initialized, request(2, "tools/list"), { jsonrpc: "2.0", method: "notifications/progress", params: {} });
    assert.equal(await host.answerTo(1).then(JSON.stringify), proxyError(1, "the server could not be reached"));
    assert.equal(await host.answerTo(2).then(JSON.stringify), proxyError(2, "the server could not be reached"));
    const ended = await host.end();
    assert.equal(ended.code, 0);
    assert.deepEqual(ended.lines, [proxyError(1, "the server could not be reached"), proxyError(2, "the server could not be reached")]);
    const reasons = ended.stderr.split("\n").filter((l) => l !== "");
    assert.equal(reasons.length, 4, ended.stderr); // initialize, initialized, tools/list, the notification
    for (const l of reasons) {
      assert.equal(l, `stretto-proxy: the HTTP server could not be reached: connect ECONNREFUSED 127.0.0.1:${port}`);
    }
  });

  it("takes headers from the environment and keeps them out of the log", async () => {
    const TOKEN = "Bearer s3cret-t0ken-value";
    const { url } = await startDemoHttp(["--require-auth", TOKEN]);
    const record = tempDir();
    const env = { ...process.env, STRETTO_TEST_AUTH: TOKEN };

    const host = HostSession.start(["--record", record, "--upstream", url, "--upstream-header", "Authorization=STRETTO_TEST_AUTH"], env);
    host.send(initialize(1), initialized, request(2, "tools/call", { name: "lookup", arguments: {} }));
    assert.equal(((await host.answerTo(1))["result"] as { protocolVersion: string }).protocolVersion, "2025-06-18");
    assert.deepEqual((await host.answerTo(2))["result"], { content: [{ text: "{}", type: "text" }], isError: false });
    const ended = await host.end();
    assert.equal(ended.code, 0);
    const [log] = sessionLogs(record);
    const text = readFileSync(log!, "utf8");
    assert.ok(!text.includes("s3cret-t0ken"), "the header's value is never logged");
    assert.ok(!text.includes("STRETTO_TEST_AUTH"));

    // Without the header, the strict server refuses.
    const refused = HostSession.start(["--upstream", url]);
    refused.send(initialize(1));
    assert.equal(JSON.stringify(await refused.answerTo(1)), proxyError(1, "the server answered HTTP 401 Unauthorized"));
    assert.equal((await refused.end()).code, 0);

    // An unset variable stops the proxy before anything is sent: 125, and it is named.
    const before = readdirSync(record).length;
    const unset = await runProxy(["--record", record, "--upstream", url, "--upstream-header", "Authorization=STRETTO_TEST_UNSET"], {
      input: JSON.stringify(initialize(1)) + "\n",
    });
    assert.equal(unset.code, 125);
    assert.equal(unset.stdout.length, 0);
    assert.equal(unset.stderr, "stretto-proxy: the environment variable STRETTO_TEST_UNSET, for the header Authorization, is not set\n");
    assert.equal(readdirSync(record).length, before, "no log is left behind");
  });
});

describe("http upstream: the command line", function () {
  afterEach(() => {
    killAll();
    cleanTemp();
  });

  it("refuses --upstream-header without --upstream, and --upstream with a command or neither", async () => {
    const alone = await runProxy(["--upstream-header", "A=B", "--", "cat"]);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /^error: the following required arguments were not provided: --upstream <URL>\n/);
    const both = await runProxy(["--upstream", "http://127.0.0.1:9/mcp", "--", "cat"]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /^error: .*--upstream <URL>.*<SERVER_COMMAND>/);
    const neither = await runProxy([]);
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /^error: the following required arguments were not provided: <SERVER_COMMAND>\.\.\.\n/);
  });

  it("says exactly what is wrong with an --upstream-header, exit 125", async () => {
    const record = join(tempDir(), "logs");
    const r = await runProxy(["--record", record, "--upstream", "http://127.0.0.1:9/mcp", "--upstream-header", "Authorization"]);
    assert.equal(r.code, 125);
    assert.equal(r.stderr, "stretto-proxy: --upstream-header takes NAME=VAR, the header and the environment variable holding its value\n");
    assert.ok(!existsSync(record) || readdirSync(record).length === 0);
  });
});
