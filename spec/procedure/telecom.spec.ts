import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { cleanTemp, killAll, NODE, DEMO, PROXY, run, sessionLogs, STRETTO, tempDir } from "../helpers/processes.js";
import { answer } from "../../lib/demo/worlds/telecom.js";
import { Phone } from "../../lib/demo/worlds/telecom-phone.js";
import { telecomWorld } from "../../lib/demo/worlds/telecom.js";
import { isSplit, type Node } from "../../lib/procedure/ir.js";
import { loadProcedure } from "../../lib/procedure/load.js";
import { PROCEDURE_BIN, PUBLISHED } from "./procedure-fixtures.js";

const AIRPLANE_TICKET =
  "The customer's phone has no service. Their number is 555-123-2002 and they will consider the issue resolved when the status bar shows that they have signal.";

interface RunOut {
  calls: Array<{ tool: string; arguments: Record<string, unknown>; failed: boolean }>;
  check: [string, string] | null;
  verdict: string;
}

function actionsOf(node: Node): string[] {
  return isSplit(node) ? [...actionsOf(node.yes), ...actionsOf(node.no)] : node.calls.map(([a]) => a);
}

describe("the telecom world and stretto-procedure", function () {
  this.timeout(60000);
  after(() => {
    killAll();
    cleanTemp();
  });

  it("lists every tool the published procedure may call", () => {
    const p = loadProcedure(PUBLISHED);
    const tools = new Set(
      [...p.trees.values(), p.fallback].flatMap(actionsOf).filter((a) => a !== p.stop).map((a) => a.split("{")[0]!),
    );
    const listed = new Set(telecomWorld().tools().map((t) => t["name"] as string));
    assert.deepEqual([...tools].filter((x) => !listed.has(x)), []);
    for (const t of telecomWorld().tools()) {
      const name = t["name"];
      if (typeof name !== "string") assert.fail(`a tool without a name: ${JSON.stringify(t)}`);
      const read = (t["annotations"] as { readOnlyHint: boolean }).readOnlyHint;
      if (p.reads.has(name)) assert.equal(read, true, name);
    }
  });

  it("the phone answers with the status bar it has: airplane mode until switched off", () => {
    const phone = new Phone();
    assert.deepEqual(answer(phone, "check_status_bar", {}), { ok: "Status Bar: ✈️ Airplane Mode | 🔋 80%" });
    assert.deepEqual(answer(phone, "run_speed_test", {}), { ok: "Speed test failed: No connection." });
    const off = answer(phone, "toggle_airplane_mode", {});
    assert.deepEqual(off, { ok: "Airplane Mode is now OFF.\nStatus Bar: 📶⁴ Excellent | 📱 Data Enabled | 🔋 80%" });
    assert.deepEqual(answer(phone, "get_customer_by_phone", { phone_number: "555-000-0000" }), { error: "Customer not found" });
    assert.deepEqual(answer(phone, "refuel_data", { customer_id: "C1001", line_id: "L1002", gb_amount: 0 }), { error: "Invalid amount" });
  });

  it("the published procedure takes the phone out of airplane mode, and its check says resolved", async () => {
    const r = await run(NODE, [PROCEDURE_BIN, "--procedure", PUBLISHED, "--ticket", AIRPLANE_TICKET, "--", NODE, DEMO, "--world", "telecom"]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.toString()) as RunOut;
    assert.deepEqual(
      out.calls.map((c) => [c.tool, c.arguments]),
      [
        ["get_customer_by_phone", { phone_number: "555-123-2002" }],
        ["get_details_by_id", { id: "L1001" }],
        ["get_details_by_id", { id: "L1002" }],
        ["check_network_status", {}],
        ["toggle_airplane_mode", {}],
        ["run_speed_test", {}],
      ],
    );
    assert.deepEqual(out.check, ["check_status_bar", "Status Bar: 📶⁴ Excellent | 📱 Data Enabled | 🔋 80%"]);
    assert.equal(out.verdict, "resolved");
    assert.equal(r.stderr, "stretto-procedure: 6 calls, resolved by its own check\n");
  });

  it("through stretto-proxy --record, the run is a session that stretto episode reads", async () => {
    const dir = tempDir();
    const r = await run(NODE, [
      PROCEDURE_BIN,
      "--procedure",
      PUBLISHED,
      "--ticket",
      AIRPLANE_TICKET,
      "--",
      NODE,
      PROXY,
      "--record",
      dir,
      "--domain",
      "telecom",
      "--",
      NODE,
      DEMO,
      "--world",
      "telecom",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.toString()) as RunOut;
    assert.ok(r.stderr.endsWith("stretto-procedure: 6 calls, resolved by its own check\n"), r.stderr);
    const logs = sessionLogs(dir);
    assert.equal(logs.length, 1);
    const ep = await run(NODE, [STRETTO, "episode", logs[0]!]);
    assert.equal(ep.code, 0, ep.stderr);
    const episode = JSON.parse(ep.stdout.toString()) as {
      domain: string;
      agent_model: string;
      events: Array<{ kind: string; calls?: Array<{ name: string; arguments: unknown }>; name?: string; error?: boolean; content?: string }>;
    };
    assert.equal(episode.domain, "telecom");
    assert.equal(episode.agent_model, "stretto-procedure", "the client's name, from initialize");
    const called = episode.events.flatMap((e) => e.calls ?? []).map((c) => [c.name, c.arguments]);
    // Every call of the run, then the check's probe, which the run does not list.
    assert.deepEqual(called, [...out.calls.map((c) => [c.tool, c.arguments]), ["check_status_bar", {}]]);
    const results = episode.events.filter((e) => e.kind === "tool_result");
    assert.equal(results.length, 7);
    assert.equal(results.at(-1)!.content, out.check![1]);
    assert.ok(readFileSync(logs[0]!, "utf8").includes('"clientInfo":{"name":"stretto-procedure"'));
  });
});
