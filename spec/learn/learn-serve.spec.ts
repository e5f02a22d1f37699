/**
 * Record → learn → serve, end to end: customers of `stretto-mcp-demo --world
 * retail` are served through `stretto-proxy --record`, `stretto learn --habit-only` turns
 * those sessions into a flow, and `stretto-proxy --flow` serves it to a new customer, whose
 * call comes back with the flow's lookup appended. Then the served session itself is
 * learned from, with and without the flow's own lookups (`--agent-only`).
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { APPENDIX, ownRequests } from "../e2e/flow-support.js";
import { cleanTemp, killAll, tempDir } from "../helpers/processes.js";
import { flowJson, learn, serveCustomer } from "./learn-helpers.js";

describe("record, learn, serve", function () {
  this.timeout(120_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  let root: string;
  let flow: string;
  let served: string;

  before(async () => {
    root = tempDir("stretto-loop-");
    const sessions = join(root, "sessions");
    mkdirSync(sessions);
    for (const n of [1, 2, 3]) await serveCustomer(sessions, n);
    flow = join(root, "shop.flow.json");
    const r = await learn(sessions, flow);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `stretto: learned the shop flow from 3 sessions (4 tools) and wrote ${flow}\n`);
  });

  it("serves the learned flow: a new customer's call comes back with the flow's lookups", async () => {
    served = join(root, "served");
    mkdirSync(served);
    const texts = await serveCustomer(served, 7, ["--flow", flow, "--flow-decider", "habit", "--flow-threshold", "0.3"]);
    assert.equal(texts[0], "user_7");
    assert.ok(texts[1]?.startsWith(APPENDIX), texts.join("\n"));
    assert.ok(texts[1]!.includes('get_user_details {"user_id":"user_7"}:\n'), texts[1]);
    assert.ok(texts[1]!.includes('get_order_details {"order_id":"#W7a"}:\n'), texts[1]);
    const lookups = ownRequests(served).map((e) => e.message.params!.name);
    assert.deepEqual(lookups.slice(0, 2), ["get_user_details", "get_order_details"]);
  });

  it("learns from a served session the flow's lookups as calls, unless --agent-only", async () => {
    const counted = join(root, "counted.flow.json");
    const own = join(root, "own.flow.json");
    assert.equal((await learn(served, counted)).code, 0);
    assert.equal((await learn(served, own, ["--agent-only"])).code, 0);
    type Args = { bindings: { args: Record<string, [number, object]> } };
    const lookups = ownRequests(served).length;
    const a = (flowJson(counted) as Args).bindings.args;
    const b = (flowJson(own) as Args).bindings.args;
    // The agent itself called only find_user_id_by_email; the proxy made every other read.
    assert.deepEqual(Object.keys(b), ["find_user_id_by_email"]);
    const proxyCalls = Object.entries(a)
      .filter(([tool]) => tool !== "find_user_id_by_email")
      .reduce((sum, [, [calls]]) => sum + calls, 0);
    assert.equal(proxyCalls, lookups);
  });
});
