import assert from "node:assert/strict";
import { chmodSync, closeSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { AnswerCache, type OracleResponse } from "../../lib/oracle/index.js";
import { FlowLogFile } from "../../lib/plugins/flow/flow-log.js";
import { LogWriter } from "../../lib/record/log-writer.js";
import { makeDirs } from "../../lib/util/make-dirs.js";
import { createNew, openToAppend } from "../../lib/util/safe-open.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

const mode = (path: string) => statSync(path).mode & 0o777;
const REFUSAL = "is a symbolic link; refusing to write through it";

describe("files the proxy writes: private, and never through a planted link", () => {
  after(cleanTemp);

  it("appends to a side log created 0600, and refuses a symlink at its path", () => {
    const dir = tempDir();
    const path = join(dir, "side.jsonl");
    for (const text of ["a\n", "b\n"]) {
      const fd = openToAppend(path);
      writeSync(fd, text);
      closeSync(fd);
    }
    assert.equal(readFileSync(path, "utf8"), "a\nb\n");
    assert.equal(mode(path), 0o600);

    const outside = tempDir();
    const target = join(outside, "target");
    writeFileSync(target, "theirs");
    symlinkSync(target, join(dir, "planted.jsonl"));
    assert.throws(() => openToAppend(join(dir, "planted.jsonl")), { message: REFUSAL, code: "ELOOP" });
    assert.equal(readFileSync(target, "utf8"), "theirs");
    symlinkSync(join(outside, "not-yet"), join(dir, "dangling.jsonl"));
    assert.throws(() => openToAppend(join(dir, "dangling.jsonl")), { message: REFUSAL });
    assert.ok(!existsSync(join(outside, "not-yet")), "a dangling link's target is not created");
  });

  it("creates a new file 0600 and never opens one that is already there, link or not", () => {
    const dir = tempDir();
    const fd = createNew(join(dir, "new"));
    closeSync(fd);
    assert.equal(mode(join(dir, "new")), 0o600);
    assert.throws(() => createNew(join(dir, "new")), { code: "EEXIST" });
    symlinkSync(join(dir, "elsewhere"), join(dir, "link"));
    assert.throws(() => createNew(join(dir, "link")), { code: "EEXIST" });
    assert.ok(!existsSync(join(dir, "elsewhere")));
  });

  it("makes missing folders one level at a time, 0700, and leaves existing ones as they are", () => {
    const root = tempDir();
    mkdirSync(join(root, "mine"));
    chmodSync(join(root, "mine"), 0o755);
    makeDirs(join(root, "mine/a/b"));
    assert.equal(mode(join(root, "mine")), 0o755);
    assert.equal(mode(join(root, "mine/a")), 0o700);
    assert.equal(mode(join(root, "mine/a/b")), 0o700);
    makeDirs(join(root, "mine/a/b")); // already there: nothing to do
    writeFileSync(join(root, "file"), "");
    assert.throws(() => makeDirs(join(root, "file/x")), { code: "ENOTDIR" });
    assert.throws(() => makeDirs(join(root, "file")), { code: "ENOTDIR" });
  });

  it("fails at once where mkdir says ENOENT under an existing folder (/proc), instead of retrying for ever", function () {
    if (!existsSync("/proc/self")) this.skip();
    const t0 = Date.now();
    assert.throws(() => makeDirs("/proc/x/y"), { code: "ENOENT" });
    assert.ok(Date.now() - t0 < 1000);
  });

  it("creates the session log 0600 in folders made 0700", async () => {
    const dir = join(tempDir(), "logs/deep");
    const w = LogWriter.create(dir, "S", { stretto_mcp_log: 2 });
    await w.finish();
    assert.equal(mode(join(dir, "S.jsonl")), 0o600);
    assert.equal(mode(dir), 0o700);
    assert.equal(mode(join(dir, "..")), 0o700);
  });

  it("keeps the oracle's answers 0600 in folders made 0700", async () => {
    const dir = join(tempDir(), "cache");
    const key = "ab".padEnd(64, "0");
    const cache = new AnswerCache(dir);
    const answer: OracleResponse = { model: "m", answers: { ok: { type: "noul", noul: 0.5 } }, usage: { input_tokens: 1, output_tokens: 1 } };
    await cache.write(key, answer);
    assert.equal(mode(cache.pathOf(key)), 0o600);
    assert.equal(mode(dir), 0o700);
    assert.equal(mode(join(dir, key.slice(0, 2))), 0o700);
  });

  it("skips a flow log planted as a symlink, says why, and leaves its target alone", () => {
    const dir = tempDir();
    const outside = tempDir();
    const target = join(outside, "victim.json");
    writeFileSync(target, "{}\n");
    const path = join(dir, "s.flow.jsonl");
    symlinkSync(target, path);
    const said: string[] = [];
    assert.equal(FlowLogFile.open(path, (m) => said.push(m)), undefined);
    assert.deepEqual(said, [`flow log ${path}: ${REFUSAL}`]);
    assert.equal(readFileSync(target, "utf8"), "{}\n");
  });
});
