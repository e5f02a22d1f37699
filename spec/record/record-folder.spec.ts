/**
 * `--record` as a user meets it through the real binary: a value that names no folder is a
 * usage error, a folder that cannot be made fails at once, and what the proxy writes there
 * is its user's alone, never written through a link planted in its way.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, NODE, PROXY, cleanTemp, killAll, runProxy, sessionLogs, start, tempDir } from "../helpers/processes.js";
import { FLOW, Host, requireFixture } from "../e2e/flow-support.js";

const mode = (path: string) => statSync(path).mode & 0o777;
const USAGE_TAIL = "\n\nUsage: stretto-proxy [OPTIONS] [-- <SERVER_COMMAND>...]\n\nFor more information, try '--help'.\n";

describe("the record folder and the files in it", () => {
  after(() => {
    killAll();
    cleanTemp();
  });

  it("--record= (empty) is a usage error: exit 2, and nothing runs", async () => {
    const root = tempDir();
    const marker = join(root, "started");
    const r = await runProxy(["--record=", "--", "sh", "-c", `touch ${marker}`], { cwd: root });
    assert.equal(r.code, 2);
    assert.equal(r.stdout.length, 0);
    assert.equal(r.stderr, `error: invalid value '' for '--record <DIR>': the folder's name is empty${USAGE_TAIL}`);
    assert.deepEqual(readdirSync(root), [], "no server started, nothing created");
  });

  it("--record naming a file is a usage error: exit 2, the file untouched, and nothing runs", async () => {
    const root = tempDir();
    const file = join(root, "notes.txt");
    writeFileSync(file, "mine\n");
    const marker = join(root, "started");
    const r = await runProxy(["--record", file, "--retain-days", "0", "--", "sh", "-c", `touch ${marker}`]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `error: invalid value '${file}' for '--record <DIR>': it is a file, not a folder${USAGE_TAIL}`);
    assert.equal(readFileSync(file, "utf8"), "mine\n");
    assert.ok(!existsSync(marker));
  });

  it("--record under /proc fails at once with 125 and says which folder it could not create", async function () {
    if (!existsSync("/proc/self")) this.skip();
    const root = tempDir();
    const marker = join(root, "started");
    const t0 = Date.now();
    const r = await runProxy(["--record", "/proc/x/y", "--", "sh", "-c", `touch ${marker}`], { timeoutMs: 10_000 });
    assert.equal(r.code, 125);
    assert.equal(r.stderr, "stretto-proxy: creating /proc/x/y: No such file or directory (os error 2)\n");
    assert.ok(Date.now() - t0 < 5000, "no busy loop");
    assert.ok(!existsSync(marker), "the server never starts");
  });

  it("writes the session log 0600 in folders it creates 0700; a folder that was there keeps its mode", async () => {
    const root = tempDir();
    const mine = join(root, "mine");
    mkdirSync(mine);
    chmodSync(mine, 0o755);
    const logs = join(mine, "a/b");
    const r = await runProxy(["--record", logs, "--", "cat"], { input: "hello\n" });
    assert.equal(r.code, 0);
    const [log] = sessionLogs(logs);
    assert.ok(log);
    assert.equal(mode(log), 0o600);
    assert.equal(mode(logs), 0o700);
    assert.equal(mode(join(mine, "a")), 0o700);
    assert.equal(mode(mine), 0o755);
  });

  describe("the flow log", function () {
    before(function () {
      requireFixture(this);
    });

    async function flowSession(args: string[]): Promise<{ code: number | null; stderr: string }> {
      const host = new Host(start(NODE, [PROXY, "--flow", FLOW, "--flow-decider", "habit", ...args, "--", NODE, DEMO, "--world", "retail"]));
      await host.start();
      await host.call(3);
      const code = await host.end();
      return { code, stderr: host.stderr };
    }

    it("is created 0600 beside the session log", async () => {
      const dir = tempDir();
      const r = await flowSession(["--record", dir]);
      assert.equal(r.code, 0);
      const name = readdirSync(dir).find((f) => f.endsWith(".flow.jsonl"));
      assert.ok(name, r.stderr);
      assert.equal(mode(join(dir, name)), 0o600);
    });

    it("is never written through a symlink planted at its path: stderr says so, the target is untouched", async () => {
      const dir = tempDir();
      const outside = tempDir();
      const target = join(outside, "victim.json");
      writeFileSync(target, '{"keep":true}\n');
      const planted = join(dir, "planted.flow.jsonl");
      symlinkSync(target, planted);
      const dangling = join(dir, "dangling.flow.jsonl");
      symlinkSync(join(outside, "created-through-link"), dangling);

      for (const path of [planted, dangling]) {
        const r = await flowSession(["--flow-log", path]);
        assert.equal(r.code, 0, "the flow runs on without its log");
        assert.ok(
          r.stderr.split("\n").includes(`stretto-proxy: flow log ${path}: is a symbolic link; refusing to write through it`),
          r.stderr,
        );
      }
      assert.equal(readFileSync(target, "utf8"), '{"keep":true}\n');
      assert.ok(!existsSync(join(outside, "created-through-link")));
    });
  });
});
