/**
 * Staged flows: `stretto stage` learns the staged flow as `learn --habit-only` does and
 * compares both flows on sessions as they arrive; `flow-commit`, `flow-rollback` and
 * `flow-log` keep every version, a committed flow changed by other means included; every
 * refusal says why; and every file is written whole (a temporary file renamed into place).
 */
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, closeSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StageError, writeWhole, when } from "../../lib/stage/index.js";
import { usedCell } from "../../lib/stage/report.js";
import { cleanTemp, NODE, run, STRETTO, tempDir } from "../helpers/processes.js";
import { writeHabitSessions } from "../drift/habit-sessions.js";
import { stretto } from "../drift/in-process.js";

/** A flow's JSON without the time it was learned. */
function withoutTime(text: string): unknown {
  const json = JSON.parse(text) as { provenance: Record<string, unknown> };
  delete json.provenance["compiled_unix_ms"];
  return json;
}

describe("staged flows", function () {
  this.timeout(60_000);
  let work: string;
  let sessions: string;
  let flow: string;
  after(cleanTemp);

  before(() => {
    work = tempDir();
    sessions = join(work, "sessions");
    writeHabitSessions(sessions, 1, 12, "usual");
    flow = join(work, "shop.flow.json");
  });

  it("stage learns as learn --habit-only does; commit, a second stage compares both flows; rollback and the log keep every version", async () => {
    const refused = await stretto("stage", "--flow", flow, "--sessions", sessions);
    assert.deepEqual([refused.code, refused.stderr], [1, `stretto: there is no committed flow at ${flow} yet: name the domain with --domain\n`]);
    const first = await stretto("stage", "--flow", flow, "--sessions", sessions, "--domain", "retail");
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stderr, `stretto: the staged retail flow has learned from 12 sessions, 12 of them new, and is at ${join(work, "shop.staged.flow.json")}\n`);
    assert.ok(first.stdout.startsWith("# The staged retail flow\n\nIt learned from 12 sessions, 12 of them new in this run.\n\nNo session has been scored by the staged flow yet:"), first.stdout);
    const learned = join(work, "learned.flow.json");
    assert.equal((await stretto("learn", "--sessions", sessions, "--domain", "retail", "--out", learned, "--habit-only")).code, 0);
    assert.deepEqual(withoutTime(readFileSync(join(work, "shop.staged.flow.json"), "utf8")), withoutTime(readFileSync(learned, "utf8")));

    const noteless = await stretto("flow-commit", "--flow", flow, "--note", "first");
    assert.equal(noteless.code, 0, noteless.stderr);
    assert.equal(noteless.stderr, `stretto: committed the staged flow as version 1 of ${flow}\n`);
    assert.match(noteless.stdout, /^## Version 1 \(committed now\)\n\ncommitted, \d{4}-\d\d-\d\d \d\d:\d\d UTC\n\n> first\n$/);
    assert.equal(readFileSync(flow, "utf8"), readFileSync(join(work, "shop.staged.flow.json"), "utf8"));
    const again = await stretto("flow-commit", "--flow", flow);
    assert.deepEqual([again.code, again.stderr], [1, "stretto: the staged flow is the committed one: nothing to commit\n"]);

    writeHabitSessions(sessions, 13, 10, "usual");
    const json = join(work, "report", "stage.json");
    const second = await stretto("stage", "--flow", flow, "--sessions", sessions, "--json", json);
    assert.equal(second.code, 0, second.stderr);
    assert.ok(second.stdout.includes("\n## The last 10 sessions\n\nEach session was scored by both flows as it arrived"), second.stdout);
    assert.ok(second.stdout.includes("| After | Committed: lookups | used | detours | Staged: lookups | used | detours |\n"), second.stdout);
    assert.match(second.stdout, /\n\| All \| \d+ \| \d+ \(\d+%, \d+–\d+%\) \| \d+ \| \d+ \| \d+ \(\d+%, \d+–\d+%\) \| \d+ \|\n/);
    assert.ok(second.stdout.includes("\n## What committing it would change\n\n### "), second.stdout);
    assert.ok(second.stdout.includes("\n### Provenance\n\n- the habit learned from 12 → 22 successful sessions or episodes\n"), second.stdout);
    assert.ok(second.stdout.endsWith(`\nCommit it with \`stretto flow-commit --flow ${flow}\`; the committed flow's versions are kept for \`stretto flow-rollback\`.\n`));
    const comparison = JSON.parse(readFileSync(json, "utf8")) as { compared: number; new: number; sessions: number; committed: boolean };
    assert.deepEqual([comparison.compared, comparison.new, comparison.sessions, comparison.committed], [10, 10, 22, true]);
    const state = JSON.parse(readFileSync(join(work, "shop.stage.json"), "utf8")) as { stretto_stage: number; sessions: string[]; ledger: { session: string; staged?: unknown }[] };
    assert.equal(state.stretto_stage, 1);
    assert.equal(state.sessions.length, 22);
    assert.equal(state.ledger.filter((e) => e.staged !== undefined).length, 10);

    const committed = await stretto("flow-commit", "--flow", flow, "--note", "second");
    assert.equal(committed.code, 0, committed.stderr);
    assert.match(committed.stdout, /^## Version 2 \(committed now\)\n\ncommitted, .* UTC\n\n> second\n\nOn the last 10 sessions before it, the staged flow's lookups: \d+, \d+ used, \d+ detours; the committed flow's: \d+, \d+ used, \d+ detours\.\n\n- /);
    assert.ok(committed.stdout.includes("\n- Provenance: the habit learned from 12 → 22 successful sessions or episodes\n"), committed.stdout);

    const back = await stretto("flow-rollback", "--flow", flow);
    assert.equal(back.stderr, `stretto: rolled ${flow} back to version 1, as version 3\n`);
    assert.equal(readFileSync(flow, "utf8"), readFileSync(join(work, "shop.history", "1.flow.json"), "utf8"));
    const same = await stretto("flow-rollback", "--flow", flow, "--to", "1");
    assert.deepEqual([same.code, same.stderr], [1, "stretto: version 1 is the committed flow already\n"]);
    const none = await stretto("flow-rollback", "--flow", flow, "--to", "9");
    assert.deepEqual([none.code, none.stderr], [1, `stretto: there is no version 9: ${flow} has versions 1 to 3\n`]);

    // A committed flow edited by hand is kept first, as a version found in place.
    appendFileSync(flow, "\n");
    const log = await stretto("flow-log", "--flow", flow);
    assert.ok(log.stdout.startsWith(`# ${flow}\n\n## Version 3 (committed now)\n\nrolled back to version 1, `), log.stdout);
    assert.ok(log.stdout.includes("\n## Version 2\n\ncommitted, "), log.stdout);
    assert.ok(log.stdout.endsWith("\nThe committed flow is not the latest version: it has changed since, by other means than a commit. The next commit or rollback keeps it as a version first.\n"), log.stdout);
    const restore = await stretto("flow-rollback", "--flow", flow, "--to", "2", "--note", "undo the edit");
    assert.equal(restore.stderr, `stretto: rolled ${flow} back to version 2, as version 5\n`);
    const after = await stretto("flow-log", "--flow", flow);
    assert.ok(after.stdout.includes("\n## Version 4\n\nfound in place, "), after.stdout);
    assert.ok(after.stdout.startsWith(`# ${flow}\n\n## Version 5 (committed now)\n\nrolled back to version 2, `), after.stdout);
    assert.ok(!after.stdout.includes("is not the latest version"));
    const record = JSON.parse(readFileSync(join(work, "shop.history", "5.json"), "utf8")) as { version: number; kind: string; restored: number; note: string };
    assert.deepEqual([record.version, record.kind, record.restored, record.note], [5, "rollback", 2, "undo the edit"]);
  });

  it("says why what cannot be staged, committed or rolled back is refused", async () => {
    const dir = tempDir();
    const f = join(dir, "x.flow.json");
    const cases: [string[], string][] = [
      [["flow-commit", "--flow", f], `there is no staged flow at ${join(dir, "x.staged.flow.json")}: stretto stage learns it`],
      [["flow-rollback", "--flow", f], `there is no committed flow at ${f}`],
      [["flow-commit", "--flow", join(dir, "x.json")], `${join(dir, "x.json")}: name the committed flow NAME.flow.json, as stretto init does`],
      [["flow-log", "--flow", join(dir, "x.staged.flow.json")], `${join(dir, "x.staged.flow.json")} is a staged flow: name the committed one, x.flow.json`],
    ];
    for (const [args, message] of cases) {
      const r = await stretto(...args);
      assert.deepEqual([r.code, r.stderr], [1, `stretto: ${message}\n`], args.join(" "));
    }
    const log = await stretto("flow-log", "--flow", f);
    assert.equal(log.stdout, `# ${f}\n\nNo version has been committed: \`stretto flow-commit\` keeps each.\n`);
    writeFileSync(f, readFileSync(flow, "utf8"));
    const early = await stretto("flow-rollback", "--flow", f);
    assert.deepEqual([early.code, early.stderr], [1, `stretto: ${f} has no earlier version to roll back to\n`]);
    const other = await stretto("stage", "--flow", f, "--sessions", sessions, "--domain", "airline");
    assert.deepEqual([other.code, other.stderr], [1, "stretto: the committed flow is for retail, not airline\n"]);
    const empty = join(dir, "empty");
    mkdirSync(empty);
    const nothing = await stretto("stage", "--flow", f, "--sessions", empty);
    assert.deepEqual([nothing.code, nothing.stderr], [1, "stretto: there are no retail sessions to learn from\n"]);
    writeFileSync(join(dir, "x.stage.json"), JSON.stringify({ stretto_stage: 2, domain: "retail", sessions: [], ledger: [] }));
    const format = await stretto("stage", "--flow", f, "--sessions", sessions);
    assert.deepEqual([format.code, format.stderr], [1, `stretto: ${join(dir, "x.stage.json")}: stage format 2 is not supported (this build reads 1)\n`]);
  });

  it("writes each file whole: a reader holding the old file reads it all, and a failed write leaves it as it was", () => {
    const dir = tempDir();
    const path = join(dir, "shop.flow.json");
    const old = "x".repeat(200_000);
    writeFileSync(path, old);
    const before = statSync(path).ino;
    const fd = openSync(path, "r");
    writeWhole(path, "y".repeat(300_000));
    const buf = Buffer.alloc(400_000);
    const n = readSync(fd, buf, 0, buf.length, 0);
    closeSync(fd);
    assert.equal(buf.subarray(0, n).toString(), old, "the old file, whole, to whoever had it open");
    assert.notEqual(statSync(path).ino, before, "a new file renamed into place");
    assert.equal(readFileSync(path, "utf8"), "y".repeat(300_000));
    assert.deepEqual(readdirSync(dir), ["shop.flow.json"], "no temporary file left");
    // The target is a folder: the rename fails, the folder stays, no temporary file is left.
    mkdirSync(join(dir, "taken.flow.json"));
    assert.throws(() => writeWhole(join(dir, "taken.flow.json"), "z"), (e: unknown) => e instanceof StageError && e.message.startsWith(`writing ${join(dir, "taken.flow.json")}: `));
    assert.deepEqual(readdirSync(dir).sort(), ["shop.flow.json", "taken.flow.json"]);
  });

  it("says each version's time in UTC, and the used share with its 90% interval", () => {
    assert.equal(when(0), "1970-01-01 00:00 UTC");
    assert.equal(usedCell({ decisions: 3, lookups: 3, used: 1, served: 0 }), "1 (33%, 8–75%)");
    assert.equal(usedCell({ decisions: 3, lookups: 3, used: 2, served: 1 }), "2 (100%, 43–100%)");
    assert.equal(usedCell({ decisions: 3, lookups: 0, used: 0, served: 0 }), "—");
  });

  it("runs as a binary", async () => {
    const r = await run(NODE, [STRETTO, "flow-log", "--flow", flow]);
    assert.equal(r.code, 0, r.stderr.toString());
    assert.ok(r.stdout.toString().startsWith(`# ${flow}\n\n## Version 5 (committed now)\n`), r.stdout.toString());
  });
});
