/**
 * What `--upstream` and `--upstream-header` refuse before
 * anything is sent (usage errors, exit 2), what a user and password in the URL do, and
 * whose the proxy's own `-32000` answers are in the log.
 */
import { strict as assert } from "node:assert";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { accepted, result, startScriptedServer, status, type ScriptedServer } from "../../fixtures/http/scripted-server.js";
import { reservedHeader, resolveUpstreamHeaders } from "../../lib/transport/http/headers.js";
import { NODE, STRETTO, cleanTemp, killAll, readLogLines, run, runProxy, sessionLogs, tempDir, type Ran } from "../helpers/processes.js";
import { HostSession, deadPort, initialize, initialized, proxyError, request } from "./support.js";

const INIT_RESULT = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "scripted", version: "0" } };
const USAGE_TAIL = "\n\nUsage: stretto-proxy [OPTIONS] [-- <SERVER_COMMAND>...]\n\nFor more information, try '--help'.\n";

/** Runs the proxy with a host line waiting and `--record`; a usage error must leave no trace. */
async function refused(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  const record = join(tempDir(), "logs");
  const ran = await runProxy(["--record", record, ...args], { input: `${JSON.stringify(initialize(1))}\n`, env });
  assert.equal(ran.code, 2, ran.stderr);
  assert.equal(ran.stdout.length, 0);
  assert.ok(!existsSync(record) || readdirSync(record).length === 0, "nothing is recorded");
  return ran;
}

describe("http upstream: options refused before anything is sent", function () {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    cleanTemp();
    await server?.close();
    server = undefined;
  });

  it("refuses an --upstream that is not an http(s) URL it can reach, exit 2", async () => {
    const cases: Array<[string, string]> = [
      ["ftp://example.com/mcp", "only http:// and https:// servers can be proxied, not ftp:"],
      ["http://127.0.0.1:99999/mcp", "port 99999 is out of range (1 to 65535)"],
      ["http://127.0.0.1:0/mcp", "port 0 is out of range (1 to 65535)"],
      ["not a url", "not a URL; give the server's endpoint, like https://example.com/mcp"],
      ["example.com/mcp", "not a URL; give the server's endpoint, like https://example.com/mcp"],
    ];
    for (const [url, why] of cases) {
      const ran = await refused(["--upstream", url]);
      assert.equal(ran.stderr, `error: invalid value '${url}' for '--upstream <URL>': ${why}${USAGE_TAIL}`);
    }
    // The URL is echoed redacted: stderr often lands in a host's own log files.
    const secret = await refused(["--upstream", "ftp://me:S3cr-pw@example.com/mcp?token=S3cr-t"]);
    assert.ok(!secret.stderr.includes("S3cr"), secret.stderr);
    assert.match(secret.stderr, /^error: invalid value 'ftp:\/\/example\.com\/mcp\?token=<redacted>' for '--upstream <URL>'/);
  });

  it("refuses --upstream-header for a framing or protocol header, naming it, exit 2", async () => {
    const framing = ["Content-Length", "Transfer-Encoding", "Content-Encoding", "Accept-Encoding", "Host", "Connection", "Keep-Alive", "Upgrade", "TE", "Trailer", "Expect"];
    const protocol = ["Accept", "Content-Type", "Last-Event-ID", "Mcp-Session-Id", "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Mcp-Param-Region"];
    const env = { ...process.env, STRETTO_TEST_VALUE: "x" };
    for (const name of [...framing, ...protocol, "Proxy-Authorization", "proxy-connection"]) {
      const ran = await refused(["--upstream", "http://127.0.0.1:9/mcp", "--upstream-header", `${name}=STRETTO_TEST_VALUE`], env);
      const first = ran.stderr.split("\n")[0]!;
      assert.ok(first.startsWith(`error: invalid value '${name}=STRETTO_TEST_VALUE' for '--upstream-header <NAME=VAR>': `), first);
      assert.ok(first.includes(name), first);
      assert.ok(ran.stderr.endsWith(USAGE_TAIL));
    }
    // Checked before the environment: the variable need not be set.
    const unset = await refused(["--upstream", "http://127.0.0.1:9/mcp", "--upstream-header", "Host=STRETTO_TEST_UNSET"]);
    assert.equal(
      unset.stderr,
      `error: invalid value 'Host=STRETTO_TEST_UNSET' for '--upstream-header <NAME=VAR>': the proxy's HTTP client sets Host itself; HTTP framing and connection headers cannot be configured${USAGE_TAIL}`,
    );
  });

  it("refuses a user or password in --upstream together with an Authorization header, exit 2", async () => {
    const env = { ...process.env, STRETTO_TEST_AUTH: "Bearer t" };
    for (const [url, header] of [
      ["http://me:pw@127.0.0.1:9/mcp", "Authorization=STRETTO_TEST_AUTH"],
      ["http://token@127.0.0.1:9/mcp", "authorization=STRETTO_TEST_AUTH"],
    ] as const) {
      const ran = await refused(["--upstream", url, "--upstream-header", header], env);
      assert.equal(
        ran.stderr,
        `error: the argument '--upstream-header ${header}' cannot be used with a user or password in '--upstream <URL>': ` +
          `both set Authorization (the URL's as HTTP Basic authentication, which would replace the header); give the credentials one way${USAGE_TAIL}`,
      );
      assert.ok(!ran.stderr.includes("pw@") && !ran.stderr.includes("token@"));
    }
  });

  it("sends a user and password in --upstream as HTTP Basic authentication, percent-decoded", async () => {
    server = await startScriptedServer({ post: { initialize: result(INIT_RESULT), "notifications/initialized": accepted } });
    const url = new URL(server.url);
    url.username = "me@example.com";
    url.password = "p:ss w/rd";
    const host = HostSession.start(["--upstream", url.href, "--upstream-header", "X-Tenant=STRETTO_TEST_TENANT"], {
      ...process.env,
      STRETTO_TEST_TENANT: "shop",
    });
    host.send(initialize(1));
    assert.deepEqual((await host.answerTo(1))["result"], INIT_RESULT);
    const ended = await host.end();
    assert.equal(ended.code, 0);
    const post = server.seen.find((s) => s.message?.method === "initialize")!;
    assert.equal(post.headers["authorization"], `Basic ${Buffer.from("me@example.com:p:ss w/rd").toString("base64")}`);
    assert.equal(post.headers["x-tenant"], "shop", "other headers still go");
  });

  it("refuses reserved headers in the library too (the proxy's own failure there)", () => {
    assert.equal(reservedHeader("X-API-Key"), undefined);
    assert.equal(reservedHeader("Authorization"), undefined);
    assert.equal(reservedHeader("Cookie"), undefined);
    assert.match(reservedHeader("transfer-encoding")!, /HTTP framing/);
    assert.match(reservedHeader("Mcp-Session-Id")!, /MCP's transport headers/);
    assert.throws(() => resolveUpstreamHeaders(["Content-Length=V"], { V: "1" }), {
      message: "--upstream-header Content-Length=V: the proxy's HTTP client sets Content-Length itself; HTTP framing and connection headers cannot be configured",
    });
  });
});

