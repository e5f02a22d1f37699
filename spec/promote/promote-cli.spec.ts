/**
 * `stretto promote` as a command: its options, the report (stdout or --report), both stderr
 * lines, --task-ids, and every error, on session logs written here (run in process, as the
 * binary runs it; spec/e2e/promote-shadow.spec.ts drives the binary after a real proxy).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { main } from "../../lib/cli/stretto/main.js";
import { toJsonl } from "../../lib/trace/index.js";
import { FIXTURE_PATH, requireFixture } from "../flow/flow-fixture.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";
import { writeArbiterFlow } from "../e2e/arbiter-flow.js";
import { callWith, logOf, reply, said } from "../trace/log-fixtures.js";

async function stretto(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = "";
  let stderr = "";
  out.on("data", (c: Buffer) => (stdout += c.toString()));
  err.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await main(["promote", ...args], { stdout: out, stderr: err, stderrIsTty: false }, "0");
  await new Promise((r) => setImmediate(r));
  return { code, stdout, stderr };
}

/** Customer n's session: the email lookup, then, a turn later, the user's details. */
function writeSession(dir: string, n: number): void {
  const log = logOf([
    said(`I am c${n}@example.com.`),
    callWith(1, "find_user_id_by_email", { email: `c${n}@example.com` }),
    reply(1, `user_${n}`),
    callWith(2, "get_user_details", { user_id: `user_${n}` }),
    reply(2, JSON.stringify({ orders: [`#W${n}a`], user_id: `user_${n}` })),
  ]);
  log.header.session = `s${n}`;
  writeFileSync(join(dir, `s${n}.jsonl`), toJsonl(log));
}

const USAGE = "Usage: stretto promote --flow FILE (--sessions DIR | --otel FILE | --results FILE)... --out FILE [options]\n";

