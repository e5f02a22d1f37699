/**
 * `stretto evaluate` (docs/promote-evaluate.md): estimates over three labelled decisions, each worked
 * out by hand below, and every error message, through the real binary.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { main } from "../../lib/cli/stretto/main.js";
import { join } from "node:path";
import { evaluate, parseDecision, type LoggedDecision, type Metrics } from "../../lib/evaluate/index.js";
import { NODE, STRETTO, cleanTemp, run, tempDir } from "../helpers/processes.js";

const opt = (tool: string, p: number, habit: number, binding: number | null) => ({ tool, p, habit, binding, arguments: binding === null ? null : {} });
const policy = (greedy: string | null, explored: boolean, options: object[], decider = "arbiter") => ({
  decider,
  threshold: 0.3,
  epsilon: 0.2,
  explored,
  greedy,
  propensity: 0,
  task_id: "t",
  events: 3,
  options,
});
const label = (used: boolean, detour: boolean, turn: number) => ({ used, detour, turn });

/**
 * At site A the flow's arbiter favours x (0.6) over y (0.3), ε = 0.2:
 * 1. it took x, the rule's choice: propensity 0.8;
 * 2. it explored and took y, the only alternative: propensity 0.2 × 0.3 / 0.3 = 0.2.
 * At site B z is at 0.2, below 0.3:
 * 3. it handed back, the rule's choice: propensity 0.8.
 * A label is [lookups, used, detours, turns] = [1, used, detour, turn]; handing back is 0.
 */
const LINES = [
  { action: "lookup", tool: "x", site: "A", policy: policy("x", false, [opt("x", 0.6, 0.3, 1), opt("y", 0.3, 0.5, 1)]), labels: [label(true, false, 1), label(false, true, 0)] },
  { action: "lookup", tool: "y", site: "A", policy: policy("x", true, [opt("x", 0.6, 0.3, 1), opt("y", 0.3, 0.5, 1)]), labels: [label(false, true, 0), label(true, false, 2)] },
  { action: "hand_back", reason: "z at 0.20, below 0.3", site: "B", policy: policy(null, false, [opt("z", 0.2, 0.9, 0.5)]), labels: [label(true, false, 1)] },
];

const decisions = (): LoggedDecision[] => LINES.map((l, i) => parseDecision(JSON.stringify(l), `d:${i + 1}`)!);

function close(actual: Metrics | undefined, expected: Metrics, what: string): void {
  assert.ok(actual !== undefined, `${what} refused`);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]!) < 1e-12, `${what}[${i}]: ${a} ≠ ${expected[i]}`));
}

