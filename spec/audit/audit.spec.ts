/**
 * `stretto audit`: a flow learned from one agent's sessions scored on more of them and on a
 * changed agent's, the report and its JSON, the three refusals, τ²-bench results with a
 * checkout's test split, an arbiter flow whose oracle does not answer, and the binary itself.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { auditFlow, episodeDecisions, auditedFlow, OTHER } from "../../lib/audit/index.js";
import { loadFlow } from "../../lib/flow/ir/load-flow.js";
import { readEpisode } from "../../lib/trace/episode.js";
import { writeArbiterFlow } from "../e2e/arbiter-flow.js";
import { FIXTURE_PATH, requireFixture } from "../flow/flow-fixture.js";
import { cleanTemp, NODE, run, STRETTO, tempDir } from "../helpers/processes.js";
import { habitSessionLog, writeHabitSessions } from "../drift/habit-sessions.js";
import { stretto } from "../drift/in-process.js";

interface AuditJson {
  domain: string;
  decider: string;
  episodes: number;
  decisions: number;
  unanswered: number;
  agreement: number;
  mean_log_prob: number;
  calibration: { from: number; decisions: number }[];
  sites: { site: string; decisions: number }[];
  surprising: { episode: string }[];
}

describe("stretto audit", function () {
  this.timeout(60_000);
  let work: string;
  let flowPath: string;

  before(async () => {
    work = tempDir();
    writeHabitSessions(join(work, "train"), 1, 20, "usual");
    writeHabitSessions(join(work, "usual"), 200, 6, "usual");
    writeHabitSessions(join(work, "changed"), 300, 6, "changed");
    flowPath = join(work, "retail.flow.json");
    const learned = await stretto("learn", "--sessions", join(work, "train"), "--domain", "retail", "--out", flowPath, "--habit-only");
    assert.equal(learned.code, 0, learned.stderr);
  });
  after(cleanTemp);

  it("scores sessions under the habit, opening with the decider, and writes --json", async () => {
    const json = join(work, "out", "audit.json");
    const r = await stretto("audit", "--flow", flowPath, "--sessions", join(work, "usual"), "--json", json);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Flow audit: retail\n\nThe flow decides with the habit alone\. 6 episodes, \d+ decisions scored \(0 left out: no answer from the oracle\)\.\n\n- \*\*Agreement:\*\* the flow's likeliest option was the agent's step at \d+\.\d% of decisions \(\d+\.\d% expected if it picked at random from its own probabilities\)\.\n- \*\*Surprise:\*\* \d+\.\d{3} nats per decision/);
    assert.ok(r.stdout.includes("\n## Sites\n\n| Site | Decisions | Agreement | Nats per decision |\n|---|---|---|---|\n| `get_order_details` |"), r.stdout);
    assert.ok(r.stdout.includes("\n## Calibration\n\n| Top probability | Decisions | Mean | Agreement |\n"), r.stdout);
    assert.ok(r.stdout.includes("\n## Episodes the flow fit least\n\n| Episode | Task | Decisions | Nats per decision |\n"), r.stdout);
    assert.match(r.stderr, /^stretto: audited \d+ decisions in 6 episodes in \d+\.\d s\n$/);
    const a = JSON.parse(readFileSync(json, "utf8")) as AuditJson;
    assert.equal(a.domain, "retail");
    assert.equal(a.decider, "habit");
    assert.equal(a.episodes, 6);
    assert.equal(a.sites.reduce((n, s) => n + s.decisions, 0), a.decisions);
    assert.equal(a.calibration.reduce((n, b) => n + b.decisions, 0), a.decisions);
    assert.ok(a.agreement > 0.8, String(a.agreement));
    assert.equal(a.surprising.length, 6);

    const out = join(work, "out", "report.md");
    const toFile = await stretto("audit", "--flow", flowPath, "--sessions", join(work, "usual"), "--out", out);
    assert.equal(toFile.stdout, "");
    assert.equal(readFileSync(out, "utf8"), r.stdout);
  });

  it("finds a changed agent surprising: a read the flow does not offer is `other`, floored, never impossible", async () => {
    const flow = loadFlow(flowPath);
    const usual = await auditFlow(flow, [await episodeOf(200, "usual")], { decider: "habit" });
    const changed = await auditFlow(flow, [await episodeOf(300, "changed")], { decider: "habit" });
    assert.ok(-changed.mean_log_prob > 5 * -usual.mean_log_prob, `${changed.mean_log_prob} vs ${usual.mean_log_prob}`);
    // After finding the customer, the changed agent reads an order: a read not offered there.
    const decisions = [];
    for await (const d of episodeDecisions(auditedFlow(flow), await episodeOf(300, "changed"), { decider: "habit" })) if (d.kind === "scored") decisions.push(d.decision);
    const first = decisions[0]!;
    assert.equal(first.site, "find_user_id_by_email");
    assert.equal(first.options[first.step], OTHER);
    assert.equal(first.called, "get_order_details");
    for (const d of decisions) {
      assert.ok(Math.abs(d.probs.reduce((a, b) => a + b, 0) - 1) < 1e-9);
      assert.ok(d.probs.every((p) => p > 0));
    }
  });

  it("refuses what it cannot score", async () => {
    const usage = await stretto("audit", "--flow", flowPath, "--decider", "nobody");
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^stretto: --decider is arbiter, habit or reach, not nobody\nUsage: stretto audit /);
    const none = await stretto("audit", "--flow", flowPath);
    assert.deepEqual([none.code, none.stderr], [1, "stretto: no episodes to audit: pass --sessions, --otel or --results for retail\n"]);
    const arbiter = await stretto("audit", "--flow", flowPath, "--sessions", join(work, "usual"), "--decider", "arbiter");
    assert.deepEqual([arbiter.code, arbiter.stderr], [1, "stretto: the flow has no arbiter: audit it with --decider habit\n"]);
  });

  it("refuses --decider reach for a flow without reach counts", async function () {
    requireFixture(this);
    const reach = await stretto("audit", "--flow", FIXTURE_PATH, "--sessions", join(work, "usual"), "--decider", "reach");
    assert.deepEqual([reach.code, reach.stderr], [1, "stretto: the flow has no counts for --decider reach: learn it again\n"]);
  });

  it("with an arbiter flow asks the model, and leaves out the decisions it does not answer", async function () {
    requireFixture(this);
    const flow = writeArbiterFlow(work);
    const r = await stretto("audit", "--flow", flow, "--sessions", join(work, "usual"), "--oracle-cache", join(work, "empty-cache"));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Flow audit: retail\n\nThe flow decides with its arbiter, which asks `[^`]+`\. 6 episodes, 0 decisions scored \([1-9]\d* left out: no answer from the oracle\)\./);
  });

  it("reads τ²-bench results, keeping a checkout's test split and skipping other domains", async () => {
    const sim = (id: string, task: string) => ({
      id,
      task_id: task,
      messages: [
        { role: "user", content: "I am c1@example.com." },
        { role: "assistant", tool_calls: [{ id: "a", name: "find_user_id_by_email", arguments: { email: "c1@example.com" } }] },
        { role: "tool", id: "a", content: "user_1" },
        { role: "assistant", tool_calls: [{ id: "b", name: "get_user_details", arguments: { user_id: "user_1" } }] },
        { role: "tool", id: "b", content: JSON.stringify({ orders: ["#W1a"], user_id: "user_1" }) },
        { role: "assistant", content: "Here you are." },
      ],
    });
    const results = join(work, "results.json");
    writeFileSync(results, JSON.stringify({ info: { environment_info: { domain_name: "retail" } }, simulations: [sim("r1", "task-1"), sim("r2", "task-2"), sim("r3", "task-3")] }));
    const airline = join(work, "airline.json");
    writeFileSync(airline, JSON.stringify({ info: { environment_info: { domain_name: "airline" } }, simulations: [sim("x1", "task-1")] }));
    const all = await stretto("audit", "--flow", flowPath, "--results", results, "--results", airline, "--json", join(work, "r.json"));
    assert.equal(all.code, 0, all.stderr);
    assert.equal((JSON.parse(readFileSync(join(work, "r.json"), "utf8")) as AuditJson).episodes, 3);
    const checkout = join(work, "tau2");
    mkdirSync(join(checkout, "data", "tau2", "domains", "retail"), { recursive: true });
    writeFileSync(join(checkout, "data", "tau2", "domains", "retail", "split_tasks.json"), JSON.stringify({ train: ["task-1"], test: ["task-2", "task-3"] }));
    const test = await stretto("audit", "--flow", flowPath, "--results", results, "--tau2", checkout);
    assert.equal(test.code, 0, test.stderr);
    assert.match(test.stdout, /The flow decides with the habit alone\. 2 episodes, /);
    const bad = await stretto("audit", "--flow", flowPath, "--results", results, "--tau2", join(work, "nowhere"));
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^stretto: reading .*split_tasks\.json: /);
  });

  it("runs as a binary", async () => {
    const r = await run(NODE, [STRETTO, "audit", "--flow", flowPath, "--sessions", join(work, "changed"), "--quiet"]);
    assert.equal(r.code, 0, r.stderr.toString());
    assert.match(r.stdout.toString(), /^# Flow audit: retail\n\nThe flow decides with the habit alone\. 6 episodes/);
  });

  async function episodeOf(n: number, habit: "usual" | "changed") {
    const { file, text } = habitSessionLog(n, habit);
    const path = join(work, `one-${n}-${file}`);
    writeFileSync(path, text);
    return readEpisode(path);
  }
});