describe("stretto promote (the command)", function () {
  this.timeout(30_000);
  let dir: string;
  before(function () {
    requireFixture(this);
    dir = tempDir();
    for (const n of [1, 2]) writeSession(dir, n);
  });
  after(cleanTemp);

  it("writes the report to stdout and says when no site met the bar", async () => {
    const out = join(tempDir(), "p.flow.json");
    const r = await stretto("--flow", FIXTURE_PATH, "--sessions", dir, "--out", out, "--threshold", "0.1", "--quiet");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stderr,
      "stretto: scored 2 episodes (0 decisions left out, unanswered); 0 of 1 sites promoted\n" +
        "stretto: no site met the bar, so the promoted flow hands back after every call\n",
    );
    assert.ok(r.stdout.endsWith("| `find_user_id_by_email` | 2 | 2 | 2 (100%) | 0.43 | 2 | no |\n"), r.stdout);
    const promoted = JSON.parse(readFileSync(out, "utf8")) as { promoted: { sites: Record<string, { promoted: boolean }> } };
    assert.equal(promoted.promoted.sites["find_user_id_by_email"]!.promoted, false);
  });

  it("takes the bar's options and --report, and scores only --task-ids", async () => {
    const work = tempDir();
    const out = join(work, "p.flow.json");
    const report = join(work, "report.md");
    const r = await stretto(
      "--flow", FIXTURE_PATH, "--sessions", dir, "--out", out, "--report", report,
      "--threshold", "0.1", "--min-used", "0.9", "--min-lower", "0.2", "--min-tasks", "2", "--decider", "habit",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "");
    // Promoted, the email lookup's chain goes on to the user's details, a second site scored.
    assert.equal(r.stderr, "stretto: scored 2 episodes (0 decisions left out, unanswered); 1 of 2 sites promoted\n");
    const md = readFileSync(report, "utf8");
    assert.ok(md.startsWith("A site is promoted when, at a threshold of 0.1, at least 90% of the flow's lookups there were ones the agent made in a later LLM turn, the 90% interval's lower bound on that share is at least 0.20, and the lookups came from at least 2 tasks.\n\n"), md);
    assert.ok(md.includes("| `find_user_id_by_email` | 2 | 2 | 2 (100%) | 0.43 | 2 | yes |\n| `get_user_details` | 2 | 2 | 0 (0%) | 0.00 | 2 | no |\n"), md);
    const bar = (JSON.parse(readFileSync(out, "utf8")) as { promoted: { bar: unknown } }).promoted.bar;
    assert.deepEqual(bar, { threshold: 0.1, min_used: 0.9, min_lower: 0.2, min_tasks: 2 });

    const one = await stretto("--flow", FIXTURE_PATH, "--sessions", dir, "--out", out, "--threshold", "0.1", "--task-ids", "s2, nobody");
    assert.match(one.stderr, /^stretto: scored 1 episodes \(0 decisions left out, unanswered\); 0 of 1 sites promoted\n/);
  });

  it("scores τ²-bench results (--results), whose tasks are their own, trials of one task counting once", async () => {
    const sim = (id: string, task: string, n: number) => ({
      id,
      task_id: task,
      messages: [
        { role: "user", content: `I am c${n}@example.com.` },
        { role: "assistant", tool_calls: [{ id: "a", name: "find_user_id_by_email", arguments: { email: `c${n}@example.com` } }] },
        { role: "tool", id: "a", content: `user_${n}` },
        { role: "assistant", tool_calls: [{ id: "b", name: "get_user_details", arguments: { user_id: `user_${n}` } }] },
        { role: "tool", id: "b", content: JSON.stringify({ orders: [], user_id: `user_${n}` }) },
      ],
    });
    const work = tempDir();
    const results = join(work, "results.json");
    const sims = [sim("r1", "task-1", 1), sim("r2", "task-1", 2), sim("r3", "task-2", 3), sim("r4", "task-3", 4)];
    writeFileSync(results, JSON.stringify({ info: { environment_info: { domain_name: "retail" } }, simulations: sims }));
    const r = await stretto("--flow", FIXTURE_PATH, "--results", results, "--out", join(work, "p.flow.json"), "--threshold", "0.1", "--min-tasks", "3");
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes("| `find_user_id_by_email` | 4 | 4 | 4 (100%) | 0.60 | 3 | yes |\n"), r.stdout);
    const two = await stretto("--flow", FIXTURE_PATH, "--results", results, "--out", join(work, "p.flow.json"), "--threshold", "0.1", "--task-ids", "task-1,task-3");
    assert.match(two.stderr, /^stretto: scored 3 episodes /);
  });

  it("with an arbiter flow asks the model: a decision it gives no answer to is left out, unanswered", async () => {
    const work = tempDir();
    const flow = writeArbiterFlow(work);
    const out = join(work, "p.flow.json");
    // An empty replay cache answers nothing: the one decision in each session (after the email
    // lookup; the last result has nothing after it) is left out.
    const replay = await stretto("--flow", flow, "--sessions", dir, "--out", out, "--oracle-cache", join(work, "cache"));
    assert.equal(replay.code, 0, replay.stderr);
    assert.equal(
      replay.stderr,
      "stretto: scored 2 episodes (2 decisions left out, unanswered); 0 of 0 sites promoted\n" +
        "stretto: no site met the bar, so the promoted flow hands back after every call\n",
    );
    // The mock model answers every question: every decision is scored.
    const mock = await stretto("--flow", flow, "--sessions", dir, "--out", out, "--oracle", "mock");
    assert.equal(mock.code, 0, mock.stderr);
    assert.match(mock.stderr, /^stretto: scored 2 episodes \(0 decisions left out, unanswered\); \d+ of [12] sites promoted\n/);
    assert.match(mock.stdout, /\| `find_user_id_by_email` \| 2 \|/);
  });

  it("says what is wrong: usage errors exit 2, a flow it cannot use exits 1", async () => {
    const out = join(tempDir(), "p.flow.json");
    const base = ["--flow", FIXTURE_PATH, "--sessions", dir, "--out", out];
    for (const [args, reason] of [
      [["--sessions", dir, "--out", out], "promote needs --flow FILE"],
      [["--flow", FIXTURE_PATH, "--sessions", dir], "promote needs --out FILE"],
      [["--flow", FIXTURE_PATH, "--out", out], "promote needs --sessions DIR, --otel FILE or --results FILE"],
      [[...base, "--decider", "oracle"], "--decider is arbiter, habit or reach, not oracle"],
      [[...base, "--oracle", "magic"], "--oracle is jev, replay or mock, not magic"],
      [[...base, "--threshold", "high"], "--threshold needs a probability, not high"],
      [[...base, "--min-used", "1.5"], "--min-used needs a share in [0, 1], not 1.5"],
      [[...base, "--min-tasks", "2.5"], "--min-tasks needs a whole number, not 2.5"],
      [[...base, "--per-call", "0"], "--per-call needs a whole number of 1 or more, not 0"],
      [[...base, "--tau2", "x"], "promote has no option --tau2"],
    ] as const) {
      const r = await stretto(...args);
      assert.deepEqual([r.code, r.stderr], [2, `stretto: ${reason}\n${USAGE}`], args.join(" "));
    }
    let r = await stretto(...base, "--decider", "reach");
    assert.deepEqual([r.code, r.stderr], [1, `stretto: ${FIXTURE_PATH}: this flow was learned without the counts --decider reach reads\n`]);
    r = await stretto(...base, "--decider", "arbiter");
    assert.deepEqual([r.code, r.stderr], [1, `stretto: ${FIXTURE_PATH}: this flow has no arbiter, so it decides with the habit alone\n`]);
    const bad = join(tempDir(), "bad.flow.json");
    writeFileSync(bad, '{"stretto_flow":99}');
    r = await stretto("--flow", bad, "--sessions", dir, "--out", out);
    assert.deepEqual([r.code, r.stderr], [1, `stretto: loading ${bad}: flow format 99 is not supported (this build reads 1 and 2)\n`]);
    r = await stretto("--flow", FIXTURE_PATH, "--sessions", join(dir, "absent"), "--out", out);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^stretto: .*absent/);
  });
});
