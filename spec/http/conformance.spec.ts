/**
 * The official conformance suite (`@modelcontextprotocol/conformance` 0.1.12) in client mode,
 * against the proxy's HTTP leg: the harness runs its test server and our SDK host
 * (fixtures/http/conformance-host.ts), which speaks to `stretto-proxy --upstream <URL>`
 * over stdio. The scenarios below must pass; the `auth/*` ones need OAuth in the
 * proxy and are listed in docs/http-upstream.md (Conformance).
 */
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DIST, NODE, ROOT, cleanTemp, killAll, run, tempDir } from "../helpers/processes.js";

const HARNESS = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SHIM = pathToFileURL(join(DIST, "fixtures/http/conformance-sdk-shim.js")).href;
const HOST = join(DIST, "fixtures/http/conformance-host.js");

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO";
  errorMessage?: string;
}

async function scenario(name: string): Promise<Check[]> {
  const out = tempDir("stretto-conformance-");
  const r = await run(NODE, ["--import", SHIM, HARNESS, "client", "--command", `${NODE} ${HOST}`, "--scenario", name, "-o", out], {
    cwd: out,
    timeoutMs: 60_000,
  });
  const dir = readdirSync(out).find((d) => d.startsWith(`${name}-`));
  assert.ok(dir !== undefined, `no results for ${name}: ${r.stderr}`);
  const checks = JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as Check[];
  const failed = checks.filter((c) => c.status === "FAILURE");
  assert.deepEqual(failed, [], `${name}: ${r.stderr}`);
  return checks;
}

describe("http upstream: the conformance suite, client mode", function () {
  this.timeout(120_000);
  afterEach(() => {
    killAll();
    cleanTemp();
  });

  it("passes `initialize`", async () => {
    const checks = await scenario("initialize");
    assert.equal(checks.find((c) => c.id === "mcp-client-initialization")?.status, "SUCCESS");
  });

  it("passes `tools_call`", async () => {
    const checks = await scenario("tools_call");
    assert.equal(checks.find((c) => c.id === "tool-add-numbers")?.status, "SUCCESS");
  });

  it("passes `sse-retry`: waits the server's retry and resumes with Last-Event-ID", async () => {
    const checks = await scenario("sse-retry");
    assert.equal(checks.find((c) => c.id === "client-sse-graceful-reconnect")?.status, "SUCCESS");
    assert.equal(checks.find((c) => c.id === "client-sse-last-event-id")?.status, "SUCCESS");
    // The harness times the reconnection: too early (under retry − 50 ms) or past twice the
    // retry is a FAILURE (asserted above); between retry + 200 ms and twice the retry it says
    // WARNING, which a loaded CI machine can cause, so that much is let through here.
    assert.ok(["SUCCESS", "WARNING"].includes(checks.find((c) => c.id === "client-sse-retry-timing")?.status ?? ""));
  });

  it("passes `elicitation-sep1034-client-defaults`: the server's request reaches the host and its answer goes back", async () => {
    const checks = await scenario("elicitation-sep1034-client-defaults");
    assert.equal(checks.filter((c) => c.id.startsWith("client-elicitation-sep1034-") && c.status === "SUCCESS").length, 5);
  });
});
