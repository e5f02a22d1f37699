/**
 * The console's command line and the access rules that need a console of their own: read-only
 * (every change and job refused, nothing written), --no-auth (only the console's own loopback
 * Host is answered, against DNS rebinding), the refusals at start, and `healthcheck`.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NODE, killAll, run, tempDir } from "../helpers/processes.js";
import { CONSOLE_BIN, TOKEN, ask, fixtureCopy, serve, type Served } from "./api-kit.js";

/** A GET with a Host header of our choosing (fetch will not send one). */
function withHost(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { Host: host } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("stretto console: read-only, --no-auth and the command line", function () {
  this.timeout(60_000);
  after(() => killAll());

  describe("read-only", () => {
    let s: Served;
    let before: string[];
    beforeEach(async () => {
      if (s !== undefined) return;
      const { data } = fixtureCopy();
      before = readdirSync(data).sort();
      s = await serve(["--data", data, "--token", TOKEN, "--read-only"]);
    });

    it("refuses every change and job, writes nothing, and still lets you log out", async () => {
      assert.match(s.stderr(), / on 127\.0\.0\.1:\d+, read-only\n/);
      const changes: [string, string, unknown?][] = [
        ["POST", "/api/jobs", { kind: "doctor" }],
        ["POST", "/api/servers", { name: "x", upstream: { kind: "stdio", command: ["x"] }, mode: "record" }],
        ["PUT", "/api/servers/shop", { name: "shop", upstream: { kind: "stdio", command: ["x"] }, mode: "record" }],
        ["DELETE", "/api/servers/shop"],
        ["POST", "/api/servers/shop/probe"],
        ["DELETE", "/api/sessions/anything"],
        ["DELETE", "/api/flows/shop"],
        ["POST", "/api/flows/shop/commit"],
        ["POST", "/api/flows/shop/rollback"],
        ["POST", "/api/jobs/x/cancel"],
      ];
      for (const [method, path, body] of changes) {
        const a = await ask(s.base, path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        assert.equal(a.status, 403, `${method} ${path}`);
        assert.equal((a.json as { error: string }).error, "the console is read-only (--read-only): it changes nothing");
      }
      assert.equal((await ask(s.base, "/api/logout", { method: "POST" })).status, 200);
      assert.equal((await ask(s.base, "/api/overview")).status, 200);
      assert.deepEqual(readdirSync(s.data).sort(), before);
      assert.ok(!existsSync(join(s.data, "console")));
    });
  });

  describe("--no-auth", () => {
    it("answers only its own loopback address and port", async () => {
      const { data } = fixtureCopy();
      const s = await serve(["--data", data, "--no-auth"]);
      assert.match(s.stderr(), /open http:\/\/127\.0\.0\.1:\d+\/ \(no token: --no-auth\)/);
      for (const host of [`localhost:${s.port}`, `127.0.0.1:${s.port}`, `LOCALHOST:${s.port}`]) {
        assert.equal((await withHost(s.port, "/api/meta", host)).status, 200, host);
      }
      for (const host of ["localhost:80", `127.0.0.1:${s.port + 1}`, `attacker.example:${s.port}`, `127.0.0.2:${s.port}`]) {
        const a = await withHost(s.port, "/api/health", host);
        assert.equal(a.status, 403, host);
        assert.match(a.body, /the Host header must be localhost, 127\.0\.0\.1 or \[::1\]/);
      }
      s.child.kill("SIGTERM");
      await new Promise((r) => s.child.once("exit", r));
      assert.match(s.stderr(), /stretto-console: stopped\n$/);
    });
  });

  describe("the command line", () => {
    it("refuses --no-auth off loopback, --token with --no-auth, and a read-only directory that is not there", async () => {
      const offLoopback = await run(NODE, [CONSOLE_BIN, "--no-auth", "--listen", "0.0.0.0:0", "--data", tempDir("stretto-console-access-")]);
      assert.equal(offLoopback.code, 1);
      assert.equal(offLoopback.stderr, "stretto-console: --no-auth is refused on 0.0.0.0:0: without a token, listen on a loopback address (127.0.0.1 or [::1])\n");
      const both = await run(NODE, [CONSOLE_BIN, "--no-auth", "--token", "x"]);
      assert.equal(both.code, 2);
      const missing = join(tmpdir(), "stretto-console-not-there");
      const ro = await run(NODE, [CONSOLE_BIN, "--read-only", "--data", missing, "--listen", "127.0.0.1:0"]);
      assert.equal(ro.code, 1);
      assert.equal(ro.stderr, `stretto-console: ${missing} does not exist (and --read-only creates nothing)\n`);
      const env = await run(NODE, [CONSOLE_BIN, "--data", missing], { env: { ...process.env, STRETTO_CONSOLE_LISTEN: "nowhere" } });
      assert.equal(env.code, 1);
      assert.equal(env.stderr, 'stretto-console: STRETTO_CONSOLE_LISTEN="nowhere" is not an address\n');
    });

    it("a new token is printed in the URL; healthcheck says whether the console answers", async () => {
      const { data } = fixtureCopy();
      const s = await serve(["--data", data]);
      const token = /\?token=([0-9a-f]{64})\n/.exec(s.stderr())?.[1];
      assert.ok(token, s.stderr());
      const ok = await run(NODE, [CONSOLE_BIN, "healthcheck", "--listen", `127.0.0.1:${s.port}`]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(ok.stderr, "");
      s.child.kill("SIGTERM");
      await new Promise((r) => s.child.once("exit", r));
      const down = await run(NODE, [CONSOLE_BIN, "healthcheck", "--listen", `127.0.0.1:${s.port}`]);
      assert.equal(down.code, 1);
      assert.match(down.stderr, new RegExp(`^stretto-console: http://127\\.0\\.0\\.1:${s.port}/api/health: `));
    });
  });
});