describe("http upstream: the proxy's own error answers are logged as the proxy's", function () {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    cleanTemp();
    await server?.close();
    server = undefined;
  });

  /** The log's entries as [from, message text] pairs. */
  function entries(record: string): Array<[string, string]> {
    const [log] = sessionLogs(record);
    return readLogLines(log!).entries.map((e) => {
      const m = /^\{"t_ms":\d+,"from":"(\w+)","message":(.*)\}$/.exec(e);
      assert.ok(m, e);
      return [m[1]!, m[2]!];
    });
  }

  for (const mode of [["passive", []], ["active (--commit)", ["--commit"]]] as const) {
    it(`in ${mode[0]} mode: the server's answers as the server's, the proxy's -32000 errors as the proxy's, once each`, async () => {
      server = await startScriptedServer({
        post: { initialize: result(INIT_RESULT), "notifications/initialized": accepted, ping: result({}), locked: status(401) },
      });
      const record = tempDir();
      const host = HostSession.start(["--record", record, ...mode[1], "--upstream", server.url]);
      host.send(initialize(1), initialized, request(2, "locked"), request(3, "ping"));
      await host.answerTo(2);
      await host.answerTo(3);
      const ended = await host.end();
      assert.equal(ended.code, 0);

      const logged = entries(record);
      const refusal = proxyError(2, "the server answered HTTP 401 Unauthorized");
      assert.deepEqual(logged.filter(([, m]) => m === refusal), [["proxy", refusal]]);
      assert.deepEqual(logged.filter(([, m]) => m === '{"jsonrpc":"2.0","id":3,"result":{}}'), [["server", '{"jsonrpc":"2.0","id":3,"result":{}}']]);
      assert.equal(logged.filter(([from, m]) => from === "server" && m.includes('"id":1')).length, 1, "initialize's answer is the server's");
    });
  }

  it("and `stretto replay` still plays them where the server's answer was: a commit's failed call reads the same", async () => {
    server = await startScriptedServer({
      post: { initialize: result(INIT_RESULT), "notifications/initialized": accepted, "tools/call": status(401) },
    });
    const record = tempDir();
    const host = HostSession.start(["--record", record, "--commit", "--upstream", server.url]);
    const commit = request("x", "tools/call", { name: "stretto_commit", arguments: { calls: [{ name: "lookup", arguments: {} }] } });
    host.send(initialize(1), initialized, commit);
    const live = (await host.answerTo("x"))["result"] as { content: Array<{ text: string }>; isError: boolean };
    assert.equal(live.content[0]!.text, "lookup {} (error):\nstretto-proxy: the server answered HTTP 401 Unauthorized");
    assert.equal((await host.end()).code, 0);
    const [log] = sessionLogs(record);
    assert.ok(entries(record).some(([from, m]) => from === "proxy" && m === proxyError("stretto-1", "the server answered HTTP 401 Unauthorized")));

    const replayed = await run(NODE, [STRETTO, "replay", log!, "--commit"]);
    assert.equal(replayed.code, 0, replayed.stderr);
    const answered = replayed.stdout.toString().trimEnd().split("\n").map((l) => JSON.parse(l) as { action: string; text?: string }).find((a) => a.action === "answered");
    assert.equal(answered?.text, live.content[0]!.text);
  });

  it("logs an unreachable server's errors as the proxy's", async () => {
    const record = tempDir();
    const host = HostSession.start(["--record", record, "--upstream", `http://127.0.0.1:${await deadPort()}/mcp`]);
    host.send(initialize(1), request(2, "tools/list"));
    await host.answerTo(2);
    const ended = await host.end();
    assert.equal(ended.code, 0);
    assert.deepEqual(
      entries(record).filter(([from]) => from !== "client"),
      [
        ["proxy", proxyError(1, "the server could not be reached")],
        ["proxy", proxyError(2, "the server could not be reached")],
      ],
    );
  });
});
