/**
 * The loop's promotion step end to end: three customers of the demo shop served through the
 * real proxy in `--flow-shadow`, then `stretto promote --decider reach` over what it
 * recorded; served promoted, the flow acts only where its lookups were the agent's own.
 */
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DEMO, NODE, PROXY, STRETTO, cleanTemp, killAll, run, start, tempDir } from "../helpers/processes.js";
import { FLOW, Host, flowLog, requireFixture, type Msg } from "./flow-support.js";
import type { SiteRecord } from "../../lib/flow/ir/flow-types.js";

/** Long enough that each call is its own LLM turn (turns join within 500 ms). */
const BETWEEN_CALLS_MS = 600;
const THRESHOLD = "0.1";

/**
 * The published flow with reach counts, so it can be served and promoted with the reach
 * decider: the published flow predates reach, so its habit's back-off counts stand in.
 */
function reachFlow(dir: string): string {
  const json = JSON.parse(readFileSync(FLOW, "utf8")) as { habit: { base: unknown }; reach?: unknown };
  json.reach = json.habit.base;
  const path = join(dir, "retail-reach.flow.json");
  writeFileSync(path, JSON.stringify(json) + "\n");
  return path;
}

const text = (m: Msg): string => m.result?.content?.[0]?.text ?? "";

/**
 * A scripted agent serving customer n: finds the user, reads them and their first order, and
 * cancels it. It never reads the second order, which the flow would read next.
 */
async function serveCustomer(host: Host, n: number, ids: { next: number }): Promise<void> {
  const call = async (name: string, args: object): Promise<string> => {
    const answer = await host.call(ids.next++, name, args);
    await sleep(BETWEEN_CALLS_MS);
    return text(answer);
  };
  const user = await call("find_user_id_by_email", { email: `c${n}@example.com` });
  const details = JSON.parse(await call("get_user_details", { user_id: user })) as { orders: string[] };
  await call("get_order_details", { order_id: details.orders[0] });
  await call("cancel_pending_order", { order_id: details.orders[0], reason: "no longer needed" });
}


describe("stretto promote after serving in shadow", function () {
  this.timeout(120_000);
  before(function () {
    requireFixture(this);
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  it("promotes the sites whose lookups the agent made itself, and the promoted flow hands back elsewhere", async () => {
    const work = tempDir();
    const flow = reachFlow(work);
    const sessions = tempDir();
    for (const n of [1, 2, 3]) {
      const dir = tempDir();
      const host = new Host(
        start(NODE, [PROXY, "--record", dir, "--flow", flow, "--flow-decider", "reach", "--flow-threshold", THRESHOLD, "--flow-shadow", "--", NODE, DEMO, "--world", "retail"]),
      );
      await host.start();
      await serveCustomer(host, n, { next: 3 });
      assert.equal(await host.end(), 0, host.stderr);
      // In shadow every result went to the agent as the server sent it, and the decisions were logged.
      assert.ok(flowLog(dir).lines.some((l) => l["shadow"] === true && l["action"] === "lookup"));
      // Gather the three sessions in one folder, as a recording folder would hold them.
      for (const name of readdirSync(dir)) copyFileSync(join(dir, name), join(sessions, name));
    }

    const out = join(work, "promoted.flow.json");
    const r = await run(NODE, [STRETTO, "promote", "--flow", flow, "--sessions", sessions, "--decider", "reach", "--threshold", THRESHOLD, "--out", out], { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    const promoted = JSON.parse(readFileSync(out, "utf8")) as { promoted: { bar: Record<string, number>; sites: Record<string, SiteRecord> } };
    assert.deepEqual(promoted.promoted.bar, { threshold: 0.1, min_used: 0.7, min_lower: 0.5, min_tasks: 3 });
    const sites = promoted.promoted.sites;

    // After finding the user the flow reads them, and after reading them their first order:
    // the agent did both itself in each of the three sessions.
    for (const site of ["find_user_id_by_email", "get_user_details"]) {
      const s = sites[site]!;
      assert.ok(s, `${site} scored: ${JSON.stringify(sites)}`);
      assert.ok(s.lookups >= 3, site);
      assert.equal(s.used, s.lookups, site);
      assert.equal(s.tasks, 3, site);
      assert.equal(s.promoted, true, site);
    }
    // After an order the flow reads the next one, which the agent never did: not promoted. In
    // each session three decisions reach that site: the chains from the email lookup and from
    // the user's details (each through the lookups the agent made), and the agent's own read.
    assert.deepEqual(sites["get_order_details"], { decisions: 9, lookups: 9, used: 0, tasks: 3, lower: 0, promoted: false });
    assert.deepEqual(Object.keys(sites), ["find_user_id_by_email", "get_order_details", "get_user_details"]);
    assert.equal(r.stderr, "stretto: scored 3 episodes (0 decisions left out, unanswered); 2 of 3 sites promoted\n");
    assert.match(r.stdout.toString(), /^A site is promoted when, at a threshold of 0\.1, at least 70% of the flow's lookups/);
    assert.match(r.stdout.toString(), /\n\| `find_user_id_by_email` \| \d+ \| 3 \| 3 \(100%\) \| 0\.53 \| 3 \| yes \|\n/);

    // Served, the promoted flow reads the user and their first order after the email lookup,
    // and hands back at the order, where it was not promoted.
    const dir = tempDir();
    const host = new Host(start(NODE, [PROXY, "--record", dir, "--flow", out, "--flow-decider", "reach", "--flow-threshold", THRESHOLD, "--", NODE, DEMO, "--world", "retail"]));
    await host.start();
    const found = await host.call(3, "find_user_id_by_email", { email: "c9@example.com" });
    const appendix = found.result?.content?.[1]?.text ?? "";
    assert.match(appendix, /\nget_user_details \{"user_id":"user_9"\}:\n/);
    assert.match(appendix, /\nget_order_details \{"order_id":"#W9a"\}:\n/);
    assert.doesNotMatch(appendix, /#W9b"\}:/);
    assert.equal(await host.end(), 0);
    const decisions = flowLog(dir).lines.filter((l) => "action" in l);
    assert.deepEqual(
      decisions.map((l) => [l["site"], l["action"], l["reason"] ?? l["tool"]]),
      [
        ["find_user_id_by_email", "lookup", "get_user_details"],
        ["get_user_details", "lookup", "get_order_details"],
        ["get_order_details", "hand_back", "the site is not promoted"],
      ],
    );
  });
});
