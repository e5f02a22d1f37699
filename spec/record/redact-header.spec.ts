/**
 * The real proxy, run with `--record`, keeps none of the command line's or the upstream URL's
 * secrets in the log, in any of the forms docs/secrets-and-upstream-options.md lists.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { accepted, result, startScriptedServer, type ScriptedServer } from "../../fixtures/http/scripted-server.js";
import { cleanTemp, jsonLines, killAll, readLogLines, runProxy, sessionLogs, tempDir } from "../helpers/processes.js";

const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

describe("credential redaction: what the real proxy records", function () {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    killAll();
    cleanTemp();
    await server?.close();
    server = undefined;
  });

  it("keeps no secret of the server command in the log", async () => {
    const secrets = ["S3cr-pg", "S3cr-mongo", "S3cr-redis", "S3cr-query", "S3cr-xkey", "S3cr-pass", "S3cr-passeq", "S3cr-json", "S3cr-nested", "S3cr-shell"];
    // `sh -c 'exec cat' sh …`: the words after the script are only recorded, never run.
    const command = [
      "sh", "-c", "exec cat", "sh",
      "postgresql://user:S3cr-pg@db.example.com:5432/shop",
      "--mongo=mongodb+srv://u:S3cr-mongo@cluster0.example.net/db?retryWrites=true",
      "REDIS_URL=redis://:S3cr-redis@cache:6379/0",
      "https://example.com/mcp?region=eu&access_token=S3cr-query",
      "--header", "X-API-Key: S3cr-xkey",
      "--pass", "S3cr-pass", "--password=S3cr-passeq",
      '{"apiKey":"S3cr-json","db":{"host":"db","password":"S3cr-nested"}}',
      "node server.js --api-key S3cr-shell --port 3000",
    ];
    const record = tempDir();
    const ran = await runProxy(["--record", record, "--", ...command], { input: jsonLines(PING) });
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout.toString(), jsonLines(PING), "the server (cat) still gets and echoes the line");

    const [log] = sessionLogs(record);
    const text = readFileSync(log!, "utf8");
    for (const s of secrets) assert.ok(!text.includes(s), `${s} is in the log:\n${text}`);
    assert.deepEqual(readLogLines(log!).header["server_command"], [
      "sh", "-c", "exec cat", "sh",
      "postgresql://db.example.com:5432/shop",
      "--mongo=mongodb+srv://cluster0.example.net/db?retryWrites=true",
      "REDIS_URL=redis://cache:6379/0",
      "https://example.com/mcp?region=eu&access_token=<redacted>",
      "--header", "X-API-Key: <redacted>",
      "--pass", "<redacted>", "--password=<redacted>",
      '{"apiKey":"<redacted>","db":{"host":"db","password":"<redacted>"}}',
      "node server.js --api-key <redacted> --port 3000",
    ]);
  });

  it("keeps no secret of the --upstream URL in the log: userinfo, sig, X-Amz-Signature, jwt in any position", async () => {
    server = await startScriptedServer({
      post: {
        initialize: result({ protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "scripted", version: "0" } }),
        "notifications/initialized": accepted,
      },
    });
    const url = new URL(server.url);
    url.username = "me";
    url.password = "S3cr-user";
    url.search = "?region=eu&sig=S3cr-sig&X-Amz-Signature=S3cr-amz&jwt=S3cr-jwt&encoding=utf-8";
    const record = tempDir();
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "spec", version: "0" } } };
    const ran = await runProxy(["--record", record, "--upstream", url.href], { input: jsonLines(init) });
    assert.equal(ran.code, 0, ran.stderr);

    const [log] = sessionLogs(record);
    const text = readFileSync(log!, "utf8");
    for (const s of ["S3cr-user", "S3cr-sig", "S3cr-amz", "S3cr-jwt"]) assert.ok(!text.includes(s), `${s} is in the log:\n${text}`);
    assert.deepEqual(readLogLines(log!).header["server_command"], [
      `http://${url.host}/mcp?region=eu&sig=<redacted>&X-Amz-Signature=<redacted>&jwt=<redacted>&encoding=utf-8`,
    ]);
  });
});
