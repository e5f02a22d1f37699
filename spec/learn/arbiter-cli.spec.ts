/**
 * `stretto learn` without `--habit-only`, through the real binary: the held-out split,
 * the System-One model asked about the held-out decisions (`--oracle mock|replay|jev`,
 * `--oracle-cache`), the pooled arbiter copied into five folds, `--refit-habit` and
 * `--arbiter-from`, and every error a user can meet on the way.
 */
import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeJev, FAKE_MODEL } from "../../fixtures/http/fake-jev.js";
import { arbiterFileOf, heldOutCount, noDecisions, tooFew } from "../../lib/learn/arbiter/index.js";
import { explainingBinderFor } from "../../lib/flow/bind/index.js";
import { decisionAt, nextExplored } from "../../lib/flow/decide/index.js";
import { MockOracle } from "../../lib/oracle/index.js";
import type { JsonObject } from "../../lib/trace/index.js";
import { NODE, STRETTO, cleanTemp, run, tempDir, type Ran } from "../helpers/processes.js";
import { flowAt, flowJson, liveEpisode, outIn } from "./learn-helpers.js";
import { usualSession, writeSessions, type ShopStep } from "./shop-logs.js";

/** The environment without whatever key, model or endpoint the machine running the tests has. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("TYPESAFE_") && k !== "SSL_CERT_FILE") env[k] = v;
  return { ...env, ...extra };
}

function learn(dir: string, out: string, extra: string[], env: Record<string, string> = {}): Promise<Ran> {
  return run(NODE, [STRETTO, "learn", "--sessions", dir, "--domain", "shop", "--out", out, ...extra], { env: cleanEnv(env), timeoutMs: 60_000 });
}

const name = (i: number) => `s${String(i).padStart(3, "0")}`;

/** `n` usual shop sessions; file `i` holds session `sessionOf(i)`. */
function shopFolder(n: number, fileOf: (i: number) => string = name, order?: number[], steps: (n: number) => ShopStep[] = usualSession): string {
  const dir = tempDir("stretto-arbiter-");
  const all = Array.from({ length: n }, (_, i) => ({ file: fileOf(i), session: name(i), steps: steps(i + 1) }));
  writeSessions(dir, order === undefined ? all : order.map((i) => all[i]!));
  return dir;
}

type Fold = { weights: number[]; rates: { sites: [string, [number, number, number]][]; agree: number; cover: number } };
const foldsOf = (path: string) => flowJson(path)["folds"] as unknown as Fold[];
const provenanceOf = (path: string) => flowJson(path)["provenance"] as { habit_episodes: number; arbiter_cases: number };

/** The flow file without the time it was written. */
function timeless(path: string): JsonObject {
  const json = flowJson(path);
  return { ...json, provenance: { ...(json["provenance"] as JsonObject), compiled_unix_ms: 0 } };
}

const CUSTOMER = "Hi, I am c999@example.com. Please close an order.";

// 60 sessions of 60 tasks: 18 held out, 42 train. Each held-out session decides after
// find_account, get_account and both get_order calls (close_order was never followed by a read).
const TASKS = 60;
const HELD = heldOutCount(TASKS);
const CASES = HELD * 4;

