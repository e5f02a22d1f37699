/**
 * The surprise gate end to end: `stretto learn --surprise` stores a gate learned from held-out
 * sessions; `stretto-proxy` serves the flow in front of `stretto-mcp-demo --world retail`, and
 * once the agent does what the flow never saw, the flow hands back with the exact reason for
 * the rest of the session, its flow log saying so; `--flow-surprise` overrides the gate. And
 * the windows the gate averages, against their plain definition.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { loadFlow } from "../../lib/flow/ir/load-flow.js";
import type { Flow } from "../../lib/flow/ir/flow-types.js";
import { firstTrip, peakWindow, sessionSurprises, surprisedReason, SURPRISED } from "../../lib/plugins/flow/surprise.js";
import { readEpisode } from "../../lib/trace/episode.js";
import { cleanTemp, NODE, run, runProxy, STRETTO, tempDir } from "../helpers/processes.js";
import { surprise } from "../../lib/cli/flow-values.js";
import { parseArgs } from "../../lib/cli/stretto/command.js";
import { learnCommand } from "../../lib/cli/stretto/learn.js";
import { gateOptions } from "../../lib/cli/stretto/surprise-option.js";
import { writeHabitSessions } from "../drift/habit-sessions.js";
import { serveSession, type Answer } from "./serve-session.js";

type Line = { after?: unknown; action?: string; reason?: string; tool?: string; site?: string | null; run?: unknown };

const textOf = (a: Answer) => (a.result?.content ?? []).map((c) => c.text).join("\n");

describe("the surprise gate", function () {
  this.timeout(60_000);
  let work: string;
  let flowPath: string;
  let flow: Flow;
  let gated: Awaited<ReturnType<typeof surprisingSession>>;
  let ungated: Awaited<ReturnType<typeof surprisingSession>>;
  let high: { code: number | null; stderr: string };

  before(async () => {
    work = tempDir();
    writeHabitSessions(join(work, "sessions"), 1, 30, "usual");
    flowPath = join(work, "retail.flow.json");
    const learned = await run(NODE, [STRETTO, "learn", "--sessions", join(work, "sessions"), "--domain", "retail", "--out", flowPath, "--habit-only", "--surprise", "0.9", "--surprise-window", "2", "--quiet"]);
    assert.equal(learned.code, 0, learned.stderr.toString());
    assert.match(
      learned.stderr.toString(),
      /^stretto: the flow hands back for the rest of a session once 2 of the agent's steps in a row average more than \d+\.\d\d nats of surprise, the 0\.9 quantile of held-out training sessions' most surprising windows\n/,
    );
    flow = loadFlow(flowPath);
    // The same session with the gate and without it, at the same time (each mostly waits on its host's pauses).
    const highStart = async () => (await serveSession(["--flow", flowPath, "--flow-surprise", "1000"])).end();
    [gated, ungated, high] = await Promise.all([surprisingSession([]), surprisingSession(["--flow-surprise", "off"]), highStart()]);
  });
  after(cleanTemp);

  it("is stored by learn --surprise, in a flow of format 2", () => {
    const json = JSON.parse(readFileSync(flowPath, "utf8")) as { stretto_flow: number; surprise: { window: number; threshold: number; quantile: number } };
    assert.equal(json.stretto_flow, 2);
    assert.equal(json.surprise.window, 2);
    assert.equal(json.surprise.quantile, 0.9);
    assert.ok(json.surprise.threshold > 0);
  });

  /**
   * The agent finds customer 1 and reads an order, as in training; then it looks the
   * customer up three times more, which it never did after those calls, then reads the user.
   */
  async function surprisingSession(extra: readonly string[]): Promise<{ lines: Line[]; answers: Answer[]; stderr: string; log: string }> {
    const dir = tempDir();
    const s = await serveSession(["--record", dir, "--domain", "retail", "--flow", flowPath, "--flow-threshold", "0.1", ...extra]);
    const answers: Answer[] = [];
    answers.push(await s.call("find_user_id_by_email", { email: "c1@example.com" }));
    answers.push(await s.call("get_order_details", { order_id: "#W1a" }));
    for (let i = 0; i < 3; i++) answers.push(await s.call("find_user_id_by_email", { email: "c1@example.com" }));
    answers.push(await s.call("get_user_details", { user_id: "user_1" }));
    const { code, stderr } = await s.end();
    assert.equal(code, 0, stderr);
    const files = readdirSync(dir);
    const flowLog = files.find((f) => f.endsWith(".flow.jsonl"));
    assert.ok(flowLog !== undefined, files.join(", "));
    const lines = readFileSync(join(dir, flowLog), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Line);
    return { lines, answers, stderr, log: join(dir, flowLog.replace(/\.flow\.jsonl$/, ".jsonl")) };
  }

  it("hands back, with the exact reason, for the rest of a session once the agent does what the flow never saw", async () => {
    const { lines, answers, stderr, log } = gated;
    assert.match(stderr, /stretto-proxy: the flow hands back for the rest of a session once 2 of the agent's steps in a row average more than \d+\.\d\d nats of surprise, the 0\.9 quantile/);
    const decisions = lines.filter((l) => l.action !== undefined);
    const first = decisions.findIndex((l) => l.reason?.startsWith(SURPRISED) === true);
    assert.ok(first > 0, JSON.stringify(decisions));
    // Before: the flow acted as usual (it looked the user up after the first call).
    assert.ok(decisions.slice(0, first).some((l) => l.action === "lookup" && l.tool === "get_user_details"), JSON.stringify(decisions));
    assert.ok(decisions.slice(0, first).every((l) => !(l.reason ?? "").startsWith(SURPRISED)));
    // It trips once the agent went astray (its third call is the first it never made there in training), not before.
    const tripped = decisions[first]!.after as number;
    assert.ok(tripped >= 5 && tripped <= 7, `tripped after call ${tripped}`);
    // The exact reason: the first window of two steps in a row above the threshold, scored on the recorded session.
    const surprises = sessionSurprises(flow, await readEpisode(log));
    const gate = flow.surprise!;
    const mean = firstTrip(surprises, gate.window, gate.threshold);
    assert.ok(mean !== undefined && mean > gate.threshold);
    const reason = surprisedReason(gate.window, mean, gate.threshold);
    assert.match(reason, /^the session surprised the flow: 2 of the agent's steps in a row averaged \d+\.\d\d nats, above \d+\.\d\d$/);
    // For the rest of the session, every decision hands back so, and the agent's results come back unchanged.
    for (const d of decisions.slice(first)) {
      assert.deepEqual({ action: d.action, reason: d.reason }, { action: "hand_back", reason });
      assert.ok(typeof d.site === "string");
    }
    assert.ok(decisions.slice(first).some((l) => l.after === 8), "a decision after the last call");
    // Before, the flow appended its lookups to the agent's results; after, it makes none.
    assert.ok(textOf(answers[0]!).includes("get_user_details"), textOf(answers[0]!));
    assert.equal(textOf(answers[5]!).includes("get_order_details"), false, textOf(answers[5]!));
  });

  it("--flow-surprise off serves the flow without its gate; a threshold sets it", () => {
    const off = ungated;
    assert.ok(!off.stderr.includes("the flow hands back for the rest"), off.stderr);
    const offDecisions = off.lines.filter((l) => l.action !== undefined);
    assert.ok(offDecisions.every((l) => !(l.reason ?? "").startsWith(SURPRISED)), JSON.stringify(offDecisions));
    // The flow still decides after the calls that tripped the gate, by its other rules.
    assert.ok(offDecisions.some((l) => l.after === 7), JSON.stringify(offDecisions));

    assert.equal(high.code, 0, high.stderr);
    assert.match(high.stderr, /the flow hands back for the rest of a session once 2 of the agent's steps in a row average more than 1000\.00 nats of surprise\n/);
  });

  it("refuses a threshold that is not above 0, or not a number", async () => {
    for (const bad of ["0", "-1", "inf", "NaN", "never"]) {
      assert.throws(() => surprise(bad), { message: `expected \`off\`, or a threshold in nats above 0, not \`${bad}\`` });
    }
    assert.equal(surprise("off"), "off");
    assert.equal(surprise("1.5"), 1.5);
    const r = await runProxy(["--flow", flowPath, "--flow-surprise", "0", "--", "cat"], { input: "" });
    assert.equal(r.code, 2);
    assert.ok(r.stderr.toString().includes("invalid value '0' for '--flow-surprise <off|NATS>': expected `off`, or a threshold in nats above 0, not `0`"), r.stderr.toString());
  });

  it("learn refuses a quantile out of range, a window without --surprise, and a window of 0", () => {
    const asked = (...args: string[]) => gateOptions(parseArgs(learnCommand, args), "usage");
    assert.throws(() => asked("--surprise", "1.5"), { message: "--surprise needs a quantile above 0 and at most 1, not 1.5" });
    assert.throws(() => asked("--surprise", "0"), { message: "--surprise needs a quantile above 0 and at most 1, not 0" });
    assert.throws(() => asked("--surprise-window", "3"), { message: "--surprise-window needs --surprise" });
    assert.throws(() => asked("--surprise", "0.5", "--surprise-window", "0"), { message: "a surprise gate averages over one step or more" });
    assert.deepEqual(asked("--surprise", "0.5"), { quantile: 0.5, window: 5 });
    assert.equal(asked(), undefined);
  });

  it("a window trips on the first run of steps averaging strictly more than the threshold (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { maxLength: 30 }), fc.integer({ min: 1, max: 6 }), fc.double({ min: 0, max: 10, noNaN: true }), (xs, w, th) => {
        const means: number[] = [];
        for (let i = 0; i + w <= xs.length; i++) means.push(xs.slice(i, i + w).reduce((a, b) => a + b, 0) / w);
        const first = means.find((m) => m > th);
        const got = firstTrip(xs, w, th);
        if (first === undefined) return got === undefined || Math.abs(got - th) < 1e-9;
        return got !== undefined && Math.abs(got - first) < 1e-9;
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { maxLength: 30 }), fc.integer({ min: 1, max: 6 }), (xs, w) => {
        const means: number[] = [];
        for (let i = 0; i + w <= xs.length; i++) means.push(xs.slice(i, i + w).reduce((a, b) => a + b, 0) / w);
        const peak = peakWindow(xs, w);
        return means.length === 0 ? peak === undefined : Math.abs(peak! - Math.max(...means)) < 1e-9;
      }),
    );
  });
});
