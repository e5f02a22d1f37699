/**
 * Sessions a flow served: the proxy's own lookups are in the session log (`stretto-n`
 * requests appended to the agent's call), so when `stretto stage` and `stretto promote`
 * score a flow on such a session, a lookup the proxy had already made counts as served:
 * neither used (the agent never made it) nor a detour (it had no reason to). The sessions
 * are real: the SDK client as the host, `stretto-proxy --flow` in front of
 * `stretto-mcp-demo --world retail`.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DEMO, NODE, PROXY, cleanTemp, tempDir } from "../helpers/processes.js";
import { ownRequests } from "../e2e/flow-support.js";
import { committedHabitFlow } from "./committed-flow.js";
import { stretto } from "../drift/in-process.js";

/** Customer `n` served through the proxy with `flow`, recorded into `record`: the agent finds the user, nothing more. */
async function servedCustomer(record: string, flow: string, n: number): Promise<string> {
  const client = new Client({ name: "stretto-served-host", version: "0" });
  const transport = new StdioClientTransport({ command: NODE, args: [PROXY, "--record", record, "--flow", flow, "--", NODE, DEMO, "--world", "retail"], stderr: "pipe" });
  let stderr = "";
  transport.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  await client.connect(transport);
  const r = await client.callTool({ name: "find_user_id_by_email", arguments: { email: `c${n}@example.com` } });
  await client.close();
  const texts = (r.content as { text?: string }[]).map((c) => c.text ?? "");
  assert.equal(texts[0], `user_${n}`, stderr);
  return texts.join("\n");
}

describe("sessions a flow served: the proxy's lookups count as served", function () {
  this.timeout(60_000);
  after(cleanTemp);

  it("stage and promote count the lookups the proxy had already made as neither used nor detours", async () => {
    const work = tempDir();
    const { flow, sessions } = await committedHabitFlow(work);

    let made = 0;
    for (const n of [7, 8]) {
      const record = join(work, `served-${n}`);
      assert.ok((await servedCustomer(record, flow, n)).includes("Also looked up automatically"), "the flow looked something up");
      made += ownRequests(record).length;
      cpSync(record, sessions, { recursive: true });
    }
    assert.ok(made >= 2, `the proxy's lookups: ${made}`);

    const staged = await stretto("stage", "--flow", flow, "--sessions", sessions, "--json", join(work, "stage.json"));
    assert.equal(staged.code, 0, staged.stderr);
    assert.ok(staged.stdout.includes("\n## The last 2 sessions\n"), staged.stdout);
    // Both flows are the committed one, served as the proxy served it: each of its lookups had been made.
    assert.ok(staged.stdout.includes(`\nThe proxy had already made ${made} of the committed flow's lookups and ${made} of the staged flow's, serving a flow: they count as neither used nor detours, since the agent had no reason to make them again.\n`), staged.stdout);
    assert.ok(staged.stdout.includes(`\n| All | ${made} | — | 0 | ${made} | — | 0 |\n`), staged.stdout);

    const promoted = await stretto("promote", "--flow", flow, "--sessions", sessions, "--out", join(work, "promoted.flow.json"));
    assert.equal(promoted.code, 0, promoted.stderr);
    assert.ok(promoted.stdout.includes("| After | Decisions | Lookups it would make | Served | Made by the agent later | Lower bound | Tasks | Promoted |\n"), promoted.stdout);
    const servedCells = [...promoted.stdout.matchAll(/^\| `[^`]+` \| \d+ \| \d+ \| (\d+) \|/gm)].map((m) => Number(m[1]));
    assert.equal(servedCells.reduce((a, b) => a + b, 0), made, promoted.stdout);
    assert.ok(promoted.stdout.includes("\nServed: lookups the proxy had already made, serving a flow."), promoted.stdout);
  });
});
