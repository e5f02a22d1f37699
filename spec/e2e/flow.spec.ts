/**
 * Flows end to end (docs/flows.md, "Serve a flow"): the published flow
 * (`../shared/fixtures/flows/retail-5-sessions.flow.json`) in front of
 * `stretto-mcp-demo --world retail`, with the habit decider (no key needed), driven line by
 * line as a host.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FlowProgram } from "../../lib/flow/program/index.js";
import { loadFlow } from "../../lib/flow/ir/load-flow.js";
import type { SiteValue } from "../../lib/flow/program/values.js";
import { DEMO, NODE, PROXY, cleanTemp, killAll, runProxy, sessionLogs, start, tempDir } from "../helpers/processes.js";
import { startDemoHttp } from "../http/support.js";
import { APPENDIX, FLOW, Host, flowFlags, flowLog, jsonl, ownRequests, requireFixture, type Msg } from "./flow-support.js";

function flowHost(dir: string, extra: string[], demo: string[] = []): Host {
  return new Host(start(NODE, [PROXY, ...flowFlags(dir, extra), "--", NODE, DEMO, "--world", "retail", ...demo]));
}

const texts = (m: Msg) => m.result?.content?.map((c) => c.text) ?? [];

describe("flows through the proxy (--flow)", function () {
  before(function () {
    requireFixture(this);
  });
  after(() => {
    killAll();
    cleanTemp();
  });

  it("looks up what the agent will need next, appends it, and logs its decisions and run", async () => {
    const dir = tempDir();
    const host = flowHost(dir, []);
    await host.start();
    const answer = await host.call(3);
    const items = texts(answer);
    assert.equal(items.length, 2);
    assert.equal(items[0], "user_7");
    assert.ok(items[1]!.startsWith(`${APPENDIX}\n\nget_user_details {"user_id":"user_7"}:\n`));
    assert.equal(await host.end(), 0);
    assert.match(host.stderr, /^stretto-proxy: serving the retail flow from .*retail-5-sessions\.flow\.json, deciding with habit\n/);

    const own = ownRequests(dir);
    assert.equal(own[0]!.message.id, "stretto-1");
    assert.deepEqual(own[0]!.message.params, { arguments: { user_id: "user_7" }, name: "get_user_details" });
    assert.ok(own.every((e) => e.message.params!.name.startsWith("get_")), "never a write");

    const { path, lines } = flowLog(dir);
    assert.equal(path, sessionLogs(dir)[0]!.replace(/\.jsonl$/, ".flow.jsonl"));
    const decisions = lines.filter((l) => "action" in l);
    const run = lines.at(-1)!;
    assert.deepEqual(decisions.map((d) => d["address"]), decisions.map((_, i) => `decide#${i}`));
    assert.equal(decisions[0]!["action"], "lookup");
    assert.equal(decisions[0]!["tool"], "get_user_details");
    assert.equal(decisions[0]!["after"], 3);
    assert.equal(decisions[0]!["binding"], 0.75);
    assert.equal(decisions.at(-1)!["action"], "hand_back");
    assert.equal(decisions.filter((d) => d["action"] === "lookup").length, own.length);

    // The run line re-scores under the flow's program to the logged outcomes and surprise.
    const r = run["run"] as { call: string; failed: boolean; max_lookups: number; sites: Array<[string, SiteValue, number]>; surprise: number };
    assert.equal(run["after"], 3);
    assert.equal(r.call, "find_user_id_by_email");
    assert.equal(r.max_lookups, 8);
    const base = new Map(r.sites.map(([a, v]) => [a, v] as [string, SiteValue]));
    const scored = new FlowProgram(loadFlow(FLOW)).score(r.call, r.failed, r.max_lookups, base);
    let outcomes = 0;
    for (const [address, , logp] of r.sites) {
      if (!address.startsWith("outcome#")) continue;
      const again = scored.trace.choices.find((c) => c.address === address)!;
      assert.ok(Math.abs(again.logp - logp) < 1e-12, address);
      outcomes += logp;
    }
    assert.ok(Math.abs(r.surprise + outcomes) < 1e-12);
  });

  it("serves a flow in front of a Streamable HTTP server (--upstream) the same way", async () => {
    const { url } = await startDemoHttp(["--world", "retail"]);
    const dir = tempDir();
    const host = new Host(start(NODE, [PROXY, ...flowFlags(dir, ["--upstream", url])]));
    await host.start();
    const items = texts(await host.call(3));
    assert.equal(items[0], "user_7");
    assert.ok(items[1]!.startsWith(`${APPENDIX}\n\nget_user_details {"user_id":"user_7"}:\n`), items[1]);
    assert.equal(await host.end(), 0);
    const own = ownRequests(dir);
    assert.deepEqual(
      own.map((e) => [e.message.id, e.message.params!.name]),
      own.map((e, i) => [`stretto-${i + 1}`, e.message.params!.name]),
    );
    assert.equal(own[0]!.message.params!.name, "get_user_details");
  });

  it("in shadow decides and logs but makes no lookups", async () => {
    const dir = tempDir();
    const host = flowHost(dir, ["--flow-shadow"]);
    await host.start();
    assert.deepEqual(texts(await host.call(3)), ["user_7"]);
    await host.end();
    assert.match(host.stderr, /deciding with habit, in shadow\n/);
    assert.deepEqual(ownRequests(dir), []);
    const { lines } = flowLog(dir);
    assert.equal(lines.length, 2);
    assert.equal(lines[0]!["shadow"], true);
    assert.equal(lines[0]!["action"], "lookup");
    assert.equal(lines[0]!["tool"], "get_user_details");
    assert.deepEqual(lines[0]!["arguments"], { user_id: "user_7" });
  });

  for (const [what, extra, demo, why] of [
    ["--flow-tools does not grant", ["--flow-tools", "get_order_details,find_user_id_by_email"], [], "--flow-tools does not grant it"],
    ["the server hides", [], ["--hide", "get_user_details"], "the server no longer lists it"],
    ["the server marks as a write", [], ["--hint", "get_user_details=false"], "the server marks it as a write"],
  ] as const) {
    it(`looks up nothing ${what}`, async () => {
      const dir = tempDir();
      const host = flowHost(dir, [...extra], [...demo]);
      await host.start();
      assert.deepEqual(texts(await host.call(3)), ["user_7"]);
      await host.end();
      assert.deepEqual(ownRequests(dir), []);
      assert.equal(flowLog(dir).lines[0]!["withheld"], why);
      assert.ok(host.stderr.includes(`stretto-proxy: the flow leaves get_user_details to the agent: ${why}\n`));
    });
  }

  it("stops at its caps: --flow-per-call and --flow-per-session", async () => {
    const dir = tempDir();
    const host = flowHost(dir, ["--flow-per-call", "1"]);
    await host.start();
    assert.equal(texts(await host.call(3)).length, 2);
    await host.end();
    assert.equal(ownRequests(dir).length, 1);

    const dir2 = tempDir();
    const h2 = flowHost(dir2, ["--flow-per-session", "1"]);
    await h2.start();
    assert.equal(texts(await h2.call(3)).length, 2);
    assert.deepEqual(texts(await h2.call(4)), ["user_7"]);
    await h2.end();
    assert.equal(ownRequests(dir2).length, 1);
  });

  it("writes the flow log where --flow-log says, {session} expanded", async () => {
    const dir = tempDir();
    const host = new Host(
      start(NODE, [PROXY, "--flow", FLOW, "--flow-decider", "habit", "--flow-log", join(dir, "{session}.flow.jsonl"), "--", NODE, DEMO, "--world", "retail"], {
        env: { ...process.env, STRETTO_SESSION: "hs-1" },
      }),
    );
    await host.start();
    assert.deepEqual(texts(await host.call(3)), ["user_7"]);
    await host.end();
    const lines = jsonl(join(dir, "hs-1.flow.jsonl"));
    assert.equal(lines[0]!["reason"], "get_user_details at 0.25, below 0.3");
    assert.equal(lines.length, 2);
  });

  it("refuses options that do not fit (exit 2 and 125)", async () => {
    const demo = ["--", NODE, DEMO, "--world", "retail"];
    const shadow = await runProxy(["--flow-shadow", ...demo]);
    assert.equal(shadow.code, 2);
    assert.match(shadow.stderr, /the following required arguments were not provided: --flow <FILE>/);
    const explore = await runProxy(["--flow", FLOW, "--flow-explore", "2", ...demo]);
    assert.equal(explore.code, 125);
    assert.equal(explore.stderr, "stretto-proxy: --flow-explore must be in [0, 1]\n");
    const missing = await runProxy(["--flow", "/nonexistent/x.flow.json", ...demo]);
    assert.equal(missing.code, 125);
    assert.match(missing.stderr, /^stretto-proxy: loading \/nonexistent\/x\.flow\.json: /);
    const reach = await runProxy(["--flow", FLOW, "--flow-decider", "reach", ...demo]);
    assert.equal(reach.code, 125);
    assert.equal(reach.stderr, `stretto-proxy: ${FLOW} was learned before flows counted what comes before the next write: learn it again for --flow-decider reach\n`);
    const decider = await runProxy(["--flow", FLOW, "--flow-decider", "nobody", ...demo]);
    assert.equal(decider.code, 2);
  });
});
