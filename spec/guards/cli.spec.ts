/** `stretto guards` (docs/guards.md) run in process on a folder of logs and a τ²-bench results file. */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { guardsCommand, run } from "../../lib/cli/stretto/guards.js";
import type { Json } from "../../lib/trace/json.js";

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on("data", (b: Buffer) => out.push(b.toString()));
  stderr.on("data", (b: Buffer) => err.push(b.toString()));
  return { io: { stdout, stderr, stderrIsTty: false }, out: () => out.join(""), err: () => err.join("") };
}

type From = "client" | "server" | "proxy" | "context";

/** A session log: a header, then entries 10 ms apart. */
function log(session: string, entries: Array<[From, Json]>): string {
  const header = { stretto_mcp_log: 2, session, started_unix_ms: 1_790_000_000_000, server_command: ["demo"], domain: "retail", agent_model: null };
  return [header, ...entries.map(([from, message], i) => ({ t_ms: i * 10, from, message }))].map((x) => JSON.stringify(x)).join("\n") + "\n";
}

const req = (id: Json, name: string, args: Json): Json => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const res = (id: Json, text: string, isError = false): Json => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }], isError } });

/** A retail session: authenticated, the order looked up, then a cancellation with `reason`. */
function cancelSession(session: string, reason: string, refusedBy?: "server" | "proxy"): string {
  const order = JSON.stringify({ order_id: "#W7a", user_id: "user_7", status: "pending" });
  const cancelled = JSON.stringify({ order_id: "#W7a", user_id: "user_7", status: "cancelled" });
  return log(session, [
    ["context", { role: "user", content: "Hi, I'm c7@example.com. Cancel #W7a." }],
    ["client", req(1, "find_user_id_by_email", { email: "c7@example.com" })],
    ["server", res(1, "user_7")],
    ["client", req(2, "get_order_details", { order_id: "#W7a" })],
    ["server", res(2, order)],
    ["context", { role: "user", content: "Yes, cancel it." }],
    ["client", req("3", "cancel_pending_order", { order_id: "#W7a", reason })],
    refusedBy === "proxy"
      ? ["proxy", res("3", `Refused by the policy check, so cancel_pending_order was not run and nothing changed: '${reason}' is not an accepted reason (policy check retail.cancel_reason).`, true)]
      : refusedBy === "server"
        ? ["server", res("3", "Error: Invalid reason", true)]
        : ["server", res("3", cancelled)],
  ]);
}

