/**
 * `stretto learn` through the real binary (facts-flows §5.1, §6 "Learning"): the shop's
 * sessions in, a flow out that loads, decides as the sessions did, and counts what came
 * before the next write; every option and every error a user can meet.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FlowDecideError, NO_REACH } from "../../lib/flow/decide/index.js";
import { flowFromJson } from "../../lib/flow/ir/index.js";
import { NO_SUCCESSES } from "../../lib/learn/index.js";
import { cleanTemp, tempDir } from "../helpers/processes.js";
import { decide, flowAt, flowJson, learn, liveEpisode, outIn, stretto } from "./learn-helpers.js";
import { usualSession, writeSessions, type ShopStep } from "./shop-logs.js";

function shopFolder(n: number, steps: (i: number) => ShopStep[] = usualSession): string {
  const dir = tempDir("stretto-learn-");
  writeSessions(
    dir,
    Array.from({ length: n }, (_, i) => ({ file: `s${String(i).padStart(3, "0")}`, session: `s${String(i).padStart(3, "0")}`, steps: steps(i + 1) })),
  );
  return dir;
}

const CUSTOMER = "Hi, I am c999@example.com. Please close an order.";

describe("stretto learn", function () {
  this.timeout(60_000);
  after(cleanTemp);

  describe("a habit-only flow from 60 shop sessions", () => {
    let dir: string;
    let out: string;
    let stderr: string;
    let code: number | null;
    before(async () => {
      dir = shopFolder(60);
      out = outIn(tempDir());
      ({ code, stderr } = await learn(dir, out));
    });

    it("says what it learned in one line and exits 0", () => {
      assert.equal(code, 0, stderr);
      assert.equal(stderr, `stretto: learned the shop flow from 60 sessions (4 tools) and wrote ${out}\n`);
    });

    it("learns from every session and has no arbiter", () => {
      const json = flowJson(out);
      assert.deepEqual(json["provenance"], { ...(json["provenance"] as object), habit_episodes: 60, arbiter_cases: 0, sources: ["shop-agent"] });
      assert.deepEqual([json["folds"], json["predicates"], json["weighed"], json["model"], json["group"]], [[], [], [], "", 1]);
      assert.equal(json["stretto_flow"], 1);
    });

    it("looks up the account of a new customer after find_account, and the arbiter cannot decide", () => {
      const flow = flowAt(out);
      const ep = liveEpisode(CUSTOMER, [["find_account", { email: "c999@example.com" }, "acct_999"]]);
      const next = decide(flow, ep, "habit");
      assert.deepEqual(next.proposal, { action: "lookup", tool: "get_account", arguments: { account_id: "acct_999" } });
      assert.throws(() => decide(flow, ep, "arbiter"), FlowDecideError);
    });

    it("counts what comes before the next write: reach proposes what the habit does, above 0.99", () => {
      const flow = flowAt(out);
      assert.ok(flow.reach);
      const ep = liveEpisode(CUSTOMER, [["find_account", { email: "c999@example.com" }, "acct_999"]]);
      const habit = decide(flow, ep, "habit");
      const reach = decide(flow, ep, "reach");
      assert.deepEqual(reach.proposal, habit.proposal);
      assert.ok(reach.prob! > 0.99, `reach p ${reach.prob}`);
      assert.equal(decide(flow, ep, "reach", 1.01).proposal.action, "hand_back");
      const json = flowJson(out);
      delete json["reach"];
      const without = flowFromJson(json);
      assert.equal(without.reach, undefined);
      assert.throws(() => decide(without, ep, "reach"), (e: Error) => e.message === NO_REACH);
    });

    it("reads its two orders in turn, then hands back before the write", () => {
      const flow = flowAt(out);
      const account = JSON.stringify({ account_id: "acct_999", orders: ["ord_999a", "ord_999b"] });
      const order = (id: string) => JSON.stringify({ order_id: id, status: "open", total: 12 });
      const steps: [string, Record<string, string>, string][] = [
        ["find_account", { email: "c999@example.com" }, "acct_999"],
        ["get_account", { account_id: "acct_999" }, account],
      ];
      let next = decide(flow, liveEpisode(CUSTOMER, steps), "habit");
      assert.deepEqual(next.proposal, { action: "lookup", tool: "get_order", arguments: { order_id: "ord_999a" } });
      steps.push(["get_order", { order_id: "ord_999a" }, order("ord_999a")]);
      next = decide(flow, liveEpisode(CUSTOMER, steps), "habit");
      assert.deepEqual(next.proposal, { action: "lookup", tool: "get_order", arguments: { order_id: "ord_999b" } });
      steps.push(["get_order", { order_id: "ord_999b" }, order("ord_999b")]);
      next = decide(flow, liveEpisode(CUSTOMER, steps), "habit");
      assert.equal(next.proposal.action, "hand_back");
    });

    it("shows what it may call, as the original's learning test reads it in flow-show", async () => {
      const shown = await stretto(["flow-show", out]);
      assert.equal(shown.code, 0, shown.stderr);
      const text = shown.stdout.toString();
      assert.ok(text.includes("| `find_account` | `get_account` (60) | get_account 100% (of 60) | looks up `get_account` 1.00 × 0.98 = 0.98 |"), text);
      assert.ok(text.includes("| `get_order` | `get_order` (60) | get_order 50%, respond 50% (of 120) | looks up `get_order` 0.50 × 0.99 = 0.50 |"), text);
    });

    it("keeps the servers' listing: manifest kinds and docs, contracts, reads", () => {
      const json = flowJson(out) as { manifest: { tools: object; docs: Record<string, unknown> }; contracts: object; sites: { reads: string[] } };
      assert.deepEqual(json.manifest.tools, { close_order: "write", find_account: "read", get_account: "read", get_order: "read" });
      assert.deepEqual(json.manifest.docs["get_order"], { summary: "The shop's get_order.", args: { order_id: "the order_id" } });
      assert.deepEqual(json.contracts, {
        close_order: "order_id:string!, reason:string!",
        find_account: "email:string!",
        get_account: "account_id:string!",
        get_order: "order_id:string!",
      });
      assert.deepEqual(json.sites.reads, ["find_account", "get_account", "get_order"]);
    });
  });

  it("says so when no session succeeded (rewards all 0)", async () => {
    const dir = shopFolder(3);
    const rewards = join(tempDir(), "rewards.json");
    writeFileSync(rewards, JSON.stringify({ s000: 0, s001: 0.5, s002: 0 }));
    const r = await learn(dir, outIn(tempDir()), ["--rewards", rewards]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `stretto: ${NO_SUCCESSES}\n`);
  });

  it("learns only from the sessions the rewards file leaves at 1", async () => {
    const dir = shopFolder(4);
    const rewards = join(tempDir(), "rewards.json");
    writeFileSync(rewards, JSON.stringify({ s001: 0, s003: 1 }));
    const out = outIn(tempDir());
    const r = await learn(dir, out, ["--rewards", rewards]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /from 4 sessions/);
    assert.equal((flowJson(out)["provenance"] as { habit_episodes: number }).habit_episodes, 3);
  });

  it("refuses a rewards file that is not session → reward in [0, 1], naming it", async () => {
    const dir = shopFolder(1);
    const rewards = join(tempDir(), "rewards.json");
    writeFileSync(rewards, JSON.stringify({ s000: 2 }));
    const r = await learn(dir, outIn(tempDir()), ["--rewards", rewards]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `stretto: the rewards file ${rewards} must map session ids to rewards in [0, 1]: must be <= 1 at /s000\n`);
    writeFileSync(rewards, "{");
    const broken = await learn(dir, outIn(tempDir()), ["--rewards", rewards]);
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, new RegExp(`^stretto: the rewards file ${rewards} is not JSON: `));
  });

  it("takes the manifest from --manifest: a tool it calls generic is no read", async () => {
    const dir = shopFolder(6);
    const manifest = join(tempDir(), "manifest.json");
    const tools = { close_order: "write", find_account: "read", get_account: "generic", get_order: "read" };
    writeFileSync(manifest, JSON.stringify({ domain: "other", tools, docs: {} }));
    const out = outIn(tempDir());
    const r = await learn(dir, out, ["--manifest", manifest]);
    assert.equal(r.code, 0, r.stderr);
    const json = flowJson(out) as { manifest: { domain: string; tools: object }; sites: { reads: string[] }; bindings: { args: object } };
    assert.deepEqual(json.manifest, { domain: "shop", tools, docs: {} });
    assert.deepEqual(json.sites.reads, ["find_account", "get_order"]);
    assert.deepEqual(Object.keys(json.bindings.args), ["find_account", "get_order"]);
    writeFileSync(manifest, JSON.stringify({ tools: {} }));
    const bad = await learn(dir, outIn(tempDir()), ["--manifest", manifest]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^stretto: the manifest .* is not a tool manifest/);
  });

  it("learns a constant the agent always passed only with --constants (then the flow is format 2)", async () => {
    const withFields = (n: number): ShopStep[] =>
      usualSession(n).map((s) => (s.kind === "call" && s.tool === "get_order" ? { ...s, args: { ...s.args, fields: "all" } } : s));
    const dir = shopFolder(6, withFields);
    const plain = outIn(tempDir());
    const learned = outIn(tempDir());
    assert.equal((await learn(dir, plain)).code, 0);
    assert.equal((await learn(dir, learned, ["--constants"])).code, 0);
    assert.equal(flowJson(plain)["stretto_flow"], 1);
    const json = flowJson(learned) as { stretto_flow: number; bindings: { constants: unknown } };
    assert.equal(json.stretto_flow, 2);
    assert.deepEqual(json.bindings.constants, [[["get_order", "fields"], "all"]]);
    const flow = flowAt(learned);
    const account = JSON.stringify({ account_id: "acct_9", orders: ["ord_9a", "ord_9b"] });
    const ep = liveEpisode("c9@example.com", [
      ["find_account", { email: "c9@example.com" }, "acct_9"],
      ["get_account", { account_id: "acct_9" }, account],
    ]);
    assert.deepEqual(decide(flow, ep, "habit").proposal, { action: "lookup", tool: "get_order", arguments: { fields: "all", order_id: "ord_9a" } });
  });

  it("weighs older sessions less with --half-life", async () => {
    const short = (n: number): ShopStep[] => usualSession(n).slice(0, 3);
    const dir = shopFolder(2, short);
    const out = outIn(tempDir());
    assert.equal((await learn(dir, out, ["--half-life", "1"])).code, 0);
    const level0 = (flowJson(out) as { habit: { base: { levels: [unknown, { total: number }][][] } } }).habit.base.levels[0]![0]![1];
    // Two calls per session: the newer weighs 1, the one before it 0.5.
    assert.equal(level0.total, 2 * 1 + 2 * 0.5);
    for (const bad of ["0", "-1", "x", ""]) {
      const r = await learn(dir, outIn(tempDir()), ["--half-life", bad]);
      assert.equal(r.code, 2, bad);
      assert.match(r.stderr, /^stretto: --half-life must be a positive number of sessions\nUsage: stretto learn /);
    }
  });

  it("needs --sessions, --domain and --out (exit 2 with the usage line)", async () => {
    for (const [missing, args] of [
      ["--sessions", ["learn", "--domain", "shop", "--out", "x", "--habit-only"]],
      ["--domain", ["learn", "--sessions", "d", "--out", "x", "--habit-only"]],
      ["--out", ["learn", "--sessions", "d", "--domain", "shop", "--habit-only"]],
    ] as const) {
      const ran = await stretto([...args]);
      assert.equal(ran.code, 2, ran.stderr);
      assert.equal(ran.stderr, `stretto: learn needs ${missing}\nUsage: stretto learn (--sessions DIR | --otel FILE --manifest FILE) --domain NAME --out FILE [--habit-only] [options]\n`);
    }
  });

  it("skips a file that is no session log with a warning, or fails on it with --strict", async () => {
    const dir = shopFolder(2);
    const empty = join(dir, "zz-empty.jsonl");
    writeFileSync(empty, "");
    const out = outIn(tempDir());
    const r = await learn(dir, out);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `stretto: skipped ${empty}: empty log: no header line\nstretto: learned the shop flow from 2 sessions (4 tools) and wrote ${out}\n`);
    const strict = await learn(dir, outIn(tempDir()), ["--strict"]);
    assert.equal(strict.code, 1);
    assert.equal(strict.stderr, `stretto: parsing ${empty}: empty log: no header line\n`);
  });

  it("says why it cannot write the flow", async () => {
    const dir = shopFolder(1);
    const out = join(tempDir(), "no-such-folder", "shop.flow.json");
    const r = await learn(dir, out);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^stretto: writing ${out}: `));
  });
});
