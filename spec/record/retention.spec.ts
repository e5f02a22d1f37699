import assert from "node:assert/strict";
import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pruneOlderThan } from "../../lib/record/retention.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";

describe("--retain-days pruning (facts-proxy-core §3.9)", () => {
  after(cleanTemp);

  function file(path: string, ageDays: number) {
    writeFileSync(path, "x");
    const t = (Date.now() - ageDays * 86_400_000) / 1000;
    utimesSync(path, t, t);
  }

  it("deletes .jsonl and .json files older than N days, recursively, and nothing else", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "ab"));
    file(join(dir, "s1.jsonl"), 10);
    file(join(dir, "s1.flow.jsonl"), 10);
    file(join(dir, "ab/key.json"), 10);
    file(join(dir, "s2.jsonl"), 1);
    file(join(dir, "notes.txt"), 10);
    const outside = tempDir();
    file(join(outside, "target.jsonl"), 10);
    symlinkSync(join(outside, "target.jsonl"), join(dir, "link.jsonl"));
    assert.equal(pruneOlderThan(dir, 7), 3);
    assert.ok(existsSync(join(dir, "s2.jsonl")));
    assert.ok(existsSync(join(dir, "notes.txt")));
    assert.ok(!existsSync(join(dir, "s1.jsonl")));
    assert.ok(!existsSync(join(dir, "ab/key.json")));
    assert.ok(existsSync(join(dir, "link.jsonl")), "a symlink is not deleted");
    assert.ok(existsSync(join(outside, "target.jsonl")), "nor followed");
  });

  it("counts a missing directory as 0 and reports a path that is not one", () => {
    const dir = tempDir();
    assert.equal(pruneOlderThan(join(dir, "missing"), 7), 0);
    const notDir = join(dir, "file");
    writeFileSync(notDir, "x");
    assert.throws(() => pruneOlderThan(notDir, 7), (e: Error) => e.message.startsWith(`listing ${notDir}: `));
  });

  it("with 0 days deletes everything older than now", () => {
    const dir = tempDir();
    file(join(dir, "a.jsonl"), 0.001);
    assert.equal(pruneOlderThan(dir, 0), 1);
  });
});