describe("stretto evaluate", function () {
  this.timeout(30_000);
  after(cleanTemp);

  it("the habit at 0.3: takes y at A and z at B; only decision 2 agrees (w = 5)", () => {
    const ev = evaluate({ name: "h", decider: "habit", threshold: 0.3 }, decisions(), 1);
    const all = ev.all;
    close(all.logged, [2, 2, 0, 3], "logged"); // x [1,1,0,1] + y [1,1,0,2] + nothing
    close(all.direct, [3, 2, 1, 3], "direct"); // y [1,0,1,0] + y [1,1,0,2] + z [1,1,0,1]
    close(all.ips, [5, 5, 0, 10], "IPS"); // 5 × y [1,1,0,2]
    assert.equal(all.ess, 1); // 5² / 25
    close(all.snips, [3, 3, 0, 6], "SNIPS"); // IPS × 3 / 5
    // The model: (A,x) [1,.5,.5,.5], (A,y) [1,.5,.5,1], (B,z) [1,1,0,1].
    // 1: (A,y); 2: (A,y) + 5 × ([1,1,0,2] − (A,y)) = [1,3,−2,6]; 3: (B,z).
    close(all.dr, [3, 4.5, -1.5, 8], "DR");
    assert.equal(all.targetLookups, 3);

    const a = ev.sites.get("A")!;
    close(a.direct, [2, 1, 1, 2], "A direct");
    close(a.snips, [2, 2, 0, 4], "A SNIPS"); // [5,5,0,10] × 2 / 5
    close(a.dr, [2, 3.5, -1.5, 7], "A DR");
    // At B no weight is left: ESS 0, so the target's lookup there refuses the weighted estimates.
    const b = ev.sites.get("B")!;
    assert.equal(b.ess, 0);
    assert.equal(b.ips, undefined);
    assert.deepEqual([...ev.sites.keys()], ["A", "B"]);
  });

  it("the arbiter at 0.3: agrees at decisions 1 and 3 (w = 1.25 each)", () => {
    const all = evaluate({ name: "a", decider: "arbiter", threshold: 0.3 }, decisions(), 2).all;
    close(all.direct, [2, 1, 1, 1], "direct"); // x [1,1,0,1] + x [1,0,1,0] + nothing
    close(all.ips, [1.25, 1.25, 0, 1.25], "IPS");
    assert.equal(all.ess, 2); // 2.5² / 3.125
    close(all.snips, [1.5, 1.5, 0, 1.5], "SNIPS"); // IPS × 3 / 2.5
    // 1: (A,x) + 1.25 × ([1,1,0,1] − (A,x)) = [1,1.125,−0.125,1.125]; 2: (A,x); 3: 0.
    close(all.dr, [2, 1.625, 0.375, 1.625], "DR");
    // Below the minimum ESS, with the target looking something up, they are refused.
    assert.equal(evaluate({ name: "a", decider: "arbiter", threshold: 0.3 }, decisions(), 2.01).all.ips, undefined);
    // A target that never looks anything up is never refused: its estimates need no weight.
    const never = evaluate({ name: "n", decider: "arbiter", threshold: 0.99 }, decisions(), 10).all;
    assert.equal(never.targetLookups, 0);
    close(never.direct, [0, 0, 0, 0], "direct");
    assert.ok(never.ips !== undefined);
  });

  it("prints the Markdown through the binary, refusing below --min-ess", async () => {
    const dir = tempDir();
    const file = join(dir, "decisions.jsonl");
    writeFileSync(file, LINES.map((l) => JSON.stringify(l)).join("\n") + "\n" + JSON.stringify({ after: 3, run: { call: "x" } }) + "\n");
    const r = await run(NODE, [STRETTO, "evaluate", "--decisions", file, "--target", "arb=arbiter@0.3", "--target", "hab=habit@0.3", "--min-ess", "2"]);
    assert.equal(r.code, 0, r.stderr);
    const md = r.stdout.toString();
    assert.match(md, /^# Off-policy evaluation\n\n3 logged decisions\./);
    assert.ok(md.includes("\n## `arb`: arbiter at 0.3\n\n| After | Decisions | ESS | Estimate | Lookups | Used | Detours | Turns |\n"), md);
    assert.ok(md.includes("\n| All | 3 | 2.00 | logged | 2.00 | 2.00 | 0.00 | 3.00 |\n|  |  |  | direct | 2.00 | 1.00 | 1.00 | 1.00 |\n|  |  |  | IPS | 1.25 | 1.25 | 0.00 | 1.25 |\n|  |  |  | SNIPS | 1.50 | 1.50 | 0.00 | 1.50 |\n|  |  |  | DR | 2.00 | 1.62 | 0.38 | 1.62 |\n"), md);
    // The habit's ESS of 1 is below 2: its weighted estimates are left out.
    assert.ok(md.includes("\n| All | 3 | 1.00 | logged | 2.00 | 2.00 | 0.00 | 3.00 |\n|  |  |  | direct | 3.00 | 2.00 | 1.00 | 3.00 |\n|  |  |  | IPS | — | — | — | — |\n"), md);
  });

  it("says what is wrong with each input, naming the file and line", async () => {
    const bin = await run(NODE, [STRETTO, "evaluate", "--decisions", "nowhere.jsonl"]);
    assert.equal(bin.code, 2, "a usage error exits 2");
    const dir = tempDir();
    const write = (name: string, lines: unknown[]): string => {
      const path = join(dir, name);
      writeFileSync(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
      return path;
    };
    // In process, as the binary runs it (one process for the whole list would take too long).
    const stretto = async (...args: string[]) => {
      const out = new PassThrough();
      const err = new PassThrough();
      let stderr = "";
      err.on("data", (c: Buffer) => (stderr += c.toString()));
      const code = await main(["evaluate", ...args], { stdout: out, stderr: err, stderrIsTty: false }, "0");
      return { code, stderr };
    };
    const good = write("good.jsonl", LINES);

    const labels = write("labels.jsonl", [LINES[0], { ...LINES[1], labels: [label(true, false, 1)] }]);
    let r = await stretto("--decisions", labels, "--target", "a=habit@0.3");
    assert.deepEqual([r.code, r.stderr], [1, `stretto: ${labels}:2: 1 labels for 2 options\n`]);

    const habitLogged = write("habit.jsonl", [{ ...LINES[0], policy: { ...LINES[0]!.policy, decider: "habit" } }]);
    r = await stretto("--decisions", habitLogged, "--target", "mine=arbiter@0.3");
    assert.deepEqual([r.code, r.stderr], [1, `stretto: ${habitLogged}:1: mine needs the arbiter's probabilities, but a decision was logged with the habit\n`]);

    const notJson = write("bad.jsonl", ["{"]);
    r = await stretto("--decisions", notJson, "--target", "a=habit@0.3");
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^stretto: ${notJson.replace(/[.]/g, "\\.")}:1: not JSON: `));

    const noPolicy = write("nopolicy.jsonl", [{ action: "hand_back", labels: [] }]);
    r = await stretto("--decisions", noPolicy, "--target", "a=habit@0.3");
    assert.deepEqual([r.code, r.stderr], [1, `stretto: ${noPolicy}:1: missing field \`policy\`\n`]);

    const impossible = write("impossible.jsonl", [{ ...LINES[0], tool: "w" }]);
    r = await stretto("--decisions", impossible, "--target", "a=habit@0.3");
    assert.deepEqual([r.code, r.stderr], [1, `stretto: ${impossible}:1: the flow looked up w, which is not among its policy's options\n`]);

    r = await stretto("--decisions", join(dir, "absent.jsonl"), "--target", "a=habit@0.3");
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^stretto: reading .*absent\.jsonl: /);

    const usage = "Usage: stretto evaluate --decisions FILE... --target NAME=DECIDER@THRESHOLD... [--min-ess N] [--out FILE]\n";
    for (const [args, reason] of [
      [["--target", "a=habit@0.3"], "evaluate needs --decisions FILE"],
      [["--decisions", good], "evaluate needs --target NAME=DECIDER@THRESHOLD"],
      [["--decisions", good, "--target", "habit@0.3"], "--target needs NAME=DECIDER@THRESHOLD, not habit@0.3"],
      [["--decisions", good, "--target", "a=reach@0.3"], "--target a=reach@0.3: the decider is arbiter or habit, not reach"],
      [["--decisions", good, "--target", "a=habit@high"], "--target a=habit@high: the threshold is a number, not high"],
      [["--decisions", good, "--target", "a=habit@0.3", "--target", "a=arbiter@0.5"], "two targets are named a"],
      [["--decisions", good, "--target", "a=habit@0.3", "--min-ess", "-1"], "--min-ess needs a number of 0 or more, not -1"],
    ] as const) {
      r = await stretto(...args);
      assert.deepEqual([r.code, r.stderr], [2, `stretto: ${reason}\n${usage}`], args.join(" "));
    }
  });
});
