/**
 * Progress on stderr for the commands that read many sessions: a bar drawn in place on a
 * terminal, a plain line every few seconds otherwise, nothing with --quiet.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { Io } from "../../lib/cli/stretto/command.js";
import { ProgressLine } from "../../lib/cli/stretto/progress.js";
import { toJsonl } from "../../lib/trace/index.js";
import { NODE, STRETTO, cleanTemp, tempDir } from "../helpers/processes.js";
import { call, logOf, reply } from "../trace/log-fixtures.js";

/** An Io whose stderr is collected; `tty` makes it a terminal as cli-progress sees one. */
function fakeIo(tty: boolean): { io: Io; err: () => string } {
  const stderr = new PassThrough();
  const chunks: string[] = [];
  stderr.on("data", (c: Buffer) => chunks.push(c.toString()));
  if (tty) Object.assign(stderr, { isTTY: true, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return { io: { stdout: new PassThrough(), stderr, stderrIsTty: tty }, err: () => chunks.join("") };
}

async function settle(): Promise<void> {
  await new Promise((r) => setImmediate(r));
}

describe("stretto progress", function () {
  after(cleanTemp);

  it("off a terminal writes a plain line every two seconds and always the last", async () => {
    let now = 1_000_000;
    const { io, err } = fakeIo(false);
    const p = new ProgressLine(io, { now: () => now });
    p.start(300);
    for (let done = 1; done <= 300; done++) {
      now += 20; // 300 items over 6 s
      p.update("learning", done, 300);
    }
    p.done();
    await settle();
    const lines = err().split("\n").filter((l) => l !== "");
    assert.deepEqual(lines, ["stretto: learning 1/300", "stretto: learning 101/300", "stretto: learning 201/300", "stretto: learning 300/300"]);
  });

  it("shows nothing for small work, and nothing at all when quiet", async () => {
    const small = fakeIo(false);
    const p = new ProgressLine(small.io);
    p.start(99);
    p.update("learning", 99, 99);
    const q = fakeIo(false);
    const quiet = new ProgressLine(q.io, { quiet: true });
    quiet.start(10_000);
    quiet.update("learning", 10_000, 10_000);
    quiet.enabled = true; // a caller that turns it on by hand still gets silence
    quiet.update("learning", 10_000, 10_000);
    await settle();
    assert.equal(small.err(), "");
    assert.equal(q.err(), "");
  });

  it("on a terminal draws a bar in place, starts a new one when the work changes, and clears it", async () => {
    const { io, err } = fakeIo(true);
    const p = new ProgressLine(io);
    p.start(200);
    p.update("scanning logs", 50, 200);
    await settle();
    assert.match(err(), /stretto: scanning logs \[[^\]]+\] 50\/200/);
    assert.doesNotMatch(err(), /\n/, "drawn in place, never a new line");
    p.update("building episodes", 10, 200);
    p.update("building episodes", 200, 200);
    p.done();
    await settle();
    assert.match(err(), /stretto: building episodes \[[^\]]+\] 10\/200/);
    assert.doesNotMatch(err(), /\n/);
  });

  it("stretto episodes, manifest and guards take --quiet and then say nothing of progress", async () => {
    const dir = tempDir();
    for (let i = 0; i < 100; i++) {
      const log = logOf([call(1, "get"), reply(1, String(i))]);
      log.header.session = `s${String(i).padStart(3, "0")}`;
      await writeFile(join(dir, `${log.header.session}.jsonl`), toJsonl(log));
    }
    const stretto = (...args: string[]) => spawnSync(NODE, [STRETTO, ...args], { encoding: "utf8" });
    const loud = stretto("episodes", dir);
    assert.match(loud.stderr, /stretto: building episodes 100\/100\n$/);
    for (const args of [["episodes", "--quiet", dir], ["manifest", dir, "--quiet"], ["guards", "--domain", "retail", "--sessions", dir, "--quiet"]]) {
      const r = stretto(...args);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, "", args.join(" "));
    }
    const help = stretto("help", "episodes").stdout;
    assert.match(help, /--quiet +Show no progress on stderr\./);
  });
});
