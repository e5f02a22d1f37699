/**
 * A flow learned with an arbiter serves: customers of `stretto-mcp-demo --world
 * retail` recorded through `stretto-proxy --record`, `stretto learn` (no `--habit-only`,
 * the mock model) fits the arbiter on the held-out customers, and the real proxy serving
 * that flow with `--flow-decider arbiter --oracle mock` appends the lookup its arbiter
 * chose to a new customer's call, logging the model's answers with each decision.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { APPENDIX, flowLog, ownRequests } from "../e2e/flow-support.js";
import { cleanTemp, killAll, tempDir } from "../helpers/processes.js";
import { flowJson, learn, serveCustomer } from "./learn-helpers.js";

describe("a flow learned with an arbiter, served by stretto-proxy --flow-decider arbiter", function () {
  this.timeout(120_000);
  after(() => {
    killAll();
    cleanTemp();
  });

  let root: string;
  let flow: string;

  before(async () => {
    root = tempDir("stretto-arbiter-loop-");
    const sessions = join(root, "sessions");
    mkdirSync(sessions);
    for (const n of [1, 2, 3, 4, 5]) await serveCustomer(sessions, n);
    flow = join(root, "shop.flow.json");
    const r = await learn(sessions, flow, ["--oracle", "mock"], false);
    assert.equal(r.code, 0, r.stderr);
  });

  it("learns an arbiter from the held-out customers", () => {
    const json = flowJson(flow);
    const folds = json["folds"] as unknown[];
    assert.equal(folds.length, 5);
    const provenance = json["provenance"] as { habit_episodes: number; arbiter_cases: number };
    // 5 customers: 2 held out (30%, rounded), 3 train; each held-out one decides after each of its 4 calls.
    assert.equal(provenance.habit_episodes, 3);
    assert.equal(provenance.arbiter_cases, 8);
  });

  it("appends the arbiter's lookup to a new customer's call, with the model's answers in the flow log", async () => {
    const served = join(root, "served");
    mkdirSync(served);
    const texts = await serveCustomer(served, 7, ["--flow", flow, "--flow-decider", "arbiter", "--oracle", "mock"]);
    assert.equal(texts[0], "user_7");
    assert.ok(texts[1]?.startsWith(APPENDIX), texts.join("\n"));
    assert.ok(texts[1]!.includes('get_user_details {"user_id":"user_7"}:\n'), texts[1]);
    assert.equal(ownRequests(served)[0]!.message.params!.name, "get_user_details");
    const first = flowLog(served).lines.find((l) => "action" in l)!;
    assert.equal(first["action"], "lookup");
    assert.equal(first["tool"], "get_user_details");
    assert.equal(typeof first["key"], "string");
    assert.deepEqual(Object.keys(first["oracle"] as object), ["get_user_details", "respond"]);
  });
});
