/**
 * A server that exits at once (docs/exit-status-and-folder-readers.md): `sh -c 'uvx-not-installed …'` exits 127
 * within a few milliseconds, before active mode has set its plugins up. Whatever the mode,
 * with the host's stdin open or closed, with or without --record, the proxy exits with the
 * server's status (no hang: the helper's timeout is only a safety net), forwards what the
 * server wrote, and leaves a log with its header.
 */
import { strict as assert } from "node:assert";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_PATH as FLOW, fixtureText } from "../flow/flow-fixture.js";
import { DIST, cleanTemp, killAll, readLogLines, runProxy, sessionLogs, tempDir } from "../helpers/processes.js";

/** The input: a launcher that is not installed, so the shell exits 127 at once. */
const UVX_NOT_INSTALLED = ["sh", "-c", "uvx-not-installed some-mcp-server"];
const NOTE = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"bye"}}';

/** A conversation file for --context, made when a test runs (temporary folders go after each suite). */
function conversation(): string {
  const path = join(tempDir(), "conversation.jsonl");
  writeFileSync(path, '{"role":"user","content":"hello"}\n');
  return path;
}

/** Each way of making the proxy active (passive is plain forwarding), by name: its flags. */
function modes(): [string, () => string[]][] {
  const all: [string, () => string[]][] = [
    ["passive", () => []],
    ["--guards --domain retail", () => ["--guards", "--domain", "retail"]],
    ["--commit", () => ["--commit"]],
    ["--plugin", () => ["--plugin", join(DIST, "fixtures/plugins/deny-tool.js")]],
    ["--context", () => ["--context", conversation()]],
  ];
  // The published flow lives beside the repository; without it that mode is left out.
  if (fixtureText() !== undefined) all.push(["--flow", () => ["--flow", FLOW, "--flow-decider", "habit", "--oracle", "mock"]]);
  return all;
}

describe("a server that exits at once", function () {
  this.timeout(120_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  for (const [name, flagsOf] of modes()) {
    describe(name, () => {
      for (const keepStdinOpen of [false, true]) {
        const stdin = keepStdinOpen ? "the host's stdin open" : "the host's stdin closed";

        it(`exits 127, the server's status, with ${stdin}`, async () => {
          const r = await runProxy([...flagsOf(), "--", ...UVX_NOT_INSTALLED], { keepStdinOpen });
          assert.equal(r.code, 127, r.stderr);
          assert.equal(r.stdout.length, 0);
          assert.match(r.stderr, /uvx-not-installed: (command )?not found/);
        });

        it(`with --record, exits 127 and leaves a log with its header, with ${stdin}`, async () => {
          const dir = tempDir();
          const r = await runProxy(["--record", dir, ...flagsOf(), "--", ...UVX_NOT_INSTALLED], { keepStdinOpen });
          assert.equal(r.code, 127, r.stderr);
          const logs = sessionLogs(dir);
          assert.equal(logs.length, 1);
          assert.ok(statSync(logs[0]!).size > 0, "the log is not left at 0 bytes");
          const { header, entries } = readLogLines(logs[0]!);
          assert.deepEqual(header["server_command"], UVX_NOT_INSTALLED);
          // No traffic. With --context, the host's end (its stdin closed) can reach the context
          // plugin before the server's exit does; the plugin then logs the conversation, as it
          // does at every host end. Only that may be there.
          const traffic = entries.filter((e) => !(name === "--context" && e.endsWith(',"from":"context","message":{"role":"user","content":"hello"}}')));
          assert.deepEqual(traffic, []);
        });
      }

      it("forwards and records what the server wrote before it exited at once", async () => {
        const dir = tempDir();
        const r = await runProxy(["--record", dir, ...flagsOf(), "--", "sh", "-c", `echo '${NOTE}'; exit 3`], { keepStdinOpen: true });
        assert.equal(r.code, 3, r.stderr);
        assert.equal(r.stdout.toString(), `${NOTE}\n`);
        const { entries } = readLogLines(sessionLogs(dir)[0]!);
        assert.deepEqual(entries.map((e) => JSON.parse(e) as { from: string; message: unknown }).map((e) => [e.from, e.message]), [
          ["server", JSON.parse(NOTE)],
        ]);
      });
    });
  }
});
