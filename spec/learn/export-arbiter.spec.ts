/**
 * `stretto export-arbiter`: a flow's arbiter as an arbiter file that `learn --arbiter-from`
 * takes back, through the real binary; and what it says of a flow with no arbiter.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanTemp, tempDir } from "../helpers/processes.js";
import { flowJson, outIn, stretto } from "./learn-helpers.js";
import { usualSession, writeSessions } from "./shop-logs.js";

const TASKS = 12;

describe("stretto export-arbiter", function () {
  this.timeout(120_000);
  after(cleanTemp);

  let dir: string;
  let withArbiter: string;
  let habitOnly: string;
  before(async () => {
    dir = tempDir("stretto-export-arbiter-");
    const name = (i: number) => `s${String(i).padStart(3, "0")}`;
    writeSessions(dir, Array.from({ length: TASKS }, (_, i) => ({ file: name(i), session: name(i), steps: usualSession(i + 1) })));
    withArbiter = outIn(tempDir());
    habitOnly = join(tempDir(), "habit.flow.json");
    const [a, h] = await Promise.all([
      stretto(["learn", "--sessions", dir, "--domain", "shop", "--out", withArbiter, "--oracle", "mock", "--quiet"]),
      stretto(["learn", "--sessions", dir, "--domain", "shop", "--out", habitOnly, "--habit-only", "--quiet"]),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(h.code, 0, h.stderr);
  });

  it("writes the flow's model, predicates, folds and case count, which learn --arbiter-from takes back", async () => {
    const exported = await stretto(["export-arbiter", withArbiter]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stderr, "");
    const file = JSON.parse(exported.stdout.toString("utf8")) as Record<string, unknown>;
    const flow = flowJson(withArbiter);
    assert.equal(file["stretto_arbiter"], 1);
    assert.equal(file["model"], flow["model"]);
    assert.deepEqual(file["folds"], flow["folds"]);
    assert.deepEqual(file["predicates"], flow["predicates"]);
    assert.deepEqual(file["weighed"], flow["weighed"]);
    assert.equal(file["cases"], (flow["provenance"] as Record<string, unknown>)["arbiter_cases"]);
    assert.ok((file["cases"] as number) > 0);

    const out = join(tempDir(), "nested", "shop.arbiter.json");
    const written = await stretto(["export-arbiter", "--out", out, withArbiter]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout.length, 0);
    assert.equal(readFileSync(out, "utf8"), exported.stdout.toString("utf8"));

    const relearned = outIn(tempDir());
    const r = await stretto(["learn", "--sessions", dir, "--domain", "shop", "--out", relearned, "--arbiter-from", out, "--quiet"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(flowJson(relearned)["folds"], flow["folds"]);
  });

  it("says a habit-only flow has no arbiter to export (exit 1, nothing on stdout)", async () => {
    const r = await stretto(["export-arbiter", habitOnly]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout.length, 0);
    assert.equal(r.stderr, `stretto: ${habitOnly} has no arbiter to export: it was learned without a System-One model\n`);
  });

  it("says which file it could not read (exit 1), and wants exactly one flow (exit 2)", async () => {
    const missing = join(tempDir(), "missing.flow.json");
    const r = await stretto(["export-arbiter", missing]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^stretto: reading ${missing.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: No such file or directory`));
    assert.equal((await stretto(["export-arbiter"])).code, 2);
  });
});
