import assert from "node:assert/strict";
import { existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAnswerPlace } from "../../lib/oracle/cache-layout.js";
import { pruneAnswerCache, pruneSessionLogs } from "../../lib/record/retention.js";
import { isSessionFileName, sessionId } from "../../lib/record/session-id.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

describe("--retain-days pruning", () => {
  after(cleanTemp);

  const S1 = sessionId(Date.UTC(2026, 0, 2, 3, 4, 5, 6), 4242); // 20260102T030405.006Z-4242
  const S2 = sessionId(Date.UTC(2026, 0, 9), 77);
  const KEY = "ab".padEnd(64, "0c");
  const OTHER_KEY = "ab".padEnd(64, "d1");

  function file(path: string, ageDays: number) {
    writeFileSync(path, "x");
    const t = (Date.now() - ageDays * 86_400_000) / 1000;
    utimesSync(path, t, t);
  }

  it("knows the proxy's own file names, and only those", () => {
    for (const name of [`${S1}.jsonl`, `${S1}.flow.jsonl`, `${S1}.confirm.jsonl`, `${S1}-1.jsonl`, `${S1}-12.flow.jsonl`]) {
      assert.ok(isSessionFileName(name), name);
    }
    const others = [
      "notes.jsonl", "package.json", "settings.json", `${S1}.json`, `${S1}.jsonl.bak`, `x${S1}.jsonl`, `${S1}.other.jsonl`,
      `${S1}-0.jsonl`, `${S1}-1-2.jsonl`, "20260102T030405Z-1.jsonl", "20260102T030405.006Z.jsonl", `${S1}.flow.flow.jsonl`,
    ];
    for (const name of others) assert.equal(isSessionFileName(name), false, name);
    assert.ok(isAnswerPlace("ab", `${KEY}.json`));
    for (const [folder, name] of [["cd", `${KEY}.json`], ["ab", "key.json"], ["ab", `${KEY.toUpperCase()}.json`], ["ab", "ab.json"], ["ab", `${KEY}.tmp1-0`], ["ab", `${KEY}.jsonl`]]) {
      assert.equal(isAnswerPlace(folder!, name!), false, `${folder}/${name}`);
    }
  });

  it("deletes session logs and their side logs older than N days from the record folder, and nothing else", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "ab"));
    file(join(dir, `${S1}.jsonl`), 10);
    file(join(dir, `${S1}.flow.jsonl`), 10);
    file(join(dir, `${S1}-1.confirm.jsonl`), 10);
    file(join(dir, `ab/${KEY}.json`), 10);
    file(join(dir, `${S2}.jsonl`), 1);
    file(join(dir, "notes.txt"), 10);
    const outside = tempDir();
    file(join(outside, "target.jsonl"), 10);
    symlinkSync(join(outside, "target.jsonl"), join(dir, `${S2}-3.jsonl`));
    assert.equal(pruneSessionLogs(dir, 7), 3);
    assert.ok(existsSync(join(dir, `${S2}.jsonl`)));
    assert.ok(existsSync(join(dir, "notes.txt")));
    assert.ok(!existsSync(join(dir, `${S1}.jsonl`)));
    assert.ok(!existsSync(join(dir, `${S1}.flow.jsonl`)));
    assert.ok(!existsSync(join(dir, `${S1}-1.confirm.jsonl`)));
    assert.ok(existsSync(join(dir, `ab/${KEY}.json`)), "the record folder's subfolders are not entered");
    assert.ok(lstatSync(join(dir, `${S2}-3.jsonl`)).isSymbolicLink(), "a symlink is not deleted");
    assert.ok(existsSync(join(outside, "target.jsonl")), "nor followed");
  });

  it("leaves a project's files in the record folder alone: only the real old session log goes", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "node_modules/x"), { recursive: true });
    file(join(dir, "package.json"), 400);
    file(join(dir, "node_modules/x/index.json"), 400);
    file(join(dir, "settings.json"), 400);
    file(join(dir, "notes.jsonl"), 400);
    file(join(dir, `${S1}.jsonl`), 400);
    const outside = tempDir();
    file(join(outside, `${S2}.jsonl`), 400);
    symlinkSync(join(outside, `${S2}.jsonl`), join(dir, `${S2}.jsonl`));
    assert.equal(pruneSessionLogs(dir, 7), 1);
    assert.deepEqual(readdirSync(dir).sort(), [`${S2}.jsonl`, "node_modules", "notes.jsonl", "package.json", "settings.json"]);
    assert.ok(existsSync(join(dir, "node_modules/x/index.json")));
    assert.ok(lstatSync(join(dir, `${S2}.jsonl`)).isSymbolicLink(), "the link stays");
    assert.ok(existsSync(join(outside, `${S2}.jsonl`)), "and the old log it points at too");
  });

  it("deletes old answers from the oracle cache in its own layout only, never through a link", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "ab"));
    mkdirSync(join(dir, "cd"));
    mkdirSync(join(dir, "notes"));
    file(join(dir, `ab/${KEY}.json`), 10);
    file(join(dir, `ab/${OTHER_KEY}.json`), 1);
    file(join(dir, "ab/key.json"), 10);
    file(join(dir, `ab/${KEY}.tmp99-0`), 10);
    file(join(dir, `cd/${KEY}.json`), 10);
    file(join(dir, "notes/abc.json"), 10);
    file(join(dir, `${KEY}.json`), 10);
    file(join(dir, `${S1}.jsonl`), 10);
    const outside = tempDir();
    mkdirSync(join(outside, "ef"));
    const theirs = "ef".padEnd(64, "0");
    file(join(outside, `ef/${theirs}.json`), 10);
    symlinkSync(join(outside, "ef"), join(dir, "ef"));
    const linkedKey = "ab".padEnd(64, "9");
    symlinkSync(join(outside, `ef/${theirs}.json`), join(dir, `ab/${linkedKey}.json`));
    assert.equal(pruneAnswerCache(dir, 7), 1);
    assert.ok(!existsSync(join(dir, `ab/${KEY}.json`)));
    for (const kept of [`ab/${OTHER_KEY}.json`, "ab/key.json", `ab/${KEY}.tmp99-0`, `cd/${KEY}.json`, "notes/abc.json", `${KEY}.json`, `${S1}.jsonl`]) {
      assert.ok(existsSync(join(dir, kept)), kept);
    }
    assert.ok(lstatSync(join(dir, `ab/${linkedKey}.json`)).isSymbolicLink(), "a linked answer is not deleted");
    assert.ok(existsSync(join(outside, `ef/${theirs}.json`)), "a linked folder is not entered");
  });

  it("counts a missing directory as 0 and reports a path that is not one", () => {
    const dir = tempDir();
    assert.equal(pruneSessionLogs(join(dir, "missing"), 7), 0);
    assert.equal(pruneAnswerCache(join(dir, "missing"), 7), 0);
    const notDir = join(dir, "file");
    writeFileSync(notDir, "x");
    for (const prune of [pruneSessionLogs, pruneAnswerCache]) {
      assert.throws(() => prune(notDir, 7), (e: Error) => e.message === `listing ${notDir}: Not a directory (os error 20)`);
    }
  });

  it("with 0 days deletes everything older than now", () => {
    const dir = tempDir();
    file(join(dir, `${S1}.jsonl`), 0.001);
    assert.equal(pruneSessionLogs(dir, 0), 1);
    mkdirSync(join(dir, "ab"));
    file(join(dir, `ab/${KEY}.json`), 0.001);
    assert.equal(pruneAnswerCache(dir, 0), 1);
  });
});
