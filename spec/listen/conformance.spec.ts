/**
 * The official conformance suite (`@modelcontextprotocol/conformance` 0.1.12) in SERVER
 * mode, run twice in one test: against a reference server directly, and through
 * `stretto-proxy --listen -- <that server>`. The package ships no reference server, so the
 * reference is `@modelcontextprotocol/server-everything`: its own Streamable HTTP mode
 * directly, and its stdio mode behind the proxy (the same server code either way). Every
 * check that passes directly must pass through the proxy; the proxy may pass more (it
 * protects against DNS rebinding, which the reference does not).
 */
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { NODE, ROOT, cleanTemp, killAll, run, tempDir } from "../helpers/processes.js";
import { startEverything } from "../http/support.js";
import { Listening } from "./support.js";

const HARNESS = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** Every check of the active suite against `url`, as `<scenario>/<check>` → status. */
async function suite(url: string): Promise<Map<string, string>> {
  const out = tempDir("stretto-conformance-server-");
  await run(NODE, [HARNESS, "server", "--url", url, "-o", out], { cwd: out, timeoutMs: 90_000 });
  const statuses = new Map<string, string>();
  for (const dir of readdirSync(out)) {
    const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
    const checks = JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as Array<{ id: string; status: string }>;
    for (const c of checks) statuses.set(`${scenario}/${c.id}`, c.status);
  }
  return statuses;
}

describe("listen: the conformance suite, server mode", function () {
  this.timeout(120_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it("passes through the proxy every check the reference server passes directly", async () => {
    const reference = await startEverything();
    const direct = await suite(reference.url);
    reference.child.kill();
    const passedDirectly = [...direct].filter(([, s]) => s === "SUCCESS").map(([k]) => k);
    // Each scenario is a session of its own, so through the proxy each starts a server.
    const proxy = await Listening.start(["--", NODE, EVERYTHING, "stdio"]);
    const proxied = await suite(proxy.url);
    assert.equal(await proxy.stop(), 0);

    assert.ok(passedDirectly.length >= 10, `the reference passes ${passedDirectly.length} checks`);
    const lost = passedDirectly.filter((k) => proxied.get(k) !== "SUCCESS").map((k) => `${k}: ${proxied.get(k) ?? "not run"}`);
    assert.deepEqual(lost, []);
    // DNS rebinding protection is the proxy's own: it passes what the reference fails.
    const rebinding = [...proxied].filter(([k]) => k.startsWith("dns-rebinding-protection/"));
    assert.ok(rebinding.length > 0 && rebinding.every(([, s]) => s === "SUCCESS"), JSON.stringify(rebinding));
  });
});
