/**
 * What `stretto stage` reads besides `--sessions`: τ²-bench results (`--results`), their
 * tools from a checkout's tools.py (`--tau2`) or a manifest (`--manifest`), and the
 * refusals of what cannot go together.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanTemp, tempDir } from "../helpers/processes.js";
import { writeHabitSessions } from "../drift/habit-sessions.js";
import { stretto } from "../drift/in-process.js";
import { writeCheckout, writeResults } from "./tau2-results.js";

/** A flow's JSON without the time it was learned and the servers' input contracts (results list no tools). */
function comparable(text: string): unknown {
  const json = JSON.parse(text) as { provenance: Record<string, unknown>; contracts?: unknown };
  delete json.provenance["compiled_unix_ms"];
  delete json.contracts;
  return json;
}

describe("stretto stage reads τ²-bench results", function () {
  this.timeout(60_000);
  let work: string;
  let sessions: string;
  let results: string;
  let checkout: string;
  after(cleanTemp);

  before(async () => {
    work = tempDir();
    sessions = join(work, "sessions");
    writeHabitSessions(sessions, 1, 12, "usual");
    results = join(work, "results.json");
    await writeResults(sessions, results);
    checkout = writeCheckout(join(work, "tau2"));
  });

  it("refuses results without tools, and results with sessions or rewards", async () => {
    const flow = join(work, "none.flow.json");
    const tools = await stretto("stage", "--flow", flow, "--results", results, "--domain", "retail");
    assert.deepEqual([tools.code, tools.stderr], [1, "stretto: --results needs --tau2, for the tools, or --manifest\n"]);
    for (const [extra, text] of [
      [["--sessions", sessions], "the argument '--results <FILE>' cannot be used with '--sessions <DIR>'"],
      [["--rewards", join(work, "r.json")], "the argument '--results <FILE>' cannot be used with '--rewards <FILE>'"],
    ] as const) {
      const r = await stretto("stage", "--flow", flow, "--results", results, "--domain", "retail", ...extra);
      assert.equal(r.code, 2, r.stderr);
      assert.ok(r.stderr.includes(text), r.stderr);
    }
    const tau2Alone = await stretto("stage", "--flow", flow, "--tau2", checkout, "--domain", "retail");
    assert.equal(tau2Alone.code, 2);
    assert.ok(tau2Alone.stderr.includes("--tau2 reads the tools of --results: pass --results too"), tau2Alone.stderr);
    const bad = await stretto("stage", "--flow", flow, "--results", results, "--tau2", join(work, "nowhere"), "--domain", "retail");
    assert.equal(bad.code, 1);
    assert.ok(bad.stderr.startsWith(`stretto: reading ${join(work, "nowhere", "src", "tau2", "domains", "retail", "tools.py")}: `), bad.stderr);
  });

  it("learns from results with the checkout's tools as from the sessions with the same manifest", async () => {
    const flow = join(work, "shop.flow.json");
    const r = await stretto("stage", "--flow", flow, "--results", results, "--tau2", checkout, "--domain", "retail");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `stretto: the staged retail flow has learned from 12 sessions, 12 of them new, and is at ${join(work, "shop.staged.flow.json")}\n`);
    const staged = JSON.parse(readFileSync(join(work, "shop.staged.flow.json"), "utf8")) as { manifest: { tools: Record<string, string>; docs: Record<string, { summary: string; args: Record<string, string> }> } };
    assert.deepEqual(staged.manifest.tools, {
      cancel_pending_order: "write",
      find_user_id_by_email: "read",
      get_order_details: "read",
      get_product_details: "read",
      get_user_details: "read",
      transfer_to_human_agents: "generic",
    });
    assert.deepEqual(staged.manifest.docs["find_user_id_by_email"], {
      summary: "Find user id by email. If the user is not found, the function will return an error message.",
      args: { email: "The email of the user, such as 'something@example.com'." },
    });
    // The same manifest given to learn over the sessions gives the same flow.
    const manifest = join(work, "manifest.json");
    writeFileSync(manifest, JSON.stringify(staged.manifest));
    const learned = join(work, "learned.flow.json");
    const l = await stretto("learn", "--sessions", sessions, "--domain", "retail", "--out", learned, "--habit-only", "--manifest", manifest);
    assert.equal(l.code, 0, l.stderr);
    assert.deepEqual(comparable(readFileSync(join(work, "shop.staged.flow.json"), "utf8")), comparable(readFileSync(learned, "utf8")));

    // --manifest names the tools as well; nothing new, so nothing is learned again.
    const again = await stretto("stage", "--flow", flow, "--results", results, "--manifest", manifest, "--domain", "retail");
    assert.equal(again.code, 0, again.stderr);
    assert.ok(again.stdout.startsWith("# The staged retail flow\n\nIt learned from 12 sessions, 0 of them new in this run.\n"), again.stdout);
  });
});
