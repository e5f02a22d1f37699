/**
 * `stretto drift`: generated sessions of an agent that changes its habit at session 40 of 60
 * raise one alarm at the change, 60 sessions of one habit none; a change still within the
 * window sounds (exit 1); numbers out of range and flows it cannot watch are refused (exit 2).
 * And the detector itself: an outlier is no change, a level shift is, after three sessions.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ChangeDetector, fitPrior, median, moved, recentChange, type Drift, type SessionSeries } from "../../lib/drift/index.js";
import { cleanTemp, NODE, run, STRETTO, tempDir } from "../helpers/processes.js";
import { writeHabitSessions } from "./habit-sessions.js";
import { stretto } from "./in-process.js";

describe("stretto drift", function () {
  this.timeout(60_000);
  let work: string;
  let flowPath: string;
  let changedIds: string[];

  before(async () => {
    work = tempDir();
    writeHabitSessions(join(work, "train"), 1, 20, "usual");
    flowPath = join(work, "retail.flow.json");
    const learned = await stretto("learn", "--sessions", join(work, "train"), "--domain", "retail", "--out", flowPath, "--habit-only");
    assert.equal(learned.code, 0, learned.stderr);
    writeHabitSessions(join(work, "one"), 101, 60, "usual");
    writeHabitSessions(join(work, "spliced"), 101, 40, "usual");
    changedIds = writeHabitSessions(join(work, "spliced"), 141, 20, "changed");
    writeHabitSessions(join(work, "recent"), 101, 40, "usual");
    writeHabitSessions(join(work, "recent"), 141, 5, "changed");
  });
  after(cleanTemp);

  it("raises one alarm at session 41 when the agent changed habit after session 40 of 60, and names what moved", async () => {
    const json = join(work, "spliced.json");
    const r = await stretto("drift", "--flow", flowPath, "--sessions", join(work, "spliced"), "--json", json);
    assert.equal(r.code, 0, r.stderr);
    const d = JSON.parse(readFileSync(json, "utf8")) as Drift;
    assert.equal(d.sessions.length, 60);
    assert.equal(d.alarms.length, 1);
    const alarm = d.alarms[0]!;
    assert.equal(alarm.change, 40);
    assert.ok(alarm.at >= 42 && alarm.at <= 44, `sounded after session ${alarm.at + 1}`);
    assert.ok(alarm.probability >= 0.5);
    assert.equal(d.sounding, false, "twenty sessions later the change is past the window");
    assert.deepEqual(d.unknown_tools, { get_product_details: 40 });
    assert.equal(alarm.moved[0]!.site, "find_user_id_by_email");
    assert.ok(alarm.moved[0]!.after.surprise > alarm.moved[0]!.before!.surprise);
    assert.deepEqual(d.settings, { hazard: 0.01, window: 10, threshold: 0.5 });
    assert.match(r.stdout, /^# Drift: retail\n\n60 sessions, from `[^`]+` to `[^`]+`, scored under the flow's habit\. The alarm sounds when a change within the last 10 sessions, after at least 10 sessions and followed by at least 3 of the new run, has probability 0\.5 or more \(hazard 0\.01\)\.\n\n\*\*No alarm now:\*\* a change within the last 10 sessions has probability 0\.\d\d\.\n/);
    assert.ok(r.stdout.includes(`\n## Alarms\n\n| After session | Changed at | Probability |\n|---|---|---|\n| ${alarm.at + 1} | 41 (\`${changedIds[0]}\`) |`), r.stdout);
    assert.ok(r.stdout.includes("\n### Sites across the change at session 41\n\n| Site | Decisions before | after | Agreement before | after | Surprise before | after |\n"), r.stdout);
    assert.ok(r.stdout.includes(`\n## Tools training never saw\n\n| Tool | First called in session |\n|---|---|\n| \`get_product_details\` | 41 (\`${changedIds[0]}\`) |\n`), r.stdout);
    assert.ok(r.stdout.includes("\n## Sessions\n\n| # | Session | Decisions | Surprise (nats) | Disagreement | Unknown sites | P(change) |\n"), r.stdout);
  });

  it("raises none on 60 sessions of one habit", async () => {
    const json = join(work, "one.json");
    const r = await stretto("drift", "--flow", flowPath, "--sessions", join(work, "one"), "--json", json);
    assert.equal(r.code, 0, r.stderr);
    const d = JSON.parse(readFileSync(json, "utf8")) as Drift;
    assert.deepEqual([d.sessions.length, d.alarms.length, d.sounding], [60, 0, false]);
    assert.ok(d.sessions.every((s) => s.change < 0.5));
    assert.deepEqual(d.unknown_tools, {});
    assert.ok(!r.stdout.includes("## Alarms"));
  });

  it("sounds while the change is recent: exit 1, and the report says when the agent changed", async () => {
    const r = await run(NODE, [STRETTO, "drift", "--flow", flowPath, "--sessions", join(work, "recent"), "--quiet"]);
    assert.equal(r.code, 1, r.stderr.toString());
    assert.equal(r.stderr.toString(), "stretto: the agent changed; the flow may no longer fit\n");
    assert.match(r.stdout.toString(), /\n\*\*Alarm: the agent changed at session 41 \(`[^`]+`\), 5 sessions ago\*\* \(probability \d\.\d\d\)\. Relearn the flow with the sessions since weighed more \(`stretto learn --half-life`\), or from them alone\.\n/);
  });

  it("says so when there is nothing to score, and refuses what it cannot watch (exit 2)", async () => {
    const none = await stretto("drift", "--flow", flowPath);
    assert.deepEqual([none.code, none.stdout], [0, "# Drift: retail\n\nNo sessions to score.\n"]);
    for (const [option, value, message] of [
      ["--hazard", "1.5", "1.5 is not a probability above 0 and at most 1"],
      ["--threshold", "0", "0 is not a probability above 0 and at most 1"],
      ["--window", "2", "--window needs a whole number of sessions, 3 or more, not 2"],
    ] as const) {
      const r = await stretto("drift", "--flow", flowPath, option, value);
      assert.equal(r.code, 2, option);
      assert.ok(r.stderr.startsWith(`stretto: ${message}\n`), r.stderr);
    }
    const arbiter = await stretto("drift", "--flow", flowPath, "--decider", "arbiter", "--sessions", join(work, "one"));
    assert.deepEqual([arbiter.code, arbiter.stderr], [2, "stretto: the flow has no arbiter: watch it with --decider habit\n"]);
    const missing = await stretto("drift", "--flow", join(work, "nowhere.flow.json"), "--sessions", join(work, "one"));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^stretto: reading .*nowhere\.flow\.json: /);
  });

  describe("the detector", () => {
    /** A wobbly level: the same small noise everywhere. */
    const noise = (i: number) => 0.1 * Math.sin(i * 1.7) + 0.05 * Math.cos(i * 0.9);
    const watch = (xs: number[]) => {
      const det = new ChangeDetector([fitPrior(xs)], 0.01);
      return xs.map((x, t) => {
        det.observe([x]);
        return recentChange(det.posterior(), t + 1, 10);
      });
    };

    it("an outlier is no change, and a level shift is, once three sessions of the new level came", () => {
      const outlier = Array.from({ length: 45 }, (_, i) => (i === 20 ? 5 : 1 + noise(i)));
      assert.ok(watch(outlier).every((c) => c.probability < 0.5));
      const shift = Array.from({ length: 40 }, (_, i) => (i < 30 ? 1 : 3) + noise(i));
      const seen = watch(shift);
      assert.ok(seen[31]!.probability < 0.5, String(seen[31]!.probability));
      assert.ok(seen[32]!.probability >= 0.5, String(seen[32]!.probability));
      assert.equal(seen[32]!.run, 3);
    });

    it("fits its priors on medians, and a series that never moves gets the smallest scale", () => {
      assert.equal(median([3, 1, 2]), 2);
      assert.equal(median([4, 1, 3, 2]), 2.5);
      assert.deepEqual(fitPrior([2, 2, 2]), { mean: 2, kappa: 0.1, alpha: 1, beta: 0.05 * 0.05 });
      const p = fitPrior([0, 1, 0, 1]);
      assert.ok(Math.abs(p.beta - ((1.4826 / Math.SQRT2) ** 2)) < 1e-12);
    });

    it("lists sites new after the change first, then by how much their surprise rose", () => {
      const session = (sites: [string, number, number][]): SessionSeries => ({
        id: "s",
        decisions: 0,
        unseen: [],
        sites: new Map(sites.map(([site, n, surprise]) => [site, { decisions: n, agreed: 0, surprise }])),
      });
      const order = moved([session([["a", 1, 1], ["b", 1, 1]])], [session([["a", 1, 2], ["b", 1, 5], ["c", 1, 0]])]).map((m) => m.site);
      assert.deepEqual(order, ["c", "b", "a"]);
    });
  });
});