describe("guards: stretto guards", function () {
  this.timeout(30_000);
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "stretto-guards-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("audits a folder of session logs: Markdown on stdout, JSON to --json", async () => {
    const logs = join(dir, "logs");
    await import("node:fs/promises").then((fs) => fs.mkdir(logs));
    await writeFile(join(logs, "a.jsonl"), cancelSession("20260101T000000.000Z-1", "no longer needed"));
    await writeFile(join(logs, "b.jsonl"), cancelSession("20260101T000000.000Z-2", "found it cheaper"));
    await writeFile(join(logs, "c.jsonl"), cancelSession("20260101T000000.000Z-3", "found it cheaper", "proxy"));
    await writeFile(join(logs, "c.flow.jsonl"), "not a session\n");
    const t = io();
    const code = await run(["--sessions", logs, "--domain", "retail", "--json", join(dir, "audit.json")], t.io);
    assert.equal(code, 0, t.err());
    const md = t.out();
    assert.ok(md.startsWith("# Policy guards against recorded trajectories\n"), md);
    // Logs do not know their outcome: every episode counts as failed.
    assert.ok(md.includes("\n3 episodes (0 successful, 3 failed); 2 writes the tool accepted and 1 it refused. " +
      "The enforced rules would refuse an accepted write in **0 of 0 successful** episodes and **1 of 3 failed** ones.\n"), md);
    assert.ok(md.includes("\n| `retail.cancel_reason` | yes | 0 / 0 / 0 | 1 / 1 / 0 | 0 / 1 / 0 | 0 / 1 |\n"), md);
    assert.ok(md.includes("\n| `retail.confirmed` | logged | 0 / 0 / 0 | 2 / 0 / 0 | 1 / 0 / 0 | 0 / 0 |\n"), md);
    const json = JSON.parse(await readFile(join(dir, "audit.json"), "utf8")) as Array<{ domain: string; episodes: number[]; writes: number[]; tasks: Record<string, number[]> }>;
    assert.equal(json.length, 1);
    assert.deepEqual([json[0]!.domain, json[0]!.episodes, json[0]!.writes, json[0]!.tasks], ["retail", [0, 3], [2, 1], { "": [0, 3, 0, 1] }]);
    assert.equal(t.err(), "");
  });

  it("reads a τ²-bench results file with its rewards, and writes the report to --out", async () => {
    const sim = (id: string, reward: number, reason: string, error: boolean): Json => ({
      id,
      task_id: "5",
      trial: 0,
      reward_info: { reward },
      messages: [
        { role: "assistant", content: "Hi! How can I help you today?", tool_calls: null },
        { role: "user", content: "Cancel #W1, I'm ann@x.com", tool_calls: null },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", name: "find_user_id_by_email", arguments: { email: "ann@x.com" }, requestor: "assistant" }] },
        { role: "tool", id: "c1", content: "ann_1", error: false, requestor: "assistant" },
        { role: "assistant", content: null, tool_calls: [{ id: "c2", name: "get_order_details", arguments: { order_id: "#W1" }, requestor: "assistant" }] },
        { role: "tool", id: "c2", content: JSON.stringify({ order_id: "#W1", user_id: "ann_1", status: "pending" }), error: false },
        { role: "user", content: "Yes." },
        { role: "assistant", content: null, tool_calls: [{ id: "c3", name: "cancel_pending_order", arguments: { order_id: "#W1", reason } }] },
        { role: "tool", id: "c3", content: error ? "Error: Invalid reason" : "{}", error },
      ],
    });
    const results = {
      info: { environment_info: { domain_name: "retail" }, agent_info: { llm: "gpt-4.1" } },
      simulations: [sim("s1", 1, "no longer needed", false), sim("s2", 1, "found it cheaper", false), sim("s3", 0, "found it cheaper", true)],
    };
    await writeFile(join(dir, "results.json"), JSON.stringify(results));
    const t = io();
    const code = await run(["--tau2-results", join(dir, "results.json"), "--domain", "retail", "--out", join(dir, "report.md")], t.io);
    assert.equal(code, 0, t.err());
    assert.equal(t.out(), "");
    const md = await readFile(join(dir, "report.md"), "utf8");
    assert.ok(md.includes("\n3 episodes (2 successful, 1 failed); 2 writes the tool accepted and 1 it refused."), md);
    assert.ok(md.includes("**1 of 2 successful** episodes and **0 of 1 failed** ones."), md);
    assert.ok(md.includes("\n- `retail.cancel_reason`, task 5 (s2): 'found it cheaper' is not an accepted reason\n"), md);

    const airline = io();
    assert.equal(await run(["--tau2-results", join(dir, "results.json"), "--domain", "airline"], airline.io), 0);
    assert.equal(airline.err(), `stretto: skipped ${join(dir, "results.json")}: its domain is retail, not airline\n`);
    assert.ok(airline.out().includes("\n0 episodes (0 successful, 0 failed)"));
  });

  it("says what is wrong with its arguments and exits 2", async () => {
    const cases: Array<[string[], string]> = [
      [["--sessions", dir], "stretto: guards needs --domain (retail or airline)\n"],
      [["--sessions", dir, "--domain", "telecom"], "stretto: no guards for telecom\n"],
      [["--domain", "retail"], "stretto: guards needs --sessions DIR or --tau2-results FILE\n"],
      [["--domain", "retail", "--sessions", dir, "--nope", "x"], "stretto: guards has no option --nope\n"],
    ];
    for (const [argv, first] of cases) {
      const t = io();
      assert.equal(await run(argv, t.io), 2, argv.join(" "));
      assert.equal(t.err(), `${first}Usage: ${guardsCommand.usage}\n`);
    }
  });

  it("exits 1 for a folder it cannot read", async () => {
    const t = io();
    assert.equal(await run(["--sessions", join(dir, "missing"), "--domain", "airline"], t.io), 1);
    assert.match(t.err(), /^stretto: listing .*missing: No such file or directory \(os error 2\)\n$/);
  });
});