describe("stretto learn with an arbiter", function () {
  this.timeout(120_000);
  after(cleanTemp);

  let dir: string;
  let out: string;
  let learned: Ran;
  before(async () => {
    dir = shopFolder(TASKS);
    out = outIn(tempDir());
    learned = await learn(dir, out, ["--oracle", "mock"]);
  });

  it("says it learned the flow, as with --habit-only", () => {
    assert.equal(learned.code, 0, learned.stderr);
    assert.equal(learned.stderr, `stretto: learned the shop flow from 60 sessions (4 tools) and wrote ${out}\n`);
  });

  it("fits one arbiter on the held-out decisions, copied into 5 identical folds with finite weights", () => {
    assert.equal(HELD, 18);
    const folds = foldsOf(out);
    assert.equal(folds.length, 5);
    for (const f of folds) assert.deepEqual(f, folds[0]);
    const weights = folds[0]!.weights;
    assert.equal(weights.length, 5, "ln habit, ln one, ln two, respond, reliability");
    assert.ok(weights.every(Number.isFinite), String(weights));
    assert.ok(weights.some((w) => w !== 0), String(weights));
    const json = flowJson(out);
    assert.deepEqual([json["model"], json["predicates"], json["weighed"]], ["jev-latest", [], []]);
    assert.deepEqual(provenanceOf(out).arbiter_cases, CASES);
    assert.equal(provenanceOf(out).habit_episodes, TASKS - HELD, "the habit learns from the training tasks");
  });

  it("rates the mock model per site: it picks the lookup (sorted before respond), so it misses only the hand-back before the write", () => {
    const { rates } = foldsOf(out)[0]!;
    assert.deepEqual(rates.sites, [
      ["find_account", [HELD, HELD, HELD]],
      ["get_account", [HELD, HELD, HELD]],
      ["get_order", [2 * HELD, HELD, 2 * HELD]],
    ]);
    assert.equal(rates.agree, 0.75);
    assert.equal(rates.cover, 1);
  });

  it("serves: the arbiter, asking the mock model, looks up the new customer's account", async () => {
    const flow = flowAt(out);
    const ep = liveEpisode(CUSTOMER, [["find_account", { email: "c999@example.com" }, "acct_999"]]);
    const bind = explainingBinderFor(flow, ep);
    const next = await nextExplored({
      flow,
      at: decisionAt(ep),
      taskId: ep.id,
      decider: "arbiter",
      threshold: 0.3,
      oracle: new MockOracle(),
      bind: (tool) => {
        const b = bind(tool);
        return b.ok ? { ok: true, arguments: b.args, chance: b.chance } : b;
      },
    });
    assert.deepEqual(next.proposal, { action: "lookup", tool: "get_account", arguments: { account_id: "acct_999" } });
    assert.notEqual(next.key, null);
  });

  it("splits the same way whatever the files are called and the order they were written in", async () => {
    const order = Array.from({ length: TASKS }, (_, i) => (i * 37) % TASKS);
    const other = shopFolder(TASKS, (i) => `renamed-${(i * 7919) % 1000}-${i}`, order);
    const again = outIn(tempDir());
    const r = await learn(other, again, ["--oracle", "mock"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(timeless(again), timeless(out));
  });

  it("names the model TYPESAFE_DEFAULT_MODEL says", async () => {
    const other = outIn(tempDir());
    const r = await learn(dir, other, ["--oracle", "mock"], { TYPESAFE_DEFAULT_MODEL: "jev-2" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(flowJson(other)["model"], "jev-2");
  });

  it("--refit-habit learns the habit again from every successful session, keeping the arbiter", async () => {
    const refit = outIn(tempDir());
    const r = await learn(dir, refit, ["--oracle", "mock", "--refit-habit"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(provenanceOf(refit), { ...provenanceOf(refit), habit_episodes: TASKS, arbiter_cases: CASES });
    assert.deepEqual(foldsOf(refit), foldsOf(out));
    // Only successful sessions count: a rewards file failing two leaves 58.
    const rewards = join(tempDir(), "rewards.json");
    writeFileSync(rewards, JSON.stringify({ [name(0)]: 0, [name(1)]: 0.5 }));
    const some = outIn(tempDir());
    const r2 = await learn(dir, some, ["--oracle", "mock", "--refit-habit", "--rewards", rewards]);
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(provenanceOf(some).habit_episodes, TASKS - 2);
  });

  it("--arbiter-from takes the arbiter of an arbiter file or of another flow, and asks no one", async () => {
    const file = join(tempDir(), "shop.arbiter.json");
    writeFileSync(file, JSON.stringify(arbiterFileOf(flowAt(out))));
    for (const from of [file, out]) {
      const taken = outIn(tempDir());
      // --oracle replay with an empty cache would fail at the first question: none is asked.
      const r = await learn(dir, taken, ["--arbiter-from", from, "--oracle", "replay", "--oracle-cache", tempDir()]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(foldsOf(taken), foldsOf(out));
      assert.equal(flowJson(taken)["model"], "jev-latest");
      assert.deepEqual(provenanceOf(taken), { ...provenanceOf(taken), habit_episodes: TASKS, arbiter_cases: CASES });
    }
  });

  it("--arbiter-from says why a file gives no arbiter", async () => {
    const d = tempDir();
    const habitOnly = join(d, "habit.flow.json");
    assert.equal((await learn(dir, habitOnly, ["--habit-only"])).code, 0);
    const v2 = join(d, "v2.arbiter.json");
    writeFileSync(v2, JSON.stringify({ ...arbiterFileOf(flowAt(out)), stretto_arbiter: 2 }));
    const noFolds = join(d, "empty.arbiter.json");
    writeFileSync(noFolds, JSON.stringify({ ...arbiterFileOf(flowAt(out)), folds: [] }));
    const badWeights = join(d, "bad.arbiter.json");
    writeFileSync(badWeights, JSON.stringify({ ...arbiterFileOf(flowAt(out)), folds: [{ weights: ["x"], rates: { sites: [], agree: 0, cover: 0 } }] }));
    const other = join(d, "other.json");
    writeFileSync(other, JSON.stringify({ hello: 1 }));
    const cases: [string, string][] = [
      [habitOnly, `stretto: ${habitOnly} has no arbiter to take: it was learned without a System-One model\n`],
      [v2, `stretto: ${v2}: arbiter format 2 is not supported (this build reads 1)\n`],
      [noFolds, `stretto: ${noFolds} is not a stretto arbiter: invalid value at /folds: must NOT have fewer than 1 items\n`],
      [badWeights, `stretto: ${badWeights} is not a stretto arbiter: invalid value at /folds/0/weights/0: must be number\n`],
      [other, `stretto: ${other} is neither an arbiter file ("stretto_arbiter") nor a flow ("stretto_flow")\n`],
      [join(d, "missing.json"), `stretto: reading ${join(d, "missing.json")}: No such file or directory (os error 2)\n`],
    ];
    for (const [from, said] of cases) {
      const r = await learn(dir, join(d, "out.json"), ["--arbiter-from", from]);
      assert.equal(r.code, 1, from);
      assert.equal(r.stderr, said);
    }
  });

  it("says a single task cannot be split (exit 1)", async () => {
    const one = shopFolder(1);
    const r = await learn(one, outIn(tempDir()), ["--oracle", "mock"]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `stretto: ${tooFew(1, 1)}\n`);
    assert.equal(r.stderr, "stretto: 1 episodes of 1 tasks are too few to split into training and held-out tasks\n");
  });

  it("says so when the held-out sessions hold no decision to fit on (exit 1)", async () => {
    // Sessions that only close an order: no read ever follows a call, so no site offers a lookup.
    const closing = (n: number): ShopStep[] => [
      { kind: "user", text: `Close ord_${n}a.` },
      { kind: "call", tool: "close_order", args: { order_id: `ord_${n}a`, reason: "done" } },
      { kind: "reply", text: "Closed." },
    ];
    const r = await learn(shopFolder(10, name, undefined, closing), outIn(tempDir()), ["--oracle", "mock"]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `stretto: ${noDecisions(heldOutCount(10))}\n`);
  });

  it("fails clearly with --oracle replay and an empty cache (exit 1), writing nothing", async () => {
    const cache = tempDir();
    const d = tempDir();
    const r = await learn(dir, join(d, "f.json"), ["--oracle", "replay", "--oracle-cache", cache]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^stretto: asking the System-One model about the decision after [a-z_]+ in session s\d{3}: replay cache miss for request [0-9a-f]{64}\n$/);
    assert.deepEqual(readdirSync(d), []);
  });

  it("takes --habit-only with no arbiter option, and --oracle only as jev, replay or mock (exit 2)", async () => {
    const r = await learn(dir, outIn(tempDir()), ["--habit-only", "--oracle", "mock"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--habit-only learns no arbiter, so it takes no --oracle/);
    const r2 = await learn(dir, outIn(tempDir()), ["--oracle", "gpt"]);
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /--oracle is jev, replay or mock, not gpt/);
  });

  describe("asking Jev (the fake, on loopback)", () => {
    const jev = new FakeJev();
    let base: string;
    before(async () => {
      base = await jev.start();
    });
    after(() => jev.stop());

    it("asks one question per held-out decision with the flow's model, caches every answer, and replays them offline", async () => {
      jev.favour = ["get_account", "get_order"];
      const cache = tempDir();
      const viaJev = outIn(tempDir());
      const env = { TYPESAFE_BASE_URL: base, TYPESAFE_API_KEY: "test-key" };
      const r = await learn(dir, viaJev, ["--oracle", "jev", "--oracle-cache", cache], env);
      assert.equal(r.code, 0, r.stderr);
      const bodies = jev.bodies() as { model: string; questions: Record<string, unknown> }[];
      assert.equal(bodies.length, CASES);
      assert.ok(bodies.every((b) => b.model === "jev-latest" && "next" in b.questions && "go_on" in b.questions));
      assert.equal(jev.received[0]!.headers["authorization"], "Bearer test-key");
      const cached = readdirSync(cache, { recursive: true }).filter((f) => String(f).endsWith(".json"));
      assert.ok(cached.length > 0 && cached.length <= CASES);
      assert.equal(provenanceOf(viaJev).arbiter_cases, CASES);
      // The fake backs every lookup, so after the second order (before the write) it is wrong.
      assert.deepEqual(foldsOf(viaJev)[0]!.rates.agree, 0.75);
      assert.notEqual(FAKE_MODEL, flowJson(viaJev)["model"], "the flow names the model asked, not the one that answered");

      const asked = jev.received.length;
      const replayed = outIn(tempDir());
      const r2 = await learn(dir, replayed, ["--oracle", "replay", "--oracle-cache", cache]);
      assert.equal(r2.code, 0, r2.stderr);
      assert.equal(jev.received.length, asked, "replay asks no one");
      assert.deepEqual(timeless(replayed), timeless(viaJev));
    });

    it("fails on an answer Jev refuses, naming the status", async () => {
      jev.script({ status: 400, body: "bad" });
      const r = await learn(dir, outIn(tempDir()), ["--oracle", "jev", "--oracle-cache", tempDir()], { TYPESAFE_BASE_URL: base, TYPESAFE_API_KEY: "k" });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /asking the System-One model about the decision after .* TypeSafe returned 400/);
    });
  });
});
