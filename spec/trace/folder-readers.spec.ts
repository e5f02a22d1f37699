/**
 * The `stretto` commands that read a folder of session logs (episodes, manifest, guards)
 * when the folder holds files named `*.jsonl` that are no logs (docs/exit-status-and-folder-readers.md): a
 * 0-byte log (as SIGKILL before the first line leaves it), a corrupt one, a FIFO. Each is
 * skipped with one warning naming it and the rest is read; with --strict it is an error
 * (exit 1). Run as processes, with timeouts only as safety nets against a hang.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toJsonl } from "../../lib/trace/index.js";
import { NODE, PROXY, STRETTO, cleanTemp, killAll, sessionLogs, start, tempDir } from "../helpers/processes.js";
import { call, logOf, reply, serverLog, timed } from "./log-fixtures.js";

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function stretto(...args: string[]): Ran {
  const r = spawnSync(NODE, [STRETTO, ...args], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.signal, null, `stretto ${args.join(" ")} was stopped (a hang?)`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder with two good logs: a named server's and one of no host session. */
function goodFolder(): string {
  const dir = tempDir("stretto-folder-");
  const shop = serverLog("shop", "task-1", 1_000, [timed(0, call(1, "lookup")), timed(5, reply(1, "found"))]);
  const lone = logOf([call(1, "get"), reply(1, "got")]);
  lone.header.session = "20260101T000000.000Z-9";
  for (const log of [shop, lone]) writeFileSync(join(dir, `${log.header.session}.jsonl`), toJsonl(log));
  return dir;
}

/** Each folder-reading command, given the folder. */
const COMMANDS: [string, (dir: string) => string[]][] = [
  ["episodes", (dir) => ["episodes", dir]],
  ["manifest", (dir) => ["manifest", dir]],
  ["guards", (dir) => ["guards", "--domain", "retail", "--sessions", dir]],
];

/**
 * Every command on `dir` prints what it prints for the good logs alone, says `warnings`
 * on stderr before what it says for them, and exits 0; with --strict it exits 1 with
 * `strictError` alone.
 */
function assertSkipped(dir: string, clean: string, warnings: string[], strictError: string): void {
  for (const [name, args] of COMMANDS) {
    const expected = stretto(...args(clean));
    assert.equal(expected.code, 0, `${name} on the good logs: ${expected.stderr}`);
    const r = stretto(...args(dir));
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [0, expected.stdout, warnings.map((w) => `stretto: ${w}\n`).join("") + expected.stderr],
      name,
    );
    const strict = stretto(...args(dir), "--strict");
    assert.deepEqual([strict.code, strict.stdout, strict.stderr], [1, "", `stretto: ${strictError}\n`], `${name} --strict`);
  }
}

/** A copy of the good folder, to put bad files beside the good logs. */
function withGoodLogs(): { dir: string; clean: string } {
  const clean = goodFolder();
  const dir = goodFolder();
  return { dir, clean };
}

describe("stretto folder readers: files that are no logs", function () {
  this.timeout(180_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it("skip the 0-byte log a proxy killed (SIGKILL) before its first line leaves; --strict fails", async () => {
    const { dir, clean } = withGoodLogs();
    const proxy = start(NODE, [PROXY, "--record", dir, "--", "cat"]);
    let stderr = "";
    proxy.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    while (!stderr.includes("recording to")) await once(proxy.stderr!, "data");
    proxy.kill("SIGKILL");
    await once(proxy, "exit");
    const left = sessionLogs(dir).filter((p) => statSync(p).size === 0);
    assert.equal(left.length, 1, "the killed proxy left a 0-byte log");
    assertSkipped(dir, clean, [`skipped ${left[0]}: empty log: no header line`], `parsing ${left[0]}: empty log: no header line`);
  });

  it("skip a 0-byte log and corrupt ones (no log header), each named once, in name order", () => {
    const { dir, clean } = withGoodLogs();
    const empty = join(dir, "a-empty.jsonl");
    const garbage = join(dir, "b-garbage.jsonl");
    const notHeader = join(dir, "c-not-a-header.jsonl");
    const version = join(dir, "d-version-9.jsonl");
    writeFileSync(empty, "");
    writeFileSync(garbage, Buffer.from([0xff, 0xfe, 0x0a]));
    writeFileSync(notHeader, '{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    writeFileSync(version, '{"stretto_mcp_log":9,"session":"x","started_unix_ms":0,"server_command":[],"domain":null,"agent_model":null}\n');
    const r = stretto("episodes", dir);
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("stretto: skipped "));
    assert.deepEqual(
      warnings.map((w) => w.slice(0, w.indexOf(".jsonl: ") + ".jsonl".length)),
      [empty, garbage, notHeader, version].map((p) => `stretto: skipped ${p}`),
    );
    assert.match(warnings[1]!, /: stream did not contain valid UTF-8$/);
    assert.match(warnings[2]!, /: line 1: not a stretto MCP log header: /);
    assert.match(warnings[3]!, /: unsupported log version 9 /);
    assertSkipped(
      dir,
      clean,
      warnings.map((w) => w.slice("stretto: ".length)),
      `parsing ${empty}: empty log: no header line`,
    );
  });

  it("never open a FIFO named *.jsonl: skipped, or with --strict an error; no hang", () => {
    const { dir, clean } = withGoodLogs();
    const fifo = join(dir, "waiting.jsonl");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    assertSkipped(
      dir,
      clean,
      [`skipped ${fifo}: a FIFO (named pipe), not a regular file`],
      `reading ${fifo}: a FIFO (named pipe), not a regular file`,
    );
  });

  it("follow a symbolic link to a log; skip one that leads nowhere or to a FIFO", () => {
    const { dir, clean } = withGoodLogs();
    const elsewhere = tempDir("stretto-elsewhere-");
    const log = logOf([call(1, "find"), reply(1, "found")]);
    log.header.session = "20260102T000000.000Z-7";
    const target = join(elsewhere, "kept.jsonl");
    writeFileSync(target, toJsonl(log));
    symlinkSync(target, join(dir, "linked.jsonl"));
    writeFileSync(join(clean, "linked.jsonl"), toJsonl(log));
    const fifo = join(elsewhere, "fifo");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    const toFifo = join(dir, "to-fifo.jsonl");
    const nowhere = join(dir, "to-nowhere.jsonl");
    symlinkSync(fifo, toFifo);
    symlinkSync(join(elsewhere, "gone"), nowhere);
    assertSkipped(
      dir,
      clean,
      [
        `skipped ${toFifo}: a symbolic link to a FIFO (named pipe), not to a regular file`,
        `skipped ${nowhere}: a symbolic link that leads nowhere (No such file or directory (os error 2))`,
      ],
      `reading ${toFifo}: a symbolic link to a FIFO (named pipe), not to a regular file`,
    );
  });

  it("skip a folder named *.jsonl, as any file that is not a regular one", () => {
    const { dir, clean } = withGoodLogs();
    const folder = join(dir, "sub.jsonl");
    mkdirSync(folder);
    assertSkipped(dir, clean, [`skipped ${folder}: a folder, not a regular file`], `reading ${folder}: a folder, not a regular file`);
  });

  it("document --strict in each command's help", () => {
    for (const name of ["episodes", "manifest", "guards"]) {
      const r = stretto("help", name);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /\n {2}--strict +Fail \(exit 1\) on the first file/, name);
      assert.match(r.stdout, /is skipped, with one line on\nstderr naming it and saying why/, name);
    }
  });
});
