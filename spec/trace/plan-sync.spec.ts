/**
 * Planning a folder synchronously (`planFolder(…, { sync: true })`, what the batch commands
 * do) against planning it asynchronously (the library's default): the same summaries, the
 * same plan, the same files skipped in the same order, or the same error. The synchronous
 * scan reads a log's tail its own way (into a kept buffer, doubling the read until the last
 * line is whole), so its summaries are also held to the full read's over random logs.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { fullScan, planFolder, scanLog, scanLogSync, type Folder, type SkippedLog } from "../../lib/trace/index.js";
import { HEADER } from "./log-fixtures.js";

/** A planning's outcome: the folder (without its handler) and what was skipped, or the error. */
async function planned(dir: string, sync: boolean, skipping: boolean): Promise<{ folder?: Omit<Folder, "skip">; skipped: SkippedLog[]; error?: string }> {
  const skipped: SkippedLog[] = [];
  try {
    const { skip: _, ...folder } = await planFolder(dir, undefined, skipping ? (s) => skipped.push(s) : undefined, { sync });
    return { folder, skipped };
  } catch (e) {
    return { skipped, error: (e as Error).message };
  }
}

describe("trace: planning a folder synchronously", function () {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "stretto-plan-sync-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const header = (session: string, extra = ""): string => HEADER.replace('"s1"', JSON.stringify(session)).replace('"agent_model":null', `"agent_model":null${extra}`);
  const entry = (t: number, raw = "x"): string => JSON.stringify({ t_ms: t, from: "server", raw });

  it("gives the same plan, skips and errors as the asynchronous planning, files that are no logs among them", async () => {
    const named = (s: string, host: string, server: string): string => header(s, `,"host_session":"${host}","server_name":"${server}"`);
    const logs: [string, string][] = [
      ["a.jsonl", `${named("s3", "h1", "shop")}\n${entry(1)}\n${entry(9)}\n`],
      ["b.jsonl", `${named("s1", "h1", "files")}\n${entry(4)}\n`],
      ["c.jsonl", `${header("s2")}\n${entry(2)}\n{"t_ms":7,"fr`],
      ["d.jsonl", `${header("s4")}\n${entry(3, "é".repeat(150_000))}\n`],
      ["e.jsonl", `${header("s5")}\n`],
      ["f.flow.jsonl", "not a session log"],
    ];
    for (const [name, text] of logs) await writeFile(join(dir, name), text);
    const good = await planned(dir, false, true);
    assert.equal(good.error, undefined);
    assert.equal(good.folder!.paths.length, 5);
    assert.deepEqual(await planned(dir, true, true), good);
    assert.deepEqual(await planned(dir, true, false), await planned(dir, false, false));

    // Files that are no logs: skipped in name order with the same reasons, or the first of them the error.
    await writeFile(join(dir, "0-empty.jsonl"), "");
    await writeFile(join(dir, "1-corrupt.jsonl"), "not a header\n");
    execFileSync("mkfifo", [join(dir, "2-fifo.jsonl")]);
    await mkdir(join(dir, "3-folder.jsonl"));
    await symlink(join(dir, "nowhere"), join(dir, "4-broken.jsonl"));
    await symlink(join(dir, "2-fifo.jsonl"), join(dir, "5-to-fifo.jsonl"));
    await symlink(join(dir, "a.jsonl"), join(dir, "6-link.jsonl"));
    const skipping = await planned(dir, false, true);
    assert.deepEqual(
      skipping.skipped.map((s) => s.path.slice(dir.length + 1)),
      ["0-empty.jsonl", "1-corrupt.jsonl", "2-fifo.jsonl", "3-folder.jsonl", "4-broken.jsonl", "5-to-fifo.jsonl"],
    );
    assert.deepEqual(await planned(dir, true, true), skipping);
    const strict = await planned(dir, false, false);
    assert.match(strict.error!, /0-empty\.jsonl: empty log: no header line$/);
    assert.deepEqual(await planned(dir, true, false), strict);

    // A log whose header reads and whose end does not is an error either way, skip handler or not.
    await rm(join(dir, "0-empty.jsonl"));
    await writeFile(join(dir, "g.jsonl"), `${header("s6")}\n${entry(1)}\nnot an entry\n`);
    const damaged = await planned(dir, false, true);
    assert.match(damaged.error!, /g\.jsonl: line 3: not JSON: /);
    assert.deepEqual(await planned(dir, true, true), damaged);

    const missing = join(dir, "none");
    assert.deepEqual(await planned(missing, true, true), await planned(missing, false, true));
  });

  it("reads a log's summary as the full read does, whatever its last lines", async () => {
    const path = join(dir, "s.jsonl");
    // Last lines around the 64 KiB read and its doublings, blank lines, a cut-off end, CRLF.
    const line = fc.oneof(
      fc.integer({ min: 0, max: 140_000 }).map((n) => entry(n, "a".repeat(n))),
      fc.integer({ min: 0, max: 40_000 }).map((n) => entry(n, "é".repeat(n))),
      fc.constantFrom("", "  ", "\r"),
    );
    const end = fc.constantFrom("\n", "\r\n", "", '\n{"t_ms":9,"fr');
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(line, { maxLength: 4 }), end, async (named, lines, tail) => {
        const first = named ? header("s1", ',"host_session":"h","server_name":"shop"') : header("s1");
        await writeFile(path, [first, ...lines].join("\n") + tail);
        const full = await fullScan(path).catch((e: Error) => e.message);
        const sync = (() => {
          try {
            return scanLogSync(path);
          } catch (e) {
            return (e as Error).message;
          }
        })();
        assert.deepEqual(sync, full);
        assert.deepEqual(await scanLog(path).catch((e: Error) => e.message), full);
      }),
      { numRuns: 60 },
    );
  });
});
